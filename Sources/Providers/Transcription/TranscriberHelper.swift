import Base
import FoundationEssentials
import Glibc
import Processes
import Speech
import Synchronization

/// Where `dinger-transcribe` is and how to start it: `DINGER_TRANSCRIBE` (a path), else beside
/// the running `dinger` (where `make install` puts both).
public enum TranscriberHelper {
  public struct Missing: Error, CustomStringConvertible {
    public var description: String
  }

  /// The helper's path, or why there is none.
  public static func path(environment: [String: String] = ProcessInfo.processInfo.environment)
    throws(Missing) -> String
  {
    if let path = environment["DINGER_TRANSCRIBE"], !path.isEmpty {
      guard access(path, X_OK) == 0 else {
        throw Missing(description: "DINGER_TRANSCRIBE names '\(path)', which is not a program")
      }
      return path
    }
    let me =
      (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
      ?? CommandLine.arguments[0]
    let beside = URL(fileURLWithPath: me).deletingLastPathComponent()
      .appendingPathComponent("dinger-transcribe").path
    guard access(beside, X_OK) == 0 else {
      throw Missing(
        description:
          "the transcriber (dinger-transcribe) is not installed beside dinger (\(beside)): install the dinger-transcribe package (sudo apt install ./dinger-transcribe_VERSION_ARCH.deb, from the same release as dinger's; it brings PocketSphinx and PulseAudio's library), or 'make install' from dinger's source, which installs both"
      )
    }
    return beside
  }

  /// Starts the helper with pipes to its standard input and output; its standard error is
  /// kept (the last 4 KiB) to explain a failure. It runs in a process group of its own, with
  /// no blocked signals (see `ChildProcess`).
  /// Writes the names to teach and the turns to cut at into a private temporary file (mode
  /// 0600) for the helper's `--list`: entries `w:NAME` and `t:NAME=SECONDS`, each ended by a NUL.
  /// Names go there, not on the command line: a teammate's long name (or many of them) passed
  /// the kernel's limit for one argument and the helper never started ("Argument list too
  /// long"). The caller removes the file when the helper has read it.
  static func list(words: [String], turns: [(name: String, start: Double)] = []) throws -> String {
    let folder =
      ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    var template = Array("\(folder)/dinger-names-XXXXXX".utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard fd >= 0 else {
      throw Missing(description: "could not make a temporary file in \(folder) for the names")
    }
    defer { close(fd) }
    let path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    var bytes: [UInt8] = []
    for word in words { bytes += Array("w:\(word)".utf8) + [0] }
    for turn in turns { bytes += Array("t:\(turn.name)=\(turn.start)".utf8) + [0] }
    guard bytes.withUnsafeBytes({ FileDescriptor.writeAll(fd, $0) }) else {
      unlink(path)
      throw Missing(description: "could not write the names to \(path)")
    }
    return path
  }

  static func start(
    _ arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws -> (ChildProcess, FileDescriptor, FileDescriptor, StderrTail) {
    let child = try ChildProcess(
      .init(
        [try path(environment: environment)] + arguments, environment: environment, input: .pipe,
        output: .pipe, errors: .pipe, group: .own))
    let (input, output, errors) = child.takeStreams()
    let tail = StderrTail()
    FileDescriptor(errors!).readInBackground { tail.append($0) }
    return (child, FileDescriptor(input!), FileDescriptor(output!), tail)
  }

  /// How the helper ended, in words.
  static func ending(_ child: ChildProcess) -> String {
    let ended = child.wait()
    if let signal = ended.signal { return "the transcriber was stopped (signal \(signal))" }
    return "the transcriber exited with status \(ended.status ?? 0)"
  }
}

/// The end of a helper's standard error.
final class StderrTail: Sendable {
  private let bytes = Mutex(Data())

  func append(_ data: Data) {
    bytes.withLock { bytes in
      bytes.append(data)
      if bytes.count > 4096 { bytes = bytes.suffix(4096) }
    }
  }

  var text: String {
    bytes.withLock { String(decoding: $0, as: UTF8.self).trimmed() }
  }
}

/// Reads the helper's messages, one line each, bounded (a line longer than 64 KiB is cut).
struct MessageReader {
  let handle: FileDescriptor
  private var buffer: [UInt8] = []
  private var ended = false

  init(_ handle: FileDescriptor) { self.handle = handle }

  /// The next message; nil at the end of the output. Lines that are not messages are skipped.
  mutating func next() -> TranscriberMessage? {
    while true {
      if let newline = buffer.firstIndex(of: 10) {
        let line = String(decoding: buffer[..<newline], as: UTF8.self)
        buffer.removeSubrange(...newline)
        if let message = TranscriberMessage(line: Substring(line)) { return message }
        continue
      }
      if ended { return nil }
      let data = handle.availableData
      if data.isEmpty {
        ended = true
        if !buffer.isEmpty { buffer.append(10) }
        continue
      }
      buffer += data
      if buffer.count > 65536, buffer.firstIndex(of: 10) == nil {
        buffer = Array(buffer.prefix(65536)) + [10]
      }
    }
  }
}
