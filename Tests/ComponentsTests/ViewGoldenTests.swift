import Components
import Foundation
import Models
import Testing

/// Golden text for the views: pure functions of state, so each is checked exactly, with colour
/// off and on and at a narrow width.
@Suite struct ViewGoldenTests {
  let esc = "\u{1B}["

  @Test func meetingScreenAtANarrowWidth() {
    var timer = MeetingTimer(attendees: ["Ada", "Grace"], minutes: 1)
    for _ in 0..<40 { timer.tick() }
    let screen = MeetingScreen(
      timer: timer, title: "Design", theme: .sky, width: 30, height: 10, color: false)
    #expect(
      screen.lines() == [
        " Design                       ",
        "",
        " Elapsed 0:40    Remaining 0:2",
        " [█████████████████░░░░░░░░░]",
        "",
        " Last speaker: Grace    0:20 l",
        " Done: Ada (0:30)",
        "",
        "",
        " space/n next · p pause · q en",
      ])
    #expect(screen.lines().allSatisfy { $0.count <= 30 })
    // With colour the heading is themed; nothing else changes.
    let colored = MeetingScreen(
      timer: timer, title: "Design", theme: .sky, width: 30, height: 10, color: true)
    #expect(colored.lines()[0].contains(esc) && !screen.lines()[0].contains(esc))
    #expect(Array(colored.lines().dropFirst()) == Array(screen.lines().dropFirst()))
  }

  @Test func meetingScreenOvertimeAndHelp() {
    var timer = MeetingTimer(attendees: ["Ada"], minutes: 1, overtime: true)
    for _ in 0..<75 { timer.tick() }
    let lines = MeetingScreen(
      timer: timer, title: "Design", theme: .sky, width: 60, height: 16, color: false,
      showHelp: true
    ).lines()
    #expect(lines[2] == " Elapsed 1:15    OVER by 0:15")
    #expect(lines[5] == " Last speaker: Ada    +0:15 over (n or q to end)")
    #expect(
      lines.contains(" space, n  next speaker") && lines.contains(" p         pause / resume"))
  }

  @Test func logLinesNameRecordsAndShowTheSubjectWhereItSaysMore() {
    let entries = [
      ActivityEntry(
        commit: "4e1f0c2d9a", time: 1_795_000_000, author: "Ada",
        subject: "Spanish basics: add agua",
        path: "libraries/spanish-basics.yaml", record: nil, scrum: nil, change: "M",
        summary: "edited word library"),
      ActivityEntry(
        commit: "9ab2c3d4e5", time: 1_795_000_060, author: "Grace Hopper", subject: "longer",
        path: "scrums/design.yaml", record: nil, scrum: nil, change: "M",
        summary: "length 10 -> 15 min"),
      ActivityEntry(
        commit: "0011223344", time: 1_795_000_120, author: "Ada", subject: "Record meeting",
        path: "history/design/2026-11-20-3f2c0a1b.yaml", record: nil, scrum: nil, change: "A",
        summary: "meeting recorded, 40 s"),
    ]
    let text = LogView(
      entries: entries, timeZone: FixedZone.utc,
      titles: [
        "libraries/spanish-basics.yaml": "Spanish basics", "scrums/design.yaml": "Design",
        "history/design/": "Design meeting",
      ]
    ).render()
    #expect(
      text == """
        4e1f0c2  2026-11-18 11:06  Ada           Spanish basics: add agua
        9ab2c3d  2026-11-18 11:07  Grace Hopper  Design: length 10 -> 15 min
        0011223  2026-11-18 11:08  Ada           Design meeting: meeting recorded, 40 s

        """)
    #expect(LogView(entries: []).render() == "no changes\n")
  }

  @Test func syncReport() {
    let summary = SyncSummary(
      remote: "origin", branch: "main", steps: [.merged(taken: 1, merged: 2), .pushed],
      conflicts: [
        .init(
          shortID: "1b2c3d4e", file: "scrums/design.yaml", field: "length", kept: "15", other: "20",
          otherAuthor: "Grace")
      ], rounds: 2, dryRun: false, warnings: [])
    #expect(
      SyncReportView(summary).render() == """
        merged origin/main: 1 file taken, 2 merged record by record
        pushed to origin/main
        1 conflict recorded (your value kept, the other saved):
          1b2c3d4e  scrums/design.yaml length: kept 15, other 20 (Grace)
        settle them with 'dinger resolve ID --ours|--theirs|--value V'
        (the remote moved during the sync; took 2 rounds)

        """)
    var dry = summary
    dry.dryRun = true
    dry.conflicts = []
    dry.rounds = 1
    #expect(
      SyncReportView(dry).render()
        == "would merge origin/main: 1 file taken, 2 merged record by record\nwould push to origin/main\n"
    )
  }

  @Test func diagnosticsWithACaretAndColour() {
    let d = Diagnostic(
      .error, file: "scrums/design.yaml", line: 4, column: 9, path: "length",
      message: "'length' must be a whole number, found \"ten\"", sourceLine: "length: ten")
    #expect(
      DiagnosticsView([d]).render() == """
        scrums/design.yaml:4:9: error: 'length' must be a whole number, found "ten"
        length: ten
                ^

        """)
    let colored = DiagnosticsView([d], color: true).render()
    #expect(colored.contains(esc) && colored.contains("length: ten\n"))
    #expect(
      GitHubAnnotationsView([d]).render()
        == "::error file=scrums/design.yaml,line=4,col=9,title=dinger wrong-type::'length' must be a whole number, found \"ten\"\n"
    )
  }

  @Test func scrumListColourOnAndOff() {
    let scrum = Scrum(
      title: "Design", theme: .yellow, length: 10, attendees: [Attendee(name: "Ada")])
    let plain = ScrumListView(rows: [("design", scrum)], color: false).render()
    let colored = ScrumListView(rows: [("design", scrum)], color: true).render()
    #expect(!plain.contains(esc) && colored.contains(esc))
    #expect(
      plain.contains("Design") && plain.contains("design") && plain.contains("10 min"), "\(plain)")
  }
}
