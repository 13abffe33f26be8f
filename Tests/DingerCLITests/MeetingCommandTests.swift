import Foundation
import TestSupport
import Testing

/// `meet --record` and `history` end to end.
@Suite struct MeetingCommandTests {
  func repoWithScrum() throws -> Sandbox {
    let box = try Sandbox()
    #expect(try box.dinger("init").status == 0)
    #expect(
      try box.dinger(
        "scrum", "new", "Design", "--length", "10", "--attendee", "Ada", "--attendee", "Grace"
      ).status == 0)
    return box
  }

  @Test func recordWritesTheFileAndOneCommit() throws {
    let box = try repoWithScrum()
    try "Ada: shipped.\nGrace: reviewing.\n".write(
      to: box.home.url.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
    let r = try box.dinger(
      "meet", "design", "--record", "--date", "2026-11-20T09:00:00Z", "--duration", "10:12",
      "--transcript-file", box.home.url.appendingPathComponent("notes.txt").path)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(
      r.stdout.hasPrefix(
        "Record meeting of Design (10 min, 2 attendees) (history/design/2026-11-20-"))
    let files = try box.git("ls-files", "history").split(separator: "\n")
    #expect(files.count == 1)
    let text = try box.read(String(files[0]))
    let scrumID = Sandbox.id(in: try box.read("scrums/design.yaml"))
    #expect(
      text.contains(
        "scrum: \(scrumID)\ndate: 2026-11-20T09:00:00Z\nlength: 10\nduration: 612\nattendees: [Ada, Grace]\n"
      ))
    #expect(text.hasSuffix("transcript: |\n  Ada: shipped.\n  Grace: reviewing.\n"))
    let message = try box.git("log", "-1", "--format=%B")
    #expect(message.contains("Dinger-Action: meeting.record\n"))
    #expect(message.contains("Dinger-Scrum: \(scrumID)\n"))
    #expect(try box.gitAgrees().status == "")
    #expect(
      try box.git("log", "--grep=Dinger-Action: meeting.record", "--format=%s")
        == "Record meeting of Design (10 min, 2 attendees)\n")
  }

  @Test func historyListsNewestFirstAndFilters() throws {
    let box = try repoWithScrum()
    #expect(try box.dinger("scrum", "new", "Retro", "--attendee", "Ada").status == 0)
    for (scrum, date) in [
      ("design", "2026-11-01T09:00:00Z"), ("retro", "2026-11-10T09:00:00Z"),
      ("design", "2026-11-20T09:00:00Z"),
    ] {
      #expect(
        try box.dinger("meet", scrum, "--record", "--date", date, "--duration", "9m").status == 0)
    }
    var r = try box.dinger("history")
    let lines = r.stdout.split(separator: "\n")
    #expect(lines.count == 3)
    #expect(lines[0].contains("2026-11-20 09:00  Design  9 of 10 min"))
    #expect(lines[1].contains("2026-11-10 09:00  Retro "))
    r = try box.dinger("history", "design", "--since", "2026-11-02")
    #expect(r.stdout.split(separator: "\n").count == 1)
    r = try box.dinger("history", "--until", "2026-11-10", "--json")
    let json =
      (try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])?["meetings"]
      as? [[String: Any]]
    #expect(
      json?.map { $0["date"] as? String } == ["2026-11-10T09:00:00Z", "2026-11-01T09:00:00Z"])
    let id = String((json?[0]["id"] as? String)?.prefix(6) ?? "")
    r = try box.dinger("history", "show", id)
    #expect(r.stdout.hasPrefix("Retro, 2026-11-10 09:00 UTC\n"))
    r = try box.dinger("history", "rm", id)
    #expect(r.stdout == "Remove meeting of Retro on 2026-11-10\n")
    #expect(try box.dinger("history").stdout.split(separator: "\n").count == 2)
    #expect(try box.gitAgrees().status == "")
  }

  @Test func aHandWrittenScrumGetsItsIdInTheSameCommit() throws {
    let box = try Sandbox()
    #expect(try box.dinger("init").status == 0)
    try box.write("scrums/ops.yaml", "# on call\ntitle: Ops\nlength: 5\nattendees: [Ada]\n")
    try box.git("add", "-A")
    try box.git("commit", "-qm", "hand-written")
    let r = try box.dinger("meet", "ops", "--record")
    #expect(r.status == 0, "\(r.stderr)")
    #expect(
      try box.git("show", "--name-only", "--format=", "HEAD").split(separator: "\n").count == 2)
    #expect(try box.read("scrums/ops.yaml").hasPrefix("# on call\nid: "))
  }

  @Test func badInputIsRefused() throws {
    let box = try repoWithScrum()
    let head = try box.head()
    var r = try box.dinger("meet", "design", "--record", "--duration", "ten")
    #expect(r.status == 64)
    #expect(r.stderr.contains("--duration must look like 12m, 90s, 1h, 10:30"))
    r = try box.dinger("meet", "design", "--record", "--date", "someday")
    #expect(r.status == 64)
    r = try box.dinger("meet", "design")
    #expect(r.status == 1)
    #expect(r.stderr.contains("--record"))
    r = try box.dinger("history", "show", "ffff")
    #expect(r.status == 1)
    #expect(r.stderr == "error: no meeting 'ffff'; 'dinger history' lists them with their ids\n")
    #expect(try box.head() == head)
  }
}

/// Times are shown in the user's zone, labelled; a time typed without a zone is local; files
/// keep UTC.
@Suite struct LocalTimeTests {
  @Test func berlinSeesBerlinTime() throws {
    let box = try Sandbox()
    #expect(try box.dinger("init").status == 0)
    #expect(try box.dinger("scrum", "new", "Retro", "--attendee", "Ada").status == 0)
    let berlin = ["TZ": "Europe/Berlin"]
    var r = try box.dinger(
      ["meet", "retro", "--record", "--date", "2026-11-19T09:00", "--duration", "10m"], env: berlin)
    #expect(r.status == 0, "\(r.stderr)")
    let file = try box.git("ls-files", "history").trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(
      try box.read(file).contains("date: 2026-11-19T08:00:00Z"), "09:00 in Berlin is 08:00 UTC")
    r = try box.dinger(["history"], env: berlin)
    #expect(
      r.stdout.contains("2026-11-19 09:00 CET") || r.stdout.contains("2026-11-19 09:00 GMT+1"),
      "\(r.stdout)")
    r = try box.dinger(["history"], env: ["TZ": "UTC"])
    #expect(r.stdout.contains("2026-11-19 08:00  Retro"), "\(r.stdout)")
    // log: the commit's time in the zone, labelled the same way.
    let commitTime = try box.git("log", "-1", "--date=format-local:%Y-%m-%d %H:%M", "--format=%ad")
    r = try box.dinger(["log", "-1"], env: berlin)
    let gitBerlin = try ProcessRunner.run(
      "/usr/bin/git", ["log", "-1", "--date=format-local:%Y-%m-%d %H:%M", "--format=%ad"],
      in: box.data, environment: box.environment.merging(berlin) { $1 }
    ).stdout
      .trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(r.stdout.contains(gitBerlin), "\(r.stdout) vs \(gitBerlin) (UTC \(commitTime))")
  }
}
