import Foundation
import Models
import Storage

/// `dinger agenda` (7 days) and `dinger calendar` over 1,000 scheduled scrums in six zones,
/// against `dinger scrum list` over the same scrums (target: agenda at most 10x), both warm
/// (the record cache filled by a first run), interleaved, median of 7.
enum ScheduleBench {
  static let benchIdentity = [
    "GIT_AUTHOR_NAME": "Bench", "GIT_AUTHOR_EMAIL": "b@example.com",
    "GIT_COMMITTER_NAME": "Bench", "GIT_COMMITTER_EMAIL": "b@example.com",
  ]

  static func run(dinger: String, root: URL) throws {
    print("Schedules: 1,000 scheduled scrums")
    let work = root.appendingPathComponent("bench-schedules-v1")
    if !FileManager.default.fileExists(atPath: work.appendingPathComponent(".git").path) {
      try? FileManager.default.removeItem(at: work)
      try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
      let env = [
        "GIT_AUTHOR_NAME": "Bench", "GIT_AUTHOR_EMAIL": "b@example.com",
        "GIT_COMMITTER_NAME": "Bench", "GIT_COMMITTER_EMAIL": "b@example.com",
      ]
      try Shell.run("/usr/bin/git", ["init", "-q", "-b", "main", work.path])
      try Shell.run(dinger, ["init"], in: work, env: env)
      let zones = [
        "Europe/Berlin", "America/New_York", "Australia/Sydney", "Asia/Kolkata", "UTC",
        "America/Los_Angeles",
      ]
      let dayForms = ["weekdays", "mon, wed, fri", "tue-thu", "daily"]
      for i in 0..<1000 {
        let schedule = Schedule(
          at: String(format: "%02d:%02d", 7 + i % 10, (i * 7) % 60), days: .text(dayForms[i % 4]),
          every: i % 5 == 0 ? "2 weeks" : nil, zone: zones[i % zones.count],
          from: "2026-01-05", skip: ["2026-12-24", "2026-12-31"])
        let scrum = Scrum(
          id: UUID(), title: "Team \(i)", theme: .sky, length: 15, schedule: schedule,
          attendees: [Attendee(name: "Ada"), Attendee(name: "Grace", zone: "Europe/London")])
        try RecordCodec.encode(.scrum(scrum)).write(
          to: work.appendingPathComponent("scrums/team-\(i).yaml"), atomically: true,
          encoding: .utf8)
      }
      try Shell.run("/usr/bin/git", ["add", "-A"], in: work, env: env)
      try Shell.run(
        "/usr/bin/git", ["commit", "-qm", "1,000 scheduled scrums"], in: work, env: env)
    }
    let env = ["TZ": "Europe/Berlin"]
    // Warm: the first runs fill the record cache and the activity index.
    for args in ["scrum list", "agenda", "calendar"] {
      _ = try Shell.time("'\(dinger)' \(args) >/dev/null", in: work, env: env)
    }
    var list: [Double] = []
    var agenda: [Double] = []
    var calendar: [Double] = []
    for _ in 0..<7 {
      list.append(try Shell.time("'\(dinger)' scrum list >/dev/null", in: work, env: env))
      agenda.append(try Shell.time("'\(dinger)' agenda >/dev/null", in: work, env: env))
      calendar.append(try Shell.time("'\(dinger)' calendar >/dev/null", in: work, env: env))
    }
    let (l, a, c) = (Shell.median(list), Shell.median(agenda), Shell.median(calendar))
    let count = try Shell.run(dinger, ["agenda"], in: work, env: env).split(separator: "\n").count
    print(String(format: "  dinger scrum list (1,000 scrums)           %8.1f ms", l * 1000))
    print(String(format: "  dinger agenda (7 days, %d lines)        %8.1f ms", count, a * 1000))
    print(String(format: "  dinger calendar (1,000 series)             %8.1f ms", c * 1000))
    Measure.ratio("agenda / scrum list", a / l, target: 10)
    // After a commit that touches no scrum (a CI run after every push): the per-scrum indexes
    // are not read and rewritten again.
    var after: [Double] = []
    for i in 0..<5 {
      try Data("note \(i) \(Date())\n".utf8).write(to: work.appendingPathComponent("notes.txt"))
      try Shell.run(
        "/usr/bin/git", ["add", "notes.txt"], in: work, env: env.merging(benchIdentity) { $1 })
      try Shell.run(
        "/usr/bin/git", ["commit", "-qm", "notes \(i)"], in: work,
        env: env.merging(benchIdentity) { $1 })
      after.append(try Shell.time("'\(dinger)' calendar >/dev/null", in: work, env: env))
    }
    let x = Shell.median(after)
    print(String(format: "  dinger calendar after a commit of no scrum   %8.1f ms", x * 1000))
    Measure.ratio("calendar after a push / warm", x / c, target: 2)
    print("")
  }
}
