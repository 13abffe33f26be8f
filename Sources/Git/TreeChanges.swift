import Base
internal import CGit2
import FoundationEssentials
import Glibc

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

  /// The files `commit` changed against its first parent at or under `paths` (folders or
  /// files, from the root), sorted by path: only the trees on the way to each path are read,
  /// as `git log -- PATH` prunes its walk.
  public func changes(in commit: ObjectID, parent: ObjectID?, limitedTo paths: [String])
    throws(GitError) -> [ChangedFile]
  {
    let newRoot = try rootTree(commit)
    let oldRoot = try parent.map { p throws(GitError) in try rootTree(p) }
    if newRoot == oldRoot { return [] }
    var out: [ChangedFile] = []
    for path in paths {
      let x = try oldRoot.flatMap { r throws(GitError) in try entry(at: path, under: r) }
      let y = try entry(at: path, under: newRoot)
      if x?.id == y?.id && x?.isTree == y?.isTree { continue }
      let left = try x.flatMap { e throws(GitError) in e.isTree ? try tree(e.id, at: path) : nil }
      let right = try y.flatMap { e throws(GitError) in e.isTree ? try tree(e.id, at: path) : nil }
      if left != nil || right != nil { try compare(left, right, prefix: path + "/", into: &out) }
      let old = x.flatMap { $0.isTree ? nil : $0.id }
      let new = y.flatMap { $0.isTree ? nil : $0.id }
      if old != nil || new != nil { out.append(ChangedFile(path: path, old: old, new: new)) }
    }
    return out.sorted { $0.path < $1.path }
  }

  /// The first parent of `commit` (nil for a root commit) and whether it has others, read raw.
  public func parents(of commit: ObjectID) throws(GitError) -> [ObjectID] {
    let object = try reader.read(commit)
    guard object.kind == .commit else { throw GitError.damaged("\(commit.short) is not a commit") }
    var out: [ObjectID] = []
    // NB: "tree <hex>\n" then one "parent <hex>\n" line per parent.
    var i = 46
    let prefix = Array("parent ".utf8)
    let bytes = object.bytes
    while i + 48 <= bytes.count, bytes[i..<i + 7].elementsEqual(prefix) {
      guard let id = ObjectID(hex: String(decoding: bytes[(i + 7)..<(i + 47)], as: UTF8.self))
      else {
        throw GitError.damaged("commit \(commit.short) names a parent that is not an id")
      }
      out.append(id)
      i += 48
    }
    return out
  }

  /// The entry at `path` (components split by "/") under root tree `root`, or nil. The last
  /// two answers at each folder are kept: walking a history, a commit's trees are mostly the
  /// ones its child's parent had.
  private func entry(at path: String, under root: ObjectID) throws(GitError)
    -> (id: ObjectID, isTree: Bool)?
  {
    let steps = try steps(of: path)
    var current = root
    for (n, step) in steps.enumerated() {
      let found: (id: ObjectID, isTree: Bool)?
      if let hit = lookups[step.key]?.first(where: { $0.tree == current }) {
        found = hit.found
      } else {
        found = try Self.find(step.name, in: try tree(current, at: step.folder))
        var kept = lookups[step.key] ?? []
        if kept.count == 2 { kept.removeFirst() }
        kept.append((current, found))
        lookups[step.key] = kept
      }
      guard let found else { return nil }
      if n == steps.count - 1 { return found }
      guard found.isTree else { return nil }
      current = found.id
    }
    return (root, true)
  }

  /// The steps down to `path`: each component's name, the folder it is in, and its own path.
  private func steps(of path: String) throws(GitError) -> [(
    name: [UInt8], folder: String, key: String
  )] {
    if let known = stepCache[path] { return known }
    var out: [(name: [UInt8], folder: String, key: String)] = []
    var folder = ""
    for part in path.split(separator: "/") {
      let key = folder.isEmpty ? String(part) : folder + "/" + part
      out.append((Array(part.utf8), folder, key))
      folder = key
    }
    stepCache[path] = out
    return out
  }

  private var stepCache: [String: [(name: [UInt8], folder: String, key: String)]] = [:]
  private var lookups: [String: [(tree: ObjectID, found: (id: ObjectID, isTree: Bool)?)]] = [:]

  /// The entry named `name` in raw tree `bytes`.
  static func find(_ name: [UInt8], in bytes: [UInt8]) throws(GitError) -> (
    id: ObjectID, isTree: Bool
  )? {
    var result: (ObjectID, Bool)?
    var failure: GitError?
    bytes.withUnsafeBufferPointer { tree in
      var i = 0
      while i < tree.count {
        do throws(GitError) {
          let e = try RawTreeEntry(tree, at: i)
          if e.nameEnd - e.nameStart == name.count,
            memcmp(tree.baseAddress! + e.nameStart, name, name.count) == 0
          {
            result = (e.id(in: tree), e.kind == .tree)
            return
          }
          i = e.end
        } catch {
          failure = error
          return
        }
      }
    }
    if let failure { throw failure }
    return result.map { (id: $0.0, isTree: $0.1) }
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
