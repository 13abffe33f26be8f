internal import CGit2
import Foundation

/// A file a commit changed: its blob before (nil when added) and after (nil when removed).
public struct ChangedFile: Sendable, Equatable {
  /// Path from the repository root.
  public var path: String
  /// The blob in the first parent.
  public var old: ObjectID?
  /// The blob in the commit.
  public var new: ObjectID?
}

extension Repository {
  /// The paths a commit changed against its first parent (all its files for a root commit).
  public func changedPaths(_ id: ObjectID) throws(GitError) -> [String] {
    try ChangeWalker(self).changes(in: try commitInfo(id)).map(\.path)
  }

  /// The files a commit changed against its first parent, sorted by path, with their blob ids.
  public func changedFiles(_ id: ObjectID) throws(GitError) -> [ChangedFile] {
    try ChangeWalker(self).changes(in: try commitInfo(id))
  }

  /// The bytes of a blob.
  public func blob(_ id: ObjectID) throws(GitError) -> [UInt8] {
    var oid = id.oid
    var blob: OpaquePointer?
    try Check.rc(git_blob_lookup(&blob, raw, &oid), "read blob \(id.short)")
    defer { git_blob_free(blob) }
    let size = Int(git_blob_rawsize(blob))
    guard size > 0, let content = git_blob_rawcontent(blob) else { return [] }
    return Array(UnsafeRawBufferPointer(start: content, count: size))
  }
}

/// Finds what commits changed, one after another. Walking a history oldest first, a commit's
/// parent trees are mostly trees the walker has just read: it keeps the last tree it read at each
/// path and reuses it when the id matches.
// NB: reads raw trees through an ObjectReader (libgit2 re-applied whole delta chains for every
// tree), compares both trees' sorted entries side by side and descends only where ids differ.
// libgit2's tree diff walked all 40,000 entries of both trees for every commit, and hashing
// entry names cost as much again.
public final class ChangeWalker {
  /// Where the walker reads objects; also for the blobs of the changes it finds.
  public let reader: ObjectReader
  /// The last tree read at each folder path ("" for the root).
  private var latest: [String: (id: ObjectID, tree: [UInt8])] = [:]
  /// The last commit read and its root tree.
  private var lastCommit: (id: ObjectID, tree: ObjectID)?

  /// A walker over `repository`, with its own reader.
  public convenience init(_ repository: Repository) { self.init(ObjectReader(repository)) }

  /// A walker reading through `reader`.
  public init(_ reader: ObjectReader) { self.reader = reader }

  /// The files `commit` changed against its first parent, sorted by path.
  public func changes(in commit: Repository.CommitInfo) throws(GitError) -> [ChangedFile] {
    let old = try commit.parents.first.map { p throws(GitError) in try tree(try rootTree(p), at: "")
    }
    let new = try tree(try rootTree(commit.id), at: "")
    var out: [ChangedFile] = []
    try compare(old, new, prefix: "", into: &out)
    return out.sorted { $0.path < $1.path }
  }

  private func rootTree(_ commit: ObjectID) throws(GitError) -> ObjectID {
    if let last = lastCommit, last.id == commit { return last.tree }
    let object = try reader.read(commit)
    // NB: a commit starts with "tree <40 hex digits>\n".
    let prefix = Array("tree ".utf8)
    guard object.kind == .commit, object.bytes.count >= 45,
      object.bytes[..<5].elementsEqual(prefix),
      let tree = ObjectID(hex: String(decoding: object.bytes[5..<45], as: UTF8.self))
    else { throw GitError.damaged("commit \(commit.short) names no tree") }
    lastCommit = (commit, tree)
    return tree
  }

  /// The raw tree `id` at folder `path`, reused when it is the last one read there.
  private func tree(_ id: ObjectID, at path: String) throws(GitError) -> [UInt8] {
    if let last = latest[path], last.id == id { return last.tree }
    let object = try reader.read(id)
    guard object.kind == .tree else { throw GitError.damaged("\(id.short) is not a tree") }
    latest[path] = (id, object.bytes)
    return object.bytes
  }

  private func compare(
    _ a: [UInt8]?, _ b: [UInt8]?, prefix: String, into out: inout [ChangedFile]
  ) throws(GitError) {
    let a = a ?? []
    let b = b ?? []
    // Collected first: descending reads trees, which must not happen while the buffers are open.
    var differing:
      [(path: String, x: RawTreeEntry?, y: RawTreeEntry?, xID: ObjectID?, yID: ObjectID?)] = []
    try a.withUnsafeBufferPointer { (a) throws(GitError) in
      try b.withUnsafeBufferPointer { (b) throws(GitError) in
        // Only the entries between the bytes both trees start with and the bytes they end
        // with can differ: a folder of a thousand meetings mostly changes in one entry.
        var i = RawTreeEntry.start(ofEntryAt: RawTreeEntry.commonPrefix(a, b), in: a)
        var j = i
        let suffix = RawTreeEntry.commonSuffix(a, b, from: i)
        while i < a.count || j < b.count {
          // Both at an entry start with the same bytes to the end: the rest is the same.
          if a.count - i == b.count - j && a.count - i <= suffix { break }
          var x = i < a.count ? try RawTreeEntry(a, at: i) : nil
          var y = j < b.count ? try RawTreeEntry(b, at: j) : nil
          if let ex = x, let ey = y {
            let c = RawTreeEntry.order(ex, in: a, ey, in: b)
            if c < 0 { y = nil } else if c > 0 { x = nil }
          }
          if let x { i = x.end }
          if let y { j = y.end }
          if let x, let y, x.kind == y.kind,
            memcmp(a.baseAddress! + x.nameEnd + 1, b.baseAddress! + y.nameEnd + 1, 20) == 0
          {
            continue
          }
          let name = x.map { $0.name(in: a) } ?? y!.name(in: b)
          differing.append((prefix + name, x, y, x.map { $0.id(in: a) }, y.map { $0.id(in: b) }))
        }
      }
    }
    for (path, x, y, xID, yID) in differing {
      let left = try x?.kind == .tree ? tree(xID!, at: path) : nil
      let right = try y?.kind == .tree ? tree(yID!, at: path) : nil
      if left != nil || right != nil { try compare(left, right, prefix: path + "/", into: &out) }
      let old = x?.kind == .blob ? xID : nil
      let new = y?.kind == .blob ? yID : nil
      if old != nil || new != nil { out.append(ChangedFile(path: path, old: old, new: new)) }
    }
  }
}

/// One entry of a raw tree object: `<octal mode> <name>\0<20-byte id>`, positions in the tree.
struct RawTreeEntry {
  enum Kind { case tree, blob, submodule }
  var kind: Kind
  var nameStart: Int
  /// The NUL after the name; the id follows it.
  var nameEnd: Int
  /// Where the next entry starts.
  var end: Int { nameEnd + 21 }

  /// Reads the entry starting at `start`.
  init(_ tree: UnsafeBufferPointer<UInt8>, at start: Int) throws(GitError) {
    var i = start
    while i < tree.count && tree[i] != 0x20 { i += 1 }
    let modeLength = i - start
    nameStart = i + 1
    var end = nameStart
    while end < tree.count && tree[end] != 0 { end += 1 }
    guard modeLength > 0, end > nameStart, end + 21 <= tree.count else {
      throw GitError.damaged("a tree entry is cut short")
    }
    nameEnd = end
    // NB: folders are "40000", submodules "160000", files "100644"/"100755", links "120000".
    if modeLength == 5 && tree[start] == 0x34 {
      kind = .tree
    } else if modeLength == 6 && tree[start] == 0x31 && tree[start + 1] == 0x36 {
      kind = .submodule
    } else {
      kind = .blob
    }
  }

  func name(in tree: UnsafeBufferPointer<UInt8>) -> String {
    String(decoding: UnsafeBufferPointer(rebasing: tree[nameStart..<nameEnd]), as: UTF8.self)
  }

  func id(in tree: UnsafeBufferPointer<UInt8>) -> ObjectID {
    ObjectID(bytes: Array(tree[(nameEnd + 1)..<(nameEnd + 21)]))
  }

  /// The start of the entry that holds byte `position` (or starts there), hopping from entry
  /// to entry from the beginning; `tree.count` when `position` is at or past the end.
  static func start(ofEntryAt position: Int, in tree: UnsafeBufferPointer<UInt8>) -> Int {
    guard let base = tree.baseAddress else { return 0 }
    var i = 0
    while i < tree.count {
      // NB: modes and names hold no NUL; the 20-byte id follows the name's.
      guard let nul = memchr(base + i, 0, tree.count - i) else { return i }
      let next = UnsafePointer<UInt8>(nul.assumingMemoryBound(to: UInt8.self)) - base + 21
      if next > position || next > tree.count { return i }
      i = next
    }
    return i
  }

  /// How many bytes `a` and `b` start with in common.
  static func commonPrefix(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int
  {
    let n = min(a.count, b.count)
    guard n > 0 else { return 0 }
    var i = 0
    while i + 256 <= n && memcmp(a.baseAddress! + i, b.baseAddress! + i, 256) == 0 { i += 256 }
    while i < n && a[i] == b[i] { i += 1 }
    return i
  }

  /// How many bytes `a` and `b` end with in common, not counting their first `start` bytes.
  static func commonSuffix(
    _ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>, from start: Int
  ) -> Int {
    let n = min(a.count, b.count) - start
    guard n > 0 else { return 0 }
    var k = 0
    while k + 256 <= n
      && memcmp(a.baseAddress! + a.count - k - 256, b.baseAddress! + b.count - k - 256, 256) == 0
    {
      k += 256
    }
    while k < n && a[a.count - k - 1] == b[b.count - k - 1] { k += 1 }
    return k
  }

  /// Git's tree order: names byte by byte, a folder's name as if it ended in '/'.
  static func order(
    _ x: RawTreeEntry, in a: UnsafeBufferPointer<UInt8>, _ y: RawTreeEntry,
    in b: UnsafeBufferPointer<UInt8>
  ) -> Int32 {
    let (lx, ly) = (x.nameEnd - x.nameStart, y.nameEnd - y.nameStart)
    let common = min(lx, ly)
    let c = memcmp(a.baseAddress! + x.nameStart, b.baseAddress! + y.nameStart, common)
    if c != 0 { return c }
    let cx: Int32 = lx > common ? Int32(a[x.nameStart + common]) : x.kind == .tree ? 47 : 0
    let cy: Int32 = ly > common ? Int32(b[y.nameStart + common]) : y.kind == .tree ? 47 : 0
    return cx - cy
  }
}
