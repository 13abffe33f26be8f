import ArgumentParser
import Base
import Components
import FoundationEssentials
import Glibc
import Models
import Providers

/// `dinger agenda`: the coming stand-ups.
struct Agenda: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "agenda",
    abstract: "Show the coming stand-ups, in your time zone.",
    discussion: """
      Lists the scheduled stand-ups from the start of today for --days days (default 7), by \
      day, at your local time ($TZ, else the system's zone), with "in 12 min", "now", "done \
      (recorded)" (a meeting was recorded for it) or "missed". Where the scrum's zone is not \
      yours, its own time is shown too, and each attendee's where the scrum gives their zone.

      Examples:
        dinger agenda
        dinger agenda --days 14 --scrum design
        TZ=America/New_York dinger agenda --json | jq '.standups[].start'
      """)

  @OptionGroup var global: GlobalOptions
  @OptionGroup var output: OutputOptions

  @Option(help: "How many days, from today (1 to 800).")
  var days = 7

  @Option(
    name: .customLong("scrum"),
    help: "Only this scrum (slug, title or id prefix); repeat for more.",
    completion: Completions.scrums)
  var scrums: [String] = []

  func validate() throws {
    guard (1...800).contains(days) else {
      throw ValidationError("--days must be from 1 to 800, found \(days)")
    }
  }

  func run() throws {
    try reporting {
      let repository = try global.repository()
      let provider = ScheduleProvider.live(repository: repository)
      let only = scrums.isEmpty ? nil : try scrums.map { try provider.scrums.find($0) }
      let viewer = ViewerClock(now: currentDate())
      let window = viewer.days(days)
      let items = try provider.agenda(window, viewer: viewer, only: only)
      if output.json {
        Terminal.output(
          try JSONView.render(
            AgendaJSON(
              fromDate: window.lowerBound, toDate: window.upperBound, zone: viewer.zoneName,
              standups: items)))
        return
      }
      Terminal.output(
        AgendaView(
          items: items, today: viewer.today.description, viewerZone: viewer.zoneName,
          now: viewer.now,
          color: Terminal.colorOnStdout
        ).render())
    }
  }
}

/// `agenda --json`: the window and the stand-ups in it.
struct AgendaJSON: Encodable {
  var fromDate: Date
  var toDate: Date
  var zone: String
  var standups: [AgendaItem]
}

/// `dinger next`: the next stand-up.
struct Next: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "next",
    abstract: "Show the next stand-up (or the one running now).",
    discussion: """
      Examples:
        dinger next
        dinger next --scrum design --json
      """)

  @OptionGroup var global: GlobalOptions
  @OptionGroup var output: OutputOptions

  @Option(
    name: .customLong("scrum"), help: "Only this scrum; repeat for more.",
    completion: Completions.scrums)
  var scrums: [String] = []

  func run() throws {
    try reporting {
      let provider = ScheduleProvider.live(repository: try global.repository())
      let only = scrums.isEmpty ? nil : try scrums.map { try provider.scrums.find($0) }
      let viewer = ViewerClock(now: currentDate())
      let next = try provider.next(viewer: viewer, only: only)
      if output.json {
        Terminal.output(try JSONView.render(NextJSON(next: next)))
        return
      }
      Terminal.output(
        AgendaView(
          items: next.map { [$0] } ?? [], today: viewer.today.description,
          viewerZone: viewer.zoneName, now: viewer.now,
          color: Terminal.colorOnStdout
        ).renderNext())
    }
  }
}

/// `next --json`: `{"next": {...}}`, or `{}` when nothing is scheduled.
struct NextJSON: Encodable {
  var next: AgendaItem?
}
