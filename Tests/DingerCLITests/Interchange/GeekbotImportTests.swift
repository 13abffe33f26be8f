import Foundation
import TestSupport
import Testing

/// `dinger import geekbot`: Geekbot's reports (its API's JSON) become written stand-up entries
/// of one scrum: the writer matched by real or user name, the day in the scrum's zone, the
/// blocker question's lines as blockers, and everything left out said.
@Suite struct GeekbotImportTests {
  static let reports = #"""
    [
      {"id": 101, "standup_id": 7, "timestamp": 1795995000,
       "member": {"id": "U1", "realname": "Ada Lovelace", "username": "ada"},
       "questions": [
         {"id": 1, "question": "What have you done since yesterday?", "answer": "Shipped the login page", "color": "EEEEEE"},
         {"id": 2, "question": "What will you do today?", "answer": "Review Grace's PR"},
         {"id": 3, "question": "Anything blocking your progress?", "answer": "- The signing key\n- CI is red"},
         {"id": 4, "question": "How do you feel?", "answer": "Great"}
       ]},
      {"id": 102, "standup_id": 7, "timestamp": 1795995600,
       "member": {"id": "U2", "realname": "", "username": "grace"},
       "questions": [
         {"id": 1, "question": "What have you done since yesterday?", "answer": "Payments"},
         {"id": 3, "question": "Anything blocking your progress?", "answer": "None"}
       ]},
      {"id": 103, "standup_id": 7, "timestamp": 1795996000,
       "member": {"id": "U1", "realname": "Ada Lovelace", "username": "ada"},
       "questions": [{"id": 1, "question": "What have you done since yesterday?", "answer": "again"}]},
      {"id": 104, "standup_id": 7, "timestamp": 1795996000,
       "member": {"id": "U9", "realname": "Mallory", "username": "mal"},
       "questions": [{"id": 1, "question": "What have you done since yesterday?", "answer": "x"}]}
    ]
    """#

  @Test func reportsBecomeEntriesOnce() throws {
    let box = try Sandbox()
    expectOK(try box.dinger("init"))
    expectOK(
      try box.dinger(
        "scrum", "new", "Platform", "--attendee", "Ada Lovelace", "--attendee", "Grace", "--at",
        "09:30", "--days", "weekdays", "--zone", "Europe/Berlin"))
    let file = box.home.url.appendingPathComponent("reports.json")
    try Self.reports.write(to: file, atomically: true, encoding: .utf8)
    // NB: the reports are of the 29th and 30th: read on the 1st, none lies in the future.
    box.extraEnvironment["DINGER_TEST_NOW"] = "2026-12-01T12:00:00Z"
    let noScrum = try box.dinger("import", "geekbot", file.path)
    #expect(noScrum.status == 1 && noScrum.stderr.contains("--scrum"))
    let r = try box.dinger("import", "geekbot", file.path, "--scrum", "platform")
    expectOK(r)
    #expect(r.stdout == "Import 2 stand-up entries from Geekbot into Platform\n", "\(r.stdout)")
    #expect(r.stderr.contains("'How do you feel?' asks for a mood"), "\(r.stderr)")
    #expect(r.stderr.contains("report 103 left out: Ada Lovelace has an earlier report"))
    #expect(r.stderr.contains("report 104 by 'Mallory' left out: not an attendee of Platform"))
    // 1795995000 is 2026-11-29 23:30 UTC: already the 30th in Berlin.
    let ada = try String(
      contentsOf: box.data.appendingPathComponent("standups/platform/2026-11-30-ada-lovelace.yaml"),
      encoding: .utf8)
    #expect(ada.contains("yesterday: Shipped the login page"), "\(ada)")
    #expect(ada.contains("today: Review Grace's PR"))
    #expect(ada.contains("The signing key") && ada.contains("CI is red"))
    #expect(!ada.contains("Great"))
    let grace = try String(
      contentsOf: box.data.appendingPathComponent("standups/platform/2026-11-30-grace.yaml"),
      encoding: .utf8)
    #expect(grace.contains("by: Grace") && !grace.contains("blockers"), "\(grace)")
    let blockers = try box.dinger("blockers", "platform")
    #expect(
      blockers.stdout.contains("The signing key") && blockers.stdout.contains("CI is red"),
      "\(blockers.stdout)")
    expectOK(try box.dinger("check"))
    let head = try box.git("rev-parse", "HEAD")
    let again = try box.dinger("import", "geekbot", file.path, "--scrum", "platform")
    #expect(again.stdout == "nothing to import: 2 entries from Geekbot are here already\n")
    #expect(try box.git("rev-parse", "HEAD") == head)
    // Not Geekbot's shape: said, nothing written.
    try #"{"reports": []}"#.write(to: file, atomically: true, encoding: .utf8)
    let bad = try box.dinger("import", "geekbot", file.path, "--scrum", "platform")
    #expect(bad.status == 1 && bad.stderr.contains("this is not Geekbot's file"), "\(bad.stderr)")
    #expect(try box.git("rev-parse", "HEAD") == head)
  }

  /// A 4-person team in 4 zones over 3 weeks, as Geekbot exports it: blockers carried, dropped
  /// and answered "none" in every way people write it, a mood question, reports at each
  /// writer's 09:00. After the import the open blockers are the last reports' blockers, every
  /// entry is on its writer's day, `check` is clean, and `blocker resolve --all` closes what is
  /// left in one commit.
  @Test func aTeamsThreeWeeksKeepOnlyTheBlockersStillOpen() throws {
    let box = try Sandbox()
    box.extraEnvironment["DINGER_TEST_NOW"] = "2026-11-28T12:00:00Z"
    box.extraEnvironment["TZ"] = "UTC"
    expectOK(try box.dinger("init"))
    let people = [
      ("Ada Lovelace", "Europe/Berlin", 3_600), ("Grace Hopper", "America/Los_Angeles", -28_800),
      ("Linus", "Asia/Kolkata", 19_800), ("Kenji", "Australia/Sydney", 39_600),
    ]
    var scrum =
      "id: 0b7e2c1a-4f5d-4e6a-9b8c-1d2e3f4a5b6c\ntitle: Platform\ntheme: yellow\nlength: 15\nattendees:\n"
    for (name, zone, _) in people { scrum += "  - name: \(name)\n    zone: \(zone)\n" }
    try box.write("scrums/platform.yaml", scrum)
    try box.git("add", "-A")
    try box.git("commit", "-q", "-m", "Platform")
    let nones = [
      "Nope :slightly_smiling_face:", "N/A.", "-", "NONE!", "👍", "no blockers 🎉", ":+1:",
      "Nothing.", "nope", "None so far", "No", "all good!", "n/a", "Nah", "nothing :tada:",
    ]
    // Working days 2026-11-02 to 2026-11-20 (three weeks), each writer at 09:00 local time.
    let days = (2...20).filter { ![7, 8, 14, 15].contains($0) }
    var reports: [String] = []
    var rid = 1
    for (d, day) in days.enumerated() {
      // 2026-11-DD 09:00 UTC, less the writer's offset (November: no DST change for these).
      let midnight = 1_793_491_200 + (day - 1) * 86_400  // 2026-11-01T00:00:00Z
      for (p, (name, _, offset)) in people.enumerated() {
        let blocker: String
        switch p {
        case 0: blocker = d < 3 ? "Waiting for the signing key" : nones[d % nones.count]
        case 1: blocker = nones[(d + 5) % nones.count]
        case 2:
          blocker = d < 4 ? nones[d] : d == 4 ? "- CI is red\n- Staging is down" : "CI is red"
        default: blocker = d == days.count - 1 ? "Need access to prod" : "None"
        }
        let at = midnight + 9 * 3_600 - offset
        let answers: [(String, String)] = [
          ("How do you feel today?", "Good 🙂"),
          ("What have you done since yesterday?", "Work \(d)"),
          ("What will you do today?", "More work \(d)"),
          ("Anything blocking your progress?", blocker),
        ]
        let questions = answers.map { q, a in
          let escaped = a.replacingOccurrences(of: "\n", with: "\\n")
          return "{\"question\": \"\(q)\", \"answer\": \"\(escaped)\"}"
        }
        reports.append(
          "{\"id\": \(rid), \"standup_id\": 1, \"timestamp\": \(at), \"member\": {\"id\": \"U\(p)\", \"realname\": \"\(name)\", \"username\": \"u\(p)\"}, \"questions\": [\(questions.joined(separator: ", "))]}"
        )
        rid += 1
      }
    }
    let file = box.home.url.appendingPathComponent("geekbot.json")
    try ("[" + reports.joined(separator: ",\n") + "]").write(
      to: file, atomically: true, encoding: .utf8)
    let r = try box.dinger("import", "geekbot", file.path, "--scrum", "platform")
    expectOK(r)
    #expect(
      r.stdout.contains("Import \(days.count * 4) stand-up entries"), "\(r.stdout)\(r.stderr)")
    #expect(r.stderr.contains("'How do you feel today?' asks for a mood"), "\(r.stderr)")
    expectOK(try box.dinger("check"))
    // Every entry on its writer's day: Kenji's 09:00 in Sydney is the day before in UTC.
    for day in days {
      let date = String(format: "2026-11-%02d", day)
      for name in ["ada-lovelace", "grace-hopper", "linus", "kenji"] {
        #expect(
          FileManager.default.fileExists(
            atPath: box.data.appendingPathComponent("standups/platform/\(date)-\(name).yaml").path),
          "\(name) has no entry for \(date)")
      }
    }
    // The open blockers are the last reports': Linus's CI and Kenji's access, nothing else.
    let open = try box.dinger("blockers", "platform")
    #expect(
      open.stdout.contains("CI is red") && open.stdout.contains("Need access to prod"),
      "\(open.stdout)")
    for gone in ["signing key", "Staging is down", "Nope", "N/A", "NONE", "🎉", "slightly"] {
      #expect(!open.stdout.contains(gone), "\(gone) is still open:\n\(open.stdout)")
    }
    let json = try box.dinger("blockers", "platform", "--json")
    let all = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [String: Any]
    let listed = (all["blockers"] as? [[String: Any]]) ?? []
    #expect(listed.count == 2, "\(json.stdout)")
    // What the import left open is closed in one commit.
    let head = try box.git("rev-list", "--count", "HEAD")
    let closed = try box.dinger(
      "blocker", "resolve", "--all", "--scrum", "platform", "--before", "2026-11-20")
    #expect(
      closed.status == 0 && closed.stdout.contains("1 blocker resolved"),
      "\(closed.stdout)\(closed.stderr)")
    #expect(
      Int(
        try box.git("rev-list", "--count", "HEAD").trimmingCharacters(in: .whitespacesAndNewlines))
        == Int(head.trimmingCharacters(in: .whitespacesAndNewlines))! + 1)
    let rest = try box.dinger("blockers", "platform")
    #expect(
      !rest.stdout.contains("CI is red") && rest.stdout.contains("Need access to prod"),
      "\(rest.stdout)")
    expectOK(try box.dinger("check"))
    let bad = try box.dinger("blocker", "resolve", "--owner", "Linus")
    #expect(bad.status == 64, "\(bad.stderr)")
  }
}

/// Numbers at and past every bound, in each app's file: refused with the field's place (exit 1),
/// never a trap, nothing written; a transcript over what a meeting file holds keeps its start.
@Suite struct ImportNumbersTests {
  static let id = "6A4F0C1E-1111-4222-8333-944455556666"
  static let meeting = "3F2C0C1E-1111-4222-8333-944455556666"

  func scrumdinger(date: String, transcript: String? = nil) -> String {
    let t = transcript.map { #", "transcript": "\#($0)""# } ?? ""
    return
      #"[{"id": "\#(Self.id)", "title": "Design", "attendees": [{"id": "\#(Self.meeting)", "name": "Ada"}], "lengthInMinutes": 10, "theme": "yellow", "history": [{"id": "\#(Self.meeting)", "date": \#(date), "attendees": [{"id": "\#(Self.meeting)", "name": "Ada"}]\#(t)}]}]"#
  }

  func syncups(duration: String, date: String = "0") -> String {
    #"[{"id": "\#(Self.id)", "title": "Design", "attendees": [{"id": "\#(Self.meeting)", "name": "Ada"}], "duration": \#(duration), "theme": "yellow", "meetings": [{"id": "\#(Self.meeting)", "date": \#(date), "transcript": ""}]}]"#
  }

  @Test(arguments: [
    ("scrumdinger", "1e20", "[0].history[0].date"),
    ("scrumdinger", "-1e12", "[0].history[0].date"),
    ("scrumdinger", "1e12", "[0].history[0].date"),
    ("syncups-duration", "[9223372036854775807, 18446744073709551615]", "[0].duration"),
    ("syncups-duration", "[-9223372036854775808, 0]", "[0].duration"),
    ("syncups-date", "1e20", "[0].meetings[0].date"),
  ])
  func aNumberPastItsBoundIsRefusedWithItsPlace(kind: String, value: String, place: String) throws {
    let box = try Sandbox()
    expectOK(try box.dinger("init"))
    let head = try box.git("rev-parse", "HEAD")
    let file = box.home.url.appendingPathComponent("scrums.data")
    let text =
      kind == "scrumdinger"
      ? scrumdinger(date: value)
      : kind == "syncups-duration"
        ? syncups(duration: value) : syncups(duration: "[3, 4659767778871345152]", date: value)
    try text.write(to: file, atomically: true, encoding: .utf8)
    let app = kind == "scrumdinger" ? "scrumdinger" : "syncups"
    let r = try box.dinger("import", app, file.path)
    #expect(r.status == 1, "\(kind) \(value): exit \(r.status) \(r.stderr)")
    #expect(r.stderr.contains(place) && r.stderr.contains("nothing was imported"), "\(r.stderr)")
    #expect(try box.git("rev-parse", "HEAD") == head)
    expectOK(try box.dinger("check"))
  }

  @Test func aTranscriptOverAMeetingFileKeepsItsStartAndCheckAgrees() throws {
    let box = try Sandbox()
    expectOK(try box.dinger("init"))
    let file = box.home.url.appendingPathComponent("scrums.data")
    let line = String(repeating: "言语 spoken words ", count: 40)
    let transcript = Array(repeating: line, count: 16_000).joined(separator: "\\n")  // ~9.9 MB
    try scrumdinger(date: "785000000", transcript: transcript).write(
      to: file, atomically: true, encoding: .utf8)
    let r = try box.dinger("import", "scrumdinger", file.path)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stderr.contains("is over what a meeting file holds (8 MB)"), "\(r.stderr)")
    expectOK(try box.dinger("check"))
    let files = try FileManager.default.contentsOfDirectory(
      atPath: box.data.appendingPathComponent("history/design").path)
    #expect(files.count == 1)
    let size =
      try FileManager.default.attributesOfItem(
        atPath: box.data.appendingPathComponent("history/design/\(files[0])").path)[.size] as! Int
    #expect(size <= 8 << 20 && size > 7 << 20, "\(size)")
    let history = try box.dinger("history", "design")
    #expect(history.status == 0 && history.stdout.contains("Design"), "\(history.stderr)")
  }

  /// What dinger does not keep is said at import: attendee ids, fractions of a second, empty
  /// transcripts, SyncUps' unknown attendance.
  @Test func everyLossIsANoteAtImport() throws {
    let box = try Sandbox()
    expectOK(try box.dinger("init"))
    let file = box.home.url.appendingPathComponent("scrums.data")
    try scrumdinger(date: "785000000.25", transcript: "").write(
      to: file, atomically: true, encoding: .utf8)
    let r = try box.dinger("import", "scrumdinger", file.path)
    #expect(r.status == 0, "\(r.stderr)")
    for note in [
      "attendee ids are not kept", "1 meeting date kept to the whole second",
      "1 empty transcript left out",
    ] {
      #expect(r.stderr.contains(note), "\(note): \(r.stderr)")
    }
    let other = try Sandbox()
    expectOK(try other.dinger("init"))
    try syncups(duration: "[3, 4659767778871345152]", date: "785000000").write(
      to: file, atomically: true, encoding: .utf8)
    let s = try other.dinger("import", "syncups", file.path)
    #expect(s.status == 0, "\(s.stderr)")
    #expect(s.stderr.contains("their attendance is unknown"), "\(s.stderr)")
    expectOK(try other.dinger("check"))
  }

  @Test func aGeekbotReportInTheFutureOrPastTheBoundIsLeftOutAndSaid() throws {
    let box = try Sandbox()
    box.extraEnvironment["DINGER_TEST_NOW"] = "2026-11-28T12:00:00Z"
    expectOK(try box.dinger("init"))
    expectOK(try box.dinger("scrum", "new", "Platform", "--attendee", "Ada Lovelace"))
    let file = box.home.url.appendingPathComponent("reports.json")
    try #"""
    [{"id": 1, "timestamp": 4070908800, "member": {"realname": "Ada Lovelace"}, "questions": [{"question": "What will you do today?", "answer": "time travel"}]},
     {"id": 2, "timestamp": 99999999999999, "member": {"realname": "Ada Lovelace"}, "questions": [{"question": "What will you do today?", "answer": "far"}]},
     {"id": 3, "timestamp": -99999999999, "member": {"realname": "Ada Lovelace"}, "questions": [{"question": "What will you do today?", "answer": "past"}]},
     {"id": 4, "timestamp": 1795000000, "member": {"realname": "Ada Lovelace"}, "questions": [{"question": "What will you do today?", "answer": "normal"}]}]
    """#.write(to: file, atomically: true, encoding: .utf8)
    let r = try box.dinger("import", "geekbot", file.path, "--scrum", "platform")
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains("Import 1 stand-up entry"), "\(r.stdout)")
    #expect(
      r.stderr.contains(
        "report 1 by Ada Lovelace left out: it is dated 2099-01-01, after the writer's today"),
      "\(r.stderr)")
    #expect(
      r.stderr.contains(
        "report 2 by Ada Lovelace left out: its timestamp 99999999999999 is not between 1970 and 2200"
      ))
    #expect(r.stderr.contains("report 3 by Ada Lovelace left out: its timestamp -99999999999"))
    expectOK(try box.dinger("check"))
  }
}

/// dinger's own export of 100,000 meetings imports back into its repository as "nothing to
/// import": the file (tens of MB) is under the import limit, read whole, every id matched.
@Suite struct RoundTripAtScaleTests {
  @Test func anExportOfAHundredThousandMeetingsImportsBackAsNothingNew() throws {
    let box = try Sandbox()
    expectOK(try box.dinger("init"))
    expectOK(try box.dinger("scrum", "new", "Design", "--attendee", "Ada", "--attendee", "Grace"))
    let scrum = try box.read("scrums/design.yaml").split(separator: "\n")
      .first { $0.hasPrefix("id: ") }!.dropFirst(4)
    var stream = "commit refs/heads/main\ncommitter Ada <ada@example.com> 1795000000 +0000\n"
    stream += "data 14\nMany meetings\nfrom refs/heads/main^0\n"
    let formatter = ISO8601DateFormatter()
    for m in 0..<100_000 {
      let date = formatter.string(
        from: Date(timeIntervalSince1970: 1_420_070_400 + Double(m) * 3_600))
      let id = String(format: "%08x-0000-4000-8000-000000000000", m)
      let text =
        "id: \(id)\nscrum: \(scrum)\ndate: \(date)\nlength: 15\nduration: \(600 + m % 300)\nattendees: [Ada, Grace]\nspeakers:\n  - {name: Ada, seconds: 300}\n  - {name: Grace, seconds: \(300 + m % 300)}\n"
      stream += "M 100644 inline history/design/\(date.prefix(10))-\(id.prefix(8)).yaml\n"
      stream += "data \(text.utf8.count)\n\(text)\n"
    }
    let r = try ProcessRunner.run(
      "/usr/bin/git", ["fast-import", "--quiet"], in: box.data, environment: box.environment,
      input: stream)
    #expect(r.status == 0, "\(r.stderr)")
    try box.git("reset", "-q", "--hard", "main")
    let file = box.home.path("scrums.data")
    let export = try box.dinger("export", "scrumdinger", "--out", file)
    #expect(export.status == 0 && (export.stdout + export.stderr).contains("100000 meetings"))
    let head = try box.git("rev-parse", "HEAD")
    let back = try box.dinger("import", "scrumdinger", file)
    #expect(back.status == 0, "\(back.stderr)")
    #expect(
      back.stdout
        == "nothing to import: 1 scrum and 100000 meetings from Scrumdinger are here already\n",
      "\(back.stdout)")
    #expect(try box.git("rev-parse", "HEAD") == head)
  }
}
