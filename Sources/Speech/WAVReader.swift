import Base
import Glibc

/// A WAV recording read a tenth of a second at a time, at 16 kHz mono: a 60-minute file of any
/// rate costs a few hundred kilobytes, not its whole size twice. Only regular files: a folder
/// is named as one, and a FIFO or a device (`/dev/zero`) is refused before anything is read.
public final class WAVReader {
  public let header: WAVFile.Header
  private let fd: Int32
  private var offset: Int
  private var left: Int
  private var converter: WAVFile.Converter
  private var finished = false

  /// Opens `path`; throws what is wrong with it, in words for the person who named it.
  public init(path: String) throws(WAVFile.Problem) {
    // NB: O_NONBLOCK so that opening a FIFO does not wait for a writer; checked below.
    let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else {
      throw WAVFile.Problem(String(cString: strerror(errno)))
    }
    var st = stat()
    guard fstat(fd, &st) == 0 else {
      close(fd)
      throw WAVFile.Problem(String(cString: strerror(errno)))
    }
    switch st.st_mode & S_IFMT {
    case S_IFREG: break
    case S_IFDIR:
      close(fd)
      throw WAVFile.Problem("it is a folder, not a recording")
    default:
      close(fd)
      throw WAVFile.Problem(
        "it is not a regular file (a pipe or a device); save the recording to a file first")
    }
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
    guard let head = FileDescriptor.read(fd, count: min(65536, Int(st.st_size)), at: 0) else {
      close(fd)
      throw WAVFile.Problem(String(cString: strerror(errno)))
    }
    do {
      header = try WAVFile.header(head, fileSize: Int(st.st_size))
    } catch {
      close(fd)
      throw error
    }
    self.fd = fd
    offset = header.dataStart
    left = header.frames * 2 * header.channels
    converter = WAVFile.Converter(header)
  }

  deinit { close(fd) }

  /// The next samples (about 100 ms of the recording), nil at the end.
  public func next() throws(WAVFile.Problem) -> [Int16]? {
    if left == 0 {
      guard !finished else { return nil }
      finished = true
      let tail = converter.finish()
      return tail.isEmpty ? nil : tail
    }
    let frameBytes = 2 * header.channels
    let want = min(left, max(1, header.rate / 10) * frameBytes)
    guard let bytes = FileDescriptor.read(fd, count: want, at: offset) else {
      throw WAVFile.Problem(String(cString: strerror(errno)))
    }
    guard bytes.count == want else {
      throw WAVFile.Problem("the file got shorter while it was read")
    }
    offset += want
    left -= want
    return converter.convert(bytes[...])
  }
}
