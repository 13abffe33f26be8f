import Glibc

/// dinger's one way to put a whole file in place (git's lockfile.c is the model): a new file
/// made beside it under a name of its own (`O_CREAT | O_EXCL | O_NOFOLLOW`, so nothing planted
/// there is written through), written whole, fsynced when it is data, then renamed over the
/// target. A reader sees the old file or the new one, never half of one; a link at the target
/// is replaced, never followed; on any failure the new file is removed and the old one stays.
///
/// Writers that hold git's own lock protocol (`index.lock`: `IndexLock`, `Checkout`) and the
/// working tree's writes relative to an open folder (`WorkTree`, which must not follow a link in
/// any folder on the way) keep their own; docs/architecture.md says why.
public enum AtomicFile {
  /// Whether the bytes must survive a power cut once the write returns.
  public enum Durability: Sendable {
    /// fsync before the rename: data a person wrote, or a file they asked for.
    case durable
    /// No fsync: a cache, which is made again when it is lost.
    case cache
  }

  /// A write that did not happen; the old file, if any, is as it was.
  public struct Failure: Error, Sendable, CustomStringConvertible {
    public let path: String
    public let code: Int32
    public var description: String { "could not write \(path): \(String(cString: strerror(code)))" }
  }

  /// Replaces `path` with `bytes`.
  public static func write(
    _ bytes: [UInt8], to path: String, mode: mode_t = 0o644, durability: Durability
  ) throws(Failure) {
    try write([bytes[...]], to: path, mode: mode, durability: durability)
  }

  /// Replaces `path` with `pieces`, one after another (a file made of buffers it already has).
  public static func write(
    _ pieces: [ArraySlice<UInt8>], to path: String, mode: mode_t = 0o644, durability: Durability
  ) throws(Failure) {
    let slash = path.lastIndex(of: "/")
    let folder = slash.map { String(path[..<$0]) } ?? "."
    let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
    let temp = "\(folder)/.\(name).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
    // NB: removed if dinger is interrupted before the rename (it was left behind on Ctrl-C).
    let slot = SignalCleanup.register(temp)
    defer { SignalCleanup.release(slot) }
    let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
    guard fd >= 0 else { throw Failure(path: path, code: errno) }
    if let stop = getenv("DINGER_TEST_SIGNAL_AT"), String(cString: stop) == "atomic-write" {
      // Tests only: an interrupt while the temporary file exists.
      _ = raise(SIGINT)
    }
    var failed: Int32 = 0
    for piece in pieces where failed == 0 {
      if !piece.withUnsafeBytes({ FileDescriptor.writeAll(fd, $0) }) { failed = errno }
    }
    if failed == 0, durability == .durable, fsync(fd) != 0 { failed = errno }
    if close(fd) != 0, failed == 0 { failed = errno }
    if failed == 0, rename(temp, path) != 0 { failed = errno }
    guard failed == 0 else {
      unlink(temp)
      throw Failure(path: path, code: failed == 0 ? EIO : failed)
    }
  }
}
