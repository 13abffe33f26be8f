/// A day on the calendar, with no time and no zone: `2026-12-24` (proleptic Gregorian).
public struct CivilDate: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// Days since 1970-01-01 (negative before).
  public let dayNumber: Int

  /// The day `dayNumber` days after 1970-01-01.
  public init(dayNumber: Int) { self.dayNumber = dayNumber }

  /// The day with this year, month (1-12) and day of month; nil when there is no such day.
  public init?(year: Int, month: Int, day: Int) {
    guard (1...9999).contains(year), (1...12).contains(month),
      (1...Self.days(inMonth: month, of: year)).contains(day)
    else { return nil }
    dayNumber = Self.dayNumber(year: year, month: month, day: day)
  }

  /// Reads exactly `YYYY-MM-DD`; nil for anything else (`2026-2-1`, `2026-02-30`).
  public init?(_ text: some StringProtocol) {
    let b = Array(text.utf8)
    guard b.count == 10, b[4] == 45, b[7] == 45 else { return nil }
    func number(_ r: Range<Int>) -> Int? {
      var n = 0
      for i in r {
        guard (48...57).contains(b[i]) else { return nil }
        n = n * 10 + Int(b[i] - 48)
      }
      return n
    }
    guard let y = number(0..<4), let m = number(5..<7), let d = number(8..<10) else { return nil }
    self.init(year: y, month: m, day: d)
  }

  /// Year, month (1-12) and day of month.
  public var parts: (year: Int, month: Int, day: Int) {
    // NB: Howard Hinnant's civil_from_days.
    let z = dayNumber + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let d = doy - (153 * mp + 2) / 5 + 1
    let m = mp < 10 ? mp + 3 : mp - 9
    return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
  }

  /// The day of the week.
  public var weekday: Weekday {
    // 1970-01-01 was a Thursday.
    Weekday(rawValue: ((dayNumber % 7 + 7) % 7 + 3) % 7 + 1)!
  }

  /// The Monday of this day's week (weeks start on Monday, as in ISO 8601 and RFC 5545's default).
  public var monday: CivilDate { adding(days: 1 - weekday.rawValue) }

  /// The day `days` days later (earlier when negative).
  public func adding(days: Int) -> CivilDate { CivilDate(dayNumber: dayNumber + days) }

  /// `2026-12-24`.
  public var description: String {
    let (y, m, d) = parts
    return Self.pad(y, 4) + "-" + Self.pad(m, 2) + "-" + Self.pad(d, 2)
  }

  /// `20261224`, as iCalendar writes dates.
  public var compact: String {
    let (y, m, d) = parts
    return Self.pad(y, 4) + Self.pad(m, 2) + Self.pad(d, 2)
  }

  public static func < (a: CivilDate, b: CivilDate) -> Bool { a.dayNumber < b.dayNumber }

  /// Days from 1970-01-01 to the given day (Hinnant's days_from_civil); month 1-12.
  public static func dayNumber(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let mp = (month + 9) % 12
    let doy = (153 * mp + 2) / 5 + day - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146_097 + doe - 719_468
  }

  /// 28 to 31.
  public static func days(inMonth month: Int, of year: Int) -> Int {
    switch month {
    case 2: return isLeap(year) ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  /// Gregorian leap years.
  public static func isLeap(_ year: Int) -> Bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
  }

  /// `n` with leading zeros to `width` digits.
  public static func pad(_ n: Int, _ width: Int) -> String {
    let s = String(n)
    return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
  }
}

/// A day of the week, numbered as ISO 8601 does: Monday is 1, Sunday 7.
public enum Weekday: Int, CaseIterable, Sendable, Comparable {
  case monday = 1, tuesday, wednesday, thursday, friday, saturday, sunday

  /// `mon` ... `sun`, as schedules write them.
  public var short: String { ["mon", "tue", "wed", "thu", "fri", "sat", "sun"][rawValue - 1] }
  /// `Mon` ... `Sun`, for tables.
  public var label: String { ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"][rawValue - 1] }
  /// `MO` ... `SU`, iCalendar's BYDAY.
  public var ical: String { ["MO", "TU", "WE", "TH", "FR", "SA", "SU"][rawValue - 1] }
  /// `monday` ... `sunday`.
  public var name: String {
    ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"][rawValue - 1]
  }

  /// `mon`, `Monday`, `tues`... (case-insensitive; three letters or more of the full name).
  public init?(name: some StringProtocol) {
    let lowered = name.lowercased()
    guard lowered.count >= 2,
      let day = Weekday.allCases.first(where: { $0.name.hasPrefix(lowered) && lowered.count >= 3 })
    else { return nil }
    self = day
  }

  public static func < (a: Weekday, b: Weekday) -> Bool { a.rawValue < b.rawValue }
}

/// A time of day, to the minute: `09:30`.
public struct LocalTime: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// 0-23.
  public let hour: Int
  /// 0-59.
  public let minute: Int

  /// A time of day; nil outside 00:00-23:59.
  public init?(hour: Int, minute: Int) {
    guard (0...23).contains(hour), (0...59).contains(minute) else { return nil }
    self.hour = hour
    self.minute = minute
  }

  /// Reads `H:MM` or `HH:MM` (24-hour); nil for anything else.
  public init?(_ text: some StringProtocol) {
    let b = Array(text.utf8)
    guard b.count == 4 || b.count == 5, b[b.count - 3] == 58,
      b.enumerated().allSatisfy({ $0.offset == b.count - 3 || (48...57).contains($0.element) })
    else { return nil }
    let h = b[0..<(b.count - 3)].reduce(0) { $0 * 10 + Int($1 - 48) }
    let m = Int(b[b.count - 2] - 48) * 10 + Int(b[b.count - 1] - 48)
    self.init(hour: h, minute: m)
  }

  /// Seconds since midnight.
  public var seconds: Int { hour * 3600 + minute * 60 }

  /// `09:30`.
  public var description: String { CivilDate.pad(hour, 2) + ":" + CivilDate.pad(minute, 2) }

  public static func < (a: LocalTime, b: LocalTime) -> Bool { a.seconds < b.seconds }
}
