import FoundationEssentials

/// A time zone as dinger shows and reads local times: offsets from its own tzdata reader
/// (Schedules' `ZoneRules`), not Foundation's `TimeZone`, which needs ICU for any zone but UTC.
extension CivilDate {
  /// The calendar day it is in `zone` at the instant `utc` (seconds since 1970): the one rule
  /// for whose day a moment is (an entry's writer's, a reminder's, the viewer's).
  public init(at utc: Int64, in zone: any WallClockZone) {
    let local = utc + Int64(zone.offset(at: utc))
    self.init(dayNumber: Int((local - ((local % 86400) + 86400) % 86400) / 86400))
  }

  /// The calendar day it is in `zone` at `date`.
  public init(at date: Date, in zone: any WallClockZone) {
    self.init(at: Int64(date.timeIntervalSince1970.rounded(.down)), in: zone)
  }
}

public protocol WallClockZone: Sendable {
  /// The zone's name (`Europe/Berlin`, `UTC`).
  var name: String { get }
  /// Seconds east of UTC at the instant `utc` (seconds since 1970).
  func offset(at utc: Int64) -> Int
  /// The abbreviation in use at `utc` (`CET`, `CEST`).
  func abbreviation(at utc: Int64) -> String
  /// The instant a wall-clock time (seconds since 1970 as if the zone were UTC) happens: a
  /// time skipped by a spring-forward is read with the offset before; a repeated one is the first.
  func utc(forLocal local: Int64) -> Int64
}

/// A zone with one offset all year: UTC, or `+05:30` from a date someone typed.
public struct FixedZone: WallClockZone, Hashable {
  public let name: String
  /// Seconds east of UTC.
  public let seconds: Int

  /// A zone `seconds` east of UTC, called `name`.
  public init(name: String, seconds: Int) { (self.name, self.seconds) = (name, seconds) }

  /// UTC.
  public static let utc = FixedZone(name: "UTC", seconds: 0)

  public func offset(at utc: Int64) -> Int { seconds }
  public func abbreviation(at utc: Int64) -> String { name }
  public func utc(forLocal local: Int64) -> Int64 { local - Int64(seconds) }
}

extension WallClockZone {
  /// The offset at `date`.
  public func offset(at date: Date) -> Int {
    offset(at: Int64(date.timeIntervalSince1970.rounded(.down)))
  }

  /// `date`'s wall-clock time in this zone, as a Date whose UTC fields read as that time.
  public func wallClock(_ date: Date) -> Date { date.addingTimeInterval(Double(offset(at: date))) }

  /// The instant a wall-clock Date (see `wallClock`) names in this zone.
  public func instant(_ wall: Date) -> Date {
    let seconds = wall.timeIntervalSince1970.rounded(.down)
    let fraction = wall.timeIntervalSince1970 - seconds
    return Date(timeIntervalSince1970: Double(utc(forLocal: Int64(seconds))) + fraction)
  }
}
