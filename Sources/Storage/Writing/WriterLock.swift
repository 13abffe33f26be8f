import Base
import FoundationEssentials
import Git
import Glibc

/// An exclusive lock between dinger processes writing to one repository: `flock` on a file in
/// `.git/dinger/`, released by the kernel when the process exits, even by a kill. While a
/// write is under way the file holds its journal (`WriteJournal`): whoever takes the lock
/// next and finds the file not empty knows the last writer died there, and what it had done.
final class WriterLock {
  private let fd: Int32
  let path: String
  private var released = false

  /// Waits for the lock.
  convenience init(at folder: URL, name: String = "write.lock") throws {
    guard let lock = try Self.open(folder, name, wait: true) else {
      throw StorageError("could not take the writer lock in \(folder.path)")
    }
    self.init(fd: lock.fd, path: lock.path)
  }

  private init(fd: Int32, path: String) { (self.fd, self.path) = (fd, path) }

  /// The lock if nobody holds it now, else nil.
  static func tryTake(at folder: URL, name: String = "write.lock") throws -> WriterLock? {
    try open(folder, name, wait: false).map { WriterLock(fd: $0.fd, path: $0.path) }
  }

  private static func open(_ folder: URL, _ name: String, wait: Bool) throws -> (
    fd: Int32, path: String
  )? {
    try OwnFolder.check(folder)
    if mkdir(folder.path, 0o755) != 0 && errno != EEXIST {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }
    let path = folder.appendingPathComponent(name).path
    // NB: O_NONBLOCK and a regular file only: a FIFO put there must not hang every command.
    let fd = Glibc.open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0o644)
    guard fd >= 0 else {
      throw StorageError(
        "could not open dinger's writer lock \(path): \(String(cString: strerror(errno)))")
    }
    var st = stat()
    guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else {
      close(fd)
      throw StorageError(
        "dinger's writer lock \(path) is not a regular file; remove it (rm '\(path)') and run this again"
      )
    }
    while flock(fd, wait ? LOCK_EX : LOCK_EX | LOCK_NB) != 0 {
      if errno == EINTR { continue }
      let code = errno
      close(fd)
      if code == EWOULDBLOCK { return nil }
      throw StorageError(
        "could not take dinger's writer lock \(path): \(String(cString: strerror(code)))")
    }
    return (fd, path)
  }

  /// The journal the last holder left, or nil when it finished cleanly.
  func journal() -> WriteJournal? {
    var st = stat()
    guard fstat(fd, &st) == 0, st.st_size > 0, st.st_size < 64 * 1024 else { return nil }
    var bytes = [UInt8](repeating: 0, count: Int(st.st_size))
    let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
    guard n > 0 else { return nil }
    return WriteJournal(text: String(decoding: bytes[0..<n], as: UTF8.self))
  }

  /// Records where this write stands.
  // NB: written over the old journal, then cut to length: a kill in between leaves the new
  // journal (it ends at its `end` line) followed by old bytes, never an empty file while a
  // lock it names exists.
  func record(_ journal: WriteJournal) {
    let bytes = Array(journal.text.utf8)
    _ = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
    _ = ftruncate(fd, off_t(bytes.count))
  }

  /// The write finished: nothing for anyone to repair.
  func clear() { _ = ftruncate(fd, 0) }

  /// Gives the lock up; once (a second call does nothing).
  func release() {
    guard !released else { return }
    released = true
    flock(fd, LOCK_UN)
    close(fd)
  }

  /// True when the lock file holds a journal: a writer is under way or died. One `stat`.
  static func hasJournal(in folder: URL, name: String = "write.lock") -> Bool {
    var st = stat()
    return stat(folder.appendingPathComponent(name).path, &st) == 0 && st.st_size > 0
  }
}

/// Where a write stood, kept in the writer lock's file while it runs.
struct WriteJournal: Equatable {
  enum Step: String {
    /// About to create `index.lock` (it may or may not exist yet).
    case locking
    /// Holds `index.lock` (`indexLock` names it); nothing committed.
    case locked
    /// Built `commit` on `head` and is moving `branch` (it may have moved).
    case moving
  }

  var step: Step
  var pid: Int32 = getpid()
  /// When the step was recorded (seconds since 1970).
  var time: Double = Date().timeIntervalSince1970
  var indexLock: FileIdentity?
  var branch: String?
  var head: ObjectID?
  var commit: ObjectID?

  init(step: Step, indexLock: FileIdentity? = nil) {
    self.step = step
    self.indexLock = indexLock
  }

  var text: String {
    var lines = ["dinger-write 1", "step \(step.rawValue)", "pid \(pid)", "time \(time)"]
    if let indexLock { lines.append("index-lock \(indexLock)") }
    if let branch { lines.append("branch \(branch)") }
    if let head { lines.append("head \(head.hex)") }
    if let commit { lines.append("commit \(commit.hex)") }
    lines.append("end")
    return lines.joined(separator: "\n") + "\n"
  }

  /// Reads a journal, up to its `end` line; nil for anything else.
  init?(text: String) {
    let all = text.split(separator: "\n", omittingEmptySubsequences: false)
    guard all.first == "dinger-write 1", let end = all.firstIndex(of: "end") else { return nil }
    var step: Step?
    for line in all[1..<end] {
      guard let space = line.firstIndex(of: " ") else { return nil }
      let (key, value) = (line[..<space], line[line.index(after: space)...])
      switch key {
      case "step": step = Step(rawValue: String(value))
      case "pid": pid = Int32(value) ?? 0
      case "time": time = Double(value) ?? 0
      case "index-lock": indexLock = FileIdentity(value)
      case "branch": branch = String(value)
      case "head": head = ObjectID(hex: String(value))
      case "commit": commit = ObjectID(hex: String(value))
      default: continue
      }
    }
    guard let step else { return nil }
    self.step = step
  }
}

/// Waiting for git's own lock files (`index.lock`, `refs/heads/main.lock`), which a running
/// `git` holds for milliseconds: retried with backoff for a bounded time, then a message that
/// names the file, its age, and the command that removes it.
enum LockWait {
  /// How long to wait for a lock someone else holds: `DINGER_LOCK_TIMEOUT` seconds, default 10.
  static var timeout: Double {
    getenv("DINGER_LOCK_TIMEOUT").flatMap { Double(String(cString: $0)) } ?? 10
  }

  /// Calls `attempt` until it returns a value, sleeping 2, 4, 8 ... 200 ms between tries;
  /// after `timeout` seconds, throws `busy(path)`.
  static func retrying<T>(lockFile path: String, _ attempt: () throws -> T?) throws -> T {
    let start = Date()
    var pause: useconds_t = 2_000
    while true {
      if let value = try attempt() { return value }
      if Date().timeIntervalSince(start) >= timeout { throw busy(path) }
      usleep(pause + useconds_t.random(in: 0...(pause / 2)))
      pause = min(pause * 2, 200_000)
    }
  }

  /// A lock nobody gave up in time.
  static func busy(_ path: String) -> StorageError {
    var age = ""
    var st = stat()
    if lstat(path, &st) == 0 {
      let seconds = Int(Date().timeIntervalSince1970) - Int(st.st_mtim.tv_sec)
      age = " (made \(Self.age(seconds)) ago)"
    }
    return StorageError(
      "\(path) exists\(age) and no running dinger holds it: another git command is running, or one was killed and left it behind; if no git command is running, remove it with: rm -f '\(path)'",
      kind: .lockBusy(path))
  }

  static func age(_ seconds: Int) -> String {
    switch seconds {
    case ..<120: return "\(max(seconds, 0)) s"
    case ..<7200: return "\(seconds / 60) min"
    case ..<172_800: return "\(seconds / 3600) h"
    default: return "\(seconds / 86400) days"
    }
  }
}

/// Test-only stop points: `DINGER_TEST_STOP_AT=ref` kills the process with SIGKILL right after the
/// branch moved, so tests can crash a write in each window between its steps.
public enum StopPoint {
  private static let wanted: String? = getenv("DINGER_TEST_STOP_AT").map { String(cString: $0) }

  /// Whether a test asked to stop at `name` (for a step that is only a step when it does).
  public static func wants(_ name: String) -> Bool { wanted == name }

  public static func reached(_ name: String) {
    guard let wanted, wanted == name else { return }
    kill(getpid(), SIGKILL)
  }
}

extension DataRepository {
  /// Runs `body` holding dinger's lock `name` in `.git/dinger/` (a `flock`, released when
  /// `body` ends or the process dies): what a run reads, sends and then remembers (a reminder
  /// posted) is done by one dinger at a time.
  public func exclusively<T>(_ name: String, _ body: () throws -> T) throws -> T {
    let lock = try WriterLock(at: dingerFolder, name: name)
    defer { lock.release() }
    return try body()
  }
}
