import Foundation

/// Ten years of meetings: repositories of 50 scrums with 10,000, 40,000 and 130,000 meetings, one
/// commit each (weekday meetings in date order), made once with `git fast-import` and kept under
/// `.build/bench-scale-N`. Each command is printed against its baseline at each size, and the
/// growth from the smallest size to the largest, so a superlinear step shows as a number (13x
/// the data should cost about 13x). `DingerBench scale-quick` (make bench-quick) runs 10,000 only.
enum ScaleBench {
  static let scrums = 50

  static func run(dinger: String, root: URL, sizes: [Int]) throws {
    print("Scale: \(scrums) scrums, one commit per meeting")
    var ratios: [String: [(size: Int, dinger: Double, base: Double)]] = [:]
    for size in sizes {
      let repo = try prepare(size: size, under: root)
      let env = ["GIT_CONFIG_NOSYSTEM": "1"]
      let scrum = "team-7"
      // NB: clones are written to memory (/dev/shm) where there is one: on a disk, the
      // write-back of one clone slowed the next and the figures said more of the disk than of
      // the clone.
      let clones = try cloneFolder(beside: repo)
      defer { try? FileManager.default.removeItem(atPath: clones) }
      let figures: [(String, String, String)] = [
        (
          "check warm / cat of all files", "'\(dinger)' check >/dev/null",
          "find scrums history -name '*.yaml' -exec cat {} + >/dev/null"
        ),
        // NB: the floor a warm check stands on: one stat of every record file (find's size
        // and time need one each), which is all the record cache needs to trust its entries.
        (
          "check warm / stat of every record", "'\(dinger)' check >/dev/null",
          "find scrums history -name '*.yaml' -printf '%s %T@\\n' >/dev/null"
        ),
        (
          "history S / cat of S's meetings", "'\(dinger)' history \(scrum) >/dev/null",
          "cat history/\(scrum)/*.yaml >/dev/null"
        ),
        (
          "log S warm / git log -- S", "'\(dinger)' log \(scrum) >/dev/null",
          "git log --format=%H -- history/\(scrum) scrums/\(scrum).yaml >/dev/null"
        ),
        // NB: each clone goes to a fresh folder beside the repository, removed first.
        (
          // NB: against `git clone PATH`, the same work (dinger links packs for file:// as a
          // path clone does; `git clone file://` repacks, not a fair baseline).
          "clone file:// / git clone PATH",
          "rm -rf \(clones)/d && '\(dinger)' clone file://\(repo.path) \(clones)/d >/dev/null",
          "rm -rf \(clones)/g && git clone -q \(repo.path) \(clones)/g"
        ),
        (
          "clone PATH / git clone PATH",
          "rm -rf \(clones)/d && '\(dinger)' clone \(repo.path) \(clones)/d >/dev/null",
          "rm -rf \(clones)/g && git clone -q \(repo.path) \(clones)/g"
        ),
      ]
      print("  \(size) meetings:")
      // Cold rows: the index or record cache removed before each dinger run, three rounds
      // interleaved with the baseline, medians.
      let dingerDir = repo.appendingPathComponent(".git/dinger")
      let cold: [(String, String, String, String, Double)] = [
        (
          "log -n 20 first run / git log -n 20", "rm -rf '\(dingerDir.path)'",
          "'\(dinger)' log -n 20 >/dev/null", "git log -n 20 --name-status >/dev/null", 2
        ),
        (
          "log S cold / git log -- S", "rm -rf '\(dingerDir.path)'",
          "'\(dinger)' log \(scrum) >/dev/null",
          "git log --format=%H -- history/\(scrum) scrums/\(scrum).yaml >/dev/null", 2
        ),
        (
          "check cold / cat of all files", "rm -rf '\(dingerDir.path)/records-v1'",
          "'\(dinger)' check >/dev/null",
          "find scrums history -name '*.yaml' -exec cat {} + >/dev/null", 5
        ),
      ]
      for (name, reset, ours, theirs, target) in cold {
        var a: [(seconds: Double, peakMB: Double)] = []
        var b: [(seconds: Double, peakMB: Double)] = []
        for _ in 0..<3 {
          try Shell.run("/bin/sh", ["-c", reset], in: repo)
          a.append(try Shell.measure(ours, in: repo, env: env))
          b.append(try Shell.measure(theirs, in: repo, env: env))
        }
        report(name, size, a, b, target: target, into: &ratios)
      }
      for (name, ours, theirs) in figures {
        var a: [(seconds: Double, peakMB: Double)] = []
        var b: [(seconds: Double, peakMB: Double)] = []
        for _ in 0..<3 {
          a.append(try Shell.measure(ours, in: repo, env: env))
          b.append(try Shell.measure(theirs, in: repo, env: env))
        }
        let target: Double =
          name.hasPrefix("check warm / stat")
          ? 2
          : name.hasPrefix("check")
            ? 5 : name.hasPrefix("history") ? 3 : name.hasPrefix("clone") ? 1.5 : 0.25
        report(name, size, a, b, target: target, into: &ratios)
      }
      // The whole repository's log, warm: the index a first full `log` builds, read from its
      // end (`log -n N` alone leaves it unbuilt), against git's.
      try Shell.run("/bin/sh", ["-c", "'\(dinger)' log >/dev/null"], in: repo)
      do {
        var a: [(seconds: Double, peakMB: Double)] = []
        var b: [(seconds: Double, peakMB: Double)] = []
        for _ in 0..<3 {
          a.append(try Shell.measure("'\(dinger)' log -n 20 >/dev/null", in: repo, env: env))
          b.append(try Shell.measure("git log -n 20 --name-status >/dev/null", in: repo, env: env))
        }
        report("log -n 20 warm / git log -n 20", size, a, b, target: 0.25, into: &ratios)
      }
      // `report` reads every meeting (the cache warm) and renders: against check warm, and its
      // peak memory (target under 300 MB).
      var reportTimes: [Double] = []
      var checkTimes: [Double] = []
      var peak = 0
      for _ in 0..<3 {
        let run = try Shell.spawnIn(repo, dinger, ["report", "--out", "../report.html"])
        reportTimes.append(run.wall)
        peak = max(peak, run.rss)
        checkTimes.append(try Shell.time("'\(dinger)' check >/dev/null", in: repo, env: env))
      }
      report(
        "report / check warm", size, [(Shell.median(reportTimes), Double(peak) / 1024)],
        [(Shell.median(checkTimes), 0)], target: 3, into: &ratios)
      print(String(format: "    report peak memory %.0f MB (target < 300)", Double(peak) / 1024))
    }
    if sizes.count > 1 {
      print(
        "  growth from \(sizes.first!) to \(sizes.last!) meetings (\(sizes.last! / sizes.first!)x the data):"
      )
      for (name, rows) in ratios.sorted(by: { $0.key < $1.key }) {
        guard let first = rows.first, let last = rows.last else { continue }
        print(
          "    \(name.padding(toLength: 38, withPad: " ", startingAt: 0))"
            + String(
              format: "dinger %.1fx, baseline %.1fx", last.dinger / first.dinger,
              last.base / first.base))
      }
    }
    for size in sizes {
      let folder = root.appendingPathComponent("bench-scale-\(size)")
      for name in ["clone-d", "clone-g"] {
        try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
      }
    }
    print("")
  }

  /// One row: median times of dinger's runs and the baseline's, their ratio against the
  /// target, and each side's peak memory.
  private static func report(
    _ name: String, _ size: Int, _ a: [(seconds: Double, peakMB: Double)],
    _ b: [(seconds: Double, peakMB: Double)], target: Double,
    into ratios: inout [String: [(size: Int, dinger: Double, base: Double)]]
  ) {
    let (ours, base) = (Shell.median(a.map(\.seconds)), Shell.median(b.map(\.seconds)))
    let (peakOurs, peakBase) = (a.map(\.peakMB).max() ?? 0, b.map(\.peakMB).max() ?? 0)
    print(
      "    \(name.padding(toLength: 38, withPad: " ", startingAt: 0))"
        + String(format: "%8.1f ms vs %8.1f ms  ", ours * 1000, base * 1000)
        + String(
          format: "ratio %.2f (target <= %.2f) %@", ours / base, target,
          ours / base <= target ? "ok" : "OVER TARGET")
        + String(format: "  peak %.0f MB vs %.0f MB", peakOurs, peakBase))
    ratios[name, default: []].append((size, ours, base))
  }

  /// A fresh folder for the clone rows: under /dev/shm when it is there, else beside `repo`.
  static func cloneFolder(beside repo: URL) throws -> String {
    let base =
      FileManager.default.fileExists(atPath: "/dev/shm")
      ? "/dev/shm" : repo.deletingLastPathComponent().path
    let folder = base + "/dinger-bench-clones-\(getpid())"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    return folder
  }

  /// The working repository for `size` meetings, generated once.
  static func prepare(size: Int, under root: URL) throws -> URL {
    let folder = root.appendingPathComponent("bench-scale-\(size)")
    let repo = folder.appendingPathComponent("repo")
    let ready = folder.appendingPathComponent("ready")
    if FileManager.default.fileExists(atPath: ready.path) { return repo }
    try? FileManager.default.removeItem(at: folder)
    try FileManager.default.createDirectory(at: repo, withIntermediateDirectories: true)
    try Shell.run("/usr/bin/git", ["init", "-q", "-b", "main", repo.path])
    var stream = Data()
    func add(_ s: String) { stream.append(contentsOf: Array(s.utf8)) }
    var mark = 0
    var time = 1_500_000_000
    func commit(_ files: [(String, String)], _ subject: String, trailers: String) {
      mark += 1
      time += 3600
      let message = "\(subject)\n\n\(trailers)\n"
      add(
        "commit refs/heads/main\nmark :\(mark)\ncommitter Bench <bench@example.com> \(time) +0000\n"
      )
      add("data \(message.utf8.count)\n\(message)")
      if mark > 1 { add("from :\(mark - 1)\n") }
      for (path, text) in files {
        add("M 100644 inline \(path)\ndata \(text.utf8.count)\n\(text)\n")
      }
    }
    var ids: [String] = []
    var files: [(String, String)] = [(".dinger/config.yaml", "format: 1\n")]
    for s in 0..<scrums {
      let id = String(format: "6a4f0c1e-0000-4000-8000-%012d", s)
      ids.append(id)
      files.append(
        (
          "scrums/team-\(s).yaml",
          "id: \(id)\ntitle: Team \(s)\ntheme: sky\nlength: 15\nattendees:\n  - Ada\n  - Grace\n  - Linus\n"
        ))
    }
    commit(files, "Set up dinger data repository", trailers: "Dinger-Action: init")
    var day = Date(timeIntervalSince1970: 1_420_070_400)  // 2015-01-01
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    for m in 0..<size {
      if m % scrums == 0 {
        repeat {
          day += 86_400
        } while calendar.component(.weekday, from: day) == 1
          || calendar.component(.weekday, from: day) == 7
      }
      let s = m % scrums
      let id = String(format: "%08x-0000-4000-8000-000000000000", m)
      let date = ISO8601DateFormatter().string(from: day.addingTimeInterval(9 * 3600))
      let text =
        "id: \(id)\nscrum: \(ids[s])\ndate: \(date)\nlength: 15\nduration: \(600 + m % 300)\nattendees: [Ada, Grace, Linus]\nspeakers:\n  - {name: Ada, seconds: 200}\n  - {name: Grace, seconds: 200}\n  - {name: Linus, seconds: 200}\n"
      commit(
        [("history/team-\(s)/\(date.prefix(10))-\(id.prefix(8)).yaml", text)],
        "Record meeting of Team \(s) (10 min, 3 attendees)",
        trailers: "Dinger-Action: meeting.record\nDinger-Record: \(id)\nDinger-Scrum: \(ids[s])")
    }
    try Shell.run("/usr/bin/git", ["fast-import", "--quiet"], in: repo, input: stream)
    try Shell.run("/usr/bin/git", ["reset", "-q", "--hard", "main"], in: repo)
    try Shell.run("/usr/bin/git", ["gc", "-q"], in: repo)
    _ = FileManager.default.createFile(atPath: ready.path, contents: Data())
    return repo
  }
}
