import Base
import FoundationEssentials
import Glibc
import Processes
import Speech

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
          "the transcriber (dinger-transcribe) is not installed beside dinger (\(beside)); 'make install' installs both"
      )
    }
    return beside
  }

  /// Starts the helper with pipes to its standard input and output; its standard error is
  /// kept (the last 4 KiB) to explain a failure. It runs in a process group of its own, with
  /// no blocked signals (see `ChildProcess`).
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
final class StderrTail: @unchecked Sendable {
  private let lock = Lock()
  private var bytes = Data()

  func append(_ data: Data) {
    lock.withLock {
      bytes.append(data)
      if bytes.count > 4096 { bytes = bytes.suffix(4096) }
    }
  }

  var text: String {
    lock.withLock {
      String(decoding: bytes, as: UTF8.self).trimmed()
    }
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
