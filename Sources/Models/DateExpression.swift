import Base
import FoundationEssentials
import Glibc

/// A date a person typed on the command line, read as git's approxidate reads the common forms:
/// ISO dates and times (`2026-11-19`, `2026-11-19 09:30`, `2026-11-19T09:30:00+01:00`), `now`,
/// `today`, `yesterday`, `noon`, `midnight`, `N days ago` (seconds to years; `2.days.ago` too),
/// weekday names (`monday`, `last friday`), `last week`. Every day without a time is that day's
/// local midnight, and a time without a zone is local time: the zone is the user's, as in git.
public enum DateExpression {
  /// The instant `text` names, or nil when it is not a date.
  public static func parse(_ text: String, now: Date, zone: any WallClockZone) -> Date? {
    let trimmed = text.trimmingSpaces()
    if let (date, explicit) = absolute(trimmed) { return explicit ? date : zone.instant(date) }
    let words = trimmed.lowercased().replacingText(".", with: " ")
      .split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
    return relative(words, now: now, zone: zone)
  }

  /// The end of what `text` names, for `--until`: a day without a time (`2026-11-19`, `today`,
  /// `yesterday`, `monday`) means its last second; anything else the instant itself.
  public static func parseEnd(_ text: String, now: Date, zone: any WallClockZone)
    -> Date?
  {
    guard let start = parse(text, now: now, zone: zone) else { return nil }
    let lowered = text.trimmingSpaces().lowercased()
    let isDay =
      (lowered.count == 10 && absolute(lowered) != nil)
      || ["today", "yesterday", "tomorrow"].contains(lowered)
      || weekday(lowered.hasPrefix("last ") ? String(lowered.dropFirst(5)) : lowered) != nil
    guard isDay else { return start }
    let day = utc.startOfDay(for: zone.wallClock(start))
    return zone.instant(utc.date(byAdding: .day, value: 1, to: day)!).addingTimeInterval(-1)
  }

  /// The calendar all arithmetic uses: on wall-clock times (see `WallClockZone.wallClock`),
  /// so it needs no zone of its own.
  static let utc: Calendar = {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(secondsFromGMT: 0)!
    return calendar
  }()

  // MARK: - Absolute forms

  /// The date in `text` and whether it named its zone (then it is an instant; else a
  /// wall-clock time).
  static func absolute(_ text: String) -> (Date, explicit: Bool)? {
    let chars = Array(text.utf8)
    func number(_ range: Range<Int>) -> Int? {
      guard range.upperBound <= chars.count, range.allSatisfy({ (48...57).contains(chars[$0]) })
      else { return nil }
      return range.reduce(0) { $0 * 10 + Int(chars[$1] - 48) }
    }
    guard chars.count >= 10, let year = number(0..<4), chars[4] == 45, let month = number(5..<7),
      chars[7] == 45, let day = number(8..<10)
    else { return nil }
    var parts = DateComponents(year: year, month: month, day: day, hour: 0, minute: 0, second: 0)
    var rest = chars[10...]
    if let separator = rest.first {
      guard separator == 84 || separator == 32, rest.count >= 6, let hour = number(11..<13),
        chars[13] == 58, let minute = number(14..<16)
      else { return nil }
      parts.hour = hour
      parts.minute = minute
      rest = chars[16...]
      if rest.first == 58 {
        guard let second = number(17..<19) else { return nil }
        parts.second = second
        rest = chars[19...]
        // NB: fractions of a second are dropped (dates are stored to the second).
        if rest.first == 46 {
          rest = rest.dropFirst()
          while let c = rest.first, (48...57).contains(c) { rest = rest.dropFirst() }
        }
      }
    }
    var offset: Int?
    if !rest.isEmpty {
      let zone = String(decoding: rest, as: UTF8.self)
      if zone == "Z" || zone == "z" {
        offset = 0
      } else {
        let z = Array(zone.utf8)
        guard z.count == 6, z[0] == 43 || z[0] == 45, z[3] == 58,
          let h = Int(String(decoding: z[1..<3], as: UTF8.self)),
          let m = Int(String(decoding: z[4..<6], as: UTF8.self)), h <= 23, m <= 59
        else { return nil }
        offset = (z[0] == 45 ? -1 : 1) * (h * 3600 + m * 60)
      }
    }
    let calendar = utc
    guard (1...12).contains(month), (1...31).contains(day), (0...23).contains(parts.hour!),
      (0...59).contains(parts.minute!), (0...60).contains(parts.second!),
      let date = calendar.date(from: parts),
      calendar.component(.day, from: date) == day
    else { return nil }
    guard let offset else { return (date, false) }
    return (date.addingTimeInterval(Double(-offset)), true)
  }

  // MARK: - Relative forms

  static let units: [String: Calendar.Component] = [
    "second": .second, "sec": .second, "minute": .minute, "min": .minute, "hour": .hour,
    "day": .day, "week": .weekOfYear, "month": .month, "year": .year,
  ]

  static func unit(_ word: String) -> Calendar.Component? {
    if let unit = units[word] { return unit }
    if word.hasSuffix("s"), let unit = units[String(word.dropLast())] { return unit }
    return nil
  }

  static let weekdays = [
    "sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday",
  ]

  /// 1 (Sunday) to 7 for a weekday's name or its first three letters.
  static func weekday(_ word: String) -> Int? {
    guard word.count >= 3 else { return nil }
    return weekdays.firstIndex { $0 == word || $0.prefix(3) == word }.map { $0 + 1 }
  }

  static let numbers = [
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10,
  ]

  /// Wall-clock arithmetic in `zone`; the result is an instant.
  static func relative(_ words: [String], now instant: Date, zone: any WallClockZone) -> Date? {
    guard let wall = relativeWallClock(words, now: instant, zone: zone) else { return nil }
    return wall.isInstant ? wall.date : zone.instant(wall.date)
  }

  static func relativeWallClock(_ words: [String], now instant: Date, zone: any WallClockZone)
    -> (date: Date, isInstant: Bool)?
  {
    let calendar = utc
    let now = zone.wallClock(instant)
    // NB: seconds, minutes and hours ago count real time (across a clock change); days and
    // longer count days on the wall clock, as a person does.
    if words.count == 3, words[2] == "ago", let unit = unit(words[1]),
      [.second, .minute, .hour].contains(unit), let n = Int(words[0]) ?? numbers[words[0]],
      n >= 0, n <= 100_000
    {
      return calendar.date(byAdding: unit, value: -n, to: instant).map { ($0, true) }
    }
    if words == ["now"] { return (instant, true) }
    guard let date = relativeDay(words, now: now, calendar: calendar) else { return nil }
    return (date, false)
  }

  static func relativeDay(_ words: [String], now: Date, calendar: Calendar) -> Date? {
    let today = calendar.startOfDay(for: now)
    let noon = calendar.date(byAdding: .hour, value: 12, to: today)!
    switch words {
    case ["today"], ["midnight"], ["today", "midnight"], ["midnight", "today"]: return today
    case ["yesterday"]: return calendar.date(byAdding: .day, value: -1, to: now)
    // NB: an absence is planned ahead: `--from tomorrow`.
    case ["tomorrow"]: return calendar.date(byAdding: .day, value: 1, to: today)
    case ["yesterday", "noon"], ["noon", "yesterday"]:
      return calendar.date(byAdding: .day, value: -1, to: noon)
    case ["yesterday", "midnight"], ["midnight", "yesterday"]:
      return calendar.date(byAdding: .day, value: -1, to: today)
    case ["noon"]: return now >= noon ? noon : calendar.date(byAdding: .day, value: -1, to: noon)
    case ["today", "noon"], ["noon", "today"]: return noon
    default: break
    }
    // N units ago; "last week"
    if words.count == 3, words[2] == "ago", let unit = unit(words[1]),
      let n = Int(words[0]) ?? numbers[words[0]], n >= 0, n <= 100_000
    {
      return calendar.date(byAdding: unit, value: -n, to: now)
    }
    if words.count == 2, words[0] == "last", let unit = unit(words[1]), unit != .second {
      return calendar.date(byAdding: unit, value: -1, to: now)
    }
    // (last) monday: the most recent one, at midnight; "last" means before today.
    let strict = words.first == "last"
    let name = strict ? Array(words.dropFirst()) : words
    if name.count == 1, let target = weekday(name[0]) {
      let current = calendar.component(.weekday, from: today)
      var back = (current - target + 7) % 7
      if back == 0 && strict { back = 7 }
      return calendar.date(byAdding: .day, value: -back, to: today)
    }
    return nil
  }
}
