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
