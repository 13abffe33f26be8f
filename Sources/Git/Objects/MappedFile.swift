#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A whole file mapped read-only into memory, unmapped when released.
final class MappedFile: @unchecked Sendable {
  /// The file's bytes.
  let bytes: UnsafeRawBufferPointer

  /// Maps the file at `path`; nil when it cannot be opened or is empty.
  init?(path: String) {
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size > 0 else {
      return nil
    }
    let count = Int(info.st_size)
    guard let base = mmap(nil, count, PROT_READ, MAP_PRIVATE, fd, 0), base != MAP_FAILED else {
      return nil
    }
    bytes = UnsafeRawBufferPointer(start: base, count: count)
  }

  deinit { munmap(UnsafeMutableRawPointer(mutating: bytes.baseAddress), bytes.count) }

  /// The big-endian 32-bit number at `offset` (the caller checks the bounds).
  func uint32(at offset: Int) -> UInt32 {
    bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self).bigEndian
  }
}
