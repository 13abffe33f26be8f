import Base
import FoundationEssentials
import Git
import Glibc

/// Finishing a write whose process was killed. The writer lock's file holds the journal of the
/// write under way; the kernel drops the `flock` of a dead process, so whoever takes the lock
/// and finds a journal knows its writer died, and at which step:
///
/// - `locking`/`locked`: nothing was committed. The `index.lock` it made (the one whose inode
///   the journal names) is removed.
/// - `moving`: the commit was built. Its ref lock (holding the new commit's id) is removed. If
///   the branch did move, the working files and index entries of the paths the commit changed
///   are brought up to date, as the dead writer was about to do: each file that still holds the
///   old version (or already the new one) gets the new one; a file edited since is left alone.
extension DataRepository {
  /// Called as a repository opens: one `stat` when all is well; repairs when the last writer
  /// died, unless another writer is running now (it will).
  func finishInterruptedWriteIfAny() {
    guard WriterLock.hasJournal(in: dingerFolder),
      let writer = try? WriterLock.tryTake(at: dingerFolder)
    else { return }
    defer { writer.release() }
    do {
      try finishInterruptedWrite(holding: writer)
    } catch {
      notes.append("could not finish dinger's interrupted change: \(error)")
    }
  }

  /// `dinger repair`: finishes a write whose process was killed, or with `abandon`, gives it
  /// up when it cannot be finished (its locks are removed by identity, the journal cleared;
  /// its commit, when the branch moved, stays). What it did, in words.
  public func repair(abandon: Bool) throws -> String {
    let writer = try WriterLock(at: dingerFolder)
    defer { writer.release() }
    guard let journal = writer.journal() else {
      return "nothing to repair: no dinger write was interrupted"
    }
    do {
      try finishInterruptedWrite(holding: writer)
      return notes.last ?? "finished dinger's interrupted write"
    } catch {
      guard abandon else {
        throw StorageError(
          "could not finish dinger's interrupted change: \(error); fix that, or run 'dinger repair --abandon' to give it up"
        )
      }
      let indexLock = IndexLock.path(in: gitDirectory)
      if let found = FileIdentity.of(indexLock), found == journal.indexLock { unlink(indexLock) }
      if let branch = journal.branch {
        let refLock = gitDirectory.appendingPathComponent(branch + ".lock").path
        if let commit = journal.commit, let bytes = Self.smallFile(refLock),
          Array("\(commit.hex)\n".utf8).starts(with: bytes)
        {
          unlink(refLock)
        }
      }
      writer.clear()
      return
        "gave up dinger's interrupted change (\(error)); 'git status' shows what differs from HEAD"
    }
  }

  /// Repairs what the writer that held `writer` before left, then clears its journal.
  func finishInterruptedWrite(holding writer: WriterLock) throws {
    guard let journal = writer.journal() else {
      writer.clear()
      return
    }
    try removeLocksLeft(by: journal)
    guard journal.step == .moving, let branch = journal.branch, let commit = journal.commit
    else {
      writer.clear()
      return
    }
    let refLock = gitDirectory.appendingPathComponent(branch + ".lock").path
    if let bytes = Self.smallFile(refLock), Array("\(commit.hex)\n".utf8).starts(with: bytes) {
      unlink(refLock)
    }
    let (current, head) = try git.head()
    guard current == branch else {
      writer.clear()
      return
    }
    if head == journal.head {
      // NB: killed before the branch moved: the files it wrote ahead of the move go back to
      // HEAD's (a file edited since is left alone); its index.lock went above.
      try undoFilesWrittenAhead(from: journal.head, to: commit)
    } else if head == commit {
      try finishCheckOut(of: commit, journal: journal, writer: writer)
    }
    writer.clear()
  }

  /// The index a killed writer published goes back when its branch never moved; its
  /// index.lock (by identity: one no journal recorded is someone else's, left alone) and any
  /// lock it made but had not yet linked into place are removed.
  private func removeLocksLeft(by journal: WriteJournal) throws {
    let indexLockPath = IndexLock.path(in: gitDirectory)
    let previousIndex = IndexLock.previousPath(in: gitDirectory)
    // NB: killed after it published its index (`.git/index` is its lock's inode) and before
    // the branch moved: the index in effect before goes back, before the lock that kept git
    // away from it is removed.
    let indexPath = gitDirectory.appendingPathComponent("index").path
    if let lock = journal.indexLock, FileIdentity.of(indexPath) == lock,
      FileIdentity.of(previousIndex) != nil
    {
      let moved = try journal.commit != nil && git.head().1 == journal.commit
      if !moved, rename(previousIndex, indexPath) != 0 {
        throw StorageError(
          "could not put the index back from \(previousIndex) (\(String(cString: strerror(errno)))))"
        )
      }
    }
    unlink(previousIndex)
    // NB: by identity (the journal names the lock's inode before it is linked into place).
    if let found = FileIdentity.of(indexLockPath), found == journal.indexLock {
      unlink(indexLockPath)
    }
    let folder = gitDirectory.appendingPathComponent("dinger")
    for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    where name.hasPrefix(IndexLock.temporaryPrefix) {
      unlink(folder.appendingPathComponent(name).path)
    }
  }

  /// Killed after the branch moved to `commit`: the working tree and index are brought to it,
  /// leaving alone a file edited since, and the user is told.
  private func finishCheckOut(
    of commit: ObjectID, journal: WriteJournal, writer: WriterLock
  ) throws {
    let index = try takeIndexLock()
    defer { index.release() }
    var journal = journal
    journal.indexLock = index.identity
    writer.record(journal)
    try index.check()
    let tree = WorkTree(root: root)
    var files: [Plan.File] = []
    var skipped: [String] = []
    for file in try git.filesChanged(from: journal.head, to: commit) {
      let working = try? tree.read(file.path)
      let old = try file.base.map { b throws(GitError) in try git.blob(b) }
      let new = try file.theirs.map { b throws(GitError) in try git.blob(b) }
      if working == old || working == new || Self.isStart(working, ofNew: new, over: old) {
        files.append(
          Plan.File(
            path: file.path, blob: file.theirs, bytes: new,
            mode: file.theirs == nil ? regularFileMode : file.theirsMode))
      } else {
        skipped.append(file.path)
      }
    }
    try checkOut(files, index: index)
    // A kill while a file was written leaves its temporary file; git does not know it.
    for file in files {
      for temp in tree.temporaries(of: file.path) where try git.blobID(at: temp, in: commit) == nil
      {
        try? tree.remove(temp)
      }
    }
    let subject =
      (try? git.commitInfo(commit).message.split(separator: "\n").first.map(String.init)) ?? nil
    var note =
      "finished dinger's interrupted change '\(subject ?? commit.short)' (commit \(commit.short)): the working tree and index now match it"
    if !skipped.isEmpty {
      note += "; left \(skipped.joined(separator: ", ")) as edited since"
    }
    notes.append(note)
  }

  /// Puts back the files a killed write had written for `commit` before its branch moved.
  private func undoFilesWrittenAhead(from head: ObjectID?, to commit: ObjectID) throws {
    let tree = WorkTree(root: root)
    var undone = 0
    for file in try git.filesChanged(from: head, to: commit) {
      let working = try? tree.read(file.path)
      let new = try file.theirs.map { b throws(GitError) in try git.blob(b) }
      let old = try file.base.map { b throws(GitError) in try git.blob(b) }
      let ours = working == new || Self.isStart(working, ofNew: new, over: old)
      guard ours, new != nil || working == nil else { continue }
      if working == old { continue }
      do {
        if let old {
          try tree.write(file.path, old, mode: file.baseMode == 0 ? regularFileMode : file.baseMode)
        } else {
          try tree.remove(file.path)
        }
        undone += 1
      } catch {
        throw StorageError.unsafe(error)
      }
    }
    // A kill while a file was written leaves its temporary file; git does not know it.
    for file in try git.filesChanged(from: head, to: commit) {
      for temp in tree.temporaries(of: file.path) where try git.blobID(at: temp, in: commit) == nil
      {
        try? tree.remove(temp)
      }
    }
    if undone > 0 {
      let subject =
        (try? git.commitInfo(commit).message.split(separator: "\n").first.map(String.init)) ?? nil
      notes.append(
        "dinger's interrupted change '\(subject ?? commit.short)' was not committed; its files are back as committed"
      )
    }
  }

  /// Whether `working` is what a killed write left of a file it made where there was none
  /// (`old` nil): a start of `new` (`WorkTree` writes such a file in place, as git does).
  static func isStart(_ working: [UInt8]?, ofNew new: [UInt8]?, over old: [UInt8]?) -> Bool {
    guard old == nil, let working, let new, working.count < new.count else { return false }
    return new.starts(with: working)
  }

  /// A file's first bytes (at most 128), nil when it does not exist.
  static func smallFile(_ path: String) -> [UInt8]? {
    // NB: O_NONBLOCK and a regular file only: a FIFO in dinger's folder must not hang a command.
    let fd = Glibc.open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var st = stat()
    guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { return nil }
    var buffer = [UInt8](repeating: 0, count: 128)
    let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, 128) }
    return n < 0 ? nil : Array(buffer[0..<n])
  }
}
