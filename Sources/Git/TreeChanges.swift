internal import CGit2

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
// NB: compares both trees' sorted entries side by side and descends only where ids differ.
// libgit2's tree diff walked all 40,000 entries of both trees for every commit; hashing entry
// names cost as much again; and libgit2's object cache, filled by every tree of the history,
// evicts at random, so most parent trees were inflated from their delta chains a second time.
public final class ChangeWalker {
  private let repository: Repository
  /// The last tree read at each folder path ("" for the root).
  private var latest: [String: (id: ObjectID, tree: OpaquePointer)] = [:]
  /// Trees replaced in `latest` while a commit is compared, freed when it is done.
  private var replaced: [OpaquePointer] = []

  /// A walker over `repository`.
  public init(_ repository: Repository) { self.repository = repository }

  deinit {
    for entry in latest.values { git_tree_free(entry.tree) }
  }

  /// The files `commit` changed against its first parent, sorted by path.
  public func changes(in commit: Repository.CommitInfo) throws(GitError) -> [ChangedFile] {
    defer {
      for tree in replaced { git_tree_free(tree) }
      replaced = []
    }
    let old = try commit.parents.first.map { p throws(GitError) in try tree(try rootTree(p), at: "")
    }
    let new = try tree(try rootTree(commit.id), at: "")
    var out: [ChangedFile] = []
    try compare(old, new, prefix: "", into: &out)
    return out.sorted { $0.path < $1.path }
  }

  private func rootTree(_ commit: ObjectID) throws(GitError) -> ObjectID {
    var oid = commit.oid
    var object: OpaquePointer?
    try Check.rc(git_commit_lookup(&object, repository.raw, &oid), "read commit \(commit.short)")
    defer { git_commit_free(object) }
    return ObjectID(git_commit_tree_id(object).pointee)
  }

  /// The tree `id` at folder `path`, reused when it is the last one read there. The walker owns
  /// every tree it returns.
  private func tree(_ id: ObjectID, at path: String) throws(GitError) -> OpaquePointer {
    if let last = latest[path], last.id == id { return last.tree }
    var oid = id.oid
    var tree: OpaquePointer?
    try Check.rc(git_tree_lookup(&tree, repository.raw, &oid), "read tree \(id.short)")
    if let last = latest.updateValue((id, tree!), forKey: path) { replaced.append(last.tree) }
    return tree!
  }

  private func subtree(_ entry: OpaquePointer?, at path: String) throws(GitError) -> OpaquePointer?
  {
    guard let entry, git_tree_entry_type(entry) == GIT_OBJECT_TREE else { return nil }
    return try tree(ObjectID(git_tree_entry_id(entry).pointee), at: path)
  }

  /// Git's tree order: names byte by byte, a tree's name as if it ended in '/'.
  private static func order(_ a: OpaquePointer, _ b: OpaquePointer) -> Int32 {
    var x = git_tree_entry_name(a)!
    var y = git_tree_entry_name(b)!
    while x.pointee != 0 && x.pointee == y.pointee {
      x += 1
      y += 1
    }
    func next(_ p: UnsafePointer<CChar>, _ e: OpaquePointer) -> Int32 {
      if p.pointee != 0 { return Int32(UInt8(bitPattern: p.pointee)) }
      return git_tree_entry_type(e) == GIT_OBJECT_TREE ? 47 : 0  // '/'
    }
    return next(x, a) - next(y, b)
  }

  private static func blob(_ entry: OpaquePointer?) -> ObjectID? {
    guard let entry, git_tree_entry_type(entry) == GIT_OBJECT_BLOB else { return nil }
    return ObjectID(git_tree_entry_id(entry).pointee)
  }

  private func compare(
    _ a: OpaquePointer?, _ b: OpaquePointer?, prefix: String, into out: inout [ChangedFile]
  ) throws(GitError) {
    let countA = a.map { git_tree_entrycount($0) } ?? 0
    let countB = b.map { git_tree_entrycount($0) } ?? 0
    var i = 0
    var j = 0
    while i < countA || j < countB {
      var x = i < countA ? git_tree_entry_byindex(a, i) : nil
      var y = j < countB ? git_tree_entry_byindex(b, j) : nil
      if let ex = x, let ey = y {
        let c = Self.order(ex, ey)
        if c < 0 { y = nil } else if c > 0 { x = nil }
      }
      if x != nil { i += 1 }
      if y != nil { j += 1 }
      if let x, let y, git_tree_entry_type(x) == git_tree_entry_type(y),
        git_oid_equal(git_tree_entry_id(x), git_tree_entry_id(y)) != 0
      {
        continue
      }
      let path = prefix + String(cString: git_tree_entry_name((x ?? y)!))
      let left = try subtree(x, at: path)
      let right = try subtree(y, at: path)
      if left != nil || right != nil { try compare(left, right, prefix: path + "/", into: &out) }
      let (old, new) = (Self.blob(x), Self.blob(y))
      if old != nil || new != nil { out.append(ChangedFile(path: path, old: old, new: new)) }
    }
  }
}
