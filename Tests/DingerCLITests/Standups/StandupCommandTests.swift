import Foundation
import TestSupport
import Testing

/// `dinger standup`, `standup show`, `blockers` and `blocker resolve` on one clone: what they
/// write, what they refuse (changing nothing), custom questions, absences and time zones.
@Suite struct StandupCommandTests {
  static let now = "2026-11-25T12:00:00Z"  // a Wednesday

  func platform() throws -> Sandbox {
    let box = try Sandbox()
    expectOK(try box.dinger("init"))
    try box.git("config", "user.name", "Ada Lovelace")
    try box.git("config", "user.email", "ada@example.com")
    expectOK(
      try box.dinger(
        "scrum", "new", "Platform", "--attendee", "Ada Lovelace", "--attendee", "Grace Hopper",
        "--attendee", "Bo"))
    return box
  }

  func run(_ box: Sandbox, _ args: String..., env: [String: String] = [:]) throws -> ProcessResult {
    try box.dinger(args, env: ["DINGER_TEST_NOW": Self.now].merging(env) { $1 })
  }

  @Test func anEntryIsWrittenShownAndItsBlockerFollowed() throws {
    let box = try platform()
    let r = try run(
      box, "standup", "platform", "--yesterday", "Migrated staging", "--today", "Release",
      "--blocker", "Waiting on the signing key from Grace")
    #expect(
      r.stdout
        == "Platform: stand-up of Ada Lovelace for 2026-11-25 (standups/platform/2026-11-25-ada-lovelace.yaml)\n",
      "\(r.stderr)")
    let file = try box.read("standups/platform/2026-11-25-ada-lovelace.yaml")
    #expect(
      file.contains(
        "by: Ada Lovelace\nyesterday: Migrated staging\ntoday: Release\nblockers:\n  - Waiting on the signing key from Grace\n"
      ), "\(file)")
    #expect(
      try box.git("log", "-1", "--format=%s")
        == "Platform: stand-up of Ada Lovelace for 2026-11-25\n")
    let show = try run(box, "standup", "show", "platform")
    #expect(show.stdout.contains("1 of 3 written"))
    #expect(show.stdout.contains("Not written yet: Grace Hopper, Bo"), "\(show.stdout)")
    let blockers = try run(box, "blockers")
    #expect(
      blockers.stdout.contains("1 open blocker")
        && blockers.stdout.contains("Ada Lovelace  Waiting on the signing key"),
      "\(blockers.stdout)")
    // The next day's editor buffer: yesterday from today, the open blocker carried.
    try box.home.write("copy.sh", "cp \"$1\" \"$HOME/buffer.yaml\"\n")
    let next = try run(
      box, "standup", "platform",
      env: ["EDITOR": "sh \(box.home.path("copy.sh"))", "DINGER_TEST_NOW": "2026-11-26T09:00:00Z"])
    let buffer = try box.home.read("buffer.yaml")
    #expect(buffer.contains("yesterday: Release\n"), "\(buffer)")
    #expect(buffer.contains("Waiting on the signing key from Grace"), "\(buffer)")
    // Copied unchanged, the buffer is written as the next day's entry, carrying the blocker.
    expectOK(next)
    let carried = try box.read("standups/platform/2026-11-26-ada-lovelace.yaml")
    #expect(carried.contains("- id: b") && carried.contains("yesterday: Release"), "\(carried)")
    // check is clean; log and the diff driver describe the entries in words.
    #expect(try run(box, "check").stdout.contains("no problems"))
    let log = try run(box, "log", "-n", "2").stdout
    #expect(log.contains("wrote the stand-up entry of Ada Lovelace for 2026-11-26"), "\(log)")
  }

  @Test(arguments: [
    (["standup", "nope", "--today", "x"], "no scrum 'nope'"),
    (["standup", "platform", "--today", "x", "--as", "Grace Hopper"], "an entry is its author's"),
    (["standup", "platform", "--today", "x", "--date", "2026-11-27"], "is in the future"),
    (["standup", "platform", "--answer", "risks=slipping"], "asks no question 'risks'"),
    (["standup", "platform", "--resolve", "b00000000"], "no blocker b00000000"),
    (["blocker", "resolve", "b00000000"], "no scrum has a blocker b00000000"),
    (["standup", "platform", "--today", "x\u{1B}[2J"], "control character"),
    (["standup", "platform", "--answer", "today"], "--answer takes KEY=TEXT"),
  ])
  func badInputIsRefusedAndChangesNothing(args: [String], message: String) throws {
    let box = try platform()
    let head = try box.git("rev-parse", "HEAD")
    let r = try box.dinger(args, env: ["DINGER_TEST_NOW": Self.now])
    #expect(r.status != 0)
    #expect(r.stderr.contains(message), "\(r.stderr)")
    #expect(try box.git("rev-parse", "HEAD") == head)
    #expect(try box.git("status", "--porcelain") == "")
  }

  @Test func withoutGitsIdentityTheWriterIsAskedOnceAndRemembered() throws {
    let box = try platform()
    try box.git("config", "user.name", "Someone Else")
    try box.git("config", "user.email", "else@example.com")
    let asked = try run(box, "standup", "--today", "x")
    #expect(
      asked.status == 1 && asked.stderr.contains("say it once with --as NAME"), "\(asked.stderr)")
    expectOK(try run(box, "standup", "--today", "x", "--as", "bo"))
    expectOK(try run(box, "standup", "--today", "later"))
    #expect(try box.read("standups/platform/2026-11-25-bo.yaml").contains("today: later"))
    // An attendee's email identifies them too.
    try box.git("config", "--unset", "dinger.standup-name")
    var scrum = try box.read("scrums/platform.yaml")
    scrum = scrum.replacingOccurrences(
      of: "  - Grace Hopper\n", with: "  - name: Grace Hopper\n    email: Else@Example.com\n")
    try box.write("scrums/platform.yaml", scrum)
    try box.git("commit", "-qam", "Grace's email")
    expectOK(try run(box, "standup", "--today", "z"))
    #expect(
      FileManager.default.fileExists(
        atPath: box.data.path + "/standups/platform/2026-11-25-grace-hopper.yaml"))
  }

  @Test func aScrumAsksItsOwnQuestionsOnItsOwnDays() throws {
    let box = try platform()
    var scrum = try box.read("scrums/platform.yaml")
    scrum +=
      "standup:\n  questions:\n    - {key: done, ask: What did you finish?}\n    - {key: risks, ask: What could slip?}\n  days: [mon, wed]\n"
    try box.write("scrums/platform.yaml", scrum)
    try box.git("commit", "-qam", "questions")
    #expect(try run(box, "check").stdout.contains("no problems"))
    expectOK(try run(box, "standup", "--answer", "done=the migration", "--answer", "risks=none"))
    let wrong = try run(box, "standup", "--today", "x")
    #expect(
      wrong.status == 1 && wrong.stderr.contains("asks no question 'today'")
        && wrong.stderr.contains("it asks: done, risks"), "\(wrong.stderr)")
    // A hand-written answer to an unknown question is a warning of check, with its place.
    try box.write(
      "standups/platform/2026-11-25-bo.yaml",
      "scrum: \(try box.read("scrums/platform.yaml").split(separator: "\n").first { $0.hasPrefix("id:") }!.dropFirst(4))\ndate: 2026-11-25\nby: Bo\nriks: typo\n"
    )
    let check = try run(box, "check")
    let said = check.stdout + check.stderr
    #expect(
      said.contains("standups/platform/2026-11-25-bo.yaml:4:")
        && said.contains("did you mean 'risks'"), "\(said)")
    // Tuesday is no stand-up day: nobody is missing.
    let tuesday = try run(box, "standup", "show", "--date", "2026-11-24")
    #expect(
      tuesday.stdout.contains("0 of 0 written") && !tuesday.stdout.contains("Not written yet"),
      "\(tuesday.stdout)")
  }

  @Test func anAbsenceIsRespectedEverywhere() throws {
    let box = try platform()
    var scrum = try box.read("scrums/platform.yaml")
    scrum = scrum.replacingOccurrences(
      of: "  - Bo\n",
      with:
        "  - name: Bo\n    away:\n      - {from: 2026-11-24, until: 2026-11-26, note: conference}\n"
    )
    scrum += "schedule:\n  at: '09:30'\n  days: weekdays\n  zone: UTC\n"
    try box.write("scrums/platform.yaml", scrum)
    try box.git("commit", "-qam", "Bo away")
    #expect(try run(box, "check").stdout.contains("no problems"))
    expectOK(try run(box, "standup", "--today", "x"))
    expectOK(
      try run(
        box, "standup", "--today", "y", "--as", "Grace Hopper",
        env: ["GIT_AUTHOR_NAME": "x", "GIT_AUTHOR_EMAIL": "x@x"]))
    let show = try run(box, "standup", "show")
    #expect(
      show.stdout.contains("2 of 2 written") && show.stdout.contains("Away: Bo (conference)"),
      "\(show.stdout)")
    #expect(!show.stdout.contains("Not written yet"))
    let agenda = try run(box, "agenda", "--days", "3")
    #expect(agenda.stdout.contains("away: Bo (conference)"), "\(agenda.stdout)")
    let recorded = try run(box, "meet", "platform", "--record", "--duration", "5m")
    expectOK(recorded)
    let meeting = try box.read(String(try box.git("ls-files", "history").split(separator: "\n")[0]))
    #expect(meeting.contains("attendees: [Ada Lovelace, Grace Hopper]"), "\(meeting)")
    let stats = try run(box, "stats", "--json")
    let json = try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as! [String: Any]
    let s = (json["scrums"] as! [[String: Any]])[0]
    let row = ((s["attendance"] as! [String: Any])["people"] as! [[String: Any]]).first {
      $0["name"] as? String == "Bo"
    }!
    #expect(row["expected"] as? Int == 0 && (row["away"] as? [Bool]) == [true], "\(row)")
    let calendar = try run(box, "calendar")
    // NB: iCalendar folds long lines (CRLF and a space).
    let unfolded = calendar.stdout.replacingOccurrences(of: "\r\n ", with: "")
    #expect(unfolded.contains("\\nAway: Bo 2026-11-24 to 2026-11-26 (conference)"), "\(unfolded)")
  }

  /// An entry's day is its writer's local day: at 02:00 UTC it is the 25th in Kolkata and
  /// still the 24th in Los Angeles.
  @Test func theDayIsTheWritersOwn() throws {
    let box = try platform()
    let at = ["DINGER_TEST_NOW": "2026-11-25T02:00:00Z"]
    expectOK(
      try box.dinger(
        ["standup", "--today", "chai"], env: at.merging(["TZ": "Asia/Kolkata"]) { $1 }))
    expectOK(
      try box.dinger(
        ["standup", "--today", "coffee", "--as", "Bo"],
        env: at.merging([
          "TZ": "America/Los_Angeles", "GIT_AUTHOR_EMAIL": "bo@x", "GIT_AUTHOR_NAME": "Bo",
        ]) { $1 }))
    let files = try box.git("ls-files", "standups").split(separator: "\n")
    #expect(
      files == [
        "standups/platform/2026-11-24-bo.yaml", "standups/platform/2026-11-25-ada-lovelace.yaml",
      ])
  }

  /// `--from-code`: the commits you authored since your last entry, on every branch, with the
  /// branch's name; not a teammate's.
  @Test func theEditorIsPrefilledWithYourCommitsAndTheirBranches() throws {
    let box = try platform()
    let code = box.home.url.appendingPathComponent("api")
    try box.git("init", "-q", "-b", "main", code.path, in: box.home.url)
    func commit(_ message: String, _ who: String, _ email: String, on branch: String) throws {
      try box.git("checkout", "-q", "-B", branch, in: code)
      try box.home.write("api/\(UUID().uuidString)", message)
      try box.git("add", "-A", in: code)
      _ = try ProcessRunner.run(
        "/usr/bin/git", ["commit", "-qm", message], in: code,
        environment: box.environment.merging([
          "GIT_AUTHOR_NAME": who, "GIT_AUTHOR_EMAIL": email, "GIT_COMMITTER_NAME": who,
          "GIT_COMMITTER_EMAIL": email, "GIT_AUTHOR_DATE": "2026-11-24T10:00:00Z",
        ]) { $1 })
    }
    try commit("Add the signing step", "Ada Lovelace", "ada@example.com", on: "main")
    try commit("Grace's refactor", "Grace Hopper", "grace@example.com", on: "main")
    try commit("Fix the flaky test", "Ada Lovelace", "ada@example.com", on: "feature/flaky")
    try commit("Grace's branch work", "Grace Hopper", "grace@example.com", on: "feature/grace")
    try box.home.write("copy.sh", "cp \"$1\" \"$HOME/buffer.yaml\"\n: > \"$1\"\n")
    let r = try run(
      box, "standup", "--from-code", code.path, env: ["EDITOR": "sh \(box.home.path("copy.sh"))"])
    #expect(r.stderr.contains("left empty"), "\(r.stderr)")
    let buffer = try box.home.read("buffer.yaml")
    #expect(buffer.contains("[main] Add the signing step"), "\(buffer)")
    #expect(buffer.contains("[feature/flaky] Fix the flaky test"), "\(buffer)")
    #expect(!buffer.contains("Grace's"), "\(buffer)")
    #expect(try box.git("ls-files", "standups") == "", "an empty buffer writes nothing")
  }
}
