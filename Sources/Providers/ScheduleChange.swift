import Base
import FoundationEssentials
import Glibc
import Models
import Schedules
import Storage

/// A change to a scrum's schedule as `scrum new` and `scrum edit` take it (`--at --days
/// --every --zone --from --until --skip --unskip --move --no-schedule`), each part as typed.
public struct ScheduleChange: Sendable {
  public var at: String?
  public var days: String?
  public var every: String?
  public var zone: String?
  public var from: String?
  /// A day, or `none` to remove the end.
  public var until: String?
  public var skip: [String] = []
  public var unskip: [String] = []
  /// `DATE=HH:MM`.
  public var move: [String] = []
  public var noSchedule = false

  /// A change.
  public init(
    at: String? = nil, days: String? = nil, every: String? = nil, zone: String? = nil,
    from: String? = nil, until: String? = nil, skip: [String] = [], unskip: [String] = [],
    move: [String] = [], noSchedule: Bool = false
  ) {
    (self.at, self.days, self.every, self.zone, self.from, self.until) = (
      at, days, every, zone, from, until
    )
    (self.skip, self.unskip, self.move, self.noSchedule) = (skip, unskip, move, noSchedule)
  }

  /// True when any part was given.
  public var given: Bool {
    at != nil || days != nil || every != nil || zone != nil || from != nil || until != nil
      || !skip.isEmpty || !unskip.isEmpty || !move.isEmpty || noSchedule
  }

  /// `schedule` changed as the parts say; the viewer's day and zone fill in what a new schedule
  /// leaves out (its zone; the start of an every-N-weeks rule).
  public func apply(to schedule: Schedule?, viewer: ViewerClock) throws -> Schedule? {
    let (today, localZone) = (viewer.today, viewer.zoneName)
    if noSchedule {
      guard at == nil, days == nil, every == nil, zone == nil, from == nil, until == nil,
        skip.isEmpty, unskip.isEmpty, move.isEmpty
      else { throw StorageError("--no-schedule removes the schedule; give it alone") }
      return nil
    }
    var s = try schedule ?? newSchedule(localZone: localZone)
    if let at { s.at = at }
    if let days {
      guard case .days(let parsed) = Schedule.parseDays([days]) else {
        throw StorageError(
          "--days '\(days)' names no days; use weekdays, daily, mon-fri or \"mon,wed,fri\"")
      }
      s.days = .text(Schedule.daysText(parsed))
    }
    if let every {
      guard let n = Schedule.parseEvery(every) else {
        throw StorageError(
          "--every takes a number of weeks from 1 to \(Schedule.maxEvery), like 2w")
      }
      s.every = n == 1 ? nil : "\(n) weeks"
      if n > 1 && s.from == nil && from == nil { s.from = today.description }
    }
    if let zone { s.zone = zone }
    if let from { s.from = try Self.date(from, option: "--from") }
    if let until { s.until = until == "none" ? nil : try Self.date(until, option: "--until") }
    try applyDays(to: &s)
    try check(s)
    return s
  }

  /// A scrum's first schedule: `--at` is needed; the zone is `--zone` or the viewer's.
  private func newSchedule(localZone: String) throws -> Schedule {
    guard let at else {
      throw StorageError(
        "the scrum has no schedule yet; give --at HH:MM (and --days, --zone) to make one")
    }
    guard ZoneDatabase.system.knows(zone ?? localZone) else {
      throw StorageError(
        "your time zone (\(localZone)) is not an IANA zone name; give --zone, e.g. --zone Europe/Berlin"
      )
    }
    return Schedule(at: at, days: .text("weekdays"), zone: zone ?? localZone)
  }

  /// The days skipped, unskipped and moved.
  private func applyDays(to s: inout Schedule) throws {
    for day in skip {
      let d = try Self.date(day, option: "--skip")
      if !s.skip.contains(d) { s.skip.append(d) }
    }
    for day in unskip {
      let d = try Self.date(day, option: "--unskip")
      guard s.skip.contains(d) else { throw StorageError("--unskip \(d): that day is not skipped") }
      s.skip.removeAll { $0 == d }
    }
    for m in move {
      let parts = m.split(separator: "=", maxSplits: 1).map(String.init)
      guard parts.count == 2, let time = LocalTime(parts[1]) else {
        throw StorageError("--move takes DATE=HH:MM, like 2027-01-07=11:00; found '\(m)'")
      }
      let d = try Self.date(parts[0], option: "--move")
      s.moved.removeAll { $0.date == d }
      if LocalTime(s.at) != time { s.moved.append(Schedule.Move(date: d, at: time.description)) }
    }
  }

  /// The changed schedule's rules, a typed day it does not meet (which would do nothing: it is
  /// refused, with the reason, instead of committed with a warning), and a zone this system
  /// does not know.
  private func check(_ s: Schedule) throws {
    let errors = s.validate(at: [.key("schedule")]).filter { $0.severity == .error }
    if let first = errors.first { throw StorageError(first.message) }
    if let plan = s.plan {
      for (option, day) in skip.map({ ("--skip", $0) })
        + move.map({ ("--move", String($0.prefix { $0 != "=" })) })
      {
        guard let d = CivilDate(day), let why = plan.whyNotScheduled(d) else { continue }
        throw StorageError(
          "\(option) \(d): the scrum does not meet that day (\(why)); nothing changed")
      }
    }
    if !ZoneDatabase.system.knows(s.zone) {
      let hint =
        ZoneDatabase.system.suggestion(for: s.zone).map { " (did you mean '\($0)'?)" } ?? ""
      throw StorageError(
        "time zone '\(s.zone)' is not in this system's zone data\(hint); use an IANA name like Europe/Berlin"
      )
    }
  }

  static func date(_ text: String, option: String) throws -> String {
    guard let d = CivilDate(text) else {
      throw StorageError("\(option) takes a date as YYYY-MM-DD, found '\(text)'")
    }
    return d.description
  }
}
