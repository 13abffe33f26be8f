import Foundation
import TestSupport
import Testing

/// `standup: remind: "09:00"`: each teammate reminded at their own morning. A team in Berlin,
/// Los Angeles, Kolkata and Sydney over Europe's DST change (2026-10-25), `remind` run every
/// ten minutes for three days: each person is named once a day, when it is 08:50-09:00 where
/// they are (Foundation's time zones judge it, not dinger's), never when away or written.
@Suite struct PersonalReminderTests {
  static let people = [
    ("Ada", "Europe/Berlin"), ("Grace", "America/Los_Angeles"), ("Linus", "Asia/Kolkata"),
    ("Kenji", "Australia/Sydney"),
  ]

  /// A data repository whose scrum has the four people (`extra` after an attendee's lines) and
  /// `standup` settings, committed.
  static func team(extra: [String: String] = [:], standup: String) throws -> Sandbox {
    let box = try Sandbox()
    expectOK(try box.dinger("init"))
    var scrum =
      "id: 0b7e2c1a-4f5d-4e6a-9b8c-1d2e3f4a5b6c\ntitle: Platform\nlength: 15\nattendees:\n"
    for (name, zone) in people {
      scrum +=
        "  - name: \(name)\n    zone: \(zone)\n    matrix: \"@\(name.lowercased()):example.org\"\n"
      scrum += extra[name] ?? ""
    }
    try box.write("scrums/platform.yaml", scrum + "standup:\n" + standup)
    try box.git("add", "-A")
    try box.git("commit", "-qm", "Platform")
    return box
  }

  @Test func eachPersonIsRemindedOnceAtTheirOwnNine() throws {
    let box = try Self.team(
      extra: ["Linus": "    away: [{from: 2026-10-26}]\n"],
      standup: "  days: [mon, tue, wed, thu, fri, sat, sun]\n  remind: \"09:00\"\n")
    expectOK(try box.dinger("check"))
    // Kenji writes early on the 25th (his day): he is not reminded that day.
    let f = ISO8601DateFormatter()
    var reminded: [String: [String]] = [:]  // person -> their local days reminded
    var tick = f.date(from: "2026-10-24T00:00:00Z")!
    let stop = f.date(from: "2026-10-27T00:00:00Z")!
    let local = DateFormatter()
    local.dateFormat = "yyyy-MM-dd HH:mm"
    while tick < stop {
      let now = f.string(from: tick)
      if now == "2026-10-24T20:00:00Z" {
        expectOK(
          try box.dinger(
            ["standup", "platform", "--as", "Kenji", "--today", "deploy"],
            env: ["DINGER_TEST_NOW": now, "TZ": "Australia/Sydney"]))
      }
      let r = try box.dinger(["remind", "--before", "10m"], env: ["DINGER_TEST_NOW": now])
      expectOK(r)
      for line in r.stdout.split(separator: "\n") where line.hasPrefix("Good morning ") {
        let names = line.dropFirst("Good morning ".count).prefix { $0 != ":" }
          .components(separatedBy: ", ")
        for name in names {
          let zone = try #require(Self.people.first { $0.0 == name }?.1)
          local.timeZone = TimeZone(identifier: zone)
          let at = local.string(from: tick)
          let time = at.suffix(5)
          #expect(time >= "08:50" && time <= "09:00", "\(name) reminded at \(at) \(zone)")
          reminded[name, default: []].append(String(at.prefix(10)))
        }
      }
      tick = tick.addingTimeInterval(600)
    }
    for (name, days) in reminded {
      #expect(Set(days).count == days.count, "\(name) reminded twice on a day: \(days)")
    }
    #expect(reminded["Ada"] == ["2026-10-24", "2026-10-25", "2026-10-26"], "\(reminded)")
    #expect(reminded["Grace"] == ["2026-10-24", "2026-10-25", "2026-10-26"], "\(reminded)")
    // Linus is away from the 26th; Kenji wrote on the 25th (his day in Sydney).
    #expect(reminded["Linus"] == ["2026-10-24", "2026-10-25"], "\(reminded)")
    #expect(reminded["Kenji"]?.contains("2026-10-25") == false, "\(reminded)")
    #expect(reminded["Kenji"]?.contains("2026-10-26") == true, "\(reminded)")
  }

  /// In Matrix's format the reminder mentions exactly the people named (`m.mentions`).
  @Test func theMatrixReminderMentionsExactlyThosePeople() throws {
    let box = try Self.team(standup: "  remind: \"09:00\"\n")
    // 07:55 UTC on a Tuesday is 08:55 in Berlin (CET): Ada's morning, no one else's.
    let r = try box.dinger(
      ["remind", "--before", "10m", "--format", "matrix"],
      env: ["DINGER_TEST_NOW": "2026-11-24T07:55:00Z"])
    expectOK(r)
    #expect(r.stdout.contains(#""m.mentions":{"user_ids":["@ada:example.org"]}"#), "\(r.stdout)")
    #expect(r.stdout.contains("Good morning Ada:"), "\(r.stdout)")
  }
}
