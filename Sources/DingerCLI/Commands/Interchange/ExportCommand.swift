import ArgumentParser
import Base
import Components
import FoundationEssentials
import Glibc
import Models
import Providers

/// `dinger export scrumdinger|syncups|csv [S...] [--out FILE] [--table T]`.
struct ExportCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "export",
    abstract: "Write scrums and meetings as Scrumdinger's or SyncUps' file, or CSV tables.",
    discussion: """
      scrumdinger writes the scrums.data the Scrumdinger app reads; syncups, SyncUps' \
      sync-ups.json. What the apps have no place for (schedules, speaker times, transcribed \
      turns, written stand-ups, a meeting's length and duration) stays behind. csv writes RFC \
      4180 tables for spreadsheets: scrums.csv, meetings.csv and entries.csv into the folder \
      --out names, or one --table to the output. A list (attendees, speakers) is one field \
      with an item per line.

      Examples:
        dinger export scrumdinger --out scrums.data
        dinger export syncups platform design --out sync-ups.json
        dinger export csv --out tables/
        dinger export csv --table meetings > meetings.csv
      """)

  @OptionGroup var global: GlobalOptions
  @Argument(help: "scrumdinger, syncups or csv.") var format: String
  @Argument(help: "The scrums (default: all).", completion: Completions.scrums) var scrums:
    [String] = []
  @Option(help: "The file to write (a folder for csv); default: the output.") var out: String?
  @Option(help: "csv: one table to the output: scrums, meetings or entries.") var table: String?
  @Flag(
    help:
      "csv: the cells exactly as the data has them, with no byte order mark and no guard against formulas (for scripts, not spreadsheets)."
  )
  var raw = false

  func run() throws {
    try reporting {
      let repository = try global.repository()
      let provider = InterchangeProvider.live(repository: repository)
      let (items, notes) = try provider.items(scrums)
      for note in notes { Terminal.error("note: \(note)\n") }
      switch format.lowercased() {
      case "scrumdinger", "syncups":
        let bytes =
          format.lowercased() == "scrumdinger"
          ? try AppExport.scrumdinger(items) : try AppExport.syncups(items)
        try emit(bytes, to: out)
        if let out {
          Terminal.error(
            "wrote \(out): \(items.count) scrum\(items.count == 1 ? "" : "s") and \(items.reduce(0) { $0 + $1.meetings.count }) meetings\n"
          )
        }
      case "csv":
        let list = try ScrumProvider.live(repository: repository).list().scrums
        let standups = StandupProvider.live(repository: repository)
        let sources = try zip(
          items,
          items.map { item in
            list.first { $0.scrum.id == item.scrum.id && $0.scrum.title == item.scrum.title }
          }
        ).map { item, stored in
          CSVTables.Source(
            slug: stored?.slug ?? "", scrum: item.scrum, meetings: item.meetings,
            entries: try stored.map { try standups.entries(of: $0).entries.map(\.entry) } ?? [])
        }
        if let table {
          guard let t = CSVTables.Table(rawValue: table.lowercased()) else {
            throw CLIError("--table is scrums, meetings or entries, not '\(table)'")
          }
          try emit(Array(CSVTables.render(t, sources, raw: raw).utf8), to: out)
          return
        }
        guard let out else {
          throw CLIError(
            "csv writes three tables: name a folder with --out DIR, or one table with --table meetings"
          )
        }
        var info = stat()
        if lstat(out, &info) != 0 {
          guard mkdir(out, 0o755) == 0 else {
            throw CLIError("could not make the folder \(out): \(String(cString: strerror(errno)))")
          }
        } else if info.st_mode & S_IFMT != S_IFDIR {
          throw CLIError("--out \(out) is not a folder; csv writes three tables into a folder")
        }
        for t in CSVTables.Table.allCases {
          try writeReplacing(
            out + "/\(t.rawValue).csv", Array(CSVTables.render(t, sources, raw: raw).utf8))
        }
        Terminal.error("wrote scrums.csv, meetings.csv and entries.csv in \(out)\n")
      default:
        throw CLIError("dinger exports scrumdinger, syncups or csv, not '\(format)'")
      }
    }
  }

  func emit(_ bytes: [UInt8], to out: String?) throws {
    if let out {
      try writeReplacing(out, bytes)
    } else {
      Terminal.output(bytes: bytes)
    }
  }
}
