import Base
import FoundationEssentials
import Glibc

/// What a teammate's commits may hold that dinger must not merge or check out blindly: trees
/// whose entries are out of git's order or named twice (git fsck's `treeNotSorted` and
/// `duplicateEntries`: side-by-side tree walks would take files for deleted), and submodules
/// (gitlinks, mode 160000: a commit id, never a file's content).
public struct IncomingTreeProblem: Error, Sendable, CustomStringConvertible {
  /// The commit that brought it.
  public var commit: ObjectID
  /// The folder or path concerned ("" for the root).
  public var path: String
  /// What is wrong, in git fsck's words where git has some.
  public var problem: String
  /// True when found as a clone checked the commit out (nothing is merged then).
  public var cloning = false

  public var description: String {
    let place = path.isEmpty ? "its root folder" : "'\(path)'"
    if cloning {
      return
        "the remote's commit \(commit.short) has \(problem) at \(place), which no working tree can hold as committed (git clone writes one over the other); nothing was created. \(advice)"
    }
    return
      "commit \(commit.short) from the remote has \(problem) at \(place); dinger merges nothing until it is fixed, and nothing here changed. \(advice)"
  }

  var advice: String {
    if problem.hasPrefix("a submodule") {
      return
        "A data repository holds files only: ask whoever added it to remove it (git rm --cached \(path) && git commit), then sync again."
    }
    if problem.hasPrefix("a symbolic link") {
      return
        "Ask whoever committed it to put the folder back (git rm the link, git checkout the folder, commit), then sync again."
    }
    return
      "git fsck shows it too; the commit must be rewritten by whoever made it (git fsck --full names it)."
  }
}

extension Repository {
  /// Checks the trees of the commits reachable from `head` and not from `hidden` (what a fetch
  /// brought): each tree that differs from its first parent's, read raw, must list its entries
  /// in git's order, each name once, and hold no submodule. Throws the first problem found.
  public func checkIncomingTrees(from head: ObjectID, hiding hidden: [ObjectID]) throws {
    try checkIncomingTrees(try self.commits(from: [head], hiding: hidden, oldestFirst: true))
  }

  /// `checkIncomingTrees(from:hiding:)` of commits already listed, oldest first (a caller
  /// that has just walked the same history on another handle hands its list over).
  public func checkIncomingTrees(_ commits: [ObjectID]) throws {
    guard !commits.isEmpty else { return }
    let reader = ObjectReader(self)
    // NB: room made up front for a root, a folder and a subfolder per commit (growing the set
    // was a tenth of a 20,000-commit check).
    var seen = Set<ObjectID>(minimumCapacity: commits.count * 3)
    var scratch: [RawTreeEntry] = []
    // NB: the last version checked at each folder: the next is checked against it where it
    // differs (`checkChanged`); a version whose predecessor was not checked here (ours, or
    // met before under another name) is checked whole.
    var latest: [String: CheckedTree] = [:]
    func walk(_ tree: ObjectID, against old: ObjectID?, path: String, commit: ObjectID) throws {
      guard tree != old, seen.insert(tree).inserted else { return }
      let bytes = try reader.read(tree).bytes
      let previous = try old.map { try reader.read($0).bytes } ?? []
      let changed: [ChangedEntry]
      if let checked = latest[path], checked.id == old {
        let (starts, found) = try Self.checkChanged(
          bytes, against: previous, oldStarts: checked.starts, path: path, commit: commit)
        (changed, latest[path]) = (found, CheckedTree(id: tree, starts: starts))
      } else {
        try Self.checkOrder(bytes, path: path, commit: commit, scratch: &scratch)
        // NB: the entries `checkOrder` parsed are diffed, not parsed again.
        changed = try Self.changedEntries(bytes, parsed: scratch, against: previous)
        latest[path] = CheckedTree(id: tree, starts: Self.starts(of: scratch))
      }
      for (kind, id, before, entry) in changed {
        let name = bytes.withUnsafeBufferPointer { entry.name(in: $0) }
        let child = path.isEmpty ? name : path + "/" + name
        switch kind {
        case .tree: try walk(id, against: before, path: child, commit: commit)
        case .submodule:
          throw IncomingTreeProblem(
            commit: commit, path: child, problem: "a submodule (a gitlink to \(id.short))")
        case .blob: continue
        }
      }
    }
    // NB: each commit is read raw once for its tree and first parent (libgit2's full parse of
    // every commit, and of each parent again for its tree, was a fifth of this check).
    var trees = [ObjectID: ObjectID](minimumCapacity: commits.count)
    func treeAndParent(_ commit: ObjectID) throws -> (tree: ObjectID, parent: ObjectID?) {
      let object = try reader.read(commit)
      let bytes = object.bytes
      guard object.kind == .commit, bytes.count >= 46, bytes[0..<5].elementsEqual("tree ".utf8),
        let tree = ObjectID(hex: String(decoding: bytes[5..<45], as: UTF8.self))
      else { throw GitError.damaged("\(commit.short) is not a commit git can read") }
      guard bytes.count >= 94, bytes[46..<53].elementsEqual("parent ".utf8) else {
        return (tree, nil)
      }
      guard let parent = ObjectID(hex: String(decoding: bytes[53..<93], as: UTF8.self)) else {
        throw GitError.damaged("commit \(commit.short) names a parent that is not an id")
      }
      return (tree, parent)
    }
    for commit in commits {
      let (tree, parent) = try treeAndParent(commit)
      trees[commit] = tree
      let parentTree = try parent.map { p in try trees[p] ?? treeAndParent(p).tree }
      try walk(tree, against: parentTree, path: "", commit: commit)
    }
  }

  /// Checks every tree of `commit` as `checkIncomingTrees` does, for a clone about to check
  /// it out: a name twice (two files, or a file and a folder) failed half-way with a raw
  /// "File exists" or "Not a directory".
  public func checkTreesToCheckOut(_ commit: ObjectID) throws {
    let reader = ObjectReader(self)
    var seen = Set<ObjectID>()
    func walk(_ tree: ObjectID, path: String) throws {
      guard seen.insert(tree).inserted else { return }
      let bytes = try reader.read(tree).bytes
      do {
        try Self.checkOrder(bytes, path: path, commit: commit)
      } catch var problem as IncomingTreeProblem {
        problem.cloning = true
        throw problem
      }
      for (kind, id, _) in try Self.changedEntries(bytes, against: []) where kind == .tree {
        let name = Self.entryName(of: id, in: bytes) ?? "?"
        try walk(id, path: path.isEmpty ? name : path + "/" + name)
      }
    }
    try walk(try treeID(of: commit), path: "")
  }

  /// Throws when a raw tree's entries are out of order or a name comes twice.
  static func checkOrder(_ bytes: [UInt8], path: String, commit: ObjectID) throws {
    var scratch: [RawTreeEntry] = []
    try checkOrder(bytes, path: path, commit: commit, scratch: &scratch)
  }

  /// `checkOrder` with the list of entries seen kept in `scratch`, whose storage the caller
  /// hands from tree to tree (a catch-up checks tens of thousands of trees).
  static func checkOrder(
    _ bytes: [UInt8], path: String, commit: ObjectID, scratch entries: inout [RawTreeEntry]
  ) throws {
    var problem: String?
    entries.removeAll(keepingCapacity: true)
    try bytes.withUnsafeBufferPointer { (tree) throws(GitError) in
      var i = 0
      // NB: no hashing of names: in git's order a name twice is next to itself, except a
      // folder named like a file before it, which sorts as `name/` and so after entries named
      // `name` plus a byte below '/' (`name-2`, `name.txt`); those are walked back over.
      // NB: names are read through the unsafe view, not as slices of `bytes` (a retain and a
      // release each).
      while i < tree.count {
        let entry = try RawTreeEntry(tree, at: i)
        let name = UnsafeBufferPointer(rebasing: tree[entry.nameStart..<entry.nameEnd])
        if let bad = Self.badName(name) {
          problem = bad
          return
        }
        var twice = false
        if let previous = entries.last {
          let order = RawTreeEntry.order(previous, in: tree, entry, in: tree)
          if order > 0 {
            problem = "a tree whose entries are not in git's order (treeNotSorted)"
            return
          }
          twice = order == 0
        }
        if entry.kind == .tree, !twice {
          for other in entries.reversed() {
            let otherName = UnsafeBufferPointer(rebasing: tree[other.nameStart..<other.nameEnd])
            guard otherName.starts(with: name) else { break }
            if otherName.count == name.count {
              twice = true
              break
            }
            guard otherName[name.count] < UInt8(ascii: "/") else { break }
          }
        }
        if twice {
          problem =
            "two entries named '\(String(decoding: name, as: UTF8.self))' (duplicateEntries)"
          return
        }
        // NB: dinger's own folders must be folders: a link in their place (`.dinger` pointing
        // elsewhere) would make the clone no data repository, or send writes elsewhere. The
        // mode as git reads it: a zero-padded "0120000" is a link too (`make fuzz` found it
        // passing when the mode's text was compared).
        if entry.isLink {
          let full = (path.isEmpty ? "" : path + "/") + String(decoding: name, as: UTF8.self)
          if Self.dingersFolders.contains(full) || full.hasPrefix(".dinger/") {
            problem = "a symbolic link where dinger keeps its own folder ('\(full)')"
            return
          }
        }
        entries.append(entry)
        i = entry.end
      }
    }
    if let problem { throw IncomingTreeProblem(commit: commit, path: path, problem: problem) }
  }

  /// What is wrong with an entry's name that no folder can hold, in git fsck's words: one
  /// with a '/' (`a/b` beside folder `a` is two names for one file, and breaks git's order),
  /// empty, `.` or `..`.
  static func badName(_ name: UnsafeBufferPointer<UInt8>) -> String? {
    let shown = String(decoding: name, as: UTF8.self)
    if name.contains(UInt8(ascii: "/")) {
      return "an entry named '\(shown)', with a '/' no folder can hold (fullPathname)"
    }
    if name.isEmpty { return "an entry with an empty name (emptyName)" }
    if name.count <= 2 && name.allSatisfy({ $0 == UInt8(ascii: ".") }) {
      return "an entry named '\(shown)' (\(name.count == 1 ? "hasDot" : "hasDotdot"))"
    }
    return nil
  }

  /// The folders of a data repository that must be folders, never links.
  static let dingersFolders: Set<String> = [".dinger", "scrums", "history", "libraries", "quizzes"]

  /// The name of the first entry of a raw tree pointing at `id`.
  static func entryName(of id: ObjectID, in bytes: [UInt8]) -> String? {
    bytes.withUnsafeBufferPointer { tree -> String? in
      var i = 0
      while i < tree.count, let entry = try? RawTreeEntry(tree, at: i) {
        if entry.id(in: tree) == id { return entry.name(in: tree) }
        i = entry.end
      }
      return nil
    }
  }
}
