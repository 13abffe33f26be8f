import Base
import FoundationEssentials
import Glibc
import Models
import Schedules
import Storage

/// When stand-ups happen: the agenda, the one due now, missed ones, and the team's calendar.
public struct ScheduleProvider: Sendable {
  /// The scrums.
  public let scrums: ScrumProvider
  /// Their recorded meetings.
  public let meetings: MeetingProvider
  /// The commits, for a calendar's SEQUENCE and LAST-MODIFIED; nil in memory.
  public let log: LogProvider?
  /// The zone data.
  public let zones: ZoneDatabase

  /// A meeting counts for an occurrence when it started from this long before the planned
  /// start to this long after the planned end.
  public static let matchSlack: Int64 = 2 * 3600
  /// `meet` with no scrum runs one from this long before its start.
  public static let dueEarly: Int64 = 10 * 60

  /// A provider.
  public init(
    scrums: ScrumProvider, meetings: MeetingProvider, log: LogProvider?,
    zones: ZoneDatabase = .system
  ) {
    self.scrums = scrums
    self.meetings = meetings
    self.log = log
    self.zones = zones
  }

  /// The provider of a git-backed data repository.
  public static func live(repository: DataRepository) -> ScheduleProvider {
    ScheduleProvider(
      scrums: .live(repository: repository), meetings: .live(repository: repository),
      log: .live(repository: repository))
  }

  /// A scrum with a schedule that reads.
  public struct Scheduled: Sendable {
    public var stored: StoredScrum
    public var plan: Schedule.Plan
    public var rules: ZoneRules
  }

  /// The scrums (of `only`, when given) whose schedule is valid, in the order listed.
  public func scheduled(_ only: [StoredScrum]? = nil) throws -> [Scheduled] {
    let all = try only ?? scrums.list().scrums
    return all.compactMap { stored in
      guard let schedule = stored.scrum.schedule, let plan = schedule.plan,
        let rules = zones.rules(plan.zone)
      else { return nil }
      return Scheduled(stored: stored, plan: plan, rules: rules)
    }
  }

  /// The occurrences starting in `window`, in order, with their status at `now` and times in
  /// the viewer's zone.
  public func agenda(_ window: Range<Date>, viewer: ViewerClock, only: [StoredScrum]? = nil)
    throws -> [AgendaItem]
  {
    let now = viewer.now
    let range =
      Int64(
        window.lowerBound.timeIntervalSince1970)..<Int64(
        window.upperBound.timeIntervalSince1970)
    let nowSeconds = Int64(now.timeIntervalSince1970)
    var found: [(Scheduled, Occurrence)] = []
    for s in try scheduled(only) {
      for o in s.plan.occurrences(in: range, rules: s.rules, minutes: s.stored.scrum.length) {
        found.append((s, o))
      }
    }
    found.sort { ($0.1.start, $0.0.stored.scrum.title) < ($1.1.start, $1.0.stored.scrum.title) }
    // Meetings that can count for an occurrence that has begun.
    let begun = found.filter { $0.1.start - Self.dueEarly <= nowSeconds }
    var recorded: [UUID: [StoredMeeting]] = [:]
    if let first = begun.first {
      let since = Date(timeIntervalSince1970: TimeInterval(first.1.start - Self.matchSlack))
      let until = Date(timeIntervalSince1970: TimeInterval(nowSeconds + Self.matchSlack))
      for m in try meetings.history(since: since, until: until) {
        recorded[m.meeting.scrum, default: []].append(m)
      }
    }
    var firstRecordedDay: [String: String?] = [:]
    func recordsBefore(_ s: Scheduled, _ o: Occurrence) -> Bool {
      if s.plan.from != nil { return true }
      if firstRecordedDay[s.stored.slug] == nil {
        // NB: file names start with the meeting's day: no file is read.
        let days = ((try? scrums.dependencies.pathsIn("history/\(s.stored.slug)")) ?? []).map {
          String($0.split(separator: "/").last?.prefix(10) ?? "")
        }
        firstRecordedDay[s.stored.slug] = .some(days.min())
      }
      guard let first = firstRecordedDay[s.stored.slug] ?? nil else { return false }
      return first < o.date.description
    }
    return found.map { s, o in
      let meeting = s.stored.scrum.id.flatMap { id in
        recorded[id]?.first { Self.matches($0.meeting.date, o) }
      }
      let status: AgendaItem.Status =
        if meeting != nil {
          .done
        } else if nowSeconds >= o.end {
          recordsBefore(s, o) ? .missed : .over
        } else if nowSeconds >= o.start - Self.dueEarly {
          .now
        } else {
          .upcoming
        }
      return item(s, o, status: status, meeting: meeting?.path, viewer: viewer.rules)
    }
  }

  /// True when a meeting that started at `date` is the one held for `o`.
  public static func matches(_ date: Date, _ o: Occurrence) -> Bool {
    let t = Int64(date.timeIntervalSince1970)
    return t >= o.start - matchSlack && t <= o.end + matchSlack
  }

  func item(
    _ s: Scheduled, _ o: Occurrence, status: AgendaItem.Status, meeting: String?,
    viewer: ZoneRules
  ) -> AgendaItem {
    let (day, start) = viewer.wallClock(at: o.start)
    let end = viewer.wallClock(at: o.end).time
    let attendees = s.stored.scrum.attendees.map { a -> AgendaItem.AttendeeTime in
      // NB: away on the occurrence's day where they are (their zone, else the schedule's).
      let theirRules = a.zone.flatMap { zones.rules($0) } ?? s.rules
      let away = a.away(on: theirRules.wallClock(at: o.start).date).map { $0.note ?? "away" }
      guard let zone = a.zone, let rules = zones.rules(zone) else {
        var time = AgendaItem.AttendeeTime(name: a.name, zone: a.zone)
        time.away = away
        return time
      }
      let (theirDay, theirTime) = rules.wallClock(at: o.start)
      var time = AgendaItem.AttendeeTime(
        name: a.name, zone: zone, time: theirTime.description,
        day: theirDay == day ? nil : theirDay.description)
      time.away = away
      return time
    }
    return AgendaItem(
      title: s.stored.scrum.title, slug: s.stored.slug, id: s.stored.scrum.id?.lowercased,
      day: o.date.description, date: Date(timeIntervalSince1970: TimeInterval(o.start)),
      endDate: Date(timeIntervalSince1970: TimeInterval(o.end)), zone: s.rules.name,
      zoneTime: s.rules.wallClock(at: o.start).time.description, moved: o.moved, status: status,
      localDay: day.description, localStart: start.description, localEnd: end.description,
      attendees: attendees, meeting: meeting)
  }

  /// The next stand-up that has not ended (one running now included), within a year.
  public func next(viewer: ViewerClock, only: [StoredScrum]? = nil) throws -> AgendaItem? {
    let now = viewer.now
    let start = now.addingTimeInterval(-24 * 3600)
    for days in [8, 120, 400] {
      let items = try agenda(
        start..<now.addingTimeInterval(TimeInterval(days * 86_400)), viewer: viewer, only: only)
      if let next = items.first(where: { $0.status == .upcoming || $0.status == .now }) {
        return next
      }
    }
    return nil
  }

  /// The occurrences of `scrum` between `since` and `until` (UTC) that nothing was recorded
  /// for and that were not skipped, counted from `from:` or else from the first meeting given.
  public func missed(_ scrum: StoredScrum, meetings: [Meeting], since: Date?, until: Date)
    -> [Occurrence]
  {
    guard let s = try? scheduled([scrum]).first else { return [] }
    let firstMeeting = meetings.map(\.date).min()
    guard
      let lower = [
        since,
        s.plan.from.map { Date(timeIntervalSince1970: TimeInterval(s.rules.startOfDay($0))) }
          ?? firstMeeting,
      ]
      .compactMap({ $0 }).max()
    else { return [] }
    // NB: a schedule that starts after `until` (next week's stand-up, or a --since past its
    // end) has nothing missed yet; an empty period is no range.
    let (low, high) = (Int64(lower.timeIntervalSince1970), Int64(until.timeIntervalSince1970))
    guard low < high else { return [] }
    let range = low..<high
    let dates = meetings.map(\.date).sorted()
    return s.plan.occurrences(in: range, rules: s.rules, minutes: scrum.scrum.length).filter { o in
      o.end <= range.upperBound && !dates.contains { Self.matches($0, o) }
    }
  }

  /// A meeting's distance from the nearest planned occurrence, when it is further than the match
  /// slack: `check --strict` warns about these.
  public static func offSchedule(_ meeting: Meeting, of scheduled: Scheduled) -> Bool {
    let t = Int64(meeting.date.timeIntervalSince1970)
    let around = (t - 3 * 86_400)..<(t + 3 * 86_400)
    return !scheduled.plan.occurrences(
      in: around, rules: scheduled.rules, minutes: scheduled.stored.scrum.length
    )
    .contains { Self.matches(meeting.date, $0) }
  }

  /// The team's calendar: the scheduled scrums (of `only`), and with `history` their recorded
  /// meetings.
  public func calendar(
    name: String, only: [StoredScrum]? = nil, history: Bool = false, alarm: Int? = nil
  ) throws
    -> String
  {
    var series: [ICalendar.Series] = []
    for s in try scheduled(only) {
      let changes = try ownChanges(s.stored)
      let lastModified = Int64(changes.last ?? 0)
      // NB: without a first day of its own, the feed starts the day before the schedule was
      // last written, in its zone: a teammate's "today" (what `agenda` lists) can begin up to a
      // day before that date (written at 00:35 in Kolkata is still the day before in UTC,
      // and agenda listed that day's stand-up while the feed had none).
      let firstDay =
        s.plan.from ?? s.rules.wallClock(at: lastModified).date.adding(days: -1)
      var one = ICalendar.Series(
        uid: (s.stored.scrum.id?.lowercased ?? s.stored.slug) + "@dinger",
        title: s.stored.scrum.title,
        plan: s.plan, rules: s.rules, minutes: s.stored.scrum.length,
        attendees: s.stored.scrum.attendees.map(\.name), firstDay: firstDay,
        sequence: changes.count, lastModified: lastModified)
      // NB: every absence the file lists (the feed depends on the data alone, not on today).
      one.away = s.stored.scrum.attendees.flatMap { a in a.away.map { (a.name, $0) } }
      one.alarm = alarm
      series.append(one)
    }
    var past: [ICalendar.Past] = []
    if history {
      let all = try only ?? scrums.list().scrums
      let titles = Dictionary(
        all.compactMap { s in s.scrum.id.map { ($0, s.scrum.title) } },
        uniquingKeysWith: { a, _ in a })
      for m in try meetings.history() {
        guard let title = titles[m.meeting.scrum] else { continue }
        past.append(
          ICalendar.Past(
            uid: (m.meeting.id?.lowercased ?? m.path) + "@dinger", title: title,
            start: Int64(m.meeting.date.timeIntervalSince1970), seconds: m.meeting.duration,
            speakers: m.meeting.speakers.map(\.name)))
      }
      past.sort { $0.start < $1.start }
    }
    return ICalendar.write(name: name, series: series, past: past)
  }

  /// The times of the commits that changed the scrum's own file, oldest first.
  func ownChanges(_ stored: StoredScrum) throws -> [Int] {
    guard let log else { return [] }
    return try log.log(scrum: stored).filter { !$0.path.hasPrefix("history/") }.map(\.time)
      .reversed()
  }
}
