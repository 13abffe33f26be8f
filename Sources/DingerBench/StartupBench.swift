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
    let env = Shell.identity
    try Shell.dataRepository(at: repo, dinger: dinger)
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
    // What a user runs: `make install` strips the binary.
    let stripped = FileManager.default.temporaryDirectory.appendingPathComponent(
      "dinger-bench-stripped-\(getpid())"
    ).path
    defer { unlink(stripped) }
    guard (try? Shell.run("/usr/bin/strip", ["-o", stripped, dinger])) != nil else {
      print("  no strip: cold start and binary size are skipped\n")
      return
    }
    try coldStart(dinger: stripped)
    try binarySize(dinger: stripped)
  }

  /// Start-up of the installed (stripped) binary with its file not in the page cache (dropped
  /// with POSIX_FADV_DONTNEED before every run; the shared libraries stay cached for both), as
  /// after an install or on a busy machine: the kernel reads the mapped file, so this follows its
  /// size.
  static func coldStart(dinger: String) throws {
    print(
      "Cold start (the installed, stripped file dropped from the page cache before each run, median of 15 interleaved)"
    )
    let git = "/usr/bin/git"
    let runs: [(String, String, [String])] = [
      ("git --version", git, ["--version"]),
      ("dinger --version", dinger, ["--version"]),
      ("git status (same repository)", git, ["status", "--short"]),
      ("dinger scrum list (one scrum)", dinger, ["scrum", "list"]),
    ]
    var times = [[Double]](repeating: [], count: runs.count)
    for _ in 0..<15 {
      for (i, run) in runs.enumerated() {
        guard evict(run.1) else {
          print("  can't drop \(run.1) from the page cache: skipped\n")
          return
        }
        times[i].append(try spawn(run.1, run.2))
      }
    }
    let medians = times.map(Shell.median)
    for (i, run) in runs.enumerated() {
      print(
        "  \(run.0.padding(toLength: 38, withPad: " ", startingAt: 0))"
          + String(format: "%7.2f ms", medians[i] * 1000))
    }
    // Issue 30's target: at most 3x git, cold.
    Measure.ratio("--version / git --version, cold", medians[1] / medians[0], target: 3)
    Measure.ratio("scrum list / git status, cold", medians[3] / medians[2], target: 3)
    print("")
  }

  /// Drops `path`'s pages from the page cache (clean pages only; nothing is written).
  static func evict(_ path: String) -> Bool {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    return posix_fadvise(fd, 0, 0, Int32(POSIX_FADV_DONTNEED)) == 0
  }

  /// The binary as `make install` puts it (`dinger`, stripped) against git's.
  static func binarySize(dinger copy: String) throws {
    func megabytes(_ path: String) -> Double {
      var st = stat()
      return stat(path, &st) == 0 ? Double(st.st_size) / 1_048_576 : 0
    }
    let (ours, theirs) = (megabytes(copy), megabytes("/usr/bin/git"))
    print("Binary size (stripped, as make install writes it)")
    print(String(format: "  dinger                                %7.1f MB", ours))
    print(String(format: "  /usr/bin/git                          %7.1f MB", theirs))
    // libgit2 and its 15 libraries are loaded on the first libgit2 call, not at start.
    let libraries = (try? Shell.run("/usr/bin/ldd", [copy]))?.split(separator: "\n").count ?? 0
    print("  shared libraries loaded at start      \(libraries)")
    Measure.ratio("dinger stripped, MB / 25 MB", ours / 25, target: 1)
    print("")
  }

  /// Runs a program with output to /dev/null and returns its wall-clock time in seconds.
  static func spawn(_ path: String, _ args: [String]) throws -> Double {
    try Shell.spawn(path, args).wall
  }
}
