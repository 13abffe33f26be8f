import Base
import FoundationEssentials
import Glibc

/// Reads a file dinger keeps or git left on disk (`.git/dinger/*`, git's own files) as
/// untrusted: only a regular file (a FIFO there would hang the command; a link is not
/// followed), bounded by its size before anything is allocated.
public enum RegularFile {
  /// The whole file; nil when it does not exist, is no regular file, or is over `limit`.
  public static func read(_ path: String, limit: Int = 256 << 20) -> [UInt8]? {
    let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var st = stat()
    guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG, st.st_size <= limit else {
      return nil
    }
    let size = Int(st.st_size)
    var failed = false
    let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
      var done = 0
      while done < size {
        let n = Glibc.read(fd, buffer.baseAddress! + done, size - done)
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else {
          failed = n < 0
          break
        }
        done += n
      }
      count = done
    }
    return failed ? nil : bytes
  }
}
