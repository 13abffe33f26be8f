import Foundation

/// `dinger standup show` and `dinger blockers` over a year of written stand-ups of a 12-person
/// team (about 3,000 entry files, written by `dinger standup` itself, blockers opened and
/// resolved), against `cat` of those files (target: 3x), warm, interleaved, median of 7.
enum StandupBench {
  static let people = [
    "Ada", "Bo", "Chen", "Dee", "Eli", "Fay", "Gus", "Hana", "Ivo", "Jun", "Kai", "Lea",
  ]

  static func run(dinger: String, root: URL) throws {
    print("Written stand-ups: a year of a 12-person team")
    let work = root.appendingPathComponent("bench-standups-v1")
    let env = [
      "GIT_AUTHOR_NAME": "Bench", "GIT_AUTHOR_EMAIL": "b@example.com",
      "GIT_COMMITTER_NAME": "Bench", "GIT_COMMITTER_EMAIL": "b@example.com", "TZ": "UTC",
    ]
    if !FileManager.default.fileExists(atPath: work.appendingPathComponent(".git").path) {
      try? FileManager.default.removeItem(at: work)
      try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
      try Shell.run("/usr/bin/git", ["init", "-q", "-b", "main", work.path])
      try Shell.run(dinger, ["init"], in: work, env: env)
      var args = ["scrum", "new", "Platform", "--length", "15"]
      for p in people { args += ["--attendee", p] }
      try Shell.run(dinger, args, in: work, env: env)
      var rng = BenchRandom(state: 12)
      var open: [String] = []
      var day = Date(timeIntervalSince1970: 1_764_547_200)  // 2025-12-01, a Monday
      var written = 0
      print("  writing the entries with dinger standup (once; kept in \(work.path))")
      for _ in 0..<364 {
        defer { day = day.addingTimeInterval(86_400) }
        let weekday = Calendar(identifier: .gregorian).component(.weekday, from: day)
        guard weekday != 1 && weekday != 7 else { continue }
        let stamp = ISO8601DateFormatter().string(from: day.addingTimeInterval(9 * 3600))
        for person in people where rng.int(0...99) < 96 {
          var a = [
            "standup", "platform", "--as", person, "--yesterday",
            "Worked on ticket \(rng.int(1...900))",
            "--today", "Ticket \(rng.int(1...900)) and a review",
          ]
          if rng.int(0...9) == 0 {
            a += ["--blocker", "Waiting on \(rng.pick(people)) for \(written)"]
          }
          if !open.isEmpty, rng.int(0...6) == 0 { a += ["--resolve", open.removeFirst()] }
          try Shell.run(dinger, a, in: work, env: env.merging(["DINGER_TEST_NOW": stamp]) { $1 })
          written += 1
          if a.contains("--blocker") {
            let listed = try Shell.run(
              dinger, ["blockers", "platform", "--json"], in: work,
              env: env.merging(["DINGER_TEST_NOW": stamp]) { $1 })
            open = listed.split(separator: "\"").filter { $0.count == 9 && $0.hasPrefix("b") }
              .map(String.init)
          }
        }
      }
    }
    let files = try FileManager.default.contentsOfDirectory(
      atPath: work.appendingPathComponent("standups/platform").path)
    let now = ["DINGER_TEST_NOW": "2026-11-27T12:00:00Z"]
    let runEnv = env.merging(now) { $1 }
    for args in ["standup show platform", "blockers platform"] {
      _ = try Shell.time("'\(dinger)' \(args) >/dev/null", in: work, env: runEnv)
    }
    var cat: [Double] = []
    var show: [Double] = []
    var blockers: [Double] = []
    for _ in 0..<7 {
      cat.append(try Shell.time("cat standups/platform/*.yaml >/dev/null", in: work))
      show.append(
        try Shell.time("'\(dinger)' standup show platform >/dev/null", in: work, env: runEnv))
      blockers.append(
        try Shell.time("'\(dinger)' blockers platform >/dev/null", in: work, env: runEnv))
    }
    let (c, s, b) = (Shell.median(cat), Shell.median(show), Shell.median(blockers))
    print(
      String(format: "  cat of the %d entry files                %8.1f ms", files.count, c * 1000))
    print(String(format: "  dinger standup show platform              %8.1f ms", s * 1000))
    print(String(format: "  dinger blockers platform                  %8.1f ms", b * 1000))
    Measure.ratio("standup show / cat", s / c, target: 3)
    Measure.ratio("blockers / cat", b / c, target: 3)
  }
}
