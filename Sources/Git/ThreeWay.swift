import Base
internal import CGit2
import FoundationEssentials
import Glibc

/// One file as three versions: the common ancestor's, ours and theirs (nil where absent).
public struct ThreeWayFile: Sendable, Equatable {
  /// The path from the repository root.
  public var path: String
  /// The ancestor's blob.
  public var base: ObjectID?
  /// Our blob.
  public var ours: ObjectID?
  /// Their blob.
  public var theirs: ObjectID?
  /// git's file modes of the three sides (0o100644 a file, 0o100755 an executable, 0o120000 a
  /// symbolic link); 0 where the side has no file.
  public var baseMode: UInt32 = 0
  public var oursMode: UInt32 = 0
  public var theirsMode: UInt32 = 0

  public init(
    path: String, base: ObjectID?, ours: ObjectID?, theirs: ObjectID?, baseMode: UInt32 = 0,
    oursMode: UInt32 = 0, theirsMode: UInt32 = 0
  ) {
    (self.path, self.base, self.ours, self.theirs) = (path, base, ours, theirs)
    (self.baseMode, self.oursMode, self.theirsMode) = (baseMode, oursMode, theirsMode)
  }
}

/// git's mode for a plain file.
public let regularFileMode: UInt32 = 0o100644

extension Repository {
  /// Keeps trees up to `bytes` in libgit2's object cache for the rest of the process (its
  /// default keeps none above 4 KiB). A merge re-reads the same big folders (a thousand
  /// meetings) for every commit it looks at; the log's walk reads each tree once and is slower
  /// with them cached, so only sync turns this on.
  public static func cacheTrees(upTo bytes: Int) {
    _ = Check.initialized
    _ = dinger_git_cache_trees_up_to(bytes)
  }

  /// The best common ancestor of two commits, or nil when their histories are unrelated.
  public func mergeBase(_ a: ObjectID, _ b: ObjectID) throws(GitError) -> ObjectID? {
    var out = git_oid()
    var x = a.oid
    var y = b.oid
    let rc = git_merge_base(&out, try raw, &x, &y)
    if rc == GIT_ENOTFOUND.rawValue { return nil }
    try Check.rc(rc, "find the common ancestor of \(a.short) and \(b.short)")
    return ObjectID(out)
  }

  /// The root tree id of a commit.
  public func treeID(of commit: ObjectID) throws(GitError) -> ObjectID {
    var oid = commit.oid
    var object: OpaquePointer?
    try Check.rc(git_commit_lookup(&object, raw, &oid), "read commit \(commit.short)")
    defer { git_commit_free(object) }
    return ObjectID(git_commit_tree_id(object).pointee)
  }

  /// The files a merge of `theirs` into `ours` must look at: those theirs changed since `base`
  /// and ours does not already hold in the same version. Folders theirs did not touch (or that
  /// ours already has exactly) are skipped whole, so the cost follows what theirs changed.
  public func filesToMerge(base: ObjectID?, ours: ObjectID, theirs: ObjectID) throws(GitError)
    -> [ThreeWayFile]
  {
    let b = try base.map { c throws(GitError) in try treeID(of: c) }
    var out: [ThreeWayFile] = []
    try walk(b, try treeID(of: ours), try treeID(of: theirs), prefix: "", into: &out)
    return out.sorted { $0.path < $1.path }
  }

  private struct Slot {
    var tree: ObjectID?
    var blob: ObjectID?
    var mode: UInt32 = 0
  }

  private func walk(
    _ base: ObjectID?, _ ours: ObjectID?, _ theirs: ObjectID?, prefix: String,
    into out: inout [ThreeWayFile]
  ) throws(GitError) {
    if theirs == base || theirs == ours { return }
    let trees = try [base, ours, theirs].map { id throws(GitError) in try id.map(lookupTree) }
    defer { trees.forEach { if let t = $0 { git_tree_free(t) } } }
    // Names theirs has or the ancestor had: anything else only ours added.
    var names: [String] = []
    var seen: Set<String> = []
    for tree in [trees[2], trees[0]] {
      guard let tree else { continue }
      for i in 0..<git_tree_entrycount(tree) {
        let name = String(cString: git_tree_entry_name(git_tree_entry_byindex(tree, i)))
        if seen.insert(name).inserted { names.append(name) }
      }
    }
    for name in names {
      let (b, o, t) = (slot(trees[0], name), slot(trees[1], name), slot(trees[2], name))
      if t.tree != nil || b.tree != nil {
        try walk(b.tree, o.tree, t.tree, prefix: prefix + name + "/", into: &out)
      }
      // NB: a file's mode counts as its content does (a teammate's executable bit is a change).
      if (t.blob, t.mode) != (b.blob, b.mode) && (t.blob, t.mode) != (o.blob, o.mode) {
        out.append(
          ThreeWayFile(
            path: prefix + name, base: b.blob, ours: o.blob, theirs: t.blob, baseMode: b.mode,
            oursMode: o.mode, theirsMode: t.mode))
      }
    }
  }

  private func lookupTree(_ id: ObjectID) throws(GitError) -> OpaquePointer {
    var oid = id.oid
    var tree: OpaquePointer?
    try Check.rc(git_tree_lookup(&tree, raw, &oid), "read tree \(id.short)")
    return tree!
  }

  private func slot(_ tree: OpaquePointer?, _ name: String) -> Slot {
    guard let tree, let entry = git_tree_entry_byname(tree, name) else { return Slot() }
    let id = ObjectID(git_tree_entry_id(entry).pointee)
    return git_tree_entry_type(entry) == GIT_OBJECT_TREE
      ? Slot(tree: id) : Slot(blob: id, mode: git_tree_entry_filemode(entry).rawValue)
  }

  /// True when `commit` is `ancestor` or has it in its history.
  public func contains(_ commit: ObjectID, ancestor: ObjectID) throws(GitError) -> Bool {
    if commit == ancestor { return true }
    var c = commit.oid
    var a = ancestor.oid
    return try Check.rc(git_graph_descendant_of(raw, &c, &a), "compare histories") == 1
  }
}

extension Repository {
  /// The blob id of the file at `path` in a commit, or nil when it has none.
  public func blobID(at path: String, in commit: ObjectID) throws(GitError) -> ObjectID? {
    try fileEntry(at: path, in: commit)?.blob
  }

  /// git's mode of the file at `path` in a commit (0o100644, 0o100755, 0o120000), or nil.
  public func fileMode(at path: String, in commit: ObjectID) throws(GitError) -> UInt32? {
    try fileEntry(at: path, in: commit)?.mode
  }

  /// The blob and mode of the file at `path` in a commit, nil when it has no file there.
  func fileEntry(at path: String, in commit: ObjectID) throws(GitError) -> (
    blob: ObjectID, mode: UInt32
  )? {
    let tree = try self.tree(of: commit)
    defer { git_tree_free(tree) }
    var entry: OpaquePointer?
    let rc = git_tree_entry_bypath(&entry, tree, path)
    if rc == GIT_ENOTFOUND.rawValue { return nil }
    try Check.rc(rc, "find \(path)")
    defer { git_tree_entry_free(entry) }
    guard git_tree_entry_type(entry) == GIT_OBJECT_BLOB else { return nil }
    return (ObjectID(git_tree_entry_id(entry).pointee), git_tree_entry_filemode(entry).rawValue)
  }

  /// The names in a folder of a commit (files and folders), empty when it has no such folder.
  public func names(in folder: String, of commit: ObjectID) throws(GitError) -> [String] {
    let root = try self.tree(of: commit)
    defer { git_tree_free(root) }
    var entry: OpaquePointer?
    let rc = git_tree_entry_bypath(&entry, root, folder)
    if rc == GIT_ENOTFOUND.rawValue { return [] }
    try Check.rc(rc, "find \(folder)")
    defer { git_tree_entry_free(entry) }
    guard git_tree_entry_type(entry) == GIT_OBJECT_TREE else { return [] }
    let tree = try lookupTree(ObjectID(git_tree_entry_id(entry).pointee))
    defer { git_tree_free(tree) }
    return (0..<git_tree_entrycount(tree)).map {
      String(cString: git_tree_entry_name(git_tree_entry_byindex(tree, $0)))
    }
  }

  /// The files that differ between two commits (`old` nil: every file of `new`), as
  /// three-way files whose `base` and `ours` are the old blob and `theirs` the new one.
  public func filesChanged(from old: ObjectID?, to new: ObjectID) throws(GitError) -> [ThreeWayFile]
  {
    let before = try old.map { c throws(GitError) in try treeID(of: c) }
    var out: [ThreeWayFile] = []
    try walk(before, before, try treeID(of: new), prefix: "", into: &out)
    return out.sorted { $0.path < $1.path }
  }

  /// For each path, the newest first-parent commit from `head` back to (not including) `stop`
  /// that changed it; `head` itself for paths none of those changed.
  public func lastChanges(of paths: [String], from head: ObjectID, stop: ObjectID?) throws(GitError)
    -> [String: ObjectID]
  {
    var out: [String: ObjectID] = [:]
    var pending = Set(paths)
    var cursor = head
    var steps = 0
    while !pending.isEmpty, cursor != stop, steps < 100_000 {
      steps += 1
      let info = try commitInfo(cursor)
      guard let parent = info.parents.first else {
        for path in pending where try blobID(at: path, in: cursor) != nil { out[path] = cursor }
        break
      }
      for path in pending where try blobID(at: path, in: cursor) != blobID(at: path, in: parent) {
        out[path] = cursor
      }
      pending.subtract(out.keys)
      cursor = parent
    }
    for path in paths where out[path] == nil { out[path] = head }
    return out
  }
}

extension Repository {
  /// Commits reachable from `heads` and not from `hidden`, newest first (parents after
  /// children), or `oldestFirst` (parents before children).
  public func commits(
    from heads: [ObjectID], hiding hidden: [ObjectID], oldestFirst: Bool = false,
    limit: Int = .max
  ) throws(GitError) -> [ObjectID] {
    var walk: OpaquePointer?
    try Check.rc(git_revwalk_new(&walk, raw), "walk history")
    defer { git_revwalk_free(walk) }
    try Check.rc(
      git_revwalk_sorting(
        walk,
        oldestFirst
          ? GIT_SORT_TOPOLOGICAL.rawValue | GIT_SORT_REVERSE.rawValue
          : GIT_SORT_TOPOLOGICAL.rawValue | GIT_SORT_TIME.rawValue), "walk history")
    for head in heads {
      var oid = head.oid
      try Check.rc(git_revwalk_push(walk, &oid), "walk history")
    }
    for id in hidden {
      var oid = id.oid
      try Check.rc(git_revwalk_hide(walk, &oid), "walk history")
    }
    var out: [ObjectID] = []
    var oid = git_oid()
    while out.count < limit, git_revwalk_next(&oid, walk) == 0 { out.append(ObjectID(oid)) }
    return out
  }
}
