import ArgumentParser
import Base
import Components
import FoundationEssentials
import Glibc
import Models
import Providers

/// Options `report` and `stats` share.
struct InsightsOptions: ParsableArguments {
  @Argument(
    help: "Only these scrums (default: every scrum, and the libraries).",
    completion: Completions.scrums)
  var scrums: [String] = []

  @Option(help: "Only meetings on or after this date (2026-01-01, '3 months ago').")
  var since: String?

  @Option(help: "Only meetings on or before this date.")
  var until: String?

  func validate() throws {
    try validateDates([("--since", since), ("--until", until)])
  }

  func stats(_ repository: Workspace) throws -> TeamStats {
    let provider = InsightsProvider.live(repository: repository)
    let only = scrums.isEmpty ? nil : try scrums.map { try provider.scrums.find($0) }
    return try provider.stats(
      only: only, since: since.flatMap(userDate), until: until.flatMap(userDateEnd),
      now: currentDate())
  }
}

/// `dinger report`: the team's figures as a web page.
struct Report: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "report",
    abstract:
      "Write a web page of charts: meeting lengths, who talks, attendance, missed stand-ups.",
    discussion: """
      One self-contained HTML file (inline SVG and CSS, no script, no request to anywhere; \
      light and dark, prints cleanly), or with --out DIR a folder: index.html and a page per \
      scrum and library. Each chart has a one-line reading and its data as a table. The same \
      figures in the terminal: 'dinger stats'.

      Examples:
        dinger report --out report.html
        dinger report design --since 2026-01-01 --out design.html
        dinger report --out site/      # a folder of pages, to publish (docs/ci.md)
      """)

  @OptionGroup var global: GlobalOptions
  @OptionGroup var insights: InsightsOptions

  @Option(
    help: "A file (.html) or a folder (ending in / or existing) to write (default: report.html).",
    completion: .file())
  var out = "report.html"

  func run() throws {
    try reporting {
      let repository = try global.repository()
      let stats = try insights.stats(repository)
      let view = ReportView(
        stats: stats, name: repository.root.lastPathComponent, generated: currentDate())
      var isDir = false
      let folder =
        out.hasSuffix("/")
        || (FileManager.default.fileExists(atPath: out, isDirectory: &isDir) && isDir)
      if folder {
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let pages = view.pages()
        for (name, html) in pages {
          try writeReplacing(out.appendingPath(name), Array(html.utf8))
        }
        Terminal.output(
          "wrote \(pages.count) pages to \(out.appendingPath("index.html"))\n"
        )
      } else {
        try writeReplacing(out, Array(view.render().utf8))
        Terminal.output("wrote \(out)\n")
      }
      // NB: a report written inside the data repository must not be committed by a teammate's
      // `git add -A`: it is listed in this clone's .git/info/exclude.
      if let pattern = try repository.keepOutOfGit(out) {
        Terminal.output("(kept out of git: \(pattern) added to .git/info/exclude)\n")
      }
    }
  }
}

/// `dinger stats`: the report's figures in the terminal.
struct Stats: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "stats",
    abstract: "Show meeting lengths, who talks, attendance and quiz scores in the terminal.",
    discussion: """
      Examples:
        dinger stats
        dinger stats design --since 2026-01-01
        dinger stats --json | jq '.scrums[] | {title, medianMinutes}'
      """)

  @OptionGroup var global: GlobalOptions
  @OptionGroup var output: OutputOptions
  @OptionGroup var insights: InsightsOptions

  func run() throws {
    try reporting {
      let stats = try insights.stats(try global.repository())
      if output.json {
        Terminal.output(try JSONView.render(stats))
      } else {
        Terminal.output(
          StatsView(stats: stats, color: Terminal.colorOnStdout, timeZone: userZone).render())
      }
    }
  }
}
