import Foundation
import TestSupport
import Testing

/// `dinger import` and `dinger export` against the apps' own encoders and decoders: files the
/// apps write import completely; dinger's exports decode in the apps; import(export(x)) gives x
/// back field by field; importing twice adds nothing.
@Suite(
  .enabled(
    if: Prerequisite.met((try? AppPrograms.binary.get()) != nil),
    "needs swiftc to build the apps' model types"))
struct AppImportExportTests {
  static func repo() throws -> Sandbox {
    let box = try Sandbox()
    expectOK(try box.dinger("init"))
    return box
  }

  /// Seconds since 2001 floored to whole seconds (dinger keeps whole seconds).
  static func whole(_ s: AppSummary) -> AppSummary {
    var s = s
    s.meetings = s.meetings.map {
      var m = $0
      m.date = m.date.rounded(.down)
      if m.transcript == "" { m.transcript = nil }
      return m
    }
    return s
  }

  @Test func scrumdingersOwnFileImportsCompletelyAndOnce() throws {
    let box = try Self.repo()
    let file = try AppPrograms.encode("scrumdinger2022", into: box)
    let app = try AppPrograms.decode("scrumdinger2022", file)
    let dry = try box.dinger("import", "scrumdinger", file, "--dry-run")
    expectOK(dry)
    #expect(dry.stdout.hasPrefix("would commit: Import 3 scrums and 3 meetings from Scrumdinger"))
    #expect(try box.git("log", "--oneline").split(separator: "\n").count == 1)
    let first = try box.dinger("import", "scrumdinger", file)
    expectOK(first)
    #expect(first.stdout == "Import 3 scrums and 3 meetings from Scrumdinger\n", "\(first.stdout)")
    #expect(
      try box.git("log", "-1", "--format=%s").trimmingCharacters(in: .whitespacesAndNewlines)
        == "Import 3 scrums and 3 meetings from Scrumdinger")
    let ours = try DingerData(box)
    let summaries = ours.summaries()
    for s in app.map(Self.whole) {
      #expect(
        summaries[s.id] == s, "\(s.title): dinger holds \(String(describing: summaries[s.id]))")
    }
    #expect(ours.meetings.allSatisfy { $0.imported == "scrumdinger" && $0.duration == nil })
    // Twice: nothing, no commit.
    let head = try box.git("rev-parse", "HEAD")
    let again = try box.dinger("import", "scrumdinger", file)
    expectOK(again)
    #expect(
      again.stdout
        == "nothing to import: 3 scrums and 3 meetings from Scrumdinger are here already\n")
    #expect(try box.git("rev-parse", "HEAD") == head)
    expectOK(try box.dinger("check"))
    // The unknown durations are said, and left out of the figures.
    let history = try box.dinger("history", "design")
    #expect(history.stdout.contains("duration unknown"), "\(history.stdout)")
    let stats = try box.dinger("stats", "design")
    #expect(
      stats.stdout.contains("no durations known; 2 meetings of unknown duration left out"),
      "\(stats.stdout)")
    let page = box.home.url.appendingPathComponent("report.html")
    expectOK(try box.dinger("report", "design", "--out", page.path))
    #expect(
      try String(contentsOf: page, encoding: .utf8).contains(
        "no durations known; 2 meetings of unknown duration left out"),
      "the report says what it left out")
  }

  @Test func syncUpsOwnFileImportsWithExactDurations() throws {
    let box = try Self.repo()
    let file = try AppPrograms.encode("syncups", into: box)
    let app = try AppPrograms.decode("syncups", file)
    let r = try box.dinger("import", "syncups", file)
    expectOK(r)
    let ours = try DingerData(box)
    let summaries = ours.summaries(meetingAttendees: false)
    // The low word passes 2^63 (10 s) and the high word is 1 (19 s): exact, then rounded to
    // whole minutes (at least 1), each rounding said.
    let minutes = [
      "Five": 5, "Ten seconds": 1, "Nineteen seconds": 1, "Ninety and a half": 2, "Half hour": 30,
      "Ten hours": 600,
    ]
    for s in app.map(Self.whole) {
      var expected = s
      expected.length = Double(minutes[s.title]!)
      #expect(summaries[s.id] == expected, "\(s.title): \(String(describing: summaries[s.id]))")
    }
    #expect(r.stderr.contains("'Ten seconds': its length of 10 s is rounded to 0 min"))
    #expect(r.stderr.contains("'Ninety and a half': its length of 91 s is rounded to 2 min"))
    #expect(ours.meetings.allSatisfy { $0.imported == "syncups" && $0.length == nil })
    // The revision that spells six themes `appOrange`.
    let prefixed = try AppPrograms.encode("syncups-prefixed", into: box)
    expectOK(try box.dinger("import", "syncups", prefixed))
    let themes = Dictionary(
      uniqueKeysWithValues: try DingerData(box).scrums.map { ($0.title, $0.theme) })
    #expect(themes["Prefixed"] == "orange" && themes["Plain"] == "sky", "--json names the theme")
  }

  /// Titles in Chinese and Korean name their own files (in NFC, whatever the app's bytes), so
  /// that nothing tells `scrum` from `scrum-2`; each is found by its slug and its title.
  @Test func nonLatinTitlesGetSlugsThatTellScrumsApart() throws {
    let box = try Self.repo()
    let file = try AppPrograms.encode("syncups-titles", into: box)
    let r = try box.dinger("import", "syncups", file)
    expectOK(r)
    let files = try box.git("-c", "core.quotepath=off", "ls-files", "scrums")
      .split(separator: "\n").map(String.init).sorted()
    #expect(
      files
        == ["scrums/scrum.yaml", "scrums/周会.yaml", "scrums/站会.yaml", "scrums/한국-회의.yaml"].sorted(),
      "\(files)")
    // The bytes are NFC: the syllable 한, not the jamo the title was typed with.
    #expect(files.contains { Array($0.utf8) == Array("scrums/\u{D55C}\u{AD6D}-회의.yaml".utf8) })
    expectOK(try box.dinger("check"))
    #expect(try box.dinger("scrum", "show", "周会").stdout.contains("周会"))
    #expect(try box.dinger("scrum", "show", "站会").stdout.contains("站会"))
    // A rename may name the file in any script; a name in NFD or with a space is refused.
    expectOK(try box.dinger("scrum", "rename", "站会", "站会-每日"))
    #expect(
      FileManager.default.fileExists(
        atPath: box.data.appendingPathComponent("scrums/站会-每日.yaml").path))
    let bad = try box.dinger("scrum", "rename", "周会", "Cafe\u{301}")
    #expect(bad.status == 1 && bad.stderr.contains("can't name a scrum file"), "\(bad.stderr)")
  }

  /// The revision of SyncUps that spells six themes `appOrange` reads dinger's export back with
  /// its own decoder, and the spelling survives dinger's own edits and `check`.
  @Test func syncUpsAppThemesComeBackAsTheFileHadThem() throws {
    let box = try Self.repo()
    let prefixed = try AppPrograms.encode("syncups-prefixed", into: box)
    expectOK(try box.dinger("import", "syncups", prefixed))
    expectOK(try box.dinger("check"))
    let file = try box.read("scrums/prefixed.yaml")
    #expect(file.contains("theme: appOrange\n"), "\(file)")
    // An edit that leaves the theme alone keeps the spelling.
    expectOK(try box.dinger("scrum", "edit", "prefixed", "--length", "7"))
    #expect(try box.read("scrums/prefixed.yaml").contains("theme: appOrange\n"))
    #expect(try box.dinger("scrum", "list").stdout.contains("orange"))
    let out = box.home.url.appendingPathComponent("back.json").path
    expectOK(try box.dinger("export", "syncups", "--out", out))
    let app = try AppPrograms.decode("syncups-prefixed", out)
    #expect(
      Dictionary(uniqueKeysWithValues: app.map { ($0.title, $0.theme) })
        == ["Prefixed": "appOrange", "Plain": "sky"])
    // The same file imports back as nothing new.
    #expect(try box.dinger("import", "syncups", out).stdout.hasPrefix("nothing to import"))
    // Choosing another theme drops the old spelling.
    expectOK(try box.dinger("scrum", "edit", "prefixed", "--theme", "teal"))
    #expect(try box.read("scrums/prefixed.yaml").contains("theme: teal\n"))
  }

  @Test func scrumdinger2020ColoursBecomeTheNearestTheme() throws {
    let box = try Self.repo()
    let file = try AppPrograms.encode("scrumdinger2020", into: box)
    let app = try AppPrograms.decode("scrumdinger2020", file)
    expectOK(try box.dinger("import", "scrumdinger", file))
    let ours = try DingerData(box)
    #expect(ours.scrums.map(\.theme) == ["orange"])
    #expect(ours.scrums.map(\.attendees) == app.map(\.attendees))
    // The 2020 app kept a length per meeting: it is known, the duration is not.
    #expect(ours.meetings.map(\.length) == [15])
    #expect(ours.meetings.map(\.duration) == [nil])
    #expect(ours.meetings.map(\.id) == app.flatMap { $0.meetings.map(\.id) })
    #expect(ours.meetings.first?.transcript == "old notes")
  }

  @Test func whatDingersRulesRefuseIsListed() throws {
    let box = try Self.repo()
    expectOK(try box.dinger("scrum", "new", "Untitled", "--attendee", "Zed"))
    let file = try AppPrograms.encode("scrumdinger2022-messy", into: box)
    let r = try box.dinger("import", "scrumdinger", file)
    expectOK(r)
    for note in [
      "a scrum with an empty title is now 'Untitled'",
      "scrum 'Untitled': a scrum here has that title; it is now 'Untitled (2)'",
      "scrum 'Ops': attendee 'ada' is listed twice; dinger keeps one person of that name",
      "scrum 'Ops': an attendee without a name was left out",
      "scrum 'Ops': a length of 0 min is now 1 min (1 to 600)",
      "scrum 'ops': another scrum in the file has its title; it is now 'ops (2)'",
      "scrum 'ops (2)': a length of 700 min is now 600 min (1 to 600)",
      "scrum 'Nobody' refused, with its 0 meetings: it has no attendees and a scrum needs one",
      "scrum 'From history' has no attendees; took the 2 who came to its meetings",
    ] {
      #expect(r.stderr.contains("note: " + note), "missing: \(note)\n\(r.stderr)")
    }
    let ours = try DingerData(box)
    #expect(
      Set(ours.scrums.map(\.title))
        == ["Untitled", "Untitled (2)", "Ops", "ops (2)", "From history"])
    #expect(ours.scrums.first { $0.title == "Ops" }?.attendees == ["Ada"])
    #expect(ours.scrums.first { $0.title == "From history" }?.attendees == ["Eve", "Fay"])
    // The commit says what was done about each.
    let body = try box.git("log", "-1", "--format=%b")
    #expect(body.contains("- scrum 'Nobody' refused"), "\(body)")
    expectOK(try box.dinger("check"))
  }

  @Test func dingersExportsDecodeInTheAppsAndComeBackTheSame() throws {
    let box = try Self.repo()
    expectOK(
      try box.dinger(
        "scrum", "new", "Platform", "--attendee", "Ada Lovelace", "--attendee", "Grace",
        "--length", "15", "--theme", "teal", "--at", "09:30", "--days", "weekdays", "--zone",
        "Europe/Berlin"))
    expectOK(try box.dinger("scrum", "new", "Café ☕", "--attendee", "Zoë", "--length", "7"))
    let notes = box.home.url.appendingPathComponent("notes.txt")
    try "Ada: \"done\", shipped\nGrace: 日本語 ✓\n".write(to: notes, atomically: true, encoding: .utf8)
    expectOK(
      try box.dinger(
        "meet", "platform", "--record", "--date", "2026-11-20T09:30", "--duration", "16m",
        "--transcript-file", notes.path))
    expectOK(
      try box.dinger(
        "meet", "platform", "--record", "--date", "2026-11-23T09:30", "--duration", "9m"))
    expectOK(
      try box.dinger("meet", "Café ☕", "--record", "--date", "2026-11-21T10:00", "--duration", "6m")
    )
    let ours = try DingerData(box)
    let scrumdinger = box.home.url.appendingPathComponent("scrums.data").path
    let syncups = box.home.url.appendingPathComponent("sync-ups.json").path
    expectOK(try box.dinger("export", "scrumdinger", "--out", scrumdinger))
    expectOK(try box.dinger("export", "syncups", "--out", syncups))
    // The apps' decoders read everything dinger holds that they have a place for.
    let summaries = ours.summaries()
    let asScrumdinger = try AppPrograms.decode("scrumdinger2022", scrumdinger)
    #expect(asScrumdinger.count == 2)
    for s in asScrumdinger { #expect(summaries[s.id] == s, "\(s.title)") }
    let noAttendees = ours.summaries(meetingAttendees: false)
    let asSyncUps = try AppPrograms.decode("syncups", syncups)
    #expect(asSyncUps.count == 2)
    for s in asSyncUps {
      var m = s
      m.meetings = m.meetings.map {
        var x = $0
        if x.transcript == "" { x.transcript = nil }
        return x
      }
      #expect(noAttendees[s.id] == m, "\(s.title)")
    }
    // Into the same repository: nothing new.
    let same = try box.dinger("import", "scrumdinger", scrumdinger)
    #expect(same.stdout.hasPrefix("nothing to import"), "\(same.stdout)")
    // import(export(x)) == x, field by field, for what the app carries.
    for (kind, file, attendees) in [
      ("scrumdinger", scrumdinger, true), ("syncups", syncups, false),
    ] {
      let fresh = try Self.repo()
      expectOK(try fresh.dinger("import", kind, file))
      let back = try DingerData(fresh).summaries(meetingAttendees: attendees)
      let original = ours.summaries(meetingAttendees: attendees)
      #expect(back == original, "\(kind): \(back) against \(original)")
    }
  }

  @Test func filesTheAppsRefuseAreRefused() throws {
    let box = try Self.repo()
    let head = try box.git("rev-parse", "HEAD")
    // Two sync-ups with one id: SyncUps refuses the file, and so does dinger.
    let person = #"{"id":"00000001-0000-4000-8000-000000000001","name":"Blob"}"#
    let one =
      #"{"id":"00000064-0000-4000-8000-000000000064","title":"A","attendees":[\#(person)],"duration":[16,4852094820647174144],"meetings":[],"theme":"bubblegum"}"#
    let twice = box.home.url.appendingPathComponent("twice.json")
    try "[\(one),\(one.replacingOccurrences(of: "\"A\"", with: "\"B\""))]".write(
      to: twice, atomically: true, encoding: .utf8)
    #expect(try AppPrograms.run("decode", "syncups", twice.path).status == 1)
    let r = try box.dinger("import", "syncups", twice.path)
    #expect(r.status == 1)
    #expect(r.stderr.contains("two sync-ups share the id"), "\(r.stderr)")
    // Not the app's file, not JSON, a missing key, a file that is not there.
    let cases: [(String, String, String)] = [
      ("notjson.json", "scrums:\n  - x\n", "it is not JSON"),
      (
        "nohistory.json",
        #"[{"id":"00000001-0000-4000-8000-000000000001","title":"A","attendees":[],"lengthInMinutes":5,"theme":"sky"}]"#,
        "'history' is missing at [0]"
      ),
    ]
    for (name, text, message) in cases {
      let f = box.home.url.appendingPathComponent(name)
      try text.write(to: f, atomically: true, encoding: .utf8)
      let bad = try box.dinger("import", "scrumdinger", f.path)
      #expect(bad.status == 1 && bad.stderr.contains(message), "\(name): \(bad.stderr)")
      #expect(bad.stderr.contains("nothing was imported"))
    }
    let missing = try box.dinger("import", "scrumdinger", "/nonexistent/scrums.data")
    #expect(missing.status == 1 && missing.stderr.contains("can't read '/nonexistent/scrums.data'"))
    let unknown = try box.dinger("import", "trello", "/dev/null")
    #expect(unknown.status == 1 && unknown.stderr.contains("scrumdinger, syncups or geekbot"))
    #expect(try box.git("rev-parse", "HEAD") == head)
  }
}
