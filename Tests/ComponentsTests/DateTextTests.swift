import Components
import Foundation
import TestSupport
import Testing

/// `HistoryView.dateText` works the civil date out by arithmetic: it agrees with Foundation's
/// calendar across leap years, centuries, dates before 1970 and zones with daylight saving.
@Suite struct DateTextTests {
  @Test(arguments: ["UTC", "Europe/Berlin", "America/New_York", "Asia/Kolkata", "Pacific/Chatham"])
  func agreesWithTheCalendar(zone name: String) {
    let zone = TimeZone(identifier: name)!
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = zone
    var generator = SystemRandomNumberGenerator()
    var dates = [-86_400.0 * 365 * 70, -1, 0, 951_782_400, 4_107_542_399, 1_793_000_000]
    dates += (0..<2000).map { _ in
      Double(Int.random(in: -3_000_000_000...6_000_000_000, using: &generator))
    }
    for t in dates {
      let date = Date(timeIntervalSince1970: t)
      let c = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
      let expected = String(
        format: "%04d-%02d-%02d %02d:%02d", c.year!, c.month!, c.day!, c.hour!, c.minute!)
      let text = HistoryView.dateText(date, in: FoundationZone(name))
      #expect(text.hasPrefix(expected), "\(t) in \(name): \(text) != \(expected)")
    }
  }
}
