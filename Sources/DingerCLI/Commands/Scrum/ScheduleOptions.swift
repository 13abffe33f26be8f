import ArgumentParser
import Foundation
import Models
import Schedules

/// `--at --days --every --zone --from --until --skip --move`: a scrum's schedule on the command
/// line (`scrum new` and `scrum edit`).
struct ScheduleOptions: ParsableArguments {
  @Option(help: "Time of day it starts, HH:MM (24-hour), in --zone.")
  var at: String?

  @Option(help: "Days: weekdays, daily, mon-thu, \"mon,wed,fri\" (default weekdays).")
  var days: String?

  @Option(help: "Every N weeks: 2w, \"2 weeks\" (counted from --from, else today).")
  var every: String?

  @Option(help: "IANA time zone (default: yours), e.g. Europe/Berlin.")
  var zone: String?

  @Option(help: "First day, YYYY-MM-DD.")
  var from: String?

  @Option(help: "Last day, YYYY-MM-DD ('none' to remove).")
  var until: String?

  @Option(help: "A day off, YYYY-MM-DD; repeat for more.")
  var skip: [String] = []

  @Option(help: "Meet again on a skipped day, YYYY-MM-DD; repeat for more.")
  var unskip: [String] = []

  @Option(help: "One occurrence at another time: DATE=HH:MM (the usual time moves it back).")
  var move: [String] = []

  @Flag(help: "Remove the schedule.")
  var noSchedule = false

  /// True when any schedule option was given.
  var given: Bool {
    at != nil || days != nil || every != nil || zone != nil || from != nil || until != nil
      || !skip.isEmpty || !unskip.isEmpty || !move.isEmpty || noSchedule
  }

  /// `schedule` changed as the options say; `today` and `localZone` fill in what a new
  /// schedule leaves out.
  func apply(to schedule: Schedule?, today: CivilDate, localZone: String) throws -> Schedule? {
    if noSchedule {
      guard at == nil, days == nil, every == nil, zone == nil, from == nil, until == nil,
        skip.isEmpty, unskip.isEmpty, move.isEmpty
      else { throw CLIError("--no-schedule removes the schedule; give it alone") }
      return nil
    }
    var s: Schedule
    if let schedule {
      s = schedule
    } else {
      guard let at else {
        throw CLIError(
          "the scrum has no schedule yet; give --at HH:MM (and --days, --zone) to make one")
      }
      guard ZoneDatabase.system.knows(zone ?? localZone) else {
        throw CLIError(
          "your time zone (\(localZone)) is not an IANA zone name; give --zone, e.g. --zone Europe/Berlin")
      }
      s = Schedule(at: at, days: .text("weekdays"), zone: zone ?? localZone)
    }
    if let at { s.at = at }
    if let days {
      guard case .days(let parsed) = Schedule.parseDays([days]) else {
        throw CLIError(
          "--days '\(days)' names no days; use weekdays, daily, mon-fri or \"mon,wed,fri\"")
      }
      s.days = .text(Schedule.daysText(parsed))
    }
    if let every {
      guard let n = Schedule.parseEvery(every) else {
        throw CLIError("--every takes a number of weeks from 1 to \(Schedule.maxEvery), like 2w")
      }
      s.every = n == 1 ? nil : "\(n) weeks"
      if n > 1 && s.from == nil && from == nil { s.from = today.description }
    }
    if let zone { s.zone = zone }
    if let from { s.from = try Self.date(from, option: "--from") }
    if let until { s.until = until == "none" ? nil : try Self.date(until, option: "--until") }
    for day in skip {
      let d = try Self.date(day, option: "--skip")
      if !s.skip.contains(d) { s.skip.append(d) }
    }
    for day in unskip {
      let d = try Self.date(day, option: "--unskip")
      guard s.skip.contains(d) else { throw CLIError("--unskip \(d): that day is not skipped") }
      s.skip.removeAll { $0 == d }
    }
    for m in move {
      let parts = m.split(separator: "=", maxSplits: 1).map(String.init)
      guard parts.count == 2, let time = LocalTime(parts[1]) else {
        throw CLIError("--move takes DATE=HH:MM, like 2027-01-07=11:00; found '\(m)'")
      }
      let d = try Self.date(parts[0], option: "--move")
      s.moved.removeAll { $0.date == d }
      if LocalTime(s.at) != time { s.moved.append(Schedule.Move(date: d, at: time.description)) }
    }
    let errors = s.validate(at: [.key("schedule")]).filter { $0.severity == .error }
    if let first = errors.first { throw CLIError(first.message) }
    if !ZoneDatabase.system.knows(s.zone) {
      let hint = ZoneDatabase.system.suggestion(for: s.zone).map { " (did you mean '\($0)'?)" } ?? ""
      throw CLIError(
        "time zone '\(s.zone)' is not in this system's zone data\(hint); use an IANA name like Europe/Berlin")
    }
    return s
  }

  static func date(_ text: String, option: String) throws -> String {
    guard let d = CivilDate(text) else {
      throw CLIError("\(option) takes a date as YYYY-MM-DD, found '\(text)'")
    }
    return d.description
  }
}
