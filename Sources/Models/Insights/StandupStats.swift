import Base
import FoundationEssentials

/// The written stand-up's figures for one scrum: who wrote on the days they were expected,
/// blockers opened and resolved per week, and how long blockers stayed open.
public struct StandupStats: Hashable, Sendable, Codable {
  /// The first and last day counted, `YYYY-MM-DD`.
  public var from: String
  public var to: String
  /// Entries in the period.
  public var entries: Int
  /// Per attendee: expected days (the stand-up's days, not away) and days written.
  public var participation: [Participation]
  /// Per week (its Monday), blockers opened and resolved.
  public var weeks: [Week]
  /// Blockers open now, and resolved in the period.
  public var open: Int
  public var resolved: Int
  /// Median working days from opened to resolved, over the blockers resolved in the period.
  public var medianDaysToResolve: Double?
  /// Each day's entries, newest first (at most `dayLimit` days), for the report.
  public var days: [Day]

  public static let dayLimit = 14

  public struct Week: Hashable, Sendable, Codable {
    public var week: String
    public var opened: Int
    public var resolved: Int
  }

  /// One day's entries, as the report shows them.
  public struct Day: Hashable, Sendable, Codable {
    public var date: String
    public var entries: [Entry]
    public var away: [String]
    public var missing: [String]
    public init(date: String, entries: [Entry], away: [String], missing: [String]) {
      (self.date, self.entries, self.away, self.missing) = (date, entries, away, missing)
    }
  }

  public struct Entry: Hashable, Sendable, Codable {
    public var by: String
    public var answers: [Answer]
    public var blockers: [String]
    public init(by: String, answers: [Answer], blockers: [String]) {
      (self.by, self.answers, self.blockers) = (by, answers, blockers)
    }
  }

  public struct Answer: Hashable, Sendable, Codable {
    public var key: String
    public var text: String
    public init(key: String, text: String) { (self.key, self.text) = (key, text) }
  }

  /// The figures of `scrum` from its `entries` over `from`...`to` (days in the writers' own
  /// days, as entries are dated).
  public static func compute(
    scrum: Scrum, entries all: [StandupEntry], from: CivilDate, to: CivilDate
  ) -> StandupStats? {
    guard !all.isEmpty else { return nil }
    let inRange = all.filter {
      guard let d = CivilDate($0.date) else { return false }
      return d >= from && d <= to
    }
    let participation = Participation.of(scrum, entries: inRange, from: from, to: to)
    // NB: blockers are followed over every entry (one opened before the period may be
    // resolved in it); the weeks count what happened in the period.
    let blockers = Blockers.follow(all)
    var opened: [Int: Int] = [:]
    var resolvedBy: [Int: Int] = [:]
    var spans: [Double] = []
    let days = StandupSettings.expectedDays(scrum.standup, schedule: scrum.schedule)
    for b in blockers {
      if let d = CivilDate(b.opened), d >= from && d <= to {
        opened[d.monday.dayNumber, default: 0] += 1
      }
      if let r = b.resolution, let d = CivilDate(r.date), d >= from && d <= to {
        resolvedBy[d.monday.dayNumber, default: 0] += 1
        if let o = CivilDate(b.opened) {
          spans.append(Double(Blockers.workingDays(from: o, to: d, days: days)))
        }
      }
    }
    var weeks: [Week] = []
    var monday = from.monday
    while monday <= to {
      weeks.append(
        Week(
          week: monday.description, opened: opened[monday.dayNumber] ?? 0,
          resolved: resolvedBy[monday.dayNumber] ?? 0))
      monday = monday.adding(days: 7)
    }
    spans.sort()
    let median: Double? =
      spans.isEmpty
      ? nil
      : spans.count % 2 == 1
        ? spans[spans.count / 2] : (spans[spans.count / 2 - 1] + spans[spans.count / 2]) / 2
    let expected = Set(days)
    let people = scrum.people
    var shownDays: [Day] = []
    var day = to
    while day >= from && shownDays.count < dayLimit {
      let text = day.description
      let written = inRange.filter { $0.date == text && $0.isWritten }
      // NB: a person's other names (aka) are theirs.
      let writers = Set(written.map { people.person($0.by).trimmed.lowercased() })
      let away = scrum.attendees.filter { $0.away(on: day) != nil }.map(\.name)
      let missing =
        expected.contains(day.weekday)
        ? scrum.attendees.filter { $0.away(on: day) == nil && !writers.contains($0.naturalKey) }
          .map(\.name) : []
      if !written.isEmpty || !missing.isEmpty {
        shownDays.append(
          Day(
            date: text,
            entries: written.map { e in
              Entry(
                by: people.person(e.by),
                answers: e.answers.map { Answer(key: $0.key, text: $0.text) },
                blockers: e.blockers.map(\.text))
            }, away: away, missing: missing))
      }
      day = day.adding(days: -1)
    }
    return StandupStats(
      from: from.description, to: to.description, entries: inRange.count,
      participation: participation, weeks: weeks, open: blockers.filter(\.isOpen).count,
      resolved: blockers.filter { b in
        b.resolution.flatMap { CivilDate($0.date) }.map { $0 >= from && $0 <= to } ?? false
      }.count,
      medianDaysToResolve: median, days: shownDays)
  }
}
