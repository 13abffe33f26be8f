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
    let noScrum = try box.dinger("import", "geekbot", file.path)
    #expect(noScrum.status == 1 && noScrum.stderr.contains("--scrum"))
    let r = try box.dinger("import", "geekbot", file.path, "--scrum", "platform")
    expectOK(r)
    #expect(r.stdout == "Import 2 stand-up entries from Geekbot into Platform\n", "\(r.stdout)")
    #expect(r.stderr.contains("asks nothing like 'How do you feel?'"), "\(r.stderr)")
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
}
