import Base
import FoundationEssentials
import Git
import Glibc
import Models

/// What a change may read while it is built: the repository as committed at the HEAD it will be
/// committed on (under the writer lock and `index.lock`, so nothing moves meanwhile).
public struct Snapshot: Sendable {
  /// The committed bytes of a data-relative path, nil when HEAD has no such file.
  public var read: @Sendable (String) throws -> [UInt8]?
  /// The names a folder holds, committed or in the working tree (for picking a free name).
  public var names: @Sendable (String) throws -> Set<String>
  /// Each committed scrum file by name, in order, with its trimmed title (nil when it does not
  /// decode), when the store can tell them without reading every file (a repository's memo
  /// by blob); nil: read the files.
  public var scrumTitles: (@Sendable () throws -> [(name: String, title: String?)])?

  /// Creates a snapshot from its verbs.
  public init(
    read: @escaping @Sendable (String) throws -> [UInt8]?,
    names: @escaping @Sendable (String) throws -> Set<String>
  ) {
    self.read = read
    self.names = names
  }
}

/// What a write tells its caller on the way, for work that runs beside it (a sync's checks of
/// what came in).
public struct WriteHooks {
  /// The commit is built and its files are about to be written (it may run again, for another
  /// commit, when the branch moves meanwhile).
  public var built: (PlannedWrite) -> Void
  /// The files are written and the index and the branch are about to move: what this throws
  /// ends the write with the files put back (objects built meanwhile are unreferenced, as a
  /// killed write's).
  public var beforePublishing: () throws -> Void

  public init(
    built: @escaping (PlannedWrite) -> Void = { _ in },
    beforePublishing: @escaping () throws -> Void = {}
  ) {
    (self.built, self.beforePublishing) = (built, beforePublishing)
  }
}

/// A write's commit and what it changes in the working tree.
public struct PlannedWrite: Sendable {
  public var commit: ObjectID
  /// The regular files it writes, with their bytes.
  public var files: [(path: String, bytes: [UInt8])]
  /// The paths it removes.
  public var removals: [String]
  /// The commit it is built on (nil: none), and every path it writes, whatever the file's kind:
  /// what differs from `onto` and is there at `commit`.
  public var onto: ObjectID?
  public var written: [String] = []

  public init(
    commit: ObjectID, files: [(path: String, bytes: [UInt8])], removals: [String]
  ) {
    (self.commit, self.files, self.removals) = (commit, files, removals)
  }
}

extension DataRepository {
  /// Records a change as exactly one commit on the current branch. `build` is an *operation*:
  /// it runs under the writer lock against what is committed at that moment, so two dinger
  /// processes (or dinger and git) never overwrite each other's changes. It returns nil when
  /// there is nothing to do (no commit is made, and nil is returned).
  ///
  /// The order is git's own (`git commit`): take `index.lock`, read HEAD, build the objects,
  /// move the branch by compare-and-swap, write the working files and the index, release. A
  /// branch moved by a writer that does not take `index.lock` is caught by the compare-and-swap
  /// and the change is built again on the new commit. Files with uncommitted edits are never
  /// overwritten. See docs/storage.md for what a kill at each step leaves and how it is repaired.
  @discardableResult
  public func commit(_ build: (Snapshot) throws -> Change?) throws -> ObjectID? {
    try commit(on: { head in try build(self.snapshot(at: head)) })
  }

  /// `commit`, for builders that read the history from the HEAD they are given.
  @discardableResult
  func commit(
    on build: (ObjectID?) throws -> Change?, hooks: WriteHooks = WriteHooks()
  ) throws -> ObjectID? {
    guard let (author, committer) = try git.identities() else {
      throw StorageError.missingIdentity()
    }
    return try transact(hooks: hooks) { head throws -> Plan? in
      guard let change = try build(head) else { return nil }
      if let merging = change.merging, head != merging.onto { throw StorageError.branchMoved() }
      let absent = try self.ensureUnchanged(change.paths, since: head)
      try self.ensureCheckoutPossible(
        writes: change.writes.keys.filter { !absent.contains($0) }, removals: change.removals)
      Trace.mark("commit: working files checked")
      var files: [Plan.File] = []
      let writes = change.writes.sorted(by: { $0.key < $1.key })
      // NB: the new blobs are written at once: many go into one pack (Repository.writeBlobs).
      let unknown = writes.filter { change.knownBlobs[$0.key] == nil }
      let written = Dictionary(
        uniqueKeysWithValues: zip(unknown.map(\.key), try git.writeBlobs(unknown.map(\.value))))
      for (path, bytes) in writes {
        let blob = change.knownBlobs[path] ?? written[path]!
        // NB: a file keeps its mode (an executable stays one) unless the change says.
        let mode =
          try change.modes[path] ?? head.flatMap { try git.fileMode(at: path, in: $0) }
          ?? regularFileMode
        files.append(Plan.File(path: path, blob: blob, bytes: bytes, mode: mode))
      }
      for path in change.removals.sorted() { files.append(Plan.File(path: path, blob: nil)) }
      let tree = try self.tree(of: change, files: files, head: head)
      var writer = author
      if let (name, email) = change.author { (writer.name, writer.email) = (name, email) }
      let commit = try git.commit(
        tree: tree, parents: (head.map { [$0] } ?? []) + (change.merging.map { [$0.commit] } ?? []),
        author: writer, committer: committer, message: change.message)
      try beforeMovingBranch?()
      return Plan(
        commit: commit, files: files, reflog: "dinger: \(change.subject)",
        subject: change.subject, rebuildWhenMoved: change.merging == nil)
    }
  }

  /// The tree of `change` committed on `head`, whose `files` are its writes (sorted by path,
  /// with their blobs and modes) then its removals: `head`'s tree with them, or for a merge
  /// that says where it differs from the commit merged in, that commit's tree there.
  private func tree(of change: Change, files: [Plan.File], head: ObjectID?) throws -> ObjectID {
    func updates(_ files: [Plan.File]) -> [String: UInt32] {
      Dictionary(
        files.filter { $0.blob != nil && $0.mode != regularFileMode }.map { ($0.path, $0.mode) },
        uniquingKeysWith: { a, _ in a })
    }
    func fromHead() throws -> ObjectID {
      try git.tree(from: head, changing: files.map { ($0.path, $0.blob) }, modes: updates(files))
    }
    #if DEBUG
      // NB: a test build takes this way for every merge, so that each is checked below.
      let worthIt = true
    #else
      let worthIt = (change.differsFromMerged?.count ?? .max) < files.count
    #endif
    guard let theirs = change.merging?.commit, let head, let paths = change.differsFromMerged,
      worthIt
    else { return try fromHead() }
    let written = files.prefix(change.writes.count)
    var differing: [Plan.File] = []
    for path in paths {
      var (at, end) = (written.startIndex, written.endIndex)
      while at < end {
        let middle = (at + end) / 2
        if written[middle].path < path { at = middle + 1 } else { end = middle }
      }
      if at < written.endIndex, written[at].path == path {
        differing.append(written[at])
      } else if !change.removals.contains(path), let blob = try git.blobID(at: path, in: head) {
        differing.append(
          Plan.File(path: path, blob: blob, mode: try git.fileMode(at: path, in: head)!))
      } else if try git.blobID(at: path, in: theirs) != nil {
        // NB: libgit2 refuses to remove what a tree does not hold.
        differing.append(Plan.File(path: path, blob: nil))
      }
    }
    // NB: a tree libgit2 cannot update (a teammate's, malformed) is left to the way from ours,
    // and to the sync's check of what came in.
    guard
      let tree = try? git.tree(
        from: theirs, changing: differing.map { ($0.path, $0.blob) }, modes: updates(differing))
    else { return try fromHead() }
    #if DEBUG
      // NB: both ways must agree; every merge the tests make checks it. A teammate's tree out
      // of git's order builds differently; the sync's check refuses it before publishing.
      let expected = try fromHead()
      let wellFormed = (try? git.checkIncomingTrees(from: theirs, hiding: [head])) != nil
      precondition(
        tree == expected || !wellFormed, "a merge's tree built from theirs differs from ours'")
    #endif
    return tree
  }

  /// Records a finished change (one that does not depend on what it replaces: a new file, a
  /// merge whose `merging.onto` pins the commit it was built on), telling `hooks` on the way.
  @discardableResult
  public func commit(_ change: Change, hooks: WriteHooks = WriteHooks()) throws -> ObjectID {
    try commit(on: { _ in change }, hooks: hooks)!
  }

  /// Moves the branch from `onto` forward to `commit` (which must contain it) and brings the
  /// working tree and index up to date for `files`, the paths that differ. Refuses, changing
  /// nothing, when one of those files has uncommitted edits; `hooks` as `commit`'s.
  public func fastForward(
    to commit: ObjectID, from onto: ObjectID?, files: [ThreeWayFile],
    hooks: WriteHooks = WriteHooks()
  ) throws {
    _ = try transact(hooks: hooks) { head throws -> Plan? in
      guard head == onto else { throw StorageError.branchMoved() }
      let absent = try self.ensureUnchanged(files.map(\.path), since: head)
      try self.ensureCheckoutPossible(
        writes: files.filter { $0.theirs != nil && !absent.contains($0.path) }.map(\.path),
        removals: Set(files.filter { $0.theirs == nil }.map(\.path)))
      // NB: the bytes are read now, so that `hooks.built` has them (a sync judges what came
      // while the files are written); the writing would read each anyway.
      return Plan(
        commit: commit,
        files: try files.map { file in
          Plan.File(
            path: file.path, blob: file.theirs,
            bytes: try file.theirs.map { blob throws(GitError) in try git.blob(blob) },
            mode: file.theirs == nil ? regularFileMode : file.theirsMode)
        },
        reflog: "dinger sync: fast-forward", subject: "fast-forward to \(commit.short)",
        rebuildWhenMoved: false)
    }
  }

  /// What a write puts in place: the commit the branch moves to, and the files that differ
  /// from the old HEAD (a nil blob removes the file).
  struct Plan {
    struct File {
      var path: String
      var blob: ObjectID?
      /// The bytes, when the writer has them; else they are read from the blob.
      var bytes: [UInt8]? = nil
      /// git's mode: a plain file, an executable, or a symbolic link (whose bytes are its target).
      var mode: UInt32 = regularFileMode
    }
    var commit: ObjectID
    var files: [File]
    var reflog: String
    var subject: String
    /// Whether a branch moved by someone else means "build again on it" (a change) or
    /// "give up" (a merge or fast-forward planned against one commit).
    var rebuildWhenMoved: Bool

    /// What `WriteHooks.built` hears: the regular files whose bytes are at hand.
    func planned(onto head: ObjectID?) -> PlannedWrite {
      var planned = PlannedWrite(
        commit: commit,
        files: files.filter { $0.blob != nil && $0.mode & 0o170000 == 0o100000 }
          .compactMap { file in file.bytes.map { (file.path, $0) } },
        removals: files.filter { $0.blob == nil }.map(\.path))
      (planned.onto, planned.written) = (head, files.filter { $0.blob != nil }.map(\.path))
      return planned
    }
  }

  /// The write protocol. `plan` runs with the locks held, as often as the branch moves under
  /// it (eight times at most); nil from it ends the write with nothing done. `hooks.built`
  /// hears each plan before its files are written; `hooks.beforePublishing` runs once they are,
  /// before the index and the branch move: what it throws ends the write with the files put
  /// back (a kill meanwhile is undone by the next command, as any other).
  func transact(
    hooks: WriteHooks = WriteHooks(), _ plan: (ObjectID?) throws -> Plan?
  ) throws -> ObjectID? {
    Trace.mark("commit: start")
    // NB: an operation reads files at HEAD one by one (`scrum new` reads every scrum to keep
    // titles unique): with big folders' trees cached, each read no longer parses the 1,000-entry
    // `scrums` tree again (130 of 190 ms at 1,000 scrums).
    Repository.cacheTrees(upTo: 1 << 20)
    defer { Trace.mark("commit: done") }
    let writer = try WriterLock(at: dingerFolder)
    defer { writer.release() }
    let index = try lockIndex(for: writer)
    defer { index.release() }
    // NB: runs before the lock is released: a journal naming a lock we gave up must not
    // outlive it (a later index.lock may reuse its inode number, and the next writer would
    // take someone's live lock for ours). Kept only when the branch moved and the working tree
    // is not done: the next command finishes it.
    var committed = false
    defer {
      if !committed {
        // NB: a published index goes back before the journal that would let the next
        // command put it back is cleared.
        try? index.unpublish()
        writer.clear()
      }
    }
    writer.record(WriteJournal(step: .locked, indexLock: index.identity))
    StopPoint.reached("index-locked")
    Trace.mark("commit: index locked")
    try index.check()
    Trace.mark("commit: index read")
    for attempt in 1... {
      let (branch, head) = try git.head()
      guard let plan = try plan(head) else {
        writer.clear()
        return nil
      }
      StopPoint.reached("objects")
      hooks.built(plan.planned(onto: head))
      var journal = WriteJournal(step: .moving, indexLock: index.identity)
      (journal.branch, journal.head, journal.commit) = (branch, head, plan.commit)
      writer.record(journal)
      try publish(plan, over: head, index: index, beforePublishing: hooks.beforePublishing)
      guard try moveBranch(branch, to: plan, from: head, attempt: attempt, index: index) else {
        writer.record(WriteJournal(step: .locked, indexLock: index.identity))
        continue
      }
      Trace.mark("commit: branch moved")
      committed = true
      StopPoint.reached("ref")
      // NB: looked for while index.lock is still held: a git commit that read the index before
      // it was published is alive now (it cannot finish without the lock), and once the lock is
      // given up may write that index back within a millisecond, then end.
      let racing = RacingGit.processes(in: root.path)
      try finish(plan, journal: journal, index: index, writer: writer)
      index.release()
      writer.release()
      restoreWhatAStaleIndexDropped(plan.files, racing: racing)
      return plan.commit
    }
    preconditionFailure("unreachable: the attempts end by returning or throwing")
  }

  /// Finishes a write a killed command left, then takes git's `index.lock`, the journal saying
  /// so at every instant (it exists before the temporary lock file does, so a kill at any
  /// instant leaves a journal that sends the next command to clean up).
  private func lockIndex(for writer: WriterLock) throws -> IndexLock {
    do {
      try finishInterruptedWrite(holding: writer)
    } catch {
      throw StorageError(
        "could not finish dinger's interrupted change (\(error)); nothing new was written. 'dinger repair' tries again and says more; 'dinger repair --abandon' gives the interrupted change up"
      )
    }
    do {
      return try takeIndexLock(
        beforeTry: { writer.record(WriteJournal(step: .locking)) },
        announce: { identity in
          writer.record(WriteJournal(step: .locking, indexLock: identity))
          StopPoint.reached("index-announced")
        })
    } catch {
      // NB: the wait gave up (git held index.lock all along): no journal may name a lock this
      // write never took.
      writer.clear()
      throw error
    }
  }

  /// Writes the plan's files and puts the new index in place, index.lock still held, before
  /// the branch moves; on a failure both go back to `head`'s.
  ///
  /// The files and the new index are ready before the branch moves, so that only the rename of
  /// index.lock is left after it, as in `git commit`: a plain git commit that reads HEAD after
  /// the move and the index before our rename (it reads the index before taking index.lock)
  /// then has git's own tiny window, not the time dinger takes to write files; with the files
  /// written after the move, such a commit recorded a stale index and dropped dinger's new
  /// files. A kill before the move is undone by the next command (`Recovery`): the files go back
  /// to HEAD's. And the new index is in place before the branch moves: `git commit` reads HEAD,
  /// then the index, then takes index.lock, so one that read the moved HEAD and the index
  /// before our rename committed the old index on top of this change and reverted it (1 in
  /// about 500 writes beside a `git commit -a` loop). Now whoever reads the new HEAD reads the
  /// new index; whoever read the old HEAD fails its compare-and-swap. `beforePublishing` runs
  /// between the files and the index.
  private func publish(
    _ plan: Plan, over head: ObjectID?, index: IndexLock,
    beforePublishing: () throws -> Void
  ) throws {
    do {
      try prepareCheckOut(plan.files, index: index)
      try beforePublishing()
      try index.publish()
      StopPoint.reached("index-published")
    } catch {
      try? index.unpublish()
      try? revert(plan.files, to: head)
      throw error
    }
  }

  /// Moves the branch from `head` to the plan's commit (waiting out git's ref lock); false
  /// when someone else moved it first and the plan is to be built again, with the index and
  /// the files of this attempt put back.
  private func moveBranch(
    _ branch: String, to plan: Plan, from head: ObjectID?, attempt: Int, index: IndexLock
  ) throws -> Bool {
    do {
      _ = try LockWait.retrying(
        lockFile: gitDirectory.appendingPathComponent(branch + ".lock").path
      ) { () throws -> Bool? in
        do {
          try git.moveBranch(branch, to: plan.commit, from: head, reflog: plan.reflog)
          return true
        } catch let error as GitError where error.isLocked {
          return nil
        }
      }
      return true
    } catch let error as GitError where error.isModified {
      guard plan.rebuildWhenMoved else { throw StorageError.branchMoved() }
      guard attempt < 8 else {
        throw StorageError(
          "the branch kept moving while dinger was writing (another program commits in a loop?); nothing was changed, run this again"
        )
      }
      try index.unpublish()
      try revert(plan.files, to: head)
      return false
    } catch {
      try? index.unpublish()
      try? revert(plan.files, to: head)
      throw error
    }
  }

  /// After the branch moved: index.lock renamed over the index, the journal cleared. From here
  /// on the change is committed: a failure says so, and the next command finishes the working
  /// tree from the journal.
  private func finish(
    _ plan: Plan, journal: WriteJournal, index: IndexLock, writer: WriterLock
  ) throws {
    do {
      try index.commit()
      Trace.mark("commit: index written")
    } catch {
      // NB: our index.lock goes now; the journal must not name it past that (a later lock
      // may get its inode), but keeps the commit for the next command to finish.
      var journal = journal
      journal.indexLock = nil
      writer.record(journal)
      throw StorageError.savedNotCheckedOut(plan.commit, subject: plan.subject, because: error)
    }
    writer.clear()
  }

  /// Writes the plan's files into the working tree, then their entries into the held index
  /// lock, then puts the index in place.
  func checkOut(_ files: [Plan.File], index: IndexLock) throws {
    try prepareCheckOut(files, index: index)
    try index.commit()
    Trace.mark("commit: index written")
  }

  /// Puts `files` back as they are in `head` (removing those it lacks): a write whose branch
  /// did not move leaves the working tree as it found it.
  func revert(_ files: [Plan.File], to head: ObjectID?) throws {
    let tree = WorkTree(root: root)
    do {
      for file in files {
        if let old = try head.flatMap({ try git.file(file.path, in: $0) }) {
          let mode = try head.flatMap { try git.fileMode(at: file.path, in: $0) } ?? regularFileMode
          try tree.write(file.path, old, mode: mode)
        } else {
          try tree.remove(file.path)
        }
      }
    } catch let refusal as WorkTree.Refusal {
      throw StorageError.unsafe(refusal)
    }
  }

  /// Writes the plan's files into the working tree, then their entries into the held index
  /// lock (not yet in effect).
  func prepareCheckOut(_ files: [Plan.File], index: IndexLock) throws {
    let tree = WorkTree(root: root)
    var changed: [(path: String, blob: ObjectID)] = []
    var removed: [String] = []
    do {
      // NB: removals first: a folder a file replaces must be gone (and the reverse).
      for file in files where file.blob == nil {
        try tree.remove(file.path)
        removed.append(file.path)
      }
      let writer = WorkTree.Writer(tree)
      defer { writer.close() }
      for file in files.sorted(by: { $0.path < $1.path }) {
        guard let blob = file.blob else { continue }
        try writer.write(file.path, try file.bytes ?? git.blob(blob), mode: file.mode)
        changed.append((file.path, blob))
      }
    } catch let refusal as WorkTree.Refusal {
      throw StorageError.unsafe(refusal)
    }
    Trace.mark("commit: files written")
    StopPoint.reached("files")
    try index.write(changed: changed, removed: removed, workdir: root)
    StopPoint.reached("index-written")
  }

  /// `.git/index.lock`, waited for while someone else (a running git) holds it; `beforeTry`
  /// runs before each attempt (the journal notes the moment, see `Recovery`).
  func takeIndexLock(
    beforeTry: () -> Void = {}, announce: (FileIdentity) -> Void = { _ in }
  ) throws -> IndexLock {
    let gitDirectory = self.gitDirectory
    return try LockWait.retrying(lockFile: IndexLock.path(in: gitDirectory)) {
      beforeTry()
      return try IndexLock.tryAcquire(gitDirectory: gitDirectory, announce: announce)
    }
  }

  /// Throws what a write of `paths` on top of HEAD would throw for uncommitted edits or unsafe
  /// paths, writing nothing: `sync --dry-run` predicts the real sync's refusal with it.
  public func ensureWritable(_ paths: [String]) throws {
    let head = try self.head()
    try ensureUnchanged(paths, since: head)
  }

  /// `ensureUnchanged` for many paths: the working files read in path order, each folder on
  /// the way opened once for the files in it, one file's bytes held at a time; the first path
  /// in that order that differs is refused. A file in neither the working tree nor the commit
  /// is no edit (the commit is asked only whether it has the path). Returns the paths found
  /// absent, every folder on their way a real one or absent too: nothing is in the way of
  /// writing them (`ensureCheckoutPossible` need not look again).
  @discardableResult
  func ensureUnchanged(_ paths: [String], since head: ObjectID?) throws -> Set<String> {
    var failure: (any Error)?
    var absent = Set<String>(minimumCapacity: paths.count)
    WorkTree(root: root).read(paths.sorted(), unless: { _, _ in false }) { path, read in
      do {
        try ensureUnchanged(path, read, since: head)
        if case .success(.missing) = read { absent.insert(path) }
        return true
      } catch {
        failure = error
        return false
      }
    }
    if let failure { throw failure }
    return absent
  }

  /// One path's working read (see `ensureUnchanged(_:since:)`) against the commit.
  private func ensureUnchanged(
    _ path: String, _ read: Result<WorkTree.StampedRead, WorkTree.Refusal>, since head: ObjectID?
  ) throws {
    let working: [UInt8]?
    switch read {
    case .success(.read(let bytes, _)): working = bytes
    case .success: working = nil
    case .failure(.notAFolder), .failure(.isAFolder): working = nil
    case .failure(let refusal): throw StorageError.unsafe(refusal)
    }
    guard let head else {
      if working != nil { throw StorageError.uncommitted(path) }
      return
    }
    if working == nil {
      if try git.blobID(at: path, in: head) != nil { throw StorageError.uncommitted(path) }
      return
    }
    if working != (try git.file(path, in: head)) { throw StorageError.uncommitted(path) }
  }

  /// The working copy of `path` must match the commit (both absent counts as a match), and
  /// be a plain file reached without links. A file where a folder of the path should be, or a
  /// folder where the file should be, counts as no file here (`ensureCheckoutPossible` judges
  /// whether the change clears it).
  func ensureUnchanged(_ path: String, since head: ObjectID?) throws {
    let tree = WorkTree(root: root)
    let working: [UInt8]?
    do {
      working = try tree.read(path)
    } catch .notAFolder, .isAFolder {
      working = nil
    } catch {
      throw StorageError.unsafe(error)
    }
    let committed = try head.flatMap { try git.file(path, in: $0) }
    if working != committed { throw StorageError.uncommitted(path) }
  }

  /// Every file the change writes can be put in place once its removals are done: no link on
  /// the way, a file where a folder must go only when the change removes it, a folder where a
  /// file must go only when the change removes everything in it. Checked before anything is
  /// committed, so a file/folder swap from a teammate never leaves HEAD ahead of the files.
  func ensureCheckoutPossible(writes: [String], removals: Set<String>) throws {
    let fm = FileManager.default
    // NB: paths joined as strings: a URL per lstat was half of a 20,000-file merge's check.
    let top = root.path + "/"
    // NB: a folder on the way is looked at once, not once per file in it (20,000 meetings in
    // 50 folders were 60,000 lstats); each is a prefix of the path, not a join of its parts (a
    // split and a join per level were most of this check's time in a 20,000-file merge).
    var folders = Set<Substring>()
    for path in writes {
      var next = path.utf8.startIndex
      while next < path.utf8.endIndex {
        let slash = path.utf8[next...].firstIndex(of: UInt8(ascii: "/"))
        let whole = slash == nil
        let prefix = path[..<(slash ?? path.endIndex)]
        next = slash.map { path.utf8.index(after: $0) } ?? path.utf8.endIndex
        if !whole && folders.contains(prefix) { continue }
        var st = stat()
        guard lstat(top + prefix, &st) == 0 else { break }
        switch st.st_mode & S_IFMT {
        case S_IFLNK: throw StorageError.unsafe(.link(String(prefix)))
        case S_IFDIR where whole:
          let inside = try? fm.subpathsOfDirectory(atPath: top + prefix)
          for item in inside ?? [] {
            let full = String(prefix) + "/" + item
            var inner = stat()
            guard lstat(top + full, &inner) == 0 else { continue }
            if inner.st_mode & S_IFMT == S_IFDIR { continue }
            guard removals.contains(full) else {
              throw StorageError.unsafe(.isAFolder(String(prefix)))
            }
          }
        case S_IFDIR:
          folders.insert(prefix)
          continue
        default:
          if !whole && !removals.contains(String(prefix)) {
            throw StorageError.unsafe(.notAFolder(String(prefix)))
          }
        }
      }
    }
  }

  /// Reads at `head`, for a change being built under the locks.
  func snapshot(at head: ObjectID?) -> Snapshot {
    let git = self.git
    let tree = WorkTree(root: root)
    var snapshot = Snapshot(
      read: { path in try head.flatMap { try git.file(path, in: $0) } },
      names: { folder in
        var names = Set(try head.map { try git.names(in: folder, of: $0) } ?? [])
        let onDisk =
          (try? FileManager.default.contentsOfDirectory(
            atPath: tree.root.appendingPathComponent(folder).path)) ?? []
        names.formUnion(onDisk)
        return names
      })
    snapshot.scrumTitles = { try self.committedScrumTitles(at: head) }
    return snapshot
  }

  var gitDirectory: URL { git.gitDirectory }
  /// `.git/dinger/`: dinger's own files beside git's (locks, journal, caches, models), never
  /// committed.
  public var dingerFolder: URL { git.gitDirectory.appendingPathComponent("dinger") }
}
