import Base
import FoundationEssentials
import Glibc
import Models
import Storage
import YAML

/// The figures behind `dinger stats` and `dinger report`: per scrum from its meetings (and its
/// schedule's missed stand-ups), per library from its quiz results and its commits.
public struct InsightsProvider: Sendable {
  public let scrums: ScrumProvider
  public let meetings: MeetingProvider
  public let libraries: LibraryProvider
  public let schedules: ScheduleProvider
  public let log: LogProvider?

  /// A provider.
  public init(
    scrums: ScrumProvider, meetings: MeetingProvider, libraries: LibraryProvider,
    schedules: ScheduleProvider, log: LogProvider?
  ) {
    (self.scrums, self.meetings, self.libraries, self.schedules, self.log) = (
      scrums, meetings, libraries, schedules, log
    )
  }

  /// The provider of a git-backed data repository.
  public static func live(repository: DataRepository) -> InsightsProvider {
    InsightsProvider(
      scrums: .live(repository: repository), meetings: .live(repository: repository),
      libraries: .live(repository: repository), schedules: .live(repository: repository),
      log: .live(repository: repository))
  }

  /// The figures of the scrums (`only`, else all) and, unless `only` names scrums, the
  /// libraries; meetings from `since` to `until` when given. `now` ends the missed stand-ups.
  public func stats(
    only: [StoredScrum]? = nil, withLibraries: Bool = true, since: Date? = nil,
    until: Date? = nil, now: Date
  ) throws -> TeamStats {
    let listed = try only ?? scrums.list().scrums
    let end = min(until ?? now, now)
    // NB: one scrum's meetings at a time (its own folder): ten years of 130,000 meetings are
    // never all in memory at once.
    let scrumStats = try listed.map { stored -> ScrumStats in
      let own = try meetings.history(of: stored, since: since, until: until).map(\.meeting)
      let plan = stored.scrum.schedule?.plan
      let missed =
        plan == nil
        ? nil
        : schedules.missed(stored, meetings: own, since: since, until: end)
          .map { Date(timeIntervalSince1970: TimeInterval($0.start)) }
      var stats = ScrumStats.compute(
        scrum: stored.scrum, slug: stored.slug, schedule: plan?.summary, meetings: own,
        missed: missed)
      // NB: entries are dated by their writers' own days; the period is counted in UTC days.
      let entries = try StandupProvider(scrums: scrums).entries(of: stored).entries.map(\.entry)
      // NB: a day before 1970 (check refuses it) does not stretch the span to be counted.
      if let first = entries.compactMap({ CivilDate($0.date) }).filter({ $0.dayNumber >= 0 }).min()
      {
        let day = { (d: Date) in CivilDate(dayNumber: Int(floor(d.timeIntervalSince1970 / 86_400)))
        }
        let from = since.map(day) ?? first
        stats.standups = StandupStats.compute(
          scrum: stored.scrum, entries: entries, from: max(from, first), to: day(end))
      }
      return stats
    }
    var libraryStats: [LibraryStats] = []
    if withLibraries && only == nil {
      for stored in try libraries.list().libraries {
        libraryStats.append(try self.library(stored, since: since, until: until))
      }
    }
    return TeamStats(
      scrums: scrumStats, libraries: libraryStats, sinceDate: since, untilDate: until)
  }

  func library(_ stored: StoredLibrary, since: Date?, until: Date?) throws -> LibraryStats {
    let inRange = { (d: Date) in (since.map { d >= $0 } ?? true) && (until.map { d <= $0 } ?? true)
    }
    let quizzes = try libraries.quizzes(of: stored).map(\.result).filter { inRange($0.date) }
    var wrong: [String: Int] = [:]
    for q in quizzes { for a in q.questions where !a.correct { wrong[a.word, default: 0] += 1 } }
    // Words added, from dinger's commit subjects ("Spanish basics: add hola, adiós").
    var added: [String: Int] = [:]
    for entry in try log?.log(library: stored) ?? [] where !entry.path.hasPrefix("quizzes/") {
      let date = Date(timeIntervalSince1970: TimeInterval(entry.time))
      guard inRange(date), let range = entry.subject.firstRange(ofText: ": add ") else { continue }
      let words = entry.subject[range.upperBound...].split(separator: ",").count
      added[String(ISODate.format(date).prefix(7)), default: 0] += words
    }
    return LibraryStats(
      name: stored.library.name, slug: stored.slug, language: stored.library.language,
      words: stored.library.words.count,
      added: added.keys.sorted().map { LibraryStats.Month(month: $0, words: added[$0]!) },
      quizzes: quizzes.suffix(ScrumStats.durationLimit).map {
        LibraryStats.Quiz(date: $0.date, score: $0.score, questions: $0.questions.count)
      },
      missed: wrong.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.prefix(10).map {
        LibraryStats.MissedWord(word: $0.key, wrong: $0.value)
      })
  }
}

extension InsightsProvider {
  public static func live(repository: Workspace) -> InsightsProvider {
    live(repository: repository.repository)
  }
}

extension InsightsProvider {
  /// The digest of the scrums (`only`, else all) over the viewer's days `from`...`to`, the day
  /// ending at `end` (an instant: the end of `to` in the viewer's zone, or now when sooner).
  public func digest(
    only: [StoredScrum]? = nil, from: CivilDate, to: CivilDate, start: Date, end: Date
  ) throws -> Digest {
    let listed = try only ?? scrums.list().scrums
    let standups = StandupProvider(scrums: scrums)
    var out: [Digest.Scrum] = []
    for stored in listed {
      let own = try meetings.history(of: stored, since: start, until: end).map(\.meeting)
      let missed =
        stored.scrum.schedule?.plan == nil
        ? []
        : schedules.missed(stored, meetings: own, since: start, until: end)
          .map { Date(timeIntervalSince1970: TimeInterval($0.start)) }
      let entries = try standups.entries(of: stored).entries.map(\.entry)
      out.append(
        Digest.scrum(
          stored.scrum, slug: stored.slug, entries: entries, meetings: own, missed: missed,
          from: from, to: to))
    }
    return Digest(from: from.description, to: to.description, scrums: out)
  }
}
