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
      abstract: "Resolve blockers: recorded in your entry of the day, with an optional note.",
      discussion: """
        --all resolves every open blocker of the scrum (those --owner opened, those opened \
        --before a day) in one entry and one commit: how a team closes what an import left \
        open.

        Examples:
          dinger blocker resolve b1f0c2a9d
          dinger blocker resolve b1f0c2a9d --note "Grace sent the key" --scrum platform
          dinger blocker resolve --all --scrum platform --before 2026-11-01
          dinger blocker resolve --all --scrum platform --owner "Nia" --note "imported"
        """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var writerOptions: WriterOptions
    @Argument(help: "The blocker's id ('dinger blockers' lists them).") var id: String?
    @Option(help: "The scrum (default: the one with a blocker of this id).") var scrum: String?
    @Option(help: "How it was resolved.") var note: String?
    @Flag(help: "Every open blocker of the scrum (narrowed by --owner and --before).") var all =
      false
    @Option(help: "With --all: only the blockers this person opened.") var owner: String?
    @Option(help: "With --all: only the blockers opened before this day (YYYY-MM-DD).")
    var before: String?

    func validate() throws {
      if all == (id != nil) {
        throw ValidationError("name one blocker's id, or --all")
      }
      if !all && (owner != nil || before != nil) {
        throw ValidationError("--owner and --before go with --all")
      }
      if let before, CivilDate(before) == nil {
        throw ValidationError("--before takes a day as YYYY-MM-DD, found '\(before)'")
      }
    }

    func run() throws {
      try reporting {
        let repository = try global.repository()
        let scrums = ScrumProvider.live(repository: repository)
        let provider = StandupProvider(scrums: scrums)
        guard let id = self.id?.trimmed.lowercased() else {
          return try resolveAll(provider, scrums)
        }
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

    /// `--all`: the scrum's open blockers that match, resolved in one entry.
    func resolveAll(_ provider: StandupProvider, _ scrums: ScrumProvider) throws {
      let stored: StoredScrum
      if let scrum {
        stored = try scrums.find(scrum)
      } else {
        let holding = try scrums.list().scrums.filter { s in
          try provider.blockers(of: s).contains { $0.resolution == nil }
        }
        guard holding.count == 1 else {
          throw CLIError(
            holding.isEmpty
              ? "no scrum has an open blocker"
              : "several scrums have open blockers (\(holding.map(\.slug).joined(separator: ", "))); name one with --scrum"
          )
        }
        stored = holding[0]
      }
      let open = try provider.blockers(of: stored).filter { b in
        b.resolution == nil
          && (owner.map { b.owner.trimmed.lowercased() == $0.trimmed.lowercased() } ?? true)
          && (before.map { b.opened < $0 } ?? true)
      }
      guard !open.isEmpty else {
        Terminal.output("no open blocker of \(stored.scrum.title) matches; nothing resolved\n")
        return
      }
      let date = try writerOptions.day()
      let writer = try writerOptions.writer(of: stored.scrum, repository: try global.repository())
      let written = try provider.resolve(
        open.map(\.id), in: stored, by: writer, date: date, note: note)
      Terminal.output(
        "\(written.subject): \(open.count) blocker\(open.count == 1 ? "" : "s") resolved (\(written.path))\n"
      )
    }
  }
}
