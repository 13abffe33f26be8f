import Foundation
import TestSupport
import Testing

/// `dinger digest` over data dinger wrote: the day's entries, blockers opened and resolved,
/// the meeting held and the one missed, who has not written, who is away; every format parses.
@Suite struct DigestTests {
  @Test func theDaysDigestSaysWhatHappened() throws {
    let box = try Sandbox()
    expectOK(try box.dinger("init"))
    expectOK(
      try box.dinger(
        "scrum", "new", "Platform", "--attendee", "Ada Lovelace", "--attendee", "Bo",
        "--attendee", "Dee", "--at", "09:00", "--days", "weekdays", "--zone", "UTC", "--from",
        "2026-11-23"))
    expectOK(
      try box.dinger(
        "scrum", "attendee", "away", "platform", "Dee", "--from", "2026-11-24", "--until",
        "2026-11-27", "--note", "holiday"))
    let monday = ["DINGER_TEST_NOW": "2026-11-23T12:00:00Z"]
    let tuesday = ["DINGER_TEST_NOW": "2026-11-24T18:00:00Z"]
    expectOK(
      try box.dinger(
        ["standup", "--today", "Migrate", "--blocker", "The signing key"], env: monday))
    expectOK(
      try box.dinger(
        ["meet", "platform", "--record", "--date", "2026-11-23T09:00:00Z", "--duration", "12m"],
        env: monday))
    let id = try #require(
      try box.dinger(["blockers", "--json"], env: tuesday).stdout.split(separator: "\"")
        .first { $0.count == 9 && $0.hasPrefix("b") })
    expectOK(
      try box.dinger(["standup", "--today", "Release", "--resolve", String(id)], env: tuesday))
    let day = try box.dinger(["digest"], env: tuesday)
    expectOK(day)
    #expect(day.stdout.contains("Stand-up digest, 2026-11-24"), "\(day.stdout)")
    #expect(day.stdout.contains("2026-11-24 Ada Lovelace today: Release"), "\(day.stdout)")
    #expect(
      day.stdout.contains("Resolved \(id) by Ada Lovelace after 1 working day: The signing key"),
      "\(day.stdout)")
    #expect(day.stdout.contains("Missed: 2026-11-24 09:00"), "\(day.stdout)")
    #expect(day.stdout.contains("Not written on 2026-11-24: Bo"), "\(day.stdout)")
    #expect(day.stdout.contains("Away: Dee (holiday)"), "\(day.stdout)")
    let two = try box.dinger(["digest", "--since", "2026-11-23", "--format", "json"], env: tuesday)
    let json = try JSONSerialization.jsonObject(with: Data(two.stdout.utf8)) as! [String: Any]
    let scrum = (json["scrums"] as! [[String: Any]])[0]
    #expect((scrum["meetings"] as! [Any]).count == 1)
    #expect((scrum["resolved"] as! [Any]).count == 1 && (scrum["open"] as! [Any]).isEmpty)
    #expect((scrum["days"] as! [Any]).count == 2)
    for format in ["markdown", "slack", "mattermost", "rocketchat", "teams", "discord", "matrix"] {
      let r = try box.dinger(["digest", "--since", "2026-11-23", "--format", format], env: tuesday)
      expectOK(r)
      if format != "markdown" {
        #expect((try? JSONSerialization.jsonObject(with: Data(r.stdout.utf8))) != nil, "\(format)")
      }
    }
    let bad = try box.dinger(["digest", "--format", "fax"], env: tuesday)
    #expect(bad.status != 0 && bad.stderr.contains("use one of: text, markdown"), "\(bad.stderr)")
    let backwards = try box.dinger(
      ["digest", "--since", "2026-11-24", "--until", "2026-11-23"], env: tuesday)
    #expect(backwards.status != 0 && backwards.stderr.contains("is after --until"))
  }
}
