import Foundation
import Models
import Storage

/// `dinger sync` against `git pull --no-rebase && git push` on the 40,000-commit repository:
/// two clones each add 500 meetings and edit 50 scrums (25 scrums edited on both: 15 on
/// neighbouring lines, 10 with the same field set to different values); the first pushes, the
/// second syncs. Target: at most 1. Also prints how many files git leaves conflicted next to how
/// many conflict records dinger writes (it never stops).
enum SyncBench {
  static func run(dinger: String, cache: URL) throws {
    print("Sync: two clones, each with 500 new meetings and 50 scrum edits")
    let bare = try StorageBench.prepare(cache: cache)
    let root = FileManager.default.temporaryDirectory.appendingPathComponent(
      "dinger-sync-bench-\(UUID().uuidString.prefix(8))")
    let keep = ProcessInfo.processInfo.environment["DINGER_BENCH_KEEP"] != nil
    defer { if !keep { try? FileManager.default.removeItem(at: root) } }
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    let env = [
      "GIT_AUTHOR_NAME": "Bench", "GIT_AUTHOR_EMAIL": "b@example.com",
      "GIT_COMMITTER_NAME": "Bench", "GIT_COMMITTER_EMAIL": "b@example.com",
    ]
    var dingerTimes: [Double] = []
    var gitTimes: [Double] = []
    var gitOursTimes: [Double] = []
    var gitConflicts = 0
    var dingerConflicts = 0
    for round in 0..<(keep ? 1 : 3) {
      let dir = root.appendingPathComponent("round-\(round)")
      // The same starting point for both tools: a remote with the first clone's work pushed.
      let first = dir.appendingPathComponent("first")
      try Shell.run("/usr/bin/git", ["clone", "-q", bare.path, first.path])
      try work(in: first, side: 0)
      var seconds: [String: Double] = [:]
      for tool in ["dinger", "git", "git-ours"] {
        let remote = dir.appendingPathComponent("\(tool)-remote.git")
        try Shell.run("/usr/bin/git", ["clone", "-q", "--bare", bare.path, remote.path])
        let second = dir.appendingPathComponent("\(tool)-second")
        try Shell.run("/usr/bin/git", ["clone", "-q", remote.path, second.path])
        try Shell.run("/usr/bin/git", ["push", "-q", remote.path, "main"], in: first)
        for (k, v) in [
          ("user.name", "Bench"), ("user.email", "bench@example.com"), ("pull.rebase", "false"),
        ] {
          try Shell.run("/usr/bin/git", ["config", k, v], in: second)
        }
        try work(in: second, side: 1)
        // NB: flush what the set-up wrote, so neither tool pays for the other's disk writes.
        try Shell.run("/bin/sync", [])
        if tool == "dinger" {
          // With DINGER_BENCH_KEEP the phase timings go to sync-trace.txt beside the clones.
          let trace = keep ? " 2>'\(dir.path)/sync-trace.txt'" : ""
          // NB: a sync that recorded conflicts exits 1 (done, and a person must decide).
          seconds[tool] = try Shell.time(
            "'\(dinger)' sync >/dev/null\(trace); test $? -le 1", in: second,
            env: env.merging(keep ? ["DINGER_TRACE": "1"] : [:]) { $1 })
          dingerConflicts = try FileManager.default.contentsOfDirectory(
            atPath: second.appendingPathComponent(".dinger/conflicts").path
          ).count
        } else if tool == "git-ours" {
          // Completes like dinger does, but by dropping the other side's values silently.
          seconds[tool] = try Shell.time(
            "git pull -q --no-rebase --no-edit -X ours origin main >/dev/null 2>&1 && git push -q origin main",
            in: second, env: env)
        } else {
          // git stops at its first conflicted file set; the push then does not happen.
          seconds[tool] = try Shell.time(
            "git pull -q --no-rebase --no-edit origin main >/dev/null 2>&1 && git push -q origin main; true",
            in: second, env: env)
          gitConflicts =
            try Shell.run("/usr/bin/git", ["diff", "--name-only", "--diff-filter=U"], in: second)
            .split(separator: "\n").count
        }
      }
      dingerTimes.append(seconds["dinger"]!)
      gitTimes.append(seconds["git"]!)
      gitOursTimes.append(seconds["git-ours"]!)
      if !keep { try? FileManager.default.removeItem(at: dir) }
    }
    if keep { print("  (kept in \(root.path))") }
    let (d, g) = (Shell.median(dingerTimes), Shell.median(gitTimes))
    print(String(format: "  dinger sync (fetch, merge, push)           %8.1f ms", d * 1000))
    print(String(format: "  git pull --no-rebase && git push           %8.1f ms", g * 1000))
    let o = Shell.median(gitOursTimes)
    print(String(format: "  git pull --no-rebase -X ours && git push   %8.1f ms", o * 1000))
    Measure.ratio("sync: dinger / git", d / g, target: 1)
    print(String(format: "  (dinger / git -X ours, which also merges and pushes: %.2f)", d / o))
    print("  conflicts: git leaves \(gitConflicts) files with markers (and does not push);")
    print("             dinger records \(dingerConflicts) values in .dinger/conflicts/ and pushes")
    print("")
  }

  /// 500 meetings and 50 scrum edits committed on top of the clone's main (by fast-import,
  /// then the working tree is brought up to date). Side 0 edits scrums 0-49's length; side 1
  /// edits scrums 25-74: the theme (25-39 and 50-74) or the length to another value (40-49).
  static func work(in clone: URL, side: Int) throws {
    let head = try Shell.run("/usr/bin/git", ["rev-parse", "HEAD"], in: clone)
      .trimmingCharacters(in: .whitespacesAndNewlines)
    var rng = BenchRandom(state: UInt64(100 + side))
    var stream = Data()
    func add(_ s: String) { stream.append(contentsOf: Array(s.utf8)) }
    var mark = 0
    var time = 1_800_000_000 + side * 7
    func commit(_ path: String, _ text: String, _ subject: String) {
      mark += 1
      time += 60
      add("commit refs/heads/main\nmark :\(mark)\n")
      add("committer Side\(side) <side\(side)@example.com> \(time) +0000\n")
      add("data \(subject.utf8.count + 1)\n\(subject)\n")
      add(mark == 1 ? "from \(head)\n" : "from :\(mark - 1)\n")
      let data = Array(text.utf8)
      add("M 100644 inline \(path)\ndata \(data.count)\n")
      stream.append(contentsOf: data)
      add("\n")
    }
    let scrums = side == 0 ? Array(0..<50) : Array(25..<75)
    for i in 0..<500 {
      if i % 10 == 0 {
        let n = scrums[i / 10]
        let path = "scrums/team-\(n).yaml"
        var text = try String(contentsOf: clone.appendingPathComponent(path), encoding: .utf8)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if side == 0 || (40..<50).contains(n) {
          if let j = lines.firstIndex(where: { $0.hasPrefix("length:") }) {
            lines[j] = "length: \(side == 0 ? 31 : 32)"
          }
        } else if let j = lines.firstIndex(where: { $0.hasPrefix("theme:") }) {
          lines[j] = lines[j] == "theme: teal" ? "theme: navy" : "theme: teal"
        }
        text = lines.joined(separator: "\n")
        commit(path, text, "Team \(n): edit")
      }
      let meeting = Meeting(
        id: UUID(), scrum: UUID(),
        date: Date(timeIntervalSince1970: 1_800_000_000 + Double(i) * 3600),
        length: 15, duration: rng.int(300...1200), attendees: ["Ada", "Grace"], speakers: [])
      let short = meeting.id!.uuidString.lowercased().prefix(8)
      commit(
        "history/team-\(rng.int(0...999))/2026-03-01-\(short).yaml",
        try RecordCodec.encode(.meeting(meeting)), "Record meeting \(i)")
    }
    try Shell.run("/usr/bin/git", ["fast-import", "--quiet", "--force"], in: clone, input: stream)
    try Shell.run("/usr/bin/git", ["reset", "-q", "--hard", "main"], in: clone)
  }
}
