import Foundation
import TestSupport
import Testing

/// Schedules end to end: writing them (commit subjects, comments kept), reading them (agenda,
/// next, meet with no scrum, history, check), merging them, and every rule's message.
@Suite struct ScheduleCommandTests {
  static func initialized() throws -> Sandbox {
    let box = try Sandbox()
    try expectOK(box.dinger("init"))
    return box
  }

  @Test func editsSayWhatChangedAndKeepComments() throws {
    let box = try Self.initialized()
    try box.write(
      "scrums/design.yaml",
      """
      # The design stand-up.
      title: Design
      length: 15
      schedule:
        at: "09:30"     # after coffee
        days: weekdays
        zone: Europe/Berlin
        # holidays go here
        skip: [2026-12-24]
      attendees:
        - Ada
        - Bob
      """)
    try box.git("add", "-A")
    try box.git("commit", "-qm", "Design by hand")
    var r = try box.dinger("scrum", "edit", "design", "--skip", "2026-12-31")
    #expect(r.stdout == "Design: skip 2026-12-31\n", "\(r.stderr)")
    let text = try box.read("scrums/design.yaml")
    #expect(text.contains("# after coffee") && text.contains("# holidays go here"), "\(text)")
    #expect(text.contains("2026-12-24") && text.contains("2026-12-31"))
    r = try box.dinger("scrum", "edit", "design", "--move", "2027-01-07=11:00")
    #expect(r.stdout == "Design: move 2027-01-07 to 11:00\n", "\(r.stderr)")
    r = try box.dinger("scrum", "edit", "design", "--at", "10:00", "--days", "mon-thu")
    #expect(r.stdout == "Design: schedule mon-thu 10:00 Europe/Berlin\n", "\(r.stderr)")
    r = try box.dinger("scrum", "edit", "design", "--move", "2027-01-07=10:00")
    #expect(r.stdout == "Design: move 2027-01-07 back to 10:00\n", "\(r.stderr)")
    r = try box.dinger("scrum", "edit", "design", "--no-schedule")
    #expect(r.stdout == "Design: remove schedule\n", "\(r.stderr)")
    #expect(try !box.read("scrums/design.yaml").contains("schedule"))
    #expect(try box.read("scrums/design.yaml").hasPrefix("# The design stand-up.\n"))
    r = try box.dinger(
      "scrum", "new", "Ops", "--attendee", "Cy", "--at", "08:00", "--days", "weekdays", "--zone",
      "America/New_York")
    #expect(r.status == 0, "\(r.stderr)")
    let ops = try box.read("scrums/ops.yaml")
    #expect(
      ops.contains("schedule:\n  at: '08:00'\n  days: weekdays\n  zone: America/New_York\n"),
      "\(ops)")
    // The log says it in words, for dinger's commits and for a plain git commit alike.
    try box.write("scrums/ops.yaml", ops.replacingOccurrences(of: "'08:00'", with: "'08:15'"))
    try box.git("commit", "-qam", "earlier")
    let log = try box.dinger("log", "-n", "8").stdout
    #expect(log.contains("schedule weekdays 08:15 America/New_York"), "\(log)")
    #expect(log.contains("skip 2026-12-31"), "\(log)")
    #expect(log.contains("remove schedule"), "\(log)")
  }

  @Test func eachRuleSaysWhereAndHow() throws {
    let box = try Self.initialized()
    func file(_ schedule: String, attendees: String = "  - Ada\n") -> String {
      "title: T\nlength: 5\nschedule:\n\(schedule)attendees:\n\(attendees)"
    }
    let cases: [(String, String, String)] = [
      (
        "zone", file("  at: '09:30'\n  days: weekdays\n  zone: Europe/Berln\n"),
        "6:9: error: 'schedule.zone' names the time zone 'Europe/Berln', which this system's time zone data does not have (did you mean 'Europe/Berlin'?)"
      ),
      (
        "midnight", file("  at: '24:00'\n  days: weekdays\n  zone: UTC\n"),
        "4:7: error: 'schedule.at' has hour 24; hours go from 00 to 23"
      ),
      (
        "dot", file("  at: 9.30\n  days: weekdays\n  zone: UTC\n"),
        "4:7: error: 'schedule.at' must be a time of day as HH:MM (24-hour, e.g. 09:30), found '9.30'"
      ),
      (
        "nodays", file("  at: '09:30'\n  days: []\n  zone: UTC\n"),
        "5:9: error: 'schedule.days' names no day"
      ),
      (
        "badday", file("  at: '09:30'\n  days: [mon, thurs, fry]\n  zone: UTC\n"),
        "5:9: error: 'schedule.days' has 'fry', which is not a day (did you mean 'fri'?)"
      ),
      (
        "order",
        file(
          "  at: '09:30'\n  days: daily\n  zone: UTC\n  from: 2027-02-01\n  until: 2027-01-01\n"),
        "8:10: error: 'schedule.until' (2027-01-01) is before 'schedule.from' (2027-02-01)"
      ),
      (
        "every", file("  at: '09:30'\n  days: daily\n  every: 2 weeks\n  zone: UTC\n"),
        "6:10: error: 'schedule.every' of 2 weeks needs 'from:'"
      ),
      (
        "skip", file("  at: '09:30'\n  days: weekdays\n  zone: UTC\n  skip: [2026-12-26]\n"),
        "7:10: warning: skip 2026-12-26 is not a day the scrum meets (a saturday, and it meets weekdays); it has no effect"
      ),
      (
        "offweek",
        file(
          "  at: '09:30'\n  days: [tue]\n  every: 2 weeks\n  zone: UTC\n  from: 2026-12-01\n  skip: [2026-12-08]\n"
        ),
        "9:10: warning: skip 2026-12-08 is not a day the scrum meets (in a week it does not meet: every 2 weeks from 2026-12-01); it has no effect"
      ),
      (
        "attendee",
        file(
          "  at: '09:30'\n  days: weekdays\n  zone: UTC\n",
          attendees: "  - name: Ada\n    zone: Mars/Olympus\n"),
        "9:11: error: 'zone' names the time zone 'Mars/Olympus'"
      ),
    ]
    for (name, text, _) in cases { try box.write("scrums/\(name).yaml", text) }
    let r = try box.dinger("check")
    #expect(r.status == 1)
    for (name, _, expected) in cases {
      #expect(r.stderr.contains("scrums/\(name).yaml:\(expected)"), "\(name): \(r.stderr)")
    }
    // A zone this system's tzdata lacks: TZDIR points at a copy with Berlin only.
    let zones = box.home.url.appendingPathComponent("zoneinfo/Europe")
    try FileManager.default.createDirectory(at: zones, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      atPath: "/usr/share/zoneinfo/Europe/Berlin",
      toPath: zones.appendingPathComponent("Berlin").path)
    for (name, _, _) in cases {
      try FileManager.default.removeItem(at: box.data.appendingPathComponent("scrums/\(name).yaml"))
    }
    try box.write(
      "scrums/ny.yaml", file("  at: '09:30'\n  days: weekdays\n  zone: America/New_York\n"))
    let lacking = try box.dinger(
      ["check"], env: ["TZDIR": box.home.url.appendingPathComponent("zoneinfo").path])
    #expect(
      lacking.stderr.contains(
        "scrums/ny.yaml:6:9: error: 'schedule.zone' names the time zone 'America/New_York', which this system's time zone data does not have"
      ), "\(lacking.stderr)")
    #expect(try box.dinger("check", "scrums/ny.yaml").status == 0)
    // On the command line: the same rules, nothing written.
    let head = try box.head()
    for args in [
      ["--at", "9.30"], ["--at", "10:00", "--zone", "Europe/Berln"],
      ["--at", "10:00", "--days", "someday"],
      ["--at", "10:00", "--every", "0w"], ["--skip", "2026-12-24"],
      ["--at", "10:00", "--from", "2027-02-01", "--until", "2027-01-01"],
      ["--no-schedule", "--at", "10:00"], ["--at", "10:00", "--move", "2027-01-07"],
    ] {
      let bad = try box.dinger(["scrum", "new", "X", "--attendee", "A"] + args)
      #expect(bad.status != 0 && bad.stderr.hasPrefix("error: "), "\(args): \(bad.stderr)")
    }
    #expect(try box.head() == head)
  }

  /// A schedule at 09:30 Berlin on weekdays; the test clock moves through a Tuesday.
  static func scheduled() throws -> Sandbox {
    let box = try initialized()
    try expectOK(
      box.dinger(
        "scrum", "new", "Design", "--attendee", "Ada", "--attendee", "Bob", "--length", "15",
        "--at", "09:30", "--days", "weekdays", "--zone", "Europe/Berlin", "--from", "2026-11-30"))
    try box.write(
      "scrums/ops.yaml",
      """
      title: Ops
      length: 10
      schedule: {at: "03:30", days: "weekdays", zone: America/New_York, from: 2026-11-30}
      attendees:
        - name: Cy
          zone: America/New_York
        - name: Di
          zone: Asia/Kolkata
      """)
    try box.git("add", "-A")
    try box.git("commit", "-qm", "Ops")
    return box
  }

  func at(_ instant: String, tz: String = "Europe/Berlin") -> [String: String] {
    ["DINGER_TEST_NOW": instant, "TZ": tz]
  }

  @Test func agendaSaysWhatIsNextNowDoneAndMissed() throws {
    let box = try Self.scheduled()
    // Tue 2026-12-01 09:18 in Berlin (08:18 UTC): Design in 12 min; Ops (03:30 New York) is 09:30 too.
    var r = try box.dinger(["agenda", "--days", "2"], env: at("2026-12-01T08:18:00Z"))
    #expect(r.status == 0, "\(r.stderr)")
    #expect(
      r.stdout == """
        Today, Tue 2026-12-01
          09:30-09:45  Design  in 12 min
          09:30-09:40  Ops     in 12 min       03:30 America/New_York · Cy 03:30, Di 14:00
        Tomorrow, Wed 2026-12-02
          09:30-09:45  Design
          09:30-09:40  Ops                     03:30 America/New_York · Cy 03:30, Di 14:00

        """, "\(r.stdout)")
    // Nine minutes before, agenda says so (it said "now"); from the start it says now.
    r = try box.dinger(["agenda", "--days", "1"], env: at("2026-12-01T08:21:00Z"))
    #expect(r.stdout.contains("09:30-09:45  Design  in 9 min"), "\(r.stdout)")
    r = try box.dinger(["agenda", "--days", "1"], env: at("2026-12-01T08:30:00Z"))
    #expect(r.stdout.contains("09:30-09:45  Design  now"), "\(r.stdout)")
    // From 10 minutes before: due; `meet` with no scrum finds two due and, without a terminal,
    // names them.
    r = try box.dinger(["meet", "--record"], env: at("2026-12-01T08:22:00Z"))
    #expect(r.status != 0)
    #expect(
      r.stderr.contains(
        "2 stand-ups are due now (design at 09:30, ops at 09:30); name one: 'dinger meet design'"),
      "\(r.stderr)")
    try expectOK(
      box.dinger(
        ["meet", "design", "--record", "--duration", "12m"], env: at("2026-12-01T08:31:00Z")))
    // Now only Ops is due: meet with no scrum records it.
    r = try box.dinger(["meet", "--record"], env: at("2026-12-01T08:33:00Z"))
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stderr.contains("Ops, scheduled 09:30-09:40"), "\(r.stderr)")
    #expect(r.stdout.contains("Record meeting of Ops"), "\(r.stdout)")
    // Then nothing is due: it says what's next.
    r = try box.dinger(["meet", "--record"], env: at("2026-12-01T09:00:00Z"))
    #expect(r.status != 0)
    #expect(
      r.stderr.contains(
        "no stand-up is scheduled now; next: Design tomorrow, wed 2026-12-02 09:30-09:45"),
      "\(r.stderr)")
    // Wednesday evening: Tuesday's two done, Wednesday's missed (nothing recorded).
    r = try box.dinger(["agenda", "--days", "1", "--json"], env: at("2026-12-01T20:00:00Z"))
    #expect(r.stdout.components(separatedBy: "\"status\" : \"done\"").count == 3, "\(r.stdout)")
    r = try box.dinger(["agenda", "--days", "1"], env: at("2026-12-02T20:00:00Z"))
    #expect(r.stdout.contains("09:30-09:45  Design  missed"), "\(r.stdout)")
    // In New York the same stand-ups are at 03:30 local, and `next` says so.
    r = try box.dinger(["next"], env: at("2026-12-02T20:00:00Z", tz: "America/New_York"))
    #expect(
      r.stdout
        == "Design tomorrow, thu 2026-12-03 03:30-03:45 (in 12 h 30 min), 09:30 Europe/Berlin\n",
      "\(r.stdout)")
    r = try box.dinger(["next", "--scrum", "ops", "--json"], env: at("2026-12-02T20:00:00Z"))
    #expect(
      r.stdout.contains("\"slug\" : \"ops\"")
        && r.stdout.contains("\"date\" : \"2026-12-03T08:30:00Z\""), "\(r.stdout)")
    // History shows the missed ones between the meetings; check --strict the far ones.
    r = try box.dinger(["history", "design"], env: at("2026-12-04T20:00:00Z"))
    let missed = r.stdout.split(separator: "\n").filter { $0.contains("missed") }
    #expect(missed.count == 4, "\(r.stdout)")  // Mon 30th, Wed, Thu, Fri
    #expect(r.stdout.contains("2026-11-30 09:30"), "\(r.stdout)")
    try expectOK(
      box.dinger(
        ["meet", "design", "--record", "--date", "2026-12-05T15:00:00Z"],
        env: at("2026-12-05T16:00:00Z")))
    #expect(try box.dinger("check").stderr.isEmpty)
    let strict = try box.dinger("check", "--strict")
    #expect(strict.status == 0)
    #expect(
      strict.stderr.contains(
        "warning: this meeting of 'Design' is more than 2 hours from any scheduled stand-up (weekdays 09:30 Europe/Berlin)"
      ), "\(strict.stderr)")
    #expect(strict.stderr.components(separatedBy: "warning:").count == 2, "\(strict.stderr)")
  }
}

extension ScheduleCommandTests {
  /// A schedule added today without `from`: this morning's stand-up is not "missed" (nothing
  /// says the team records them) until a meeting has been recorded before one.
  @Test func noFromAndNothingRecordedIsOverNotMissed() throws {
    let box = try Self.initialized()
    try expectOK(
      box.dinger("scrum", "new", "Ops", "--attendee", "Cy", "--at", "09:00", "--zone", "UTC"))
    var r = try box.dinger(
      ["agenda", "--days", "1"], env: ["DINGER_TEST_NOW": "2026-12-01T12:00:00Z", "TZ": "UTC"])
    #expect(r.stdout.contains("09:00-09:05  Ops  over"), "\(r.stdout)")
    try expectOK(
      box.dinger(["meet", "ops", "--record", "--date", "2026-11-30T09:01:00Z"], env: ["TZ": "UTC"]))
    r = try box.dinger(
      ["agenda", "--days", "1"], env: ["DINGER_TEST_NOW": "2026-12-01T12:00:00Z", "TZ": "UTC"])
    #expect(r.stdout.contains("09:00-09:05  Ops  missed"), "\(r.stdout)")
  }
}

/// Two teammates change one schedule: different skips and different fields merge; the same
/// field changed two ways is a conflict record like any other field.
@Suite struct ScheduleMergeTests {
  static let scrum = "scrums/design-review.yaml"

  @Test func differentChangesMergeTheSameFieldConflicts() throws {
    let team = try Team()
    expectOK(
      try team.run(
        "ada", "scrum", "edit", "design-review", "--at", "09:30", "--zone", "Europe/Berlin"))
    try team.syncAll()
    expectOK(try team.run("ada", "scrum", "edit", "design-review", "--skip", "2026-12-24"))
    expectOK(try team.run("ada", "scrum", "edit", "design-review", "--length", "12"))
    expectOK(try team.run("grace", "scrum", "edit", "design-review", "--skip", "2026-12-31"))
    expectOK(try team.run("grace", "scrum", "edit", "design-review", "--until", "2027-06-30"))
    try team.syncAll()
    try team.expectConverged()
    let merged = try team.read("linus", Self.scrum)
    for part in ["2026-12-24", "2026-12-31", "until: '2027-06-30'", "length: 12"] {
      #expect(merged.contains(part), "\(part): \(merged)")
    }
    #expect(try team.run("linus", "conflicts").stdout == "no conflicts\n")
    let agenda = try team.run("linus", "agenda", "--days", "3").status
    #expect(agenda == 0)
    // Both move the start, differently: one value stays, the other is recorded.
    expectOK(try team.run("ada", "scrum", "edit", "design-review", "--at", "10:00"))
    expectOK(try team.run("grace", "scrum", "edit", "design-review", "--at", "11:00"))
    try team.syncAll()
    try team.expectConverged()
    let listed = try team.run("linus", "conflicts").stdout
    #expect(listed.contains("schedule.at"), "\(listed)")
    #expect(listed.contains("10:00") && listed.contains("11:00"), "\(listed)")
  }
}

/// The rest of the schedule's edges: unskip, removing the end, a calendar of a scrum without a
/// schedule, and `meet` asking on a real terminal (tmux) which of two due stand-ups to run.
@Suite struct ScheduleEdgeTests {
  @Test func unskipAndUntilNone() throws {
    let box = try ScheduleCommandTests.scheduled()
    var r = try box.dinger(
      "scrum", "edit", "design", "--skip", "2026-12-24", "--until", "2027-06-30")
    #expect(
      r.stdout
        == "Design: schedule weekdays 09:30 Europe/Berlin from 2026-11-30 until 2027-06-30; skip 2026-12-24\n",
      "\(r.stdout)\(r.stderr)")
    r = try box.dinger("scrum", "edit", "design", "--unskip", "2026-12-24", "--until", "none")
    #expect(
      r.stdout
        == "Design: schedule weekdays 09:30 Europe/Berlin from 2026-11-30; unskip 2026-12-24\n",
      "\(r.stdout)\(r.stderr)")
    let text = try box.read("scrums/design.yaml")
    #expect(!text.contains("until") && !text.contains("2026-12-24"), "\(text)")
    let head = try box.head()
    r = try box.dinger("scrum", "edit", "design", "--unskip", "2026-12-25")
    #expect(
      r.status != 0 && r.stderr.contains("--unskip 2026-12-25: that day is not skipped"),
      "\(r.stderr)")
    #expect(try box.head() == head)
  }

  @Test func aCalendarOfAScrumWithoutScheduleSaysHowToGiveOne() throws {
    let box = try ScheduleCommandTests.scheduled()
    try expectOK(box.dinger("scrum", "new", "Retro", "--attendee", "Ann"))
    let r = try box.dinger("calendar", "retro")
    #expect(r.status != 0)
    #expect(r.stderr.contains("scrum 'Retro' has no schedule"), "\(r.stderr)")
    #expect(r.stderr.contains("dinger scrum edit retro --at 09:30"))
    #expect(r.stdout.isEmpty)
  }

  @Test func meetOnATerminalAsksWhichOfTwoDue() throws {
    let box = try ScheduleCommandTests.scheduled()
    box.extraEnvironment["DINGER_TEST_NOW"] = "2026-12-01T08:22:00Z"
    box.extraEnvironment["TZ"] = "Europe/Berlin"
    let (tmux, exit) = try Tmux.start(box, "meet", "--record")
    #expect(tmux.wait(for: "which one? [1-2]"), "\(tmux.screen())")
    #expect(tmux.screen().contains("1) Design") && tmux.screen().contains("2) Ops"))
    tmux.keys("2", "Enter")
    #expect(Tmux.exitStatus(exit) == "0", "\(tmux.screen())")
    #expect(try box.git("log", "-1", "--format=%s").hasPrefix("Record meeting of Ops"))
  }
}
