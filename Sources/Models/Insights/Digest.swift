import Base
import FoundationEssentials

/// What happened in a period, per scrum: the written entries, blockers opened, still open and
/// resolved, meetings held and missed, who has not written on the last day, who is away. What
/// `dinger digest` renders as text, Markdown, JSON or a chat service's message.
public struct Digest: Hashable, Sendable, Codable {
  /// The first and last day, `YYYY-MM-DD`.
  public var from: String
  public var to: String
  public var scrums: [Scrum]

  public init(from: String, to: String, scrums: [Scrum]) {
    (self.from, self.to, self.scrums) = (from, to, scrums)
  }

  public struct Scrum: Hashable, Sendable, Codable {
    public var title: String
    public var slug: String
    /// Meetings held in the period, oldest first.
    public var meetings: [Meeting]
    /// Scheduled stand-ups with nothing recorded, their starts.
    public var missed: [Date]
    /// Entries written in the period, by day (newest first).
    public var days: [StandupStats.Day]
    /// Blockers still open at the end of the period, oldest first.
    public var open: [BlockerLine]
    /// Blockers resolved in the period.
    public var resolved: [BlockerLine]
    /// Attendees expected on the last day who have not written (a day the stand-up is held).
    public var notWritten: [String]
    /// Attendees away on the last day, with the note.
    public var away: [String]
    /// The team's average mood in the period (its `mood` questions, 1 to 5), and of how many
    /// answers: never a person's, which the entries leave out.
    public var mood: Double?
    public var moodAnswers = 0

    public init(
      title: String, slug: String, meetings: [Meeting] = [], missed: [Date] = [],
      days: [StandupStats.Day] = [], open: [BlockerLine] = [], resolved: [BlockerLine] = [],
      notWritten: [String] = [], away: [String] = []
    ) {
      (self.title, self.slug, self.meetings, self.missed) = (title, slug, meetings, missed)
      (self.days, self.open, self.resolved) = (days, open, resolved)
      (self.notWritten, self.away) = (notWritten, away)
    }

    /// Whether there is anything to say.
    public var isEmpty: Bool {
      meetings.isEmpty && missed.isEmpty && days.isEmpty && open.isEmpty && resolved.isEmpty
        && notWritten.isEmpty && mood == nil
    }
  }

  /// A meeting as the digest names it.
  public struct Meeting: Hashable, Sendable, Codable {
    public var date: Date
    /// nil: unknown (an imported meeting).
    public var seconds: Int?
    public var speakers: [String]
    public init(date: Date, seconds: Int?, speakers: [String]) {
      (self.date, self.seconds, self.speakers) = (date, seconds, speakers)
    }
  }

  /// A blocker as the digest names it.
  public struct BlockerLine: Hashable, Sendable, Codable {
    public var id: String
    public var owner: String
    public var text: String
    public var opened: String
    /// Working days open (to the period's end, or to its resolution).
    public var age: Int
    /// Who resolved it, when.
    public var resolvedBy: String?
    public init(
      id: String, owner: String, text: String, opened: String, age: Int, resolvedBy: String? = nil
    ) {
      (self.id, self.owner, self.text, self.opened, self.age) = (id, owner, text, opened, age)
      self.resolvedBy = resolvedBy
    }
  }

  /// The digest of one scrum over `from`...`to` (the viewer's days) from its data.
  public static func scrum(
    _ scrum: Models.Scrum, slug: String, entries: [StandupEntry], meetings: [Models.Meeting],
    missed: [Date], from: CivilDate, to: CivilDate
  ) -> Scrum {
    var out = Scrum(title: scrum.title, slug: slug)
    let people = scrum.people
    out.meetings = meetings.sorted { $0.date < $1.date }.map {
      Meeting(date: $0.date, seconds: $0.duration, speakers: $0.speakers.map(\.name))
    }
    out.missed = missed
    let days = StandupSettings.expectedDays(scrum.standup, schedule: scrum.schedule)
    let moods = Set(
      (scrum.standup ?? StandupSettings()).asked.filter { $0.kind == "mood" }.map(\.key))
    if let stats = StandupStats.compute(scrum: scrum, entries: entries, from: from, to: to) {
      // NB: a person's mood is theirs: the digest gives the team's average only.
      out.days = stats.days.filter { !$0.entries.isEmpty }.map { day in
        var day = day
        day.entries = day.entries.map { e in
          var e = e
          e.answers.removeAll { moods.contains($0.key) }
          return e
        }
        return day
      }
    }
    if !moods.isEmpty {
      let values = entries.filter {
        CivilDate($0.date).map { $0 >= from && $0 <= to } ?? false
      }.flatMap { e in
        e.answers.filter { moods.contains($0.key) }.compactMap {
          StandupSettings.Question.mood($0.text)
        }
      }
      if !values.isEmpty {
        out.mood = (Double(values.reduce(0, +)) / Double(values.count) * 10).rounded() / 10
        out.moodAnswers = values.count
      }
    }
    for b in Blockers.follow(entries) {
      guard let opened = CivilDate(b.opened), opened <= to else { continue }
      if let r = b.resolution, let day = CivilDate(r.date) {
        guard day >= from && day <= to else { continue }
        out.resolved.append(
          BlockerLine(
            id: b.id, owner: people.person(b.owner), text: b.text, opened: b.opened,
            age: Blockers.workingDays(from: opened, to: day, days: days),
            resolvedBy: people.person(r.by)))
      } else {
        out.open.append(
          BlockerLine(
            id: b.id, owner: people.person(b.owner), text: b.text, opened: b.opened,
            age: Blockers.workingDays(from: opened, to: to, days: days)))
      }
    }
    let wrote = Set(
      entries.filter { $0.date == to.description && $0.isWritten }.map {
        people.person($0.by).trimmed.lowercased()
      })
    // NB: only a scrum that writes its stand-up has people who have not written.
    if !entries.isEmpty, Set(days).contains(to.weekday) {
      out.notWritten = scrum.attendees.filter {
        $0.away(on: to) == nil && !wrote.contains($0.naturalKey)
      }.map(\.name)
    }
    out.away = scrum.attendees.compactMap { a in
      a.away(on: to).map { a.name + ($0.note.map { " (\($0))" } ?? "") }
    }
    return out
  }
}
