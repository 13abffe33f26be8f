import Base
import FoundationEssentials

/// A blocker followed across days: opened in one entry, mentioned again in later ones,
/// resolved in someone's entry (or by `dinger blocker resolve`, which writes the resolver's).
public struct Blocker: Hashable, Sendable, Codable {
  /// `b` and 8 hex digits.
  public var id: String
  /// The text it was opened with (a later mention may reword it: the newest wording).
  public var text: String
  /// Who opened it.
  public var owner: String
  /// The day it was opened.
  public var opened: String
  /// What happened to it, oldest first.
  public var history: [Event]
  /// The resolution in effect (nil: open).
  public var resolution: Event?

  /// One thing that happened to a blocker.
  public struct Event: Hashable, Sendable, Codable {
    public enum Kind: String, Hashable, Sendable, Codable { case opened, mentioned, resolved }
    public var kind: Kind
    public var date: String
    public var by: String
    public var note: String?
  }

  public var isOpen: Bool { resolution == nil }
}

/// Blockers from entries, and how long they stayed open.
public enum Blockers {
  /// Every blocker the entries open, in the order opened. Entries are read by day, then by
  /// writer: a mention after a resolution opens the blocker again; two people resolving it on
  /// one day are both in its history. `unknownResolutions` gets resolutions of ids no entry
  /// opened (a typo in a hand edit).
  public static func follow(
    _ entries: [StandupEntry],
    unknownResolutions: ((StandupEntry, BlockerResolution) -> Void)? = nil
  ) -> [Blocker] {
    let ordered = entries.sorted { ($0.date, $0.by.lowercased()) < ($1.date, $1.by.lowercased()) }
    var byID: [String: Int] = [:]
    var blockers: [Blocker] = []
    var start = 0
    while start < ordered.count {
      var end = start
      while end < ordered.count && ordered[end].date == ordered[start].date { end += 1 }
      let day = ordered[start..<end]
      // NB: a day's mentions first, then its resolutions: a blocker may be resolved the day it
      // was opened, by someone whose name sorts first.
      for entry in day {
        for mention in entry.blockers {
          let id = entry.id(of: mention)
          let text = mention.text.trimmed
          if let i = byID[id] {
            blockers[i].history.append(.init(kind: .mentioned, date: entry.date, by: entry.by))
            if !text.isEmpty { blockers[i].text = text }
            // NB: listed again on a later day than its resolution: open again.
            if let r = blockers[i].resolution, r.date < entry.date { blockers[i].resolution = nil }
          } else {
            byID[id] = blockers.count
            blockers.append(
              Blocker(
                id: id, text: text.isEmpty ? id : text, owner: entry.by, opened: entry.date,
                history: [.init(kind: .opened, date: entry.date, by: entry.by)], resolution: nil))
          }
        }
      }
      for entry in day {
        for resolution in entry.resolved {
          guard let i = byID[resolution.id] else {
            unknownResolutions?(entry, resolution)
            continue
          }
          let event = Blocker.Event(
            kind: .resolved, date: entry.date, by: entry.by, note: resolution.note)
          blockers[i].history.append(event)
          if blockers[i].resolution == nil { blockers[i].resolution = event }
        }
      }
      start = end
    }
    return blockers
  }

  /// Working days (the given weekdays) after `from` up to and including `to`: a blocker opened
  /// on Friday is 1 working day old on Monday.
  public static func workingDays(from: CivilDate, to: CivilDate, days: [Weekday]) -> Int {
    guard to > from else { return 0 }
    let set = Set(days.isEmpty ? Weekday.allCases : days)
    let span = to.dayNumber - from.dayNumber
    let weeks = span / 7
    var count = weeks * set.count
    var day = from.adding(days: weeks * 7)
    while day < to {
      day = day.adding(days: 1)
      if set.contains(day.weekday) { count += 1 }
    }
    return count
  }
}

/// Who wrote on the days an entry was expected, not counting days away.
public struct Participation: Hashable, Sendable, Codable {
  public var person: String
  /// Expected days (the stand-up's days, not away) in the period.
  public var expected: Int
  /// Of those, the days with an entry.
  public var written: Int

  /// For each attendee of `scrum`, over the days `from`...`to`.
  public static func of(
    _ scrum: Scrum, entries: [StandupEntry], from: CivilDate, to: CivilDate
  ) -> [Participation] {
    let days = Set(StandupSettings.expectedDays(scrum.standup, schedule: scrum.schedule))
    let people = scrum.people
    var wrote = Set<String>()
    for entry in entries where entry.isWritten {
      // NB: an entry under a person's other name (aka) is theirs.
      wrote.insert(people.person(entry.by).trimmed.lowercased() + "\u{0}" + entry.date)
    }
    return scrum.attendees.map { attendee in
      var expected = 0
      var written = 0
      var day = from
      while day <= to {
        if days.contains(day.weekday) && attendee.away(on: day) == nil {
          expected += 1
          if wrote.contains(attendee.naturalKey + "\u{0}" + day.description) { written += 1 }
        }
        day = day.adding(days: 1)
      }
      return Participation(person: attendee.name, expected: expected, written: written)
    }
  }
}
