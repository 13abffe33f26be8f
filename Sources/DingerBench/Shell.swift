import Foundation
import Processes
import TestSupport

/// Runs programs for the benchmarks and times them.
enum Shell {
  /// Runs a program, returns stdout; throws on failure.
  @discardableResult
  static func run(
    _ executable: String, _ args: [String], in dir: URL? = nil, env: [String: String] = [:],
    input: Data? = nil
  ) throws -> String {
    let result = try ProcessRunner.run(
      executable, args, in: dir, environment: env,
      input: input.map { String(decoding: $0, as: UTF8.self) })
    guard result.status == 0 else {
      throw BenchError(
        "\(executable) \(args.prefix(3).joined(separator: " ")) failed: \(result.stderr)")
    }
    return result.stdout
  }

  /// Seconds one run of a shell snippet takes.
  static func time(_ script: String, in dir: URL, env: [String: String] = [:]) throws -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try run("/bin/sh", ["-c", script], in: dir, env: env)
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
  }

  /// Who the benchmarks' commits are by.
  static let identity = [
    "GIT_AUTHOR_NAME": "Bench", "GIT_AUTHOR_EMAIL": "b@example.com",
    "GIT_COMMITTER_NAME": "Bench", "GIT_COMMITTER_EMAIL": "b@example.com",
  ]

  /// A new data repository at `repo` (`git init`, then `dinger init`).
  static func dataRepository(at repo: URL, dinger: String) throws {
    try FileManager.default.createDirectory(at: repo, withIntermediateDirectories: true)
    try run("/usr/bin/git", ["init", "-q", "-b", "main", repo.path])
    try run(dinger, ["init"], in: repo, env: identity)
  }

  /// One run of a shell snippet in `dir`: its wall-clock seconds and the peak memory (MB) of
  /// the largest process it ran (wait4's rusage covers the shell's waited-for children).
  static func measure(_ script: String, in dir: URL, env: [String: String] = [:]) throws -> (
    seconds: Double, peakMB: Double
  ) {
    let exports = env.sorted { $0.key < $1.key }.map { "export \($0.key)='\($0.value)'; " }
      .joined()
    let run = try spawn("/bin/sh", ["-c", "cd '\(dir.path)' && \(exports)\(script)"])
    return (run.wall, Double(run.rss) / 1024)
  }

  /// Runs a program straight (no shell, output to /dev/null) to its end: its wall-clock and CPU
  /// seconds and peak resident memory in KiB, from wait4's resource usage.
  static func spawn(_ path: String, _ args: [String]) throws -> (
    wall: Double, cpu: Double, rss: Int
  ) {
    let start = DispatchTime.now().uptimeNanoseconds
    let child: ChildProcess
    do {
      child = try ChildProcess(
        .init([path] + args, input: .inherit, output: .null, errors: .inherit))
    } catch {
      throw BenchError("can't run \(path): \(error)")
    }
    let (_, cpu, rss) = child.waitWithUsage()
    let wall = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    return (wall, cpu, rss)
  }

  /// `spawn` with `dir` as the working directory (the child changes into it through `sh`).
  static func spawnIn(_ dir: URL, _ path: String, _ args: [String]) throws -> (
    wall: Double, cpu: Double, rss: Int
  ) {
    try spawn("/bin/sh", ["-c", "cd \"$0\" && exec \"$@\"", dir.path, path] + args)
  }

  /// The path of a program on PATH.
  static func which(_ name: String) -> String? {
    for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
      let candidate = "\(dir)/\(name)"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
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
