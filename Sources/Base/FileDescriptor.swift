import FoundationEssentials
import Glibc
import Synchronization

/// An open file descriptor, closed once (by `close()` or when the last reference goes): what
/// Foundation's FileHandle did for pipes to and from helpers, without full Foundation.
public final class FileDescriptor: Sendable {
  /// The descriptor; -1 once closed (exchanged, so only one `close` closes it).
  private let fd: Atomic<Int32>

  /// Takes ownership of `fd`.
  public init(_ fd: Int32) { self.fd = Atomic(fd) }

  /// Opens `path` for reading; nil when it can't be.
  public convenience init?(forReadingAtPath path: String) {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    self.init(fd)
  }

  deinit { close() }

  /// The raw descriptor; -1 once closed.
  public var rawValue: Int32 { fd.load(ordering: .acquiring) }

  /// Closes it (a second call does nothing).
  public func close() {
    let old = fd.exchange(-1, ordering: .acquiringAndReleasing)
    if old >= 0 { Glibc.close(old) }
  }

  /// What one read returns (up to 64 KiB), waiting for it; empty at the end or on an error.
  public var availableData: Data { read(upToCount: 65536) ?? Data() }

  /// Up to `count` bytes from one read; nil on an error.
  public func read(upToCount count: Int) -> Data? {
    var buffer = [UInt8](repeating: 0, count: count)
    while true {
      let n = buffer.withUnsafeMutableBytes { Glibc.read(rawValue, $0.baseAddress, count) }
      if n < 0 && errno == EINTR { continue }
      guard n >= 0 else { return nil }
      return Data(buffer[..<n])
    }
  }

  /// Writes all of `data`; throws the errno when it can't.
  public func write(contentsOf data: Data) throws(FileDescriptorError) {
    var rest = data[...]
    while !rest.isEmpty {
      let n = rest.withUnsafeBytes { Glibc.write(rawValue, $0.baseAddress, $0.count) }
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else { throw FileDescriptorError(code: errno) }
      rest = rest.dropFirst(n)
    }
  }

  /// The file's size (moving to its end); nil when it can't seek.
  public func seekToEnd() -> UInt64? {
    let end = lseek(rawValue, 0, SEEK_END)
    return end < 0 ? nil : UInt64(end)
  }

  /// Moves to `offset` from the start.
  public func seek(toOffset offset: UInt64) { _ = lseek(rawValue, off_t(offset), SEEK_SET) }

  /// Reads until the end on a thread of its own, giving each chunk to `handler`, then closes.
  public func readInBackground(_ handler: @escaping @Sendable (Data) -> Void) {
    Threads.start { [self] in
      while true {
        let data = availableData
        if data.isEmpty { break }
        handler(data)
      }
      close()
    }
  }
}

extension FileDescriptor {
  /// Up to `count` bytes of `fd` from `offset` (pread, retried until it has them all or the
  /// file ends): fewer at the end of the file, nil on an error (`errno` says which).
  public static func read(_ fd: Int32, count: Int, at offset: Int) -> [UInt8]? {
    var out = [UInt8](repeating: 0, count: count)
    var done = 0
    while done < count {
      let n = out.withUnsafeMutableBytes {
        pread(fd, $0.baseAddress! + done, count - done, off_t(offset + done))
      }
      if n < 0 && errno == EINTR { continue }
      guard n >= 0 else { return nil }
      if n == 0 { break }
      done += n
    }
    out.removeSubrange(done...)
    return out
  }

  /// Writes all of `bytes` to `fd` (retried after a short write or EINTR); false on an error
  /// (`errno` says which).
  public static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
    var done = 0
    while done < bytes.count {
      let n = Glibc.write(fd, bytes.baseAddress! + done, bytes.count - done)
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else { return false }
      done += n
    }
    return true
  }
}

/// A write that failed: the errno.
public struct FileDescriptorError: Error, CustomStringConvertible {
  /// The errno.
  public let code: Int32
  public var description: String { String(cString: strerror(code)) }
}
