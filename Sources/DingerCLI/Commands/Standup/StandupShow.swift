import ArgumentParser
import Base
import Components
import FoundationEssentials
import Glibc
import Models
import Providers

extension StandupCommand {
  /// `dinger standup show [S] [--date D]`: a day's entries, who is away, who has not written.
  struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "show",
      abstract: "Show a day's entries: each attendee's, who is away, who has not written yet.",
      discussion: """
        Examples:
          dinger standup show platform
          dinger standup show platform --date yesterday --json
        """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The scrum (default: the only one).", completion: Completions.scrums)
    var scrum: String?
    @Option(help: "The day (default: today, your local day).") var date: String?

    func run() throws {
      try reporting {
        let repository = try global.repository()
        let scrums = ScrumProvider.live(repository: repository)
        let stored = try StandupCommand.scrum(scrum, in: scrums)
        let provider = StandupProvider(scrums: scrums)
        let day = try date.map { try typedDay($0, option: "--date") } ?? localDay(currentDate())
        let (entries, problems) = try provider.entries(of: stored)
        warnUnreadable(problems, noun: "stand-up entry file")
        let rows = provider.day(day, of: stored, entries: entries)
        if output.json {
          Terminal.output(try JSONView.render(DayJSON(stored, day: day, rows: rows)))
          return
        }
        let color = Terminal.colorOnStdout
        Terminal.output(
          StandupViews.day(
            title: stored.scrum.title, date: day,
            rows: rows.map { row in
              let e = row.entry?.entry
              return StandupViews.DayRow(
                person: row.person, status: row.status.rawValue,
                answers: e?.answers.map { ($0.key, $0.text) } ?? [],
                blockers: e.map { e in e.blockers.map { (e.id(of: $0), $0.text) } } ?? [],
                resolved: e?.resolved.map(\.id) ?? [], awayNote: row.away?.note)
            }, color: color))
      }
    }
  }
}

/// `standup show --json`.
struct DayJSON: Encodable {
  struct Person: Encodable {
    var name: String
    var status: String
    var path: String?
    var answers: [String: String]?
    var blockers: [BlockerJSON]?
    var resolved: [String]?
    var away: Absence?
  }
  struct BlockerJSON: Encodable {
    var id: String
    var text: String
  }
  var scrum: String
  var date: String
  var people: [Person]

  init(_ stored: StoredScrum, day: CivilDate, rows: [StandupDay]) {
    scrum = stored.slug
    date = day.description
    people = rows.map { row in
      let e = row.entry?.entry
      return Person(
        name: row.person, status: row.status.rawValue, path: row.entry?.path,
        answers: e.map {
          Dictionary($0.answers.map { ($0.key, $0.text) }, uniquingKeysWith: { a, _ in a })
        },
        blockers: e.map { e in e.blockers.map { BlockerJSON(id: e.id(of: $0), text: $0.text) } },
        resolved: e.map { $0.resolved.map(\.id) }, away: row.away)
    }
  }
}
