import Foundation

/// Runs programs for the benchmarks and times them.
enum Shell {
  /// Runs a program, returns stdout; throws on failure.
  @discardableResult
  static func run(
    _ executable: String, _ args: [String], in dir: URL? = nil, env: [String: String] = [:],
    input: Data? = nil
  ) throws -> String {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: executable)
    p.arguments = args
    if let dir { p.currentDirectoryURL = dir }
    var environment = ProcessInfo.processInfo.environment
    for (k, v) in env { environment[k] = v }
    p.environment = environment
    let out = Pipe()
    let err = Pipe()
    p.standardOutput = out
    p.standardError = err
    let inPipe = Pipe()
    p.standardInput = input == nil ? FileHandle.nullDevice : inPipe
    try p.run()
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
    if let input {
      inPipe.fileHandleForWriting.write(input)
      try? inPipe.fileHandleForWriting.close()
    }
    p.waitUntilExit()
    group.wait()
    guard p.terminationStatus == 0 else {
      throw BenchError(
        "\(executable) \(args.prefix(3).joined(separator: " ")) failed: \(String(decoding: errData, as: UTF8.self))"
      )
    }
    return String(decoding: outData, as: UTF8.self)
  }

  /// Seconds one run of a shell snippet takes.
  static func time(_ script: String, in dir: URL, env: [String: String] = [:]) throws -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try run("/bin/sh", ["-c", script], in: dir, env: env)
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
  }

  /// The median of a list.
  static func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted[sorted.count / 2]
  }
}

struct BenchError: Error, CustomStringConvertible {
  var description: String
  init(_ d: String) { description = d }
}
