import Base
import FoundationEssentials
import Glibc

/// What `dinger stats` and `dinger report` show about one scrum, computed from its meetings.
/// Every list is bounded (the latest meetings, the top people) so that ten years of meetings or
/// 40,000 attendees make a page a browser opens; the readings cover everything.
public struct ScrumStats: Hashable, Sendable, Codable {
  public var title: String
  public var slug: String
  public var id: String?
  public var theme: String
  /// Planned minutes and the attendee count, as the scrum is now.
  public var length: Int
  public var attendees: Int
  /// `weekdays 09:30 Europe/Berlin`, when scheduled.
  public var schedule: String?
  /// Meetings in the range.
  public var meetings: Int
  /// The last meeting's start.
  public var lastDate: Date?
  /// Median actual length in minutes (one decimal), over all meetings in the range.
  public var medianMinutes: Double?
  /// Of the last `recent` meetings (at most 10), how many ran over their planned length.
  public var overPlan: Int
  public var recent: Int
  /// Meetings left out of the duration figures (median, over plan, durations) because their
  /// length or duration is unknown (imported from an app that kept none).
  public var unknownDurations = 0
  /// The latest meetings (at most `ScrumStats.durationLimit`), oldest first.
  public var durations: [Duration]
  /// Speaking time by person, most first: the top `speakerLimit`, then `others`.
  public var speakers: [Speaker]
  /// People past the top, and their seconds together.
  public var otherSpeakers: Int
  public var otherSeconds: Int
  /// Speaking shares by month for the top speakers (at most 5), oldest month first.
  public var speakingTrend: [MonthShares]
  /// Who attended the latest meetings.
  public var attendance: Attendance
  /// Meetings per week (Monday's date), and scheduled stand-ups missed that week.
  public var weeks: [Week]
  /// Words spoken per speaker in transcribed turns, most first (top `speakerLimit`).
  public var words: [SpeakerWords]
  /// The written stand-up's figures; nil when the scrum has no entries.
  public var standups: StandupStats?

  public static let durationLimit = 120
  public static let speakerLimit = 8
  public static let attendanceMeetings = 30
  public static let attendancePeople = 30

  /// One meeting's length against its plan.
  public struct Duration: Hashable, Sendable, Codable {
    public var date: Date
    public var seconds: Int
    /// Planned minutes at the time.
    public var planned: Int
    public init(date: Date, seconds: Int, planned: Int) {
      (self.date, self.seconds, self.planned) = (date, seconds, planned)
    }
  }

  /// A person's total speaking time.
  public struct Speaker: Hashable, Sendable, Codable {
    public var name: String
    public var seconds: Int
    /// Of everyone's seconds, 0...1 (four decimals).
    public var share: Double
    /// Meetings they spoke in.
    public var meetings: Int
    public init(name: String, seconds: Int, share: Double, meetings: Int) {
      (self.name, self.seconds, self.share, self.meetings) = (name, seconds, share, meetings)
    }
  }

  /// One month's speaking seconds of the top speakers.
  public struct MonthShares: Hashable, Sendable, Codable {
    /// `2026-11`.
    public var month: String
    /// Seconds by name (the top speakers only), and everyone's seconds that month.
    public var seconds: [String: Int]
    public var total: Int
    public init(month: String, seconds: [String: Int], total: Int) {
      (self.month, self.seconds, self.total) = (month, seconds, total)
    }
  }

  /// Who was at which of the latest meetings.
  public struct Attendance: Hashable, Sendable, Codable {
    /// The meetings' starts, oldest first.
    public var dates: [Date]
    /// The people shown, most present first, each with a mark per meeting.
    public var people: [Row]
    /// People not shown (past the limit).
    public var otherPeople: Int

    public struct Row: Hashable, Sendable, Codable {
      public var name: String
      public var present: [Bool]
      /// Meetings attended out of those shown.
      public var attended: Int
      /// Per meeting, whether the person was away that day (their `away:`): not counted absent.
      public var away: [Bool]
      /// Meetings they were expected at (not away), out of those shown.
      public var expected: Int
      public init(
        name: String, present: [Bool], attended: Int, away: [Bool] = [], expected: Int? = nil
      ) {
        (self.name, self.present, self.attended) = (name, present, attended)
        self.away = away.isEmpty ? present.map { _ in false } : away
        self.expected = expected ?? present.count
      }
    }

    public init(dates: [Date], people: [Row], otherPeople: Int) {
      (self.dates, self.people, self.otherPeople) = (dates, people, otherPeople)
    }
  }

  /// One week.
  public struct Week: Hashable, Sendable, Codable {
    /// The Monday, `YYYY-MM-DD`.
    public var week: String
    public var meetings: Int
    /// Scheduled stand-ups nothing was recorded for; nil without a schedule.
    public var missed: Int?
    public init(week: String, meetings: Int, missed: Int?) {
      (self.week, self.meetings, self.missed) = (week, meetings, missed)
    }
  }

  /// Words in a speaker's transcribed turns.
  public struct SpeakerWords: Hashable, Sendable, Codable {
    public var name: String
    public var words: Int
    public init(name: String, words: Int) { (self.name, self.words) = (name, words) }
  }

  /// `median 11 min, 3 of the last 10 over plan`, or `no meetings recorded`.
  public var reading: String {
    guard meetings > 0 else { return "no meetings recorded" }
    let unknown =
      unknownDurations == 0
      ? ""
      : "; \(unknownDurations) meeting\(unknownDurations == 1 ? "" : "s") of unknown duration left out"
    guard let median = medianMinutes else {
      return "no durations known" + unknown
    }
    return "median \(Self.minutes(median)) min, \(overPlan) of the last \(recent) over plan"
      + unknown
  }

  static func minutes(_ m: Double) -> String {
    m == m.rounded() ? String(Int(m)) : String(cFormat: "%.1f", m)
  }
}

/// What `stats` and `report` show about a word library.
public struct LibraryStats: Hashable, Sendable, Codable {
  public var name: String
  public var slug: String
  public var language: String
  public var words: Int
  /// Words added per month (`2026-11`), from the commits.
  public var added: [Month]
  /// Quiz results, oldest first (the latest `ScrumStats.durationLimit`).
  public var quizzes: [Quiz]
  /// The words answered wrong most often, most first (at most 10).
  public var missed: [MissedWord]

  public struct Month: Hashable, Sendable, Codable {
    public var month: String
    public var words: Int
    public init(month: String, words: Int) { (self.month, self.words) = (month, words) }
  }

  public struct Quiz: Hashable, Sendable, Codable {
    public var date: Date
    public var score: Int
    public var questions: Int
    public init(date: Date, score: Int, questions: Int) {
      (self.date, self.score, self.questions) = (date, score, questions)
    }
  }

  public struct MissedWord: Hashable, Sendable, Codable {
    public var word: String
    public var wrong: Int
    public init(word: String, wrong: Int) { (self.word, self.wrong) = (word, wrong) }
  }

  public init(
    name: String, slug: String, language: String, words: Int, added: [Month], quizzes: [Quiz],
    missed: [MissedWord]
  ) {
    (self.name, self.slug, self.language, self.words) = (name, slug, language, words)
    (self.added, self.quizzes, self.missed) = (added, quizzes, missed)
  }

  /// `120 words, last quiz 8/10, most missed: agua`.
  public var reading: String {
    var parts = ["\(words) word\(words == 1 ? "" : "s")"]
    if let last = quizzes.last { parts.append("last quiz \(last.score)/\(last.questions)") }
    if let worst = missed.first { parts.append("most missed: \(worst.word)") }
    return parts.joined(separator: ", ")
  }
}

/// Everything a report holds.
public struct TeamStats: Hashable, Sendable, Codable {
  public var scrums: [ScrumStats]
  public var libraries: [LibraryStats]
  /// The range asked for, if any.
  public var sinceDate: Date?
  public var untilDate: Date?
  public init(scrums: [ScrumStats], libraries: [LibraryStats], sinceDate: Date?, untilDate: Date?) {
    (self.scrums, self.libraries, self.sinceDate, self.untilDate) = (
      scrums, libraries, sinceDate, untilDate
    )
  }
}
