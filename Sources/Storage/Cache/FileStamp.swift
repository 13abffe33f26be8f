import Base
import FoundationEssentials
import Glibc

/// What tells one version of a file from another without reading it, as git's index does: size,
/// modification and change times to the nanosecond, inode and device.
public struct FileStamp: Hashable, Sendable {
  public var size: Int64
  public var modified: Int64  // nanoseconds since 1970
  public var changed: Int64
  public var inode: UInt64
  public var device: UInt64

  public init(size: Int64, modified: Int64, changed: Int64, inode: UInt64, device: UInt64) {
    (self.size, self.modified, self.changed, self.inode, self.device) =
      (size, modified, changed, inode, device)
  }

  init(_ st: stat) {
    self.init(
      size: Int64(st.st_size),
      modified: Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec),
      changed: Int64(st.st_ctim.tv_sec) * 1_000_000_000 + Int64(st.st_ctim.tv_nsec),
      inode: UInt64(st.st_ino), device: UInt64(st.st_dev))
  }

  /// The file's times are far enough behind `now` (nanoseconds) that a later change must give
  /// other ones. A file changed in the same clock tick as it was read (or on a file system that
  /// keeps whole seconds) could keep its stamp through an edit of the same size: git calls such
  /// an entry "racy". Those are never cached, only read again next time.
  public func isSettled(at now: Int64) -> Bool {
    max(modified, changed) < now - Self.racyWindow
  }

  /// Two seconds: more than any file system's time granularity that dinger meets.
  static let racyWindow: Int64 = 2_000_000_000

  /// The wall clock in the stamps' unit.
  static func now() -> Int64 {
    var ts = timespec()
    clock_gettime(CLOCK_REALTIME, &ts)
    return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
  }

  func write(to w: inout CacheWriter) {
    w.u64(UInt64(bitPattern: size))
    w.u64(UInt64(bitPattern: modified))
    w.u64(UInt64(bitPattern: changed))
    w.u64(inode)
    w.u64(device)
  }

  static func read(_ r: inout CacheReader) throws(CacheReader.Damaged) -> FileStamp {
    FileStamp(
      size: Int64(bitPattern: try r.u64()), modified: Int64(bitPattern: try r.u64()),
      changed: Int64(bitPattern: try r.u64()), inode: try r.u64(), device: try r.u64())
  }
}
