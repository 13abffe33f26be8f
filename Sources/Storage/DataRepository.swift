import Foundation
import Git
import Models

/// The data repository: a git repository whose working tree holds Dinger's record files.
/// Reads come from the working tree (so hand edits show at once); every change is one commit.
public final class DataRepository: @unchecked Sendable {
  /// The working tree's root, where `.dinger/` and `scrums/` live.
  public let root: URL
  let git: Repository
  /// Runs between building a commit and moving the branch (tests use it to move the branch
  /// underneath, as a concurrent plain-git user would).
  var beforeMovingBranch: (() throws -> Void)?

  /// The working tree as a plain data directory.
  public var directory: DataDirectory { DataDirectory(root: root) }

  init(root: URL, git: Repository) {
    // NB: one spelling of the root (no trailing slash) so paths and comparisons agree.
    self.root = URL(fileURLWithPath: root.standardizedFileURL.path)
    self.git = git
  }

  /// Opens the data repository at `root`: a git working tree with `.dinger/`.
  public static func open(_ root: URL) throws -> DataRepository {
    let root = root.standardizedFileURL
    var isDir: ObjCBool = false
    guard FileManager.default.fileExists(atPath: root.path, isDirectory: &isDir), isDir.boolValue
    else {
      throw StorageError(
        "'\(root.path)' does not exist; run 'dinger init \(root.path)' to make a data repository there"
      )
    }
    guard FileManager.default.fileExists(atPath: root.appendingPathComponent(".dinger").path) else {
      throw StorageError(
        "'\(root.path)' is not a dinger data repository (it has no .dinger/ folder); run 'dinger init \(root.path)' to make it one"
      )
    }
    let git: Repository
    do {
      git = try Repository.open(root)
    } catch {
      throw StorageError(
        "'\(root.path)' has .dinger/ but is not the top of a git repository; run 'git init' there, or 'dinger init' to set it up"
      )
    }
    return DataRepository(root: root, git: git)
  }

  // MARK: Reading

  /// Every record file of a kind in the working tree, decoded, with its diagnostics.
  public func files(of kind: RecordKind) throws -> [DecodedFile] {
    try directory.recordFiles(of: kind).map {
      RecordCodec.decode($0.bytes, path: $0.path, kind: kind)
    }
  }

  /// The bytes of a working-tree file, or nil.
  public func read(_ path: String) -> [UInt8]? {
    FileManager.default.contents(atPath: root.appendingPathComponent(path).path).map(Array.init)
  }

  // MARK: Writing

  /// Records a change as exactly one commit on the current branch, then brings the working tree
  /// and the index up to date for the touched paths only, so `git status` stays clean.
  ///
  /// Refuses to overwrite a file whose working copy differs from the last commit (uncommitted
  /// hand edits are never lost). Concurrent dinger processes take turns through a lock file;
  /// a branch moved by anyone else (plain git) is caught by compare-and-swap and the change is
  /// rebuilt on the new commit.
  @discardableResult
  public func commit(_ change: Change) throws -> ObjectID {
    Trace.mark("commit: start")
    defer { Trace.mark("commit: done") }
    guard let me = git.defaultSignature() else { throw StorageError.missingIdentity() }
    let lock = try WriterLock(at: git.gitDirectory.appendingPathComponent("dinger"))
    defer { lock.release() }
    var attempt = 0
    while true {
      attempt += 1
      let (branch, head) = try git.head()
      if let merging = change.merging, head != merging.onto { throw StorageError.branchMoved() }
      for path in change.paths { try ensureUnchanged(path, since: head) }
      Trace.mark("commit: working files checked")
      var updates: [(path: String, blob: ObjectID?)] = []
      var blobs: [(path: String, blob: ObjectID)] = []
      for (path, bytes) in change.writes.sorted(by: { $0.key < $1.key }) {
        let blob = try change.knownBlobs[path] ?? git.writeBlob(bytes)
        updates.append((path, blob))
        blobs.append((path, blob))
      }
      for path in change.removals.sorted() { updates.append((path, nil)) }
      let tree = try git.tree(from: head, changing: updates)
      let commit = try git.commit(
        tree: tree, parents: (head.map { [$0] } ?? []) + (change.merging.map { [$0.commit] } ?? []),
        author: me, committer: me,
        message: change.message)
      try beforeMovingBranch?()
      do {
        try git.moveBranch(branch, to: commit, from: head, reflog: "dinger: \(change.subject)")
      } catch {
        if error.isModified && change.merging != nil { throw StorageError.branchMoved() }
        if error.isModified && attempt < 8 { continue }
        throw error
      }
      Trace.mark("commit: branch moved")
      try updateWorkingTree(writes: change.writes, removals: change.removals, blobs: blobs)
      return commit
    }
  }

  /// The working copy of `path` must match the commit (both absent counts as a match).
  func ensureUnchanged(_ path: String, since head: ObjectID?) throws {
    let committed = try head.flatMap { try git.file(path, in: $0) }
    if read(path) != committed { throw StorageError.uncommitted(path) }
  }

  func updateWorkingTree(
    writes: [String: [UInt8]], removals: Set<String>, blobs: [(path: String, blob: ObjectID)]
  ) throws {
    let fm = FileManager.default
    var folders: Set<String> = []
    for (path, bytes) in writes {
      let url = root.appendingPathComponent(path)
      let folder = url.deletingLastPathComponent()
      if folders.insert(folder.path).inserted, mkdir(folder.path, 0o755) != 0, errno != EEXIST {
        try fm.createDirectory(at: folder, withIntermediateDirectories: true)
      }
      // NB: write beside, then rename: a reader never sees half a file.
      let temp = folder.path + "/.\(url.lastPathComponent).dinger-tmp"
      try Self.writeFile(temp, bytes)
      if rename(temp, url.path) != 0 {
        throw StorageError("could not write \(path): \(String(cString: strerror(errno)))")
      }
    }
    for path in removals {
      let url = root.appendingPathComponent(path)
      try? fm.removeItem(at: url)
      // Remove folders the change left empty (git does not keep empty folders either).
      var dir = url.deletingLastPathComponent()
      while dir.path.count > root.path.count,
        (try? fm.contentsOfDirectory(atPath: dir.path))?.isEmpty == true
      {
        try? fm.removeItem(at: dir)
        dir = dir.deletingLastPathComponent()
      }
    }
    Trace.mark("commit: files written")
    var attempt = 0
    while true {
      do {
        try git.updateIndex(changed: blobs, removed: Array(removals))
        return
      } catch {
        // Someone (plain git) holds index.lock; the commit is made, wait for the index.
        guard error.isLocked && attempt < 50 else { throw error }
        attempt += 1
        usleep(20_000)
      }
    }
  }

  /// Writes a whole file with plain system calls (Foundation's Data.write costs several times
  /// more per file, which shows when a merge writes hundreds).
  static func writeFile(_ path: String, _ bytes: [UInt8]) throws {
    let fd = Glibc.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard fd >= 0 else {
      throw StorageError("could not write \(path): \(String(cString: strerror(errno)))")
    }
    defer { close(fd) }
    var done = 0
    while done < bytes.count {
      let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + done, bytes.count - done) }
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else {
        throw StorageError("could not write \(path): \(String(cString: strerror(errno)))")
      }
      done += n
    }
  }

  // MARK: History

  /// The commit HEAD points at, or nil before the first commit.
  public func head() throws -> ObjectID? { try git.head().commit }

  /// A commit's message, parents and author.
  public func commitInfo(_ id: ObjectID) throws -> Repository.CommitInfo { try git.commitInfo(id) }

  /// The bytes of a file in a commit.
  public func file(_ path: String, in commit: ObjectID) throws -> [UInt8]? {
    try git.file(path, in: commit)
  }

  /// The paths a commit changed against its first parent.
  public func changedPaths(_ commit: ObjectID) throws -> [String] { try git.changedPaths(commit) }
}

/// An exclusive lock between dinger processes writing to one repository (`flock` on a file in
/// `.git/dinger/`); released when the process exits, even by a crash.
final class WriterLock {
  private let fd: Int32

  init(at folder: URL, name: String = "write.lock") throws {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    fd = open(folder.appendingPathComponent(name).path, O_RDWR | O_CREAT, 0o644)
    guard fd >= 0 else { throw StorageError("could not open the writer lock in \(folder.path)") }
    while flock(fd, LOCK_EX) != 0 {
      guard errno == EINTR else {
        close(fd)
        throw StorageError("could not take the writer lock in \(folder.path)")
      }
    }
  }

  func release() {
    flock(fd, LOCK_UN)
    close(fd)
  }
}

/// Phase timings on stderr when `DINGER_TRACE` is set: `dinger: 12.3 ms commit: branch moved`.
public enum Trace {
  nonisolated(unsafe) private static var last = DispatchTime.now().uptimeNanoseconds
  private static let enabled = getenv("DINGER_TRACE") != nil

  /// Prints the time since the previous mark.
  public static func mark(_ what: String) {
    guard enabled else { return }
    let previous = last  // NB: read first; the static is set lazily on first use
    let now = DispatchTime.now().uptimeNanoseconds
    FileHandle.standardError.write(
      Data(String(format: "dinger: %7.1f ms %@\n", Double(now &- previous) / 1e6, what).utf8))
    last = now
  }
}
