import Base
internal import CGit2
import FoundationEssentials
import Glibc

/// `.git/index.lock`, held the way git holds it: created exclusively before anything is read,
/// the new index written into it, then renamed over `.git/index`. While it exists no `git add`
/// or `git commit` can read the index and commit a tree that leaves out what dinger wrote.
public final class IndexLock {
  /// Where the lock is.
  public let path: String
  /// The lock file's device and inode, which tell this lock from one made later by someone else.
  public let identity: FileIdentity
  private let gitDirectory: URL
  private var fd: Int32
  private var written = false

  private init(path: String, fd: Int32, identity: FileIdentity, gitDirectory: URL) {
    (self.path, self.fd, self.identity, self.gitDirectory) = (path, fd, identity, gitDirectory)
  }

  deinit { release() }

  /// The lock's path in a repository.
  public static func path(in gitDirectory: URL) -> String {
    gitDirectory.appendingPathComponent("index.lock").path
  }

  /// The prefix of the temporary names locks are made under (in `.git/dinger/`).
  public static let temporaryPrefix = "index-lock-"

  /// Takes the lock, or nil when the file exists already (someone else holds it, or a crashed
  /// process left it behind). The lock is made under a temporary name first, `announce` is told
  /// its identity (the journal records it), and only then is it linked into place (`link`
  /// fails when the name is taken, as O_EXCL does): a kill at any instant leaves either no
  /// `index.lock` of ours, or one whose identity the journal names, never one nobody can claim.
  public static func tryAcquire(
    gitDirectory: URL, announce: (FileIdentity) -> Void = { _ in }
  ) throws(GitError) -> IndexLock? {
    let path = path(in: gitDirectory)
    let folder = gitDirectory.appendingPathComponent("dinger")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let temp = folder.appendingPathComponent(
      "\(temporaryPrefix)\(getpid())-\(UInt32.random(in: 0...UInt32.max)).tmp"
    ).path
    let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
    if fd < 0 { throw GitError.system("make a lock file in \(folder.path)") }
    var st = stat()
    fstat(fd, &st)
    let identity = FileIdentity(st)
    announce(identity)
    if link(temp, path) != 0 {
      let code = errno
      unlink(temp)
      close(fd)
      if code == EEXIST { return nil }
      errno = code
      throw GitError.system("take \(path)")
    }
    unlink(temp)
    return IndexLock(path: path, fd: fd, identity: identity, gitDirectory: gitDirectory)
  }

  /// Writes the index with these entries changed into the lock (not yet in effect: `commit`
  /// renames it over the index): `changed` paths get their blob and the stat data of their file
  /// under `workdir`, `removed` paths leave. Other entries stay as they are in the index now.
  public func write(
    changed: [(path: String, blob: ObjectID)], removed: [String], workdir: URL
  ) throws(GitError) {
    guard fd >= 0 else { throw GitError.system("write index (lock released)") }
    // NB: a published index is this lock's inode: it goes back before the lock is rewritten.
    try unpublish()
    // NB: joined as strings: a URL each was half of this write in a 20,000-file catch-up.
    let folder = workdir.path.hasSuffix("/") ? workdir.path : workdir.path + "/"
    let updates =
      changed.map { IndexFile.Update(path: $0.path, blob: $0.blob, file: folder + $0.path) }
      + removed.map { IndexFile.Update(path: $0, blob: nil, file: nil) }
    if ftruncate(fd, 0) != 0 || lseek(fd, 0, SEEK_SET) != 0 {
      throw GitError.system("write \(path)")
    }
    switch IndexFile.apply(updates, to: try loaded(), into: fd) {
    case .written: break
    case .failed: throw GitError.system("write \(path)")
    case .unsupported:
      let bytes = try IndexFile.throughLibgit2(updates, gitDirectory: gitDirectory)
      guard ftruncate(fd, 0) == 0, lseek(fd, 0, SEEK_SET) == 0,
        bytes.withUnsafeBytes({ IndexFile.writeAll(fd, $0) })
      else { throw GitError.system("write \(path)") }
    }
    written = true
  }

  private var cached: IndexFile.Loaded?

  /// Reads and checks the index the lock protects (once; it cannot change while the lock is
  /// held by anyone who respects it). Throws when the index is damaged, so that a caller can
  /// stop before it commits anything.
  public func check() throws(GitError) { _ = try loaded() }

  private func loaded() throws(GitError) -> IndexFile.Loaded {
    if let cached { return cached }
    let loaded = IndexFile.load(gitDirectory: gitDirectory)
    if case .damaged(let why) = loaded {
      throw GitError(
        code: GIT_ERROR.rawValue, operation: "read the index",
        message:
          "\(gitDirectory.appendingPathComponent("index").path) is damaged: \(why); rebuild it from the last commit with: rm -f .git/index && git reset"
      )
    }
    if case .unreadable(let why) = loaded {
      throw GitError(
        code: GIT_ERROR.rawValue, operation: "read the index",
        message:
          "\(gitDirectory.appendingPathComponent("index").path): \(why); nothing was changed (git refuses such an index too: fix its permissions, or ask whoever owns it)"
      )
    }
    cached = loaded
    return loaded
  }

  /// Puts the written index in place and gives the lock up.
  public func commit() throws(GitError) {
    guard fd >= 0, written else { throw GitError.system("commit index (nothing written)") }
    close(fd)
    fd = -1
    if published {
      // NB: `.git/index` is this lock's inode already; the lock name goes, the old index too.
      published = false
      unlink(path)
      unlink(Self.previousPath(in: gitDirectory))
      return
    }
    if rename(path, gitDirectory.appendingPathComponent("index").path) != 0 {
      let error = GitError.system("rename \(path) to index")
      unlink(path)
      throw error
    }
  }

  /// Gives the lock up without changing the index (a published index is taken back first).
  public func release() {
    guard fd >= 0 else { return }
    try? unpublish()
    close(fd)
    fd = -1
    unlink(path)
  }

  private var published = false

  /// Where the index in effect before `publish` is kept (a second link to its inode) until the
  /// lock is committed or released.
  public static func previousPath(in gitDirectory: URL) -> String {
    gitDirectory.appendingPathComponent("dinger/index-before-publish").path
  }

  /// Puts the written index in place *while still holding the lock*: `.git/index` becomes a
  /// second link to the lock's inode, and the index it replaces is kept (linked at
  /// `previousPath`) for `unpublish`. A writer publishes before it moves the branch, so that
  /// no reader ever sees the new HEAD with the old index: `git commit` reads HEAD, then the
  /// index, then takes `index.lock`, and one that read the new HEAD and the old index would
  /// commit a tree without this write on top of it. Nothing happens when there is no index
  /// yet (there is nothing such a reader could read).
  public func publish() throws(GitError) {
    guard fd >= 0, written, !published else { return }
    let index = gitDirectory.appendingPathComponent("index").path
    let previous = Self.previousPath(in: gitDirectory)
    unlink(previous)
    guard link(index, previous) == 0 else {
      if errno == ENOENT { return }
      throw GitError.system("keep \(index) as \(previous)")
    }
    let temp = gitDirectory.appendingPathComponent(
      "dinger/\(Self.temporaryPrefix)publish-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).tmp"
    ).path
    guard link(path, temp) == 0 else {
      let error = GitError.system("link \(path) to \(temp)")
      unlink(previous)
      throw error
    }
    guard rename(temp, index) == 0 else {
      let error = GitError.system("rename \(temp) to \(index)")
      unlink(temp)
      unlink(previous)
      throw error
    }
    published = true
  }

  /// Takes a published index back: the index in effect before `publish` is put back in place.
  /// The lock stays held (and its file may be written again).
  public func unpublish() throws(GitError) {
    guard published else { return }
    let index = gitDirectory.appendingPathComponent("index").path
    guard rename(Self.previousPath(in: gitDirectory), index) == 0 else {
      throw GitError.system("put the index back from \(Self.previousPath(in: gitDirectory))")
    }
    published = false
  }
}

/// A file's device and inode number.
public struct FileIdentity: Sendable, Equatable, CustomStringConvertible {
  public var device: UInt64
  public var inode: UInt64

  public init(device: UInt64, inode: UInt64) { (self.device, self.inode) = (device, inode) }

  init(_ st: stat) { self.init(device: UInt64(st.st_dev), inode: UInt64(st.st_ino)) }

  /// The identity of the file at `path` (not following a symbolic link), or nil.
  public static func of(_ path: String) -> FileIdentity? {
    var st = stat()
    guard lstat(path, &st) == 0 else { return nil }
    return FileIdentity(st)
  }

  /// `device:inode`.
  public var description: String { "\(device):\(inode)" }

  /// Reads `device:inode`.
  public init?(_ text: Substring) {
    let parts = text.split(separator: ":")
    guard parts.count == 2, let d = UInt64(parts[0]), let i = UInt64(parts[1]) else { return nil }
    self.init(device: d, inode: i)
  }
}

extension GitError {
  /// A failed system call, with errno's text.
  static func system(_ operation: String) -> GitError {
    GitError(
      code: GIT_ERROR.rawValue, operation: operation, message: String(cString: strerror(errno)))
  }
}
