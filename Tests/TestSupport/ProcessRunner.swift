import Foundation

/// What a finished process printed and returned.
public struct ProcessResult: Sendable {
  /// Exit status.
  public var status: Int32
  /// Standard output.
  public var stdout: String
  /// Standard error.
  public var stderr: String
}

/// Runs programs and collects their output.
public enum ProcessRunner {
  /// Runs `executable` with `arguments` in `directory`, feeding `input` on standard input.
  @discardableResult
  public static func run(
    _ executable: String, _ arguments: [String], in directory: URL? = nil,
    environment: [String: String] = [:], input: String? = nil
  ) throws -> ProcessResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = directory }
    var env = ProcessInfo.processInfo.environment
    env["NO_COLOR"] = "1"
    env.removeValue(forKey: "DINGER_REPO")
    for (k, v) in environment { env[k] = v }
    process.environment = env
    let out = Pipe()
    let err = Pipe()
    let inPipe = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = inPipe
    try process.run()
    // Read both pipes while the process runs so a full pipe never blocks it.
    nonisolated(unsafe) var outData = Data()
    nonisolated(unsafe) var errData = Data()
    let group = DispatchGroup()
    group.enter()
    DispatchQueue.global().async {
      outData = out.fileHandleForReading.readDataToEndOfFile()
      group.leave()
    }
    group.enter()
    DispatchQueue.global().async {
      errData = err.fileHandleForReading.readDataToEndOfFile()
      group.leave()
    }
    if let input { inPipe.fileHandleForWriting.write(Data(input.utf8)) }
    try? inPipe.fileHandleForWriting.close()
    process.waitUntilExit()
    group.wait()
    return ProcessResult(
      status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
      stderr: String(decoding: errData, as: UTF8.self))
  }

  /// Finds a program on PATH.
  public static func which(_ name: String) -> String? {
    for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
      let candidate = "\(dir)/\(name)"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
  }
}

/// The `dinger` binary built next to the tests (or `$DINGER_BIN`).
public var dingerBinary: String {
  if let bin = ProcessInfo.processInfo.environment["DINGER_BIN"] { return bin }
  // The test bundle lives in the build folder, next to the executable.
  let bundle = Bundle.main.bundleURL
  for dir in [bundle, bundle.deletingLastPathComponent()] {
    let candidate = dir.appendingPathComponent("dinger").path
    if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
  }
  return packageRoot.appendingPathComponent(".build/debug/dinger").path
}
