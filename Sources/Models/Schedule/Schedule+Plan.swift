import Base
import FoundationEssentials
import Glibc

extension Schedule {
  /// A schedule read: every field parsed. Made by `plan` only when the schedule has no error.
  public struct Plan: Hashable, Sendable {
    /// The time of day, in `zone`.
    public var at: LocalTime
    /// The days of the week, Monday first.
    public var days: [Weekday]
    /// Weeks between meeting weeks (1: every week).
    public var every: Int
    /// The IANA zone name.
    public var zone: String
    /// First and last day, inclusive.
    public var from: CivilDate?
    public var until: CivilDate?
    /// Days off.
    public var skip: Set<CivilDate>
    /// Occurrences at another time.
    public var moved: [CivilDate: LocalTime]

    /// True when the rule (days, interval, from, until) names `date`, skipped or not.
    public func isScheduled(_ date: CivilDate) -> Bool {
      if let from, date < from { return false }
      if let until, date > until { return false }
      guard days.contains(date.weekday) else { return false }
      guard every > 1, let from else { return true }
      let weeks = (date.monday.dayNumber - from.monday.dayNumber) / 7
      return weeks % every == 0
    }

    /// Why the rule does not name `date` (`a Saturday, and it meets on weekdays`, `in a week it
    /// does not meet: every 2 weeks from 2026-12-01`); nil when it does.
    public func whyNotScheduled(_ date: CivilDate) -> String? {
      if isScheduled(date) { return nil }
      if let from, date < from { return "before its first day, \(from)" }
      if let until, date > until { return "after its last day, \(until)" }
      if !days.contains(date.weekday) { return "a \(date.weekday.name), and it meets \(daysText)" }
      return
        "in a week it does not meet: every \(every) weeks from \(from.map { "\($0)" } ?? "its first day")"
    }

    /// True when the scrum meets on `date`.
    public func occurs(_ date: CivilDate) -> Bool { isScheduled(date) && !skip.contains(date) }

    /// The time the occurrence on `date` starts (a moved one's new time).
    public func time(on date: CivilDate) -> LocalTime { moved[date] ?? at }

    /// The first scheduled day on or after `date` (skipped days count: this is where the rule
    /// starts), looking up to `every` weeks and a day ahead; nil when `until` comes first.
    public func firstScheduled(onOrAfter date: CivilDate) -> CivilDate? {
      var day = date
      for _ in 0..<(7 * every + 1) {
        if let until, day > until { return nil }
        if isScheduled(day) { return day }
        day = day.adding(days: 1)
      }
      return nil
    }

    /// `weekdays`, `daily`, `mon-thu`, `mon, wed, fri`.
    public var daysText: String { Schedule.daysText(days) }

    /// `weekdays 09:30 Europe/Berlin`, `every 2 weeks mon, thu 10:00 UTC`.
    public var summary: String {
      (every > 1 ? "every \(every) weeks " : "") + "\(daysText) \(at) \(zone)"
    }
  }

  /// The schedule read, or nil when it has errors (`validate` says which).
  public var plan: Plan? {
    guard let at = LocalTime(at), case .days(let days) = Self.parseDays(days.items),
      let every = Self.parseEvery(every), !zone.isEmpty
    else { return nil }
    var plan = Plan(
      at: at, days: days, every: every, zone: zone, from: nil, until: nil, skip: [], moved: [:])
    if let from {
      guard let d = CivilDate(from) else { return nil }
      plan.from = d
    }
    if let until {
      guard let d = CivilDate(until) else { return nil }
      plan.until = d
    }
    if every > 1 && plan.from == nil { return nil }
    if let f = plan.from, let u = plan.until, u < f { return nil }
    for s in skip {
      guard let d = CivilDate(s) else { return nil }
      plan.skip.insert(d)
    }
    for m in moved {
      guard let d = CivilDate(m.date), let t = LocalTime(m.at) else { return nil }
      plan.moved[d] = t
    }
    return plan
  }

  /// The rules a schedule follows, with paths from the record's root (`prefix` is where the
  /// schedule is). Zones are checked by the caller, which can read the system's zone files.
  public func validate(at prefix: [PathComponent]) -> [ValidationIssue] {
    var issues: [ValidationIssue] = []
    func add(_ key: [PathComponent], _ message: String, _ severity: Severity = .error) {
      issues.append(ValidationIssue(severity, at: prefix + key, message))
    }
    if LocalTime(at) == nil { add([.key("at")], Self.timeProblem(at, field: "schedule.at")) }
    switch Self.parseDays(days.items) {
    case .days: break
    case .empty:
      add([.key("days")], "'schedule.days' names no day; write e.g. 'weekdays' or [mon, wed, fri]")
    case .unknown(let word, let suggestion):
      add(
        [.key("days")],
        "'schedule.days' has '\(word)', which is not a day\(suggestion.map { " (did you mean '\($0)'?)" } ?? ""); days are mon, tue, wed, thu, fri, sat, sun, ranges like mon-fri, 'weekdays' or 'daily'"
      )
    }
    let every = Self.parseEvery(every)
    if every == nil {
      add(
        [.key("every")],
        "'schedule.every' must be a number of weeks from 1 to \(Self.maxEvery), like '2 weeks', found '\(self.every ?? "")'"
      )
    }
    if zone.trimmingSpaces().isEmpty {
      add([.key("zone")], "'schedule.zone' must name a time zone, like Europe/Berlin or UTC")
    }
    let fromDate = from.flatMap { CivilDate($0) }
    let untilDate = until.flatMap { CivilDate($0) }
    if let from, fromDate == nil {
      add([.key("from")], Self.dateProblem(from, field: "schedule.from"))
    }
    if let until, untilDate == nil {
      add([.key("until")], Self.dateProblem(until, field: "schedule.until"))
    }
    if let f = fromDate, let u = untilDate, u < f {
      add(
        [.key("until")],
        "'schedule.until' (\(u)) is before 'schedule.from' (\(f)); the scrum would never meet")
    }
    if let every, every > 1, from == nil {
      add(
        [.key("every")],
        "'schedule.every' of \(every) weeks needs 'from:', the day the weeks are counted from (e.g. from: 2026-12-01)"
      )
    }
    issues += exceptionIssues(at: prefix)
    return issues
  }

  /// The skipped and moved days' rules. Skips and moves that name no occurrence do nothing: a
  /// warning, not an error.
  private func exceptionIssues(at prefix: [PathComponent]) -> [ValidationIssue] {
    var issues: [ValidationIssue] = []
    func add(_ key: [PathComponent], _ message: String, _ severity: Severity = .error) {
      issues.append(ValidationIssue(severity, at: prefix + key, message))
    }
    let plan = self.plan
    for (i, s) in skip.enumerated() {
      guard let d = CivilDate(s) else {
        add([.key("skip"), .index(i)], Self.dateProblem(s, field: "schedule.skip"))
        continue
      }
      if let plan, let why = plan.whyNotScheduled(d) {
        add(
          [.key("skip"), .index(i)],
          "skip \(d) is not a day the scrum meets (\(why)); it has no effect",
          .warning)
      }
    }
    var seenMoves = Set<String>()
    for m in moved {
      let at: [PathComponent] = [.key("moved"), .key(m.date)]
      guard let d = CivilDate(m.date) else {
        add(at, Self.dateProblem(m.date, field: "schedule.moved"))
        continue
      }
      if !seenMoves.insert(d.description).inserted {
        add(at, "\(d) is moved twice; keep one")
      }
      if LocalTime(m.at) == nil { add(at, Self.timeProblem(m.at, field: "schedule.moved.\(d)")) }
      if let plan {
        if let why = plan.whyNotScheduled(d) {
          add(
            at, "moved \(d) is not a day the scrum meets (\(why)); it has no effect",
            .warning)
        } else if plan.skip.contains(d) {
          add(at, "\(d) is both skipped and moved; it is skipped", .warning)
        }
      }
    }
    return issues
  }

  // MARK: - Reading the fields

  /// What `days:` names.
  public enum DaysParse: Equatable {
    case days([Weekday])
    case empty
    case unknown(String, suggestion: String?)
  }

  /// The days named by `days:` items: day names, ranges (`mon-fri`), `weekdays`, `weekends`,
  /// `daily`; items may hold several, separated by commas or spaces.
  public static func parseDays(_ items: [String]) -> DaysParse {
    var found = Set<Weekday>()
    let words = ["weekdays", "weekends", "daily"] + Weekday.allCases.map(\.short)
    for item in items {
      let normalized = item.lowercased().replacingText("every day", with: "daily")
      for token in normalized.split(whereSeparator: { $0 == "," || $0 == " " }) {
        switch token {
        case "weekdays", "weekday":
          found.formUnion([.monday, .tuesday, .wednesday, .thursday, .friday])
        case "weekends", "weekend": found.formUnion([.saturday, .sunday])
        case "daily", "everyday", "all": found.formUnion(Weekday.allCases)
        default:
          let ends = token.split(separator: "-", omittingEmptySubsequences: false)
          guard (1...2).contains(ends.count), let a = Weekday(name: ends[0]),
            let b = ends.count == 2 ? Weekday(name: ends[1]) : a
          else {
            let word = String(token)
            return .unknown(word, suggestion: Suggestions.closest(to: word, in: words).first)
          }
          var d = a
          while true {
            found.insert(d)
            if d == b { break }
            d = Weekday(rawValue: d.rawValue % 7 + 1)!
          }
        }
      }
    }
    return found.isEmpty ? .empty : .days(found.sorted())
  }

  /// Weeks from `every:`: `2 weeks`, `2w`, `2`, `week`, `weekly`; nil (absent) is 1.
  public static func parseEvery(_ text: String?) -> Int? {
    guard let text else { return 1 }
    let t = text.lowercased().trimmingSpaces()
    if ["week", "weekly", "1 week"].contains(t) { return 1 }
    if t == "other week" || t == "fortnight" { return 2 }
    let digits = t.prefix(while: \.isNumber)
    let unit = t.dropFirst(digits.count).trimmingSpaces()
    guard !digits.isEmpty, digits.count <= 3,
      ["", "w", "wk", "wks", "week", "weeks"].contains(unit),
      let n = Int(digits), (1...maxEvery).contains(n)
    else { return nil }
    return n
  }

  /// `weekdays`, `daily`, `mon-thu` (3 or more days in a row), `mon, wed, fri`.
  public static func daysText(_ days: [Weekday]) -> String {
    let set = Set(days)
    if set.count == 7 { return "daily" }
    if set == [.monday, .tuesday, .wednesday, .thursday, .friday] { return "weekdays" }
    if set == [.saturday, .sunday] { return "weekends" }
    let sorted = days.sorted()
    if sorted.count >= 3, sorted.last!.rawValue - sorted.first!.rawValue == sorted.count - 1 {
      return "\(sorted.first!.short)-\(sorted.last!.short)"
    }
    return sorted.map(\.short).joined(separator: ", ")
  }

  static func timeProblem(_ text: String, field: String) -> String {
    if let colon = text.firstIndex(of: ":"), let h = Int(text[..<colon]), h >= 24 {
      return "'\(field)' has hour \(h); hours go from 00 to 23 (midnight is 00:00)"
    }
    return "'\(field)' must be a time of day as HH:MM (24-hour, e.g. 09:30), found '\(text)'"
  }

  static func dateProblem(_ text: String, field: String) -> String {
    "'\(field)' must be a date as YYYY-MM-DD (e.g. 2026-12-24), found '\(text)'"
  }
}
