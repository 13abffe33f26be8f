import Models

/// One meeting the schedule plans.
public struct Occurrence: Hashable, Sendable {
  /// The day it is scheduled on, in the schedule's zone (what `skip` and `moved` name, and the
  /// RECURRENCE-ID of the calendar).
  public var date: CivilDate
  /// Start and planned end, UTC seconds since 1970.
  public var start: Int64
  public var end: Int64
  /// True when `moved` sets its time.
  public var moved: Bool
}

extension Schedule.Plan {
  /// The occurrences that start in `range` (UTC seconds), in order; each lasts `minutes`.
  public func occurrences(in range: Range<Int64>, rules: ZoneRules, minutes: Int) -> [Occurrence] {
    guard range.lowerBound < range.upperBound else { return [] }
    // Local days that can hold a start in range: offsets stay within a day of UTC.
    var day = CivilDate(dayNumber: floorDays(range.lowerBound) - 2)
    let last = CivilDate(dayNumber: floorDays(range.upperBound) + 2)
    if let from, day < from { day = from }
    var out: [Occurrence] = []
    while day <= last {
      if let until, day > until { break }
      if occurs(day) {
        let o = occurrence(on: day, rules: rules, minutes: minutes)
        if range.contains(o.start) { out.append(o) }
      }
      day = day.adding(days: 1)
    }
    // A moved occurrence may start before an earlier day's (moved from 09:30 to 23:00, say).
    return out.sorted { ($0.start, $0.date) < ($1.start, $1.date) }
  }

  /// The occurrence scheduled on `date` (which the caller knows it is).
  public func occurrence(on date: CivilDate, rules: ZoneRules, minutes: Int) -> Occurrence {
    let time = self.time(on: date)
    let start = rules.utc(forLocal: Int64(date.dayNumber) * 86_400 + Int64(time.seconds))
    return Occurrence(
      date: date, start: start, end: start + Int64(minutes) * 60, moved: moved[date] != nil)
  }
}

extension ZoneRules {
  /// The wall clock at `utc` in this zone: the day and the time to the minute.
  public func wallClock(at utc: Int64) -> (date: CivilDate, time: LocalTime) {
    let local = utc + Int64(offset(at: utc))
    let day = floorDays(local)
    let seconds = Int(local - Int64(day) * 86_400)
    return (
      CivilDate(dayNumber: day), LocalTime(hour: seconds / 3600, minute: seconds % 3600 / 60)!
    )
  }

  /// The instant the day `date` starts here (its first wall-clock second that exists).
  public func startOfDay(_ date: CivilDate) -> Int64 {
    utc(forLocal: Int64(date.dayNumber) * 86_400)
  }
}
