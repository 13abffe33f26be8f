import Foundation

/// Start-up: `dinger --version` against a C program that prints a line (target: at most 5 ms
/// more), and `dinger scrum list` on a one-scrum repository (target: under 10 ms), each spawned
/// straight (no shell) and timed the same way, the median of interleaved runs.
enum StartupBench {
  static func run(dinger: String) throws {
    print("Start-up (each program spawned directly, median of 40 interleaved runs)")
    let work = FileManager.default.temporaryDirectory.appendingPathComponent(
      "dinger-bench-startup-\(UUID().uuidString.prefix(8))")
    defer { try? FileManager.default.removeItem(at: work) }
    try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    let source = work.appendingPathComponent("hello.c")
    try "#include <stdio.h>\nint main(void) { puts(\"hello\"); return 0; }\n".write(
      to: source, atomically: true, encoding: .utf8)
    let hello = work.appendingPathComponent("hello").path
    guard (try? Shell.run("/bin/sh", ["-c", "cc -O2 -o '\(hello)' '\(source.path)'"])) != nil else {
      print("  no C compiler (cc): the start-up comparison is skipped\n")
      return
    }
    let repo = work.appendingPathComponent("one")
    try FileManager.default.createDirectory(at: repo, withIntermediateDirectories: true)
    let env = [
      "GIT_AUTHOR_NAME": "Bench", "GIT_AUTHOR_EMAIL": "b@example.com",
      "GIT_COMMITTER_NAME": "Bench", "GIT_COMMITTER_EMAIL": "b@example.com",
    ]
    try Shell.run("/usr/bin/git", ["init", "-q", "-b", "main", repo.path])
    try Shell.run(dinger, ["init"], in: repo, env: env)
    try Shell.run(dinger, ["scrum", "new", "Design", "--attendee", "Ada"], in: repo, env: env)
    // The record cache keeps files whose times are settled (two seconds old).
    Thread.sleep(forTimeInterval: 2.1)
    let runs: [(String, String, [String])] = [
      ("C hello", hello, []),
      ("dinger --version", dinger, ["--version"]),
      ("git --version", "/usr/bin/git", ["--version"]),
      ("dinger scrum list (one scrum)", dinger, ["scrum", "list"]),
      ("git status (same repository)", "/usr/bin/git", ["status", "--short"]),
    ]
    // NB: the children start in the repository (the bench runs nothing else meanwhile).
    let previous = FileManager.default.currentDirectoryPath
    _ = FileManager.default.changeCurrentDirectoryPath(repo.path)
    defer { _ = FileManager.default.changeCurrentDirectoryPath(previous) }
    var times = [[Double]](repeating: [], count: runs.count)
    for _ in 0..<40 {
      for (i, run) in runs.enumerated() {
        times[i].append(try spawn(run.1, run.2))
      }
    }
    let medians = times.map(Shell.median)
    for (i, run) in runs.enumerated() {
      let name = run.0.padding(toLength: 38, withPad: " ", startingAt: 0)
      print("  \(name)" + String(format: "%7.2f ms", medians[i] * 1000))
    }
    let over = (medians[1] - medians[0]) * 1000
    print(
      String(
        format: "  dinger --version - C hello            %7.2f ms (target <= 5.00) %@", over,
        over <= 5 ? "ok" : "OVER TARGET"))
    let list = medians[3] * 1000
    print(
      String(
        format: "  dinger scrum list                     %7.2f ms (target < 10.00) %@", list,
        list < 10 ? "ok" : "OVER TARGET"))
    print("")
  }

  /// Runs a program with output to /dev/null and returns its wall-clock time in seconds.
  static func spawn(_ path: String, _ args: [String]) throws -> Double {
    try Shell.spawn(path, args).wall
  }
}
