import Foundation
import TestSupport
import Testing

/// Debian's python3-icalendar and python3-recurring-ical-events, under /usr/bin/python3 (they are
/// Debian packages; another python3 on the PATH may not see them).
enum ICalendarReader {
  static let python = "/usr/bin/python3"

  static var available: Bool {
    (try? ProcessRunner.run(python, ["-c", "import icalendar, recurring_ical_events"]).status) == 0
  }

  /// Expands the .ics over [from, to) (ISO instants) and prints `[uid, start UTC, minutes]`.
  static let script = #"""
    import sys, json, datetime, icalendar, recurring_ical_events
    cal = icalendar.Calendar.from_ical(open(sys.argv[1], 'rb').read())
    def instant(s): return datetime.datetime.fromisoformat(s.replace('Z', '+00:00'))
    start, end = instant(sys.argv[2]), instant(sys.argv[3])
    pad = datetime.timedelta(days=2)
    out = []
    for e in recurring_ical_events.of(cal).between(start - pad, end + pad):
        begin = e['DTSTART'].dt
        assert begin.tzinfo is not None, 'floating time in %s' % e['UID']
        utc = begin.astimezone(datetime.timezone.utc)
        if not (start <= utc < end): continue
        finish = e['DTEND'].dt if 'DTEND' in e else begin + e['DURATION'].dt
        out.append([str(e['UID']), utc.strftime('%Y-%m-%dT%H:%M:%SZ'),
                    int((finish - begin).total_seconds() // 60)])
    print(json.dumps(sorted(out)))
    """#

  static func occurrences(_ ics: URL, from: String, to: String) throws -> [[String]] {
    let r = try ProcessRunner.run(python, ["-c", script, ics.path, from, to])
    guard r.status == 0 else {
      Issue.record("python: \(r.stderr)")
      return []
    }
    let rows = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [[Any]]
    return rows.map { row in row.map { "\($0)" } }
  }
}

/// `dinger calendar` read by independent parsers (Python's icalendar with recurring-ical-events,
/// and the khal calendar client) gives exactly the stand-ups `dinger agenda` lists.
@Suite(
  .enabled(
    if: Prerequisite.met(ICalendarReader.available),
    "needs /usr/bin/python3 with python3-icalendar and python3-recurring-ical-events (make deps installs them)"
  ))
struct ScheduleCalendarTests {
  /// `YYYY-MM-DD` `offset` days from today (UTC), moved forward to the next weekday when `weekday`.
  static func day(_ offset: Int, weekday: Bool = false) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    var date = calendar.date(byAdding: .day, value: offset, to: Date())!
    while weekday && [1, 7].contains(calendar.component(.weekday, from: date)) {
      date = calendar.date(byAdding: .day, value: 1, to: date)!
    }
    let c = calendar.dateComponents([.year, .month, .day], from: date)
    return String(format: "%04d-%02d-%02d", c.year!, c.month!, c.day!)
  }

  /// Four scrums across zones: Berlin weekdays with skips, a move and an end; New York every
  /// other week; Sydney (southern DST, hand-written with comments, days as a list, attendee
  /// zones); Kolkata (+05:30) daily with a late move and a skip.
  static func team() throws -> Sandbox {
    let box = try Sandbox()
    try expectOK(box.dinger("init"))
    try expectOK(
      box.dinger(
        "scrum", "new", "Berlin", "--attendee", "Ada, Bob", "--length", "15", "--at", "09:30",
        "--days", "weekdays", "--zone", "Europe/Berlin", "--until", day(350)))
    try expectOK(
      box.dinger(
        "scrum", "edit", "berlin", "--skip", day(20, weekday: true), "--skip",
        day(200, weekday: true), "--move", "\(day(30, weekday: true))=11:15"))
    try expectOK(
      box.dinger(
        "scrum", "new", "New York", "--attendee", "Cy", "--length", "30", "--at", "16:00",
        "--days", "tue,thu", "--every", "2w", "--zone", "America/New_York", "--from", day(3)))
    try box.write(
      "scrums/sydney.yaml",
      """
      # Our Sydney stand-up.
      title: Sydney
      length: 10
      schedule:
        at: "08:45"   # before the harbour ferry
        days: [mon, wed, fri]
        zone: Australia/Sydney
      attendees:
        - Dee
        - name: Eve
          zone: Europe/London
      """)
    try box.git("add", "scrums/sydney.yaml")
    try box.git("commit", "-qm", "Add Sydney by hand")
    try expectOK(
      box.dinger(
        "scrum", "new", "Kolkata", "--attendee", "Fay", "--at", "10:00", "--days", "daily",
        "--zone", "Asia/Kolkata"))
    try expectOK(
      box.dinger("scrum", "edit", "kolkata", "--move", "\(day(5))=23:30", "--skip", day(6)))
    return box
  }

  struct AgendaJSON: Decodable {
    struct Item: Decodable {
      var title: String
      var id: String?
      var slug: String
      var day: String
      var date: String
      var endDate: String
      var zoneTime: String
      var localDay: String
      var localStart: String
      var moved: Bool
      var status: String
      var attendees: [Attendee]
    }
    struct Attendee: Decodable {
      var name: String
      var zone: String?
      var time: String?
    }
    var fromDate: String
    var toDate: String
    var standups: [Item]
  }

  static func agenda(_ box: Sandbox, days: Int, tz: String) throws -> AgendaJSON {
    let r = try box.dinger(["agenda", "--days", "\(days)", "--json"], env: ["TZ": tz])
    #expect(r.status == 0, "\(r.stderr)")
    return try JSONDecoder().decode(AgendaJSON.self, from: Data(r.stdout.utf8))
  }

  @Test func independentParsersExpandTheSameStandUpsAsAgenda() throws {
    let box = try Self.team()
    let ics = box.home.url.appendingPathComponent("team.ics")
    let written = try box.dinger("calendar", "--out", ics.path)
    #expect(written.status == 0, "\(written.stderr)")
    let agenda = try Self.agenda(box, days: 400, tz: "UTC")
    let theirs = try ICalendarReader.occurrences(ics, from: agenda.fromDate, to: agenda.toDate)
    let ours = agenda.standups.map { item -> [String] in
      let minutes = Int(
        ISO8601DateFormatter().date(from: item.endDate)!.timeIntervalSince(
          ISO8601DateFormatter().date(from: item.date)!) / 60)
      return ["\(item.id ?? item.slug)@dinger", item.date, "\(minutes)"]
    }.sorted { $0.lexicographicallyPrecedes($1) }
    #expect(ours.count > 700)
    #expect(
      theirs == ours,
      "only dinger: \(Set(ours).subtracting(theirs).prefix(4)); only python: \(Set(theirs).subtracting(ours).prefix(4))"
    )

    // What the occurrences say, checked directly.
    let berlin = agenda.standups.filter { $0.title == "Berlin" }
    #expect(!berlin.contains { $0.day == Self.day(20, weekday: true) }, "a skipped day is listed")
    #expect(!berlin.contains { $0.day > Self.day(350) }, "past until")
    let moved = try #require(berlin.first { $0.day == Self.day(30, weekday: true) })
    #expect(moved.moved && moved.zoneTime == "11:15")
    // 09:30 in Berlin all year: 08:30 UTC in winter, 07:30 UTC in summer.
    let hours = Set(berlin.filter { !$0.moved }.map { String($0.date.dropFirst(11).prefix(5)) })
    #expect(hours == ["07:30", "08:30"], "\(hours)")
    // Sydney's DST is the other way round: 08:45 there is 21:45 UTC (AEDT, +11) in January,
    // 22:45 (AEST, +10) in July, on the day before.
    let sydney = Set(
      agenda.standups.filter { $0.title == "Sydney" }.map {
        String($0.date.dropFirst(11).prefix(5))
      })
    #expect(sydney == ["21:45", "22:45"], "\(sydney)")
    let kolkata = agenda.standups.filter { $0.title == "Kolkata" }
    #expect(kolkata.filter { !$0.moved }.allSatisfy { $0.date.hasSuffix("T04:30:00Z") })
    #expect(kolkata.first { $0.day == Self.day(5) }?.date.hasSuffix("T18:00:00Z") == true)
    #expect(!kolkata.contains { $0.day == Self.day(6) })
    // Every other week on Tuesdays and Thursdays: consecutive weeks never both have one.
    let york = agenda.standups.filter { $0.title == "New York" }.map(\.day)
    #expect(york.count > 50)
    // Eve's zone is given: her London time is shown.
    let eve = agenda.standups.first { $0.title == "Sydney" }?.attendees.first { $0.name == "Eve" }
    #expect(eve?.zone == "Europe/London" && eve?.time != nil)
  }

  @Test func theFileIsStableAndWellFormed() throws {
    let box = try Self.team()
    let first = try box.dinger("calendar")
    let second = try box.dinger("calendar")
    #expect(first.status == 0 && first.stdout == second.stdout, "the same data gave another file")
    let text = first.stdout
    #expect(text.hasPrefix("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n"))
    #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains("\n"), "a bare LF")
    #expect(
      text.split(separator: "\r\n").allSatisfy { $0.utf8.count <= 75 }, "a line over 75 octets")
    for zone in ["Europe/Berlin", "America/New_York", "Australia/Sydney", "Asia/Kolkata"] {
      #expect(text.contains("BEGIN:VTIMEZONE\r\nTZID:\(zone)\r\n"), "no VTIMEZONE for \(zone)")
    }
    #expect(text.contains("RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,TH;WKST=MO"))
    #expect(text.contains("EXDATE;TZID=Europe/Berlin:"))
    #expect(text.contains("RECURRENCE-ID;TZID=Europe/Berlin:"))
    // A change raises SEQUENCE and LAST-MODIFIED of that scrum only.
    let sequence = { (text: String, uidPrefix: String) -> String? in
      let events = text.components(separatedBy: "BEGIN:VEVENT")
      let event = events.first {
        $0.contains("SUMMARY:\(uidPrefix)\r\n") && !$0.contains("RECURRENCE-ID")
      }
      return event?.components(separatedBy: "\r\n").first { $0.hasPrefix("SEQUENCE:") }
    }
    let before = (sequence(text, "Berlin"), sequence(text, "Kolkata"))
    try expectOK(box.dinger("scrum", "edit", "berlin", "--length", "20"))
    let after = try box.dinger("calendar").stdout
    #expect(sequence(after, "Berlin") != before.0)
    #expect(sequence(after, "Kolkata") == before.1)
    // --out replaces a link at its path; it never writes through it.
    let target = box.home.url.appendingPathComponent("precious.txt")
    try "keep me".write(to: target, atomically: true, encoding: .utf8)
    let out = box.home.url.appendingPathComponent("team.ics")
    try FileManager.default.createSymbolicLink(at: out, withDestinationURL: target)
    try expectOK(box.dinger("calendar", "--out", out.path))
    #expect(try String(contentsOf: target, encoding: .utf8) == "keep me")
    let kind =
      try FileManager.default.attributesOfItem(atPath: out.path)[.type] as? FileAttributeType
    #expect(kind == .typeRegular)
    #expect(try String(contentsOf: out, encoding: .utf8).hasPrefix("BEGIN:VCALENDAR"))
    // Past meetings, with --history, as single events with their real duration.
    try expectOK(
      box.dinger(
        "meet", "berlin", "--record", "--date", "2026-11-20T08:31:00Z", "--duration", "13m"))
    let history = try box.dinger("calendar", "berlin", "--history").stdout
    #expect(
      history.contains("DTSTART:20261120T083100Z\r\nDURATION:PT13M\r\n"), "\(history.suffix(600))")
    #expect(!history.contains("SUMMARY:Kolkata"))
  }

  @Test func hostileNamesStayInsideTheirValues() throws {
    let box = try Sandbox()
    try expectOK(box.dinger("init"))
    try box.write(
      "scrums/evil.yaml",
      """
      title: "Evil\\r\\nEND:VEVENT\\r\\nBEGIN:VEVENT\\nSUMMARY:pwned; a, b"
      length: 5
      schedule: {at: "10:00", days: daily, zone: UTC}
      attendees:
        - "Mallory\\";ROLE=CHAIR:mailto:x@y\\nX"
      """)
    try box.git("add", "-A")
    try box.git("commit", "-qm", "evil")
    let r = try box.dinger("calendar")
    #expect(r.status == 0, "\(r.stderr)")
    let lines = r.stdout.replacingOccurrences(of: "\r\n ", with: "").components(separatedBy: "\r\n")
    #expect(lines.filter { $0 == "BEGIN:VEVENT" }.count == 1)
    #expect(!lines.contains { $0.hasPrefix("SUMMARY:pwned") })
    #expect(
      lines.contains {
        $0.hasPrefix("SUMMARY:Evil\\nEND:VEVENT\\nBEGIN:VEVENT\\nSUMMARY:pwned\\; a\\, b")
      })
    #expect(lines.contains { $0.hasPrefix("ATTENDEE;CN=\"Mallory';ROLE=CHAIR:mailto:x@y X\";") })
  }

  /// Prints each VALARM's action and trigger (seconds) as libical reads them.
  static let libicalReader = #"""
    #include <libical/ical.h>
    #include <stdio.h>
    #include <stdlib.h>
    int main(int argc, char **argv) {
      FILE *f = fopen(argv[1], "r");
      if (!f) return 2;
      fseek(f, 0, SEEK_END); long n = ftell(f); fseek(f, 0, SEEK_SET);
      char *text = malloc(n + 1);
      if (fread(text, 1, n, f) != (size_t)n) return 4;
      text[n] = 0;
      icalcomponent *cal = icalparser_parse_string(text);
      if (!cal) return 3;
      for (icalcomponent *e = icalcomponent_get_first_component(cal, ICAL_VEVENT_COMPONENT); e;
           e = icalcomponent_get_next_component(cal, ICAL_VEVENT_COMPONENT))
        for (icalcomponent *a = icalcomponent_get_first_component(e, ICAL_VALARM_COMPONENT); a;
             a = icalcomponent_get_next_component(e, ICAL_VALARM_COMPONENT)) {
          struct icaltriggertype t = icalproperty_get_trigger(
            icalcomponent_get_first_property(a, ICAL_TRIGGER_PROPERTY));
          printf("%s %d\n", icalproperty_get_value_as_string(
            icalcomponent_get_first_property(a, ICAL_ACTION_PROPERTY)),
            icaldurationtype_as_int(t.duration));
        }
      return 0;
    }
    """#

  /// `--alarm 10m` gives every event (the recurring one and its moved occurrences) a display
  /// alarm 10 minutes before, as Python's icalendar and libical read it; without it there is
  /// none.
  @Test func anAlarmRemindsBeforeEveryStandup() throws {
    let box = try Sandbox()
    try expectOK(box.dinger("init"))
    try expectOK(
      box.dinger(
        "scrum", "new", "Team", "--attendee", "Ada", "--at", "09:30", "--days", "weekdays",
        "--zone", "Europe/Berlin", "--from", Self.day(1)))
    try expectOK(
      box.dinger("scrum", "edit", "team", "--move", "\(Self.day(3, weekday: true))=11:00"))
    let out = box.home.url.appendingPathComponent("team.ics")
    try expectOK(box.dinger("calendar", "--alarm", "10m", "--out", out.path))
    let script = #"""
      import sys, json, icalendar
      cal = icalendar.Calendar.from_ical(open(sys.argv[1], 'rb').read())
      rows = []
      for e in cal.walk('VEVENT'):
          for a in e.walk('VALARM'):
              rows.append([str(e['UID']), str(a['ACTION']), a['TRIGGER'].dt.total_seconds(), str(a['DESCRIPTION'])])
      print(json.dumps(rows))
      """#
    let r = try ProcessRunner.run(ICalendarReader.python, ["-c", script, out.path])
    #expect(r.status == 0, "\(r.stderr)")
    let rows = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[Any]] ?? []
    #expect(rows.count == 2, "the series and its moved day: \(r.stdout)")
    for row in rows {
      #expect("\(row[1])" == "DISPLAY" && (row[2] as? Double) == -600, "\(row)")
      #expect("\(row[3])" == "Team starts in 10 min", "\(row)")
    }
    // libical (C) reads the same alarms: a program built against it here.
    if let cc = ProcessRunner.which("cc"),
      (try? ProcessRunner.run("/usr/bin/pkg-config", ["--exists", "libical"]).status) == 0
    {
      let source = box.home.url.appendingPathComponent("alarms.c")
      try Self.libicalReader.write(to: source, atomically: true, encoding: .utf8)
      let flags = try ProcessRunner.run("/usr/bin/pkg-config", ["--cflags", "--libs", "libical"])
        .stdout.split(separator: " ").map {
          String($0).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        .filter { !$0.isEmpty }
      let binary = box.home.url.appendingPathComponent("alarms").path
      let built = try ProcessRunner.run(cc, ["-o", binary, source.path] + flags)
      #expect(built.status == 0, "\(built.stderr)")
      let read = try ProcessRunner.run(binary, [out.path])
      #expect(read.stdout == "DISPLAY -600\nDISPLAY -600\n", "\(read.stdout)\(read.stderr)")
    }
    try expectOK(box.dinger("calendar", "--out", out.path))
    #expect(!(try String(contentsOf: out, encoding: .utf8)).contains("VALARM"))
    let bad = try box.dinger("calendar", "--alarm", "soon")
    #expect(bad.status != 0)
  }

  /// A `;` or `:` joined to a neighbour in one grapheme (U+0600 before it; U+0301, a ZWJ or
  /// VS16 after it) is still a `;` to a calendar parser: the name is quoted, and Python's
  /// icalendar finds no parameter but the ones dinger wrote, and each name whole.
  @Test func graphemesHideNoParameter() throws {
    let box = try Sandbox()
    try expectOK(box.dinger("init"))
    let names = [
      "Eve\u{0600};X-INJ=1", "Eve;\u{0301}X-INJ=2", "Eve;\u{200D}X-INJ=3",
      "Eve:\u{FE0F}mailto:evil@example.com", "Eve\u{0600},X-INJ=5",
    ]
    let list = names.map { "  - \"\($0)\"" }.joined(separator: "\n")
    try box.write(
      "scrums/team.yaml",
      "title: Team\nlength: 5\nschedule: {at: \"10:00\", days: daily, zone: UTC}\nattendees:\n\(list)\n"
    )
    try box.git("add", "-A")
    try box.git("commit", "-qm", "graphemes")
    let out = box.home.url.appendingPathComponent("team.ics")
    try expectOK(box.dinger("calendar", "--out", out.path))
    let script = #"""
      import sys, json, icalendar
      cal = icalendar.Calendar.from_ical(open(sys.argv[1], 'rb').read())
      rows = []
      for e in cal.walk('VEVENT'):
          a = e.get('ATTENDEE', [])
          for x in (a if isinstance(a, list) else [a]):
              rows.append([str(x.params.get('CN', '')), sorted(x.params.keys()), str(x)])
      print(json.dumps(rows))
      """#
    let r = try ProcessRunner.run(ICalendarReader.python, ["-c", script, out.path])
    #expect(r.status == 0, "\(r.stderr)")
    let rows = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[Any]] ?? []
    #expect(rows.count == names.count, "\(r.stdout)")
    for row in rows {
      let params = (row[1] as? [String]) ?? []
      #expect(!params.contains { $0.hasPrefix("X-INJ") }, "\(row)")
      #expect(!"\(row[2])".contains("evil@"), "\(row)")
    }
    let cns = Set(rows.compactMap { $0.first as? String })
    #expect(cns == Set(names), "\(cns)")
  }
}

/// khal, a calendar client people use, imports the file and shows the stand-ups at the times
/// `dinger agenda` gives, under two different local zones.
@Suite(
  .enabled(
    if: Prerequisite.met(ProcessRunner.which("khal") != nil),
    "needs khal (make deps installs it)"))
struct KhalCalendarTests {
  @Test(arguments: ["Europe/Berlin", "America/Los_Angeles"])
  func khalListsWhatAgendaLists(_ tz: String) throws {
    let box = try ScheduleCalendarTests.team()
    let agenda = try ScheduleCalendarTests.agenda(box, days: 60, tz: tz)
    let theirs = try Self.khalList(box, tz: tz, agenda: agenda, "{start-date} {start-time} {title}")
    let ours = agenda.standups.map { "\($0.localDay) \($0.localStart) \($0.title)" }.sorted()
    #expect(
      theirs == ours,
      "only khal: \(Set(theirs).subtracting(ours).sorted().prefix(4)); only dinger: \(Set(ours).subtracting(theirs).sorted().prefix(4))"
    )
  }

  /// khal marks an event that has an alarm it can fire (a display alarm with a relative
  /// trigger); with `--alarm` every stand-up carries the mark, without it none does.
  @Test func khalSeesTheAlarmOnEveryStandup() throws {
    let box = try ScheduleCalendarTests.team()
    let agenda = try ScheduleCalendarTests.agenda(box, days: 60, tz: "Europe/Berlin")
    let format = "{start-date} {title}|{alarm-symbol}|"
    let with = try Self.khalList(box, tz: "Europe/Berlin", agenda: agenda, format, "--alarm", "10m")
    let without = try Self.khalList(box, tz: "Europe/Berlin", agenda: agenda, format)
    #expect(with.count == agenda.standups.count && !with.isEmpty)
    #expect(with.allSatisfy { !$0.hasSuffix("||") }, "\(with.filter { $0.hasSuffix("||") })")
    #expect(without.count == agenda.standups.count)
    #expect(without.allSatisfy { $0.hasSuffix("||") }, "\(without.prefix(3))")
  }

  /// Writes the calendar with `calendarArguments`, imports it into a fresh khal and lists the
  /// days the agenda covers in `format`, one sorted line per event.
  static func khalList(
    _ box: Sandbox, tz: String, agenda: ScheduleCalendarTests.AgendaJSON, _ format: String,
    _ calendarArguments: String...
  ) throws -> [String] {
    let home = box.home.url.appendingPathComponent("khal-\(UUID().uuidString)")
    let ics = home.appendingPathComponent("team.ics")
    try FileManager.default.createDirectory(
      at: home.appendingPathComponent("cal"), withIntermediateDirectories: true)
    try expectOK(box.dinger(["calendar"] + calendarArguments + ["--out", ics.path]))
    let config = home.appendingPathComponent("config")
    try """
    [calendars]
    [[team]]
    path = \(home.path)/cal
    type = calendar
    [locale]
    timeformat = %H:%M
    dateformat = %Y-%m-%d
    longdateformat = %Y-%m-%d
    datetimeformat = %Y-%m-%d %H:%M
    longdatetimeformat = %Y-%m-%d %H:%M
    """.write(to: config, atomically: true, encoding: .utf8)
    var env = ProcessInfo.processInfo.environment
    env["TZ"] = tz
    env["XDG_DATA_HOME"] = home.appendingPathComponent("data").path
    env["HOME"] = home.path
    let khal = ProcessRunner.which("khal")!
    let imported = try ProcessRunner.run(
      khal, ["-c", config.path, "import", "--batch", "-a", "team", ics.path], environment: env)
    #expect(imported.status == 0, "\(imported.stderr)")
    let days = agenda.standups.map(\.localDay)
    let (first, last) = (days.min()!, days.max()!)
    let listed = try ProcessRunner.run(
      khal, ["-c", config.path, "list", "--format", format, "--day-format", "", first, last],
      environment: env)
    #expect(listed.status == 0, "\(listed.stderr)")
    return listed.stdout.split(separator: "\n").map(String.init).filter { !$0.isEmpty }.sorted()
  }
}
