import ArgumentParser
import Base
import Components
import FoundationEssentials
import Glibc
import Models
import Providers

/// `dinger blockers [S]`: the blockers still open, oldest first.
struct BlockersCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "blockers",
    abstract: "List the open blockers of the written stand-up: id, age in working days, owner.",
    discussion: """
      A blocker opened in an entry stays open in every later view until someone resolves it \
      ('dinger blocker resolve ID', or its id under 'resolved:' in an entry).

      Examples:
        dinger blockers platform
        dinger blockers platform --all --json
      """)

  @OptionGroup var global: GlobalOptions
  @OptionGroup var output: OutputOptions
  @Argument(help: "The scrum (default: every scrum's).", completion: Completions.scrums)
  var scrum: String?
  @Flag(help: "Resolved blockers too.") var all = false

  func run() throws {
    try reporting {
      let repository = try global.repository()
      let scrums = ScrumProvider.live(repository: repository)
      let chosen = try scrum.map { [try scrums.find($0)] } ?? scrums.list().scrums
      var json: [BlockerJSON] = []
      var text = ""
      for stored in chosen {
        let (rows, listed) = try list(stored, scrums: scrums)
        json += rows
        // NB: across scrums, a scrum without blockers is left out of the text.
        if scrum != nil || !rows.isEmpty { text += listed }
      }
      if output.json {
        Terminal.output(try JSONView.render("blockers", json))
      } else {
        Terminal.output(text.isEmpty ? "no open blockers\n" : text)
      }
    }
  }

  /// One scrum's blockers: as JSON rows, and as text.
  func list(_ stored: StoredScrum, scrums: ScrumProvider) throws -> ([BlockerJSON], String) {
    let provider = StandupProvider(scrums: scrums)
    let (entries, problems) = try provider.entries(of: stored)
    warnUnreadable(problems, noun: "stand-up entry file")
    let blockers = Blockers.follow(entries.map(\.entry))
    let today = localDay(currentDate())
    let days = StandupSettings.expectedDays(stored.scrum.standup, schedule: stored.scrum.schedule)
    func age(_ b: Blocker) -> Int {
      guard let opened = CivilDate(b.opened) else { return 0 }
      let end = b.resolution.flatMap { CivilDate($0.date) } ?? today
      return Blockers.workingDays(from: opened, to: end, days: days)
    }
    let shown = all ? blockers : blockers.filter(\.isOpen)
    let color = Terminal.colorOnStdout
    let text = StandupViews.blockers(
      title: stored.scrum.title,
      rows: shown.map { b in
        StandupViews.BlockerRow(
          id: b.id, owner: b.owner, opened: b.opened, age: age(b), text: b.text,
          mentions: b.history.filter { $0.kind == .mentioned }.count,
          resolved: b.resolution.map { "by \($0.by) on \($0.date)" })
      }, all: all, color: color)
    return (shown.map { BlockerJSON($0, age: age($0), scrum: stored.slug) }, text)
  }
}

/// A blocker in `--json`.
struct BlockerJSON: Encodable {
  var scrum: String
  var id: String
  var text: String
  var owner: String
  var opened: String
  var ageWorkingDays: Int
  var open: Bool
  var resolvedBy: String?
  var resolvedOn: String?
  var history: [Blocker.Event]

  init(_ b: Blocker, age: Int, scrum: String) {
    self.scrum = scrum
    (id, text, owner, opened, ageWorkingDays, open) = (
      b.id, b.text, b.owner, b.opened, age, b.isOpen
    )
    resolvedBy = b.resolution?.by
    resolvedOn = b.resolution?.date
    history = b.history
  }
}

/// `dinger blocker resolve ID`.
struct BlockerCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "blocker",
    abstract: "Resolve a blocker of the written stand-up.",
    subcommands: [Resolve.self])

  struct Resolve: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "resolve",
      abstract: "Resolve a blocker: recorded in your entry of the day, with an optional note.",
      discussion: """
        Examples:
          dinger blocker resolve b1f0c2a9d
          dinger blocker resolve b1f0c2a9d --note "Grace sent the key" --scrum platform
        """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var writerOptions: WriterOptions
    @Argument(help: "The blocker's id ('dinger blockers' lists them).") var id: String
    @Option(help: "The scrum (default: the one with a blocker of this id).") var scrum: String?
    @Option(help: "How it was resolved.") var note: String?

    func run() throws {
      try reporting {
        let repository = try global.repository()
        let scrums = ScrumProvider.live(repository: repository)
        let provider = StandupProvider(scrums: scrums)
        let id = self.id.trimmed.lowercased()
        let stored: StoredScrum
        if let scrum {
          stored = try scrums.find(scrum)
        } else {
          let holding = try scrums.list().scrums.filter { s in
            try provider.blockers(of: s).contains { $0.id == id }
          }
          guard holding.count == 1 else {
            throw CLIError(
              holding.isEmpty
                ? "no scrum has a blocker \(OneLineText.excerpt(id)); 'dinger blockers S' lists a scrum's open ones"
                : "blocker \(id) is in several scrums (\(holding.map(\.slug).joined(separator: ", "))); name one with --scrum"
            )
          }
          stored = holding[0]
        }
        let date = try writerOptions.day()
        let writer = try writerOptions.writer(of: stored.scrum, repository: repository)
        let written = try provider.resolve(id, in: stored, by: writer, date: date, note: note)
        Terminal.output("\(written.subject) (\(written.path))\n")
      }
    }
  }
}
