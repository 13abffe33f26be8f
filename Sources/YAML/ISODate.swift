import Base
import FoundationEssentials
import Glibc

/// ISO 8601 dates as record files write them: `2026-11-21T09:00:00Z`, with optional fraction and
/// offset, or a plain date (`2026-11-21`, midnight UTC). Hand-parsed: it runs once per meeting.
public enum ISODate {
  /// Parses a date; nil when the text is not one.
  public static func parse(_ text: String) -> Date? {
    var text = text
    return text.withUTF8 { parse(bytes: $0) }
  }

  static func parse(bytes b: UnsafeBufferPointer<UInt8>) -> Date? {
    var i = 0
    func number(_ width: Int) -> Int? {
      guard i + width <= b.count else { return nil }
      var v = 0
      for k in i..<(i + width) {
        guard b[k] >= 48 && b[k] <= 57 else { return nil }
        v = v * 10 + Int(b[k] - 48)
      }
      i += width
      return v
    }
    func expect(_ c: Character) -> Bool {
      guard i < b.count, b[i] == c.asciiValue! else { return false }
      i += 1
      return true
    }
    guard let year = number(4), expect("-"), let month = number(2), expect("-"),
      let day = number(2), (1...12).contains(month), (1...31).contains(day)
    else { return nil }
    var hour = 0
    var minute = 0
    var second = 0
    var fraction = 0.0
    var offset = 0
    if i < b.count {
      guard b[i] == UInt8(ascii: "T") || b[i] == UInt8(ascii: "t") || b[i] == UInt8(ascii: " ")
      else { return nil }
      i += 1
      guard let h = number(2), expect(":"), let m = number(2), expect(":"), let s = number(2),
        h < 24, m < 60, s < 61
      else { return nil }
      (hour, minute, second) = (h, m, s)
      if i < b.count && b[i] == UInt8(ascii: ".") {
        i += 1
        var scale = 0.1
        let start = i
        while i < b.count && b[i] >= 48 && b[i] <= 57 {
          fraction += Double(b[i] - 48) * scale
          scale /= 10
          i += 1
        }
        if i == start { return nil }
      }
      if i < b.count && b[i] == UInt8(ascii: " ") { i += 1 }
      if i < b.count {
        if b[i] == UInt8(ascii: "Z") || b[i] == UInt8(ascii: "z") {
          i += 1
        } else if b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") {
          let sign = b[i] == UInt8(ascii: "-") ? -1 : 1
          i += 1
          guard let oh = number(2) else { return nil }
          var om = 0
          if i < b.count {
            _ = expect(":")
            guard let m = number(2) else { return nil }
            om = m
          }
          offset = sign * (oh * 3600 + om * 60)
        } else {
          return nil
        }
      }
      guard i == b.count else { return nil }
    }
    let days = daysFromCivil(year, month, day)
    // NB: reject 2026-02-31 and friends: the day must survive a round trip through the calendar.
    guard civil(fromDays: days) == (year, month, day) else { return nil }
    let seconds = Double(days * 86_400 + hour * 3600 + minute * 60 + second - offset) + fraction
    return Date(timeIntervalSince1970: seconds)
  }

  /// Formats a date in UTC: whole seconds, or milliseconds when there is a fraction.
  public static func format(_ date: Date) -> String {
    let t = date.timeIntervalSince1970
    var whole = Int(t.rounded(.down))
    var millis = Int(((t - Double(whole)) * 1000).rounded())
    if millis == 1000 {
      whole += 1
      millis = 0
    }
    var days = whole / 86_400
    var rest = whole % 86_400
    if rest < 0 {
      rest += 86_400
      days -= 1
    }
    let (y, m, d) = civil(fromDays: days)
    func pad(_ v: Int, _ w: Int) -> String {
      let s = String(v)
      return s.count >= w ? s : String(repeating: "0", count: w - s.count) + s
    }
    var out = "\(pad(y, 4))-\(pad(m, 2))-\(pad(d, 2))T\(pad(rest / 3600, 2)):"
    out += "\(pad(rest % 3600 / 60, 2)):\(pad(rest % 60, 2))"
    if millis != 0 { out += "." + pad(millis, 3) }
    return out + "Z"
  }

  // Howard Hinnant's days_from_civil and civil_from_days.
  static func daysFromCivil(_ y0: Int, _ m: Int, _ d: Int) -> Int {
    let y = m <= 2 ? y0 - 1 : y0
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146_097 + doe - 719_468
  }

  static func civil(fromDays z0: Int) -> (Int, Int, Int) {
    let z = z0 + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let d = doy - (153 * mp + 2) / 5 + 1
    let m = mp < 10 ? mp + 3 : mp - 9
    return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
  }
}
