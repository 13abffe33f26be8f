import ArgumentParser
import Base
import Components
import FoundationEssentials
import Glibc
import Models
import Providers

/// `dinger history`: the meetings, newest first.
struct History: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "history",
    abstract: "List recorded meetings, newest first; show or remove one.",
    discussion: """
      Examples:
        dinger history
        dinger history design --since 2026-11-01
        dinger history show 3f2c
        dinger history rm 3f2c
      """,
    subcommands: [List.self, Show.self, Remove.self],
    defaultSubcommand: List.self)

  /// `dinger history [S]`.
  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "list", abstract: "List meetings, newest first.", aliases: ["ls"])

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "Only this scrum's meetings.") var scrum: String?
    @Option(help: "Only meetings on or after this date (2026-11-01).") var since: String?
    @Option(help: "Only meetings on or before this date.") var until: String?
    @Option(name: .short, help: "At most this many meetings (the newest).") var n: Int?

    func validate() throws {
      if let n, n < 1 { throw ValidationError("-n must be 1 or more") }
      try validateDates([("--since", since), ("--until", until)])
    }

    func run() throws {
      try reporting {
        let repository = try global.repository()
        let scrums = ScrumProvider.live(repository: repository)
        let stored = try scrum.map { try scrums.find($0) }
        // --until names a day: the whole day counts.
        let until = self.until.flatMap(userDateEnd)
        var meetings = try MeetingProvider.live(repository: repository).history(
          of: stored, since: since.flatMap(userDate), until: until)
        // A scheduled scrum's history shows the stand-ups that were missed, within the range
        // the meetings listed cover (so -n 5 shows the gaps between those five and now).
        var missed: [Date] = []
        if let stored, stored.scrum.schedule != nil {
          let all = meetings.map(\.meeting)
          if let n { meetings = Array(meetings.prefix(max(0, n))) }
          let lower = n == nil ? since.flatMap(userDate) : meetings.last?.meeting.date
          let upper = min(until ?? currentDate(), currentDate())
          missed = ScheduleProvider.live(repository: repository)
            .missed(stored, meetings: all, since: lower, until: upper)
            .map { Date(timeIntervalSince1970: TimeInterval($0.start)) }
        }
        if let n { meetings = Array(meetings.prefix(max(0, n))) }
        let titles = Dictionary(
          try scrums.list().scrums.compactMap { s in s.scrum.id.map { ($0, s.scrum.title) } },
          uniquingKeysWith: { a, _ in a })
        if output.json {
          let listed = meetings.map { MeetingJSON($0, title: titles[$0.meeting.scrum]) }
          Terminal.output(
            stored?.scrum.schedule == nil
              ? try JSONView.render("meetings", listed)
              : try JSONView.render(
                HistoryJSON(meetings: listed, missed: missed.sorted(by: >).map { .init(date: $0) }))
          )
        } else {
          Pager.show(
            HistoryView(
              rows: meetings.map {
                (
                  $0.meeting, titles[$0.meeting.scrum] ?? "(removed scrum)",
                  String($0.meeting.id?.lowercased.prefix(8) ?? "")
                )
              }, timeZone: userZone,
              missed: missed.map { ($0, stored?.scrum.title ?? "") }
            ).render())
        }
      }
    }
  }

  /// `history S --json` for a scheduled scrum: the meetings, and the stand-ups missed.
  struct HistoryJSON: Encodable {
    var meetings: [MeetingJSON]
    var missed: [Missed]

    /// A stand-up the schedule planned and nothing was recorded for: when it was to start.
    struct Missed: Encodable {
      var date: Date
    }
  }

  /// `dinger history show M`.
  struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "show", abstract: "Show one meeting.")
    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Argument(
      help: "The meeting: a prefix of its id, or its file name.", completion: Completions.meetings)
    var meeting: String

    func run() throws {
      try reporting {
        let repository = try global.repository()
        let stored = try MeetingProvider.live(repository: repository).find(meeting)
        let title = try ScrumProvider.live(repository: repository).list().scrums
          .first { $0.scrum.id == stored.meeting.scrum }?.scrum.title
        if output.json {
          Terminal.output(try JSONView.render(MeetingJSON(stored, title: title)))
        } else {
          Terminal.output(
            MeetingDetailView(
              meeting: stored.meeting, title: title ?? "(removed scrum)", path: stored.path,
              timeZone: userZone
            ).render())
        }
      }
    }
  }

  /// `dinger history rm M`.
  struct Remove: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "rm", abstract: "Remove a meeting (one commit; dinger undo brings it back).")
    @OptionGroup var global: GlobalOptions
    @Argument(
      help: "The meeting: a prefix of its id, or its file name.", completion: Completions.meetings)
    var meeting: String

    func run() throws {
      try reporting {
        let provider = MeetingProvider.live(repository: try global.repository())
        Terminal.output(try provider.remove(try provider.find(meeting)) + "\n")
      }
    }
  }
}

/// The JSON shape of a meeting.
struct MeetingJSON: Encodable {
  var id: String?
  var scrum: String
  var scrumTitle: String?
  var path: String
  var date: Date
  /// Left out when unknown (an imported meeting; `imported` names the app).
  var length: Int?
  var duration: Int?
  var imported: String?
  var attendees: [String]
  var speakers: [Speaker]
  var transcript: String?
  var turns: [Turn]

  /// Seconds spoken by one person (a number, as every count in dinger's JSON).
  struct Speaker: Encodable {
    var name: String
    var seconds: Int
  }

  /// One transcribed turn.
  struct Turn: Encodable {
    var speaker: String
    var start: Int
    var text: String
  }

  init(_ stored: StoredMeeting, title: String?) {
    let m = stored.meeting
    id = m.id?.lowercased
    scrum = m.scrum.lowercased
    scrumTitle = title
    path = stored.path
    date = m.date
    length = m.length
    duration = m.duration
    imported = m.imported
    attendees = m.attendees
    speakers = m.speakers.map { Speaker(name: $0.name, seconds: $0.seconds) }
    transcript = m.transcript
    turns = m.turns.map { Turn(speaker: $0.speaker, start: $0.start, text: $0.text) }
  }
}
