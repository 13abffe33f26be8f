import Foundation
import Models
import Storage

/// Adding one record with dinger against `git add FILE && git commit` on a repository of 40,000
/// files and 40,000 commits (target: at most 0.5), and `scrum list` over 1,000 scrums against
/// `cat` of the same files (target: at most 10).
enum StorageBench {
  static let scrums = 1_000
  static let files = 40_000

  /// A big repository made once with `git fast-import` (a commit per file) and kept under
  /// `.build/bench-repo-v1` for later runs; a fresh clone of it is used for each run.
  static func prepare(cache: URL) throws -> URL {
    let ready = cache.appendingPathComponent("ready")
    if FileManager.default.fileExists(atPath: ready.path) {
      return cache.appendingPathComponent("repo.git")
    }
    try? FileManager.default.removeItem(at: cache)
    try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
    let bare = cache.appendingPathComponent("repo.git")
    try Shell.run("/usr/bin/git", ["init", "-q", "--bare", "-b", "main", bare.path])
    var stream = Data()
    func add(_ s: String) { stream.append(contentsOf: Array(s.utf8)) }
    var rng = BenchRandom(state: 7)
    var scrumIDs: [(UUID, String)] = []
    var mark = 0
    var time = 1_700_000_000
    func commit(_ path: String, _ text: String, _ subject: String) {
      mark += 1
      time += 60
      let data = Array(text.utf8)
      add(
        "commit refs/heads/main\nmark :\(mark)\ncommitter Bench <bench@example.com> \(time) +0000\n"
      )
      add("data \(subject.utf8.count + 1)\n\(subject)\n")
      if mark > 1 { add("from :\(mark - 1)\n") }
      add("M 100644 inline \(path)\ndata \(data.count)\n")
      stream.append(contentsOf: data)
      add("\n")
    }
    commit(".dinger/config.yaml", "format: 1\n", "Set up dinger data repository")
    for i in 0..<scrums {
      let id = UUID()
      let slug = "team-\(i)"
      scrumIDs.append((id, slug))
      let scrum = Scrum(
        id: id, title: "Team \(i) stand-up", theme: rng.pick(Theme.allCases),
        length: rng.int(5...30),
        attendees: (0..<rng.int(2...8)).map { Attendee(name: "\(rng.pick(YAMLBench.names)) \($0)") }
      )
      commit("scrums/\(slug).yaml", try! RecordCodec.encode(.scrum(scrum)), "Add scrum Team \(i)")
    }
    for i in 0..<(files - scrums - 1) {
      let (id, slug) = scrumIDs[i % scrums]
      let meeting = Meeting(
        id: UUID(), scrum: id, date: Date(timeIntervalSince1970: 1_700_000_000 + Double(i) * 3600),
        length: 15, duration: rng.int(300...1200), attendees: ["Ada", "Grace"],
        speakers: [
          SpeakerTime(name: "Ada", seconds: 300), SpeakerTime(name: "Grace", seconds: 280),
        ])
      let short = meeting.id!.uuidString.lowercased().prefix(8)
      commit(
        "history/\(slug)/2026-01-01-\(short).yaml", try! RecordCodec.encode(.meeting(meeting)),
        "Record meeting \(i)")
    }
    try Shell.run("/usr/bin/git", ["fast-import", "--quiet"], in: bare, input: stream)
    _ = FileManager.default.createFile(atPath: ready.path, contents: Data())
    return bare
  }

  static func run(dinger: String, cache: URL) throws {
    print("Storage: a repository of \(files) files and \(files) commits (\(scrums) scrums)")
    let started = Date()
    let bare = try prepare(cache: cache)
    let work = FileManager.default.temporaryDirectory.appendingPathComponent(
      "dinger-bench-\(UUID().uuidString.prefix(8))")
    defer { try? FileManager.default.removeItem(at: work) }
    try Shell.run("/usr/bin/git", ["clone", "-q", bare.path, work.path])
    let env = [
      "GIT_AUTHOR_NAME": "Bench", "GIT_AUTHOR_EMAIL": "b@example.com",
      "GIT_COMMITTER_NAME": "Bench", "GIT_COMMITTER_EMAIL": "b@example.com",
    ]
    try Shell.run("/usr/bin/git", ["config", "user.name", "Bench"], in: work)
    try Shell.run("/usr/bin/git", ["config", "user.email", "bench@example.com"], in: work)
    // Refresh the index once, as a user's would be.
    try Shell.run("/usr/bin/git", ["status", "-s"], in: work)
    print(String(format: "  (repository ready in %.1f s)", Date().timeIntervalSince(started)))

    var dingerTimes: [Double] = []
    var gitTimes: [Double] = []
    for i in 0..<9 {
      let name = "Bench Team \(i)"
      dingerTimes.append(
        try Shell.time(
          "'\(dinger)' scrum new '\(name)' --theme sky --length 10 --attendee Ada >/dev/null",
          in: work, env: env))
      let scrum = Scrum(
        id: UUID(), title: "Git Team \(i)", theme: .sky, length: 10,
        attendees: [Attendee(name: "Ada")])
      let path = "scrums/git-team-\(i).yaml"
      try RecordCodec.encode(.scrum(scrum)).write(
        to: work.appendingPathComponent(path), atomically: true, encoding: .utf8)
      gitTimes.append(
        try Shell.time(
          "git add '\(path)' && git commit -q -m 'Add scrum Git Team \(i)'", in: work, env: env))
    }
    let status = try Shell.run("/usr/bin/git", ["status", "--porcelain"], in: work)
    let (d, g) = (Shell.median(dingerTimes), Shell.median(gitTimes))
    print(String(format: "  dinger scrum new (one record, one commit)  %8.1f ms", d * 1000))
    print(String(format: "  git add FILE && git commit                 %8.1f ms", g * 1000))
    Measure.ratio("add one record: dinger / git", d / g, target: 0.5)
    if !status.isEmpty { print("  WARNING: git status is not clean after the runs:\n\(status)") }

    var listTimes: [Double] = []
    var catTimes: [Double] = []
    for _ in 0..<7 {
      listTimes.append(try Shell.time("'\(dinger)' scrum list >/dev/null", in: work))
      catTimes.append(try Shell.time("cat scrums/*.yaml >/dev/null", in: work))
    }
    let (l, c) = (Shell.median(listTimes), Shell.median(catTimes))
    let count = try FileManager.default.contentsOfDirectory(
      atPath: work.appendingPathComponent("scrums").path
    ).count
    print(String(format: "  dinger scrum list (%d scrums)            %8.1f ms", count, l * 1000))
    print(String(format: "  cat scrums/*.yaml                          %8.1f ms", c * 1000))
    Measure.ratio("scrum list / cat", l / c, target: 10)
    try log(dinger: dinger, in: work)
    print("")
  }

  /// `dinger log S` against git's path-limited log of the same scrum's files, with the activity
  /// index warm (targets at most 0.25) and rebuilt from nothing (target at most 2).
  static func log(dinger: String, in work: URL) throws {
    let git = "git log --format=%H%x09%an%x09%s -- history/team-5 scrums/team-5.yaml >/dev/null"
    let index = work.appendingPathComponent(".git/dinger/activity-v3.tsv").path
    var gitTimes: [Double] = []
    var cold: [Double] = []
    var warm: [Double] = []
    for _ in 0..<3 {
      gitTimes.append(try Shell.time(git, in: work))
      try? FileManager.default.removeItem(atPath: index)
      cold.append(try Shell.time("'\(dinger)' log team-5 >/dev/null", in: work))
    }
    for _ in 0..<5 { warm.append(try Shell.time("'\(dinger)' log team-5 >/dev/null", in: work)) }
    let lines = try Shell.run("/bin/sh", ["-c", "'\(dinger)' log team-5 | wc -l"], in: work)
    let (g, c, w) = (Shell.median(gitTimes), Shell.median(cold), Shell.median(warm))
    print("  dinger log team-5: \(lines.trimmingCharacters(in: .whitespacesAndNewlines)) entries")
    print(String(format: "  git log -- history/team-5 scrums/team-5.yaml  %8.1f ms", g * 1000))
    print(String(format: "  dinger log, index rebuilt from nothing     %8.1f ms", c * 1000))
    print(String(format: "  dinger log, index up to date               %8.1f ms", w * 1000))
    Measure.ratio("log (index warm) / git", w / g, target: 0.25)
    Measure.ratio("log (index cold) / git", c / g, target: 2)
  }
}
