import Models

/// A POSIX TZ string, as TZif footers hold them: `CET-1CEST,M3.5.0,M10.5.0/3`,
/// `AEST-10AEDT,M10.1.0,M4.1.0/3`, `<+0530>-5:30`. Offsets here are seconds east of UTC (the
/// string's sign is the other way round).
public struct PosixRule: Hashable, Sendable {
  /// Standard time.
  public var standard: Part
  /// Daylight time and when it starts and ends; nil for a zone without DST.
  public var dst: DST?

  /// An offset and its abbreviation.
  public struct Part: Hashable, Sendable {
    public var abbreviation: String
    public var offset: Int
  }

  /// Daylight time: its offset, and the local times it starts (in standard time) and ends (in
  /// daylight time) each year.
  public struct DST: Hashable, Sendable {
    public var part: Part
    public var start: Moment
    public var end: Moment
  }

  /// A yearly moment: a day rule and a time of day (seconds, may be negative or past 24 h).
  public struct Moment: Hashable, Sendable {
    public var day: Day
    public var time: Int
  }

  /// How the TZ string names a day of the year.
  public enum Day: Hashable, Sendable {
    /// `Mm.w.d`: weekday `d` (0 = Sunday) of week `w` (1-4, 5 = last) of month `m`.
    case monthWeekDay(month: Int, week: Int, weekday: Int)
    /// `Jn`: day 1-365, February 29 never counted.
    case julian(Int)
    /// `n`: day 0-365, February 29 counted in leap years.
    case zeroBased(Int)

    /// The day in `year`.
    func date(in year: Int) -> CivilDate {
      switch self {
      case .monthWeekDay(let m, let w, let d):
        let first = CivilDate(dayNumber: CivilDate.dayNumber(year: year, month: m, day: 1))
        // Weekday numbers here: Sunday 0 ... Saturday 6.
        let firstWeekday = first.weekday.rawValue % 7
        var day = first.adding(days: (d - firstWeekday + 7) % 7 + (w - 1) * 7)
        while day.parts.month != m { day = day.adding(days: -7) }
        return day
      case .julian(let n):
        let jan1 = CivilDate(dayNumber: CivilDate.dayNumber(year: year, month: 1, day: 1))
        let leapShift = CivilDate.isLeap(year) && n >= 60 ? 1 : 0
        return jan1.adding(days: n - 1 + leapShift)
      case .zeroBased(let n):
        return CivilDate(dayNumber: CivilDate.dayNumber(year: year, month: 1, day: 1)).adding(
          days: n)
      }
    }
  }

  /// Reads a TZ string; nil when it is not one this reader understands.
  public init?(_ text: String) {
    var s = Substring(text)
    guard let std = Self.part(&s, defaultOffset: nil) else { return nil }
    standard = std
    if s.isEmpty {
      dst = nil
      return
    }
    guard let daylight = Self.part(&s, defaultOffset: std.offset + 3600) else { return nil }
    var start = Moment(day: .monthWeekDay(month: 3, week: 2, weekday: 0), time: 7200)
    var end = Moment(day: .monthWeekDay(month: 11, week: 1, weekday: 0), time: 7200)
    if s.first == "," {
      s.removeFirst()
      guard let a = Self.moment(&s), s.first == "," else { return nil }
      s.removeFirst()
      guard let b = Self.moment(&s) else { return nil }
      (start, end) = (a, b)
    }
    guard s.isEmpty else { return nil }
    dst = DST(part: daylight, start: start, end: end)
  }

  /// The UTC instants DST starts and ends in `year`, in the order they happen.
  func transitions(in year: Int) -> [Int64] {
    guard let dst else { return [] }
    let (start, end) = bounds(year, dst)
    return [start, end].sorted()
  }

  private func bounds(_ year: Int, _ dst: DST) -> (start: Int64, end: Int64) {
    let start =
      Int64(dst.start.day.date(in: year).dayNumber) * 86_400 + Int64(dst.start.time)
      - Int64(standard.offset)
    let end =
      Int64(dst.end.day.date(in: year).dayNumber) * 86_400 + Int64(dst.end.time)
      - Int64(dst.part.offset)
    return (start, end)
  }

  func localType(at utc: Int64) -> ZoneRules.LocalType {
    let std = ZoneRules.LocalType(
      offset: standard.offset, isDST: false, abbreviation: standard.abbreviation)
    guard let dst else { return std }
    let year = CivilDate(dayNumber: floorDays(utc + Int64(standard.offset))).parts.year
    let (start, end) = bounds(year, dst)
    let inDST = start < end ? (utc >= start && utc < end) : (utc < end || utc >= start)
    return inDST
      ? ZoneRules.LocalType(
        offset: dst.part.offset, isDST: true, abbreviation: dst.part.abbreviation)
      : std
  }

  // MARK: - Parsing

  private static func part(_ s: inout Substring, defaultOffset: Int?) -> Part? {
    var name: Substring
    if s.first == "<" {
      guard let close = s.firstIndex(of: ">") else { return nil }
      name = s[s.index(after: s.startIndex)..<close]
      s = s[s.index(after: close)...]
    } else {
      let letters = s.prefix(while: { $0.isLetter })
      name = letters
      s = s.dropFirst(letters.count)
    }
    guard name.count >= 3 else { return nil }
    if s.isEmpty || s.first == "," {
      guard let defaultOffset else { return nil }
      return Part(abbreviation: String(name), offset: defaultOffset)
    }
    guard let west = clock(&s, maxHours: 24) else {
      guard let defaultOffset else { return nil }
      return Part(abbreviation: String(name), offset: defaultOffset)
    }
    return Part(abbreviation: String(name), offset: -west)
  }

  private static func moment(_ s: inout Substring) -> Moment? {
    var day: Day
    if s.first == "M" {
      s.removeFirst()
      let fields = s.prefix(while: { $0.isNumber || $0 == "." })
      s = s.dropFirst(fields.count)
      let n = fields.split(separator: ".").compactMap { Int($0) }
      guard n.count == 3, (1...12).contains(n[0]), (1...5).contains(n[1]), (0...6).contains(n[2])
      else { return nil }
      day = .monthWeekDay(month: n[0], week: n[1], weekday: n[2])
    } else if s.first == "J" {
      s.removeFirst()
      let digits = s.prefix(while: \.isNumber)
      s = s.dropFirst(digits.count)
      guard let n = Int(digits), (1...365).contains(n) else { return nil }
      day = .julian(n)
    } else {
      let digits = s.prefix(while: \.isNumber)
      s = s.dropFirst(digits.count)
      guard let n = Int(digits), (0...365).contains(n) else { return nil }
      day = .zeroBased(n)
    }
    var time = 7200
    if s.first == "/" {
      s.removeFirst()
      guard let t = clock(&s, maxHours: 167) else { return nil }
      time = t
    }
    return Moment(day: day, time: time)
  }

  /// `[+-]hh[:mm[:ss]]` as seconds.
  private static func clock(_ s: inout Substring, maxHours: Int) -> Int? {
    var sign = 1
    if s.first == "+" || s.first == "-" {
      if s.first == "-" { sign = -1 }
      s.removeFirst()
    }
    var parts: [Int] = []
    while parts.count < 3 {
      let digits = s.prefix(while: \.isNumber)
      guard !digits.isEmpty, digits.count <= 3, let n = Int(digits) else { return nil }
      parts.append(n)
      s = s.dropFirst(digits.count)
      guard s.first == ":" else { break }
      s.removeFirst()
    }
    guard parts[0] <= maxHours, parts.dropFirst().allSatisfy({ $0 < 60 }) else { return nil }
    let seconds =
      parts[0] * 3600 + (parts.count > 1 ? parts[1] * 60 : 0)
      + (parts.count > 2 ? parts[2] : 0)
    return sign * seconds
  }
}

/// The day number of a count of seconds since 1970, rounding down before 1970 too.
func floorDays(_ seconds: Int64) -> Int {
  Int(seconds >= 0 ? seconds / 86_400 : -((-seconds + 86_399) / 86_400))
}
