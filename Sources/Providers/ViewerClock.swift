import Base
import FoundationEssentials
import Glibc
import Models
import Schedules

/// The person running dinger: now, and their time zone (`$TZ`, else the system's), for showing
/// stand-ups at their local time.
public struct ViewerClock: Sendable {
  /// The instant commands treat as now.
  public let now: Date
  let rules: ZoneRules

  /// The clock at `now` in the user's zone (`environment`'s `TZ`, else /etc/localtime).
  public init(now: Date, environment: [String: String] = ProcessInfo.processInfo.environment) {
    self.now = now
    rules = ZoneDatabase.system.local(environment: environment)
  }

  /// The viewer's zone, for showing times and reading the ones they type.
  public var zone: any WallClockZone { rules }

  /// The zone's name (`Europe/Berlin`; a POSIX `TZ` string as given; `UTC` when unknown).
  public var zoneName: String { rules.name }

  /// The viewer's day now.
  public var today: CivilDate { rules.wallClock(at: seconds).date }

  var seconds: Int64 { Int64(now.timeIntervalSince1970.rounded(.down)) }

  /// The window from the start of today, `days` days long.
  public func days(_ days: Int) -> Range<Date> {
    let start = rules.startOfDay(today)
    let end = rules.startOfDay(today.adding(days: max(1, days)))
    return Date(
      timeIntervalSince1970: TimeInterval(start))..<Date(
        timeIntervalSince1970: TimeInterval(end))
  }
}
