import Base
import FoundationEssentials
import Glibc

/// The dates git takes in `GIT_AUTHOR_DATE` and `GIT_COMMITTER_DATE` (git's date.c): its own
/// form `<seconds> <+hhmm>` (with or without `@`), ISO 8601 (`2026-11-27T09:30:00+01:00`,
/// a space for the `T`, `Z`, no zone for local time) and RFC 2822
/// (`Fri, 27 Nov 2026 09:30:00 +0100`).
public enum GitDate {
  /// The instant and its zone offset in minutes; nil when git would call it an invalid date.
  public static func parse(_ text: String) -> (date: Date, offsetMinutes: Int)? {
    let t = text.trimmingSpaces()
    if let own = seconds(t) { return own }
    if let iso = iso8601(t) { return iso }
    return rfc2822(t)
  }

  /// `@1764233400 +0100`, `1764233400 +0100`, `@1764233400`.
  static func seconds(_ t: String) -> (date: Date, offsetMinutes: Int)? {
    let parts = t.split(separator: " ")
    guard (1...2).contains(parts.count) else { return nil }
    var digits = parts[0]
    let at = digits.hasPrefix("@")
    if at { digits = digits.dropFirst() }
    guard !digits.isEmpty, digits.allSatisfy(\.isDigitASCII), digits.count <= 12,
      let value = Int64(digits), parts.count == 2 || at
    else { return nil }
    var offset = 0
    if parts.count == 2 {
      guard let o = zone(String(parts[1])) else { return nil }
      offset = o
    }
    return (Date(timeIntervalSince1970: TimeInterval(value)), offset)
  }

  /// `+0100`, `-08:00`, `Z`, `UTC`, `GMT` as minutes east of UTC.
  static func zone(_ text: String) -> Int? {
    if text == "Z" || text == "UTC" || text == "GMT" { return 0 }
    let sign: Int
    switch text.first {
    case "+": sign = 1
    case "-": sign = -1
    default: return nil
    }
    let digits = text.dropFirst().filter { $0 != ":" }
    guard digits.count == 4, digits.allSatisfy(\.isDigitASCII), let hh = Int(digits.prefix(2)),
      let mm = Int(digits.suffix(2)), hh <= 14, mm < 60
    else { return nil }
    return sign * (hh * 60 + mm)
  }

  /// `2026-11-27T09:30:00`, `2026-11-27 09:30:00 +0100`, `2026-11-27T09:30:00Z`.
  static func iso8601(_ t: String) -> (date: Date, offsetMinutes: Int)? {
    let b = Array(t.utf8)
    guard b.count >= 19, b[4] == 45, b[7] == 45, b[10] == 84 || b[10] == 32, b[13] == 58,
      b[16] == 58
    else { return nil }
    func number(_ r: Range<Int>) -> Int? {
      guard b[r].allSatisfy({ (48...57).contains($0) }) else { return nil }
      return Int(String(decoding: b[r], as: UTF8.self))
    }
    guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
      let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
      (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
    else { return nil }
    var rest = String(decoding: b[19...], as: UTF8.self).trimmingSpaces()
    if rest.hasPrefix(".") { rest = String(rest.drop { $0 == "." || $0.isDigitASCII }) }
    return civil(year, month, day, hour, minute, second, zone: rest.isEmpty ? nil : rest)
  }

  /// `Fri, 27 Nov 2026 09:30:00 +0100` (the weekday may be left out).
  static func rfc2822(_ t: String) -> (date: Date, offsetMinutes: Int)? {
    var parts = t.replacingText(",", with: " ").split(separator: " ").map(String.init)
    if let first = parts.first, first.count == 3, first.allSatisfy(\.isLetter), parts.count == 6 {
      parts.removeFirst()
    }
    let months = [
      "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ]
    guard parts.count == 5, let day = Int(parts[0]),
      let month = months.firstIndex(of: parts[1].lowercased()).map({ $0 + 1 }),
      let year = Int(parts[2]), parts[3].count == 8
    else { return nil }
    let hms = parts[3].split(separator: ":").compactMap { Int($0) }
    guard hms.count == 3, (1...31).contains(day), hms[0] < 24, hms[1] < 60, hms[2] < 61 else {
      return nil
    }
    return civil(year, month, day, hms[0], hms[1], hms[2], zone: parts[4])
  }

  /// A civil time in a zone (nil: the local one, as libc has it).
  static func civil(
    _ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int, _ second: Int,
    zone text: String?
  ) -> (date: Date, offsetMinutes: Int)? {
    var fields = tm()
    fields.tm_year = Int32(year - 1900)
    fields.tm_mon = Int32(month - 1)
    fields.tm_mday = Int32(day)
    fields.tm_hour = Int32(hour)
    fields.tm_min = Int32(minute)
    fields.tm_sec = Int32(second)
    guard let text else {
      fields.tm_isdst = -1
      let clock = mktime(&fields)
      guard clock != -1 else { return nil }
      return (Date(timeIntervalSince1970: TimeInterval(clock)), Int(fields.tm_gmtoff / 60))
    }
    guard let offset = zone(text) else { return nil }
    let utc = timegm(&fields)
    return (Date(timeIntervalSince1970: TimeInterval(utc - offset * 60)), offset)
  }
}

extension Character {
  /// `0` to `9`, nothing else (not other scripts' digits).
  fileprivate var isDigitASCII: Bool { ("0"..."9").contains(self) }
}
