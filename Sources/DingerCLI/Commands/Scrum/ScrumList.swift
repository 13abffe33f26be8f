import ArgumentParser
import Base
import Components
import FoundationEssentials
import Glibc
import Models
import Providers

extension ScrumCommand {
  /// `dinger scrum list`.
  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "list",
      abstract: "List the scrums: title, theme, length, attendees, file.",
      discussion: """
        Examples:
          dinger scrum list
          dinger scrum list --json | jq '.scrums[].title'
        """, aliases: ["ls"])

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
      try reporting {
        let provider = ScrumProvider.live(repository: try global.repository())
        let (scrums, problems) = try provider.list()
        if output.json {
          Terminal.output(try JSONView.render("scrums", scrums.map { ScrumJSON($0) }))
        } else if !(scrums.isEmpty && !problems.isEmpty) {
          // NB: "no scrums yet" only when that is true, not when none could be read.
          Terminal.output(
            ScrumListView(rows: scrums.map { ($0.slug, $0.scrum) }, color: Terminal.colorOnStdout)
              .render())
        }
        warnUnreadable(problems, noun: "scrum file")
      }
    }
  }
}

/// The JSON shape of a scrum.
struct ScrumJSON: Encodable {
  var id: String?
  var slug: String
  var path: String
  var title: String
  var theme: String
  var length: Int
  var attendees: [String]
  /// When it meets, as written, and in words; nil without a schedule.
  var schedule: ScheduleJSON?
  /// How many meetings were recorded (`scrum show --json` only; the list does not count).
  var meetings: Int?
  /// Who is away when, by attendee (only attendees with absences).
  var away: [String: [Absence]]?

  init(_ stored: StoredScrum, meetings: Int? = nil) {
    self.meetings = meetings
    id = stored.scrum.id?.uuidString.lowercased()
    slug = stored.slug
    path = stored.path
    title = stored.scrum.title
    theme = stored.scrum.effectiveTheme.rawValue
    length = stored.scrum.length
    attendees = stored.scrum.attendees.map(\.name)
    schedule = stored.scrum.schedule.map(ScheduleJSON.init)
    let absences = stored.scrum.attendees.filter { !$0.away.isEmpty }
    away = absences.isEmpty ? nil : Dictionary(absences.map { ($0.name, $0.away) }) { a, _ in a }
  }
}

/// The JSON shape of a schedule: its fields as written, and `summary` when it reads.
struct ScheduleJSON: Encodable {
  var at: String
  var days: [String]
  var every: String?
  var zone: String
  var from: String?
  var until: String?
  var skip: [String]
  var moved: [String: String]
  /// `weekdays 09:30 Europe/Berlin`; nil when the schedule has errors (then `days` is as
  /// written, else the days by name).
  var summary: String?

  init(_ s: Schedule) {
    at = s.at
    switch s.days {
    case .text(let t): days = [t]
    case .list(let l): days = l
    }
    if let plan = s.plan { days = plan.days.map(\.short) }
    every = s.every
    zone = s.zone
    from = s.from
    until = s.until
    skip = s.skip
    moved = Dictionary(s.moved.map { ($0.date, $0.at) }, uniquingKeysWith: { _, b in b })
    summary = s.plan?.summary
  }
}
