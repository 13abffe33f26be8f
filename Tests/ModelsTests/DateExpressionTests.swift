import Foundation
import Models
import Testing

/// Dates as people type them on the command line, in their own zone (git's approxidate forms).
@Suite struct DateExpressionTests {
  static let tokyo = FixedZone(name: "JST", seconds: 9 * 3600)
  /// Wednesday 2026-11-25 15:30 in Tokyo.
  static let now = ISO8601DateFormatter().date(from: "2026-11-25T06:30:00Z")!

  static func local(_ text: String) -> Date {
    let f = DateFormatter()
    f.locale = Locale(identifier: "en_US_POSIX")
    f.timeZone = TimeZone(identifier: "Asia/Tokyo")!
    f.dateFormat = "yyyy-MM-dd HH:mm:ss"
    return f.date(from: text)!
  }

  @Test(arguments: [
    ("2026-11-20", "2026-11-20 00:00:00"),
    ("2026-11-20 09:30", "2026-11-20 09:30:00"),
    ("2026-11-20T09:30:15", "2026-11-20 09:30:15"),
    ("2026-11-20T00:30:00Z", "2026-11-20 09:30:00"),
    ("2026-11-20T09:30:00+09:00", "2026-11-20 09:30:00"),
    ("2026-11-20T01:30:00.250+01:00", "2026-11-20 09:30:00"),
    ("now", "2026-11-25 15:30:00"),
    ("today", "2026-11-25 00:00:00"),
    ("yesterday", "2026-11-24 15:30:00"),
    ("yesterday noon", "2026-11-24 12:00:00"),
    ("noon", "2026-11-25 12:00:00"),
    ("midnight", "2026-11-25 00:00:00"),
    ("2 days ago", "2026-11-23 15:30:00"),
    ("2.days.ago", "2026-11-23 15:30:00"),
    ("3 hours ago", "2026-11-25 12:30:00"),
    ("a week ago", "2026-11-18 15:30:00"),
    ("1 month ago", "2026-10-25 15:30:00"),
    ("last week", "2026-11-18 15:30:00"),
    ("monday", "2026-11-23 00:00:00"),
    ("wed", "2026-11-25 00:00:00"),
    ("last wednesday", "2026-11-18 00:00:00"),
    ("Last Friday", "2026-11-20 00:00:00"),
  ])
  func readsWhatGitReads(_ text: String, _ expected: String) {
    #expect(DateExpression.parse(text, now: Self.now, zone: Self.tokyo) == Self.local(expected))
  }

  @Test(arguments: [
    "", "tomorrowish", "2026-13-01", "2026-02-30", "2026-11-20 25:00", "9.30", "2026-11-20T09:30+9",
    "1 fortnight ago", "-2 days ago", "last",
  ])
  func refusesWhatIsNoDate(_ text: String) {
    #expect(DateExpression.parse(text, now: Self.now, zone: Self.tokyo) == nil)
  }

  @Test func anUntilDayMeansItsLastSecond() {
    let end = { DateExpression.parseEnd($0, now: Self.now, zone: Self.tokyo) }
    #expect(end("2026-11-20") == Self.local("2026-11-20 23:59:59"))
    #expect(end("yesterday") == Self.local("2026-11-24 23:59:59"))
    #expect(end("monday") == Self.local("2026-11-23 23:59:59"))
    #expect(end("2026-11-20 09:30") == Self.local("2026-11-20 09:30:00"))
    #expect(end("2 days ago") == Self.local("2026-11-23 15:30:00"))
  }
}
