import Foundation
import Models
import Schedules
import TestSupport
import Testing

/// Dates typed on the command line, read in a zone with daylight saving through dinger's own
/// tzdata reader, agree with Foundation's calendar (ICU's data) around the clock changes.
@Suite struct DateExpressionZoneTests {
  static func instant(_ iso: String) -> Date { ISO8601DateFormatter().date(from: iso)! }

  /// What Foundation's calendar makes of a local time in `zone`.
  static func foundation(_ zone: String, _ y: Int, _ m: Int, _ d: Int, _ h: Int = 0) -> Date {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: zone)!
    return calendar.date(from: DateComponents(year: y, month: m, day: d, hour: h))!
  }

  @Test(arguments: ["Europe/Berlin", "America/New_York", "Australia/Sydney", "Asia/Kolkata"])
  func daysAroundTheClockChangesAreLocalMidnights(zone name: String) throws {
    let rules = try #require(ZoneDatabase.system.rules(name))
    for (y, m) in [(2026, 3), (2026, 4), (2026, 10), (2026, 11)] {
      for d in 1...31 {
        let text = "\(y)-\(m < 10 ? "0" : "")\(m)-\(d < 10 ? "0" : "")\(d)"
        guard let parsed = DateExpression.parse(text, now: Date(), zone: rules) else {
          #expect(d > 28, "\(text) not read")
          continue
        }
        #expect(parsed == Self.foundation(name, y, m, d), "\(text) in \(name)")
        let end = try #require(DateExpression.parseEnd(text, now: Date(), zone: rules))
        #expect(
          end == Self.foundation(name, y, m, d + 1).addingTimeInterval(-1),
          "end of \(text) in \(name): \(end)")
      }
    }
  }

  @Test func yesterdayAcrossTheSpringChangeInBerlin() throws {
    let berlin = try #require(ZoneDatabase.system.rules("Europe/Berlin"))
    // Monday 2026-03-30 08:00 CEST; Sunday the 29th was 23 hours long.
    let now = Self.instant("2026-03-30T06:00:00Z")
    #expect(
      DateExpression.parse("today", now: now, zone: berlin) == Self.instant("2026-03-29T22:00:00Z"))
    #expect(
      DateExpression.parse("yesterday midnight", now: now, zone: berlin)
        == Self.instant("2026-03-28T23:00:00Z"))
    #expect(
      DateExpression.parse("2 days ago", now: now, zone: berlin)
        == Self.instant("2026-03-28T07:00:00Z"), "08:00 on the wall clock two days before")
    #expect(
      DateExpression.parse("3 hours ago", now: now, zone: berlin)
        == Self.instant("2026-03-30T03:00:00Z"), "hours are real time")
    // A time the spring change skips is read with the offset before it (RFC 5545).
    #expect(
      DateExpression.parse("2026-03-29 02:30", now: Date(), zone: berlin)
        == Self.instant("2026-03-29T01:30:00Z")
    )
    // An explicit offset wins over the zone.
    #expect(
      DateExpression.parse("2026-03-29T02:30:00+05:30", now: Date(), zone: berlin)
        == Self.instant("2026-03-28T21:00:00Z"))
  }
}
