import ArgumentParser
import Base
import Components
import FoundationEssentials
import Glibc
import Models
import Providers

/// `dinger import scrumdinger|syncups|geekbot FILE [--dry-run]`.
struct ImportCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "import",
    abstract: "Bring scrums and meetings in from Scrumdinger or SyncUps, or Geekbot's reports.",
    discussion: """
      Reads the app's own file (Scrumdinger's scrums.data, either tutorial's shape; SyncUps' \
      sync-ups.json; Geekbot's reports as its API gives them) and commits what is new as one \
      commit. Ids are kept, so importing the same file twice adds nothing. Whatever dinger's \
      rules refuse (no attendees, a repeated name, an empty or repeated title) is listed with \
      what was done about it. The apps kept no planned length or duration per meeting: those \
      meetings say "duration unknown", and stats leave them out of duration figures.

      Examples:
        dinger import scrumdinger ~/Downloads/scrums.data --dry-run
        dinger import syncups sync-ups.json
        dinger import geekbot reports.json --scrum platform
        dinger import geekbot reports.json --scrum platform --map "Nia=Nia Newcomer"
      """)

  @OptionGroup var global: GlobalOptions
  @Argument(help: "scrumdinger, syncups or geekbot.") var app: String
  @Argument(help: "The app's file.") var file: String
  @Option(help: "geekbot: the scrum whose written stand-ups the reports become.") var scrum: String?
  @Option(
    help: ArgumentHelp(
      "A person's name in the file, and the attendee it is here (repeat for more).",
      valueName: "OLD=NEW"))
  var map: [String] = []
  @Flag(help: "Say what would come in; change nothing.") var dryRun = false

  /// `--map`'s pairs, the old names as keys (trimmed, lower case).
  func renames() throws -> [String: String] {
    var out: [String: String] = [:]
    for pair in map {
      let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).trimmed }
      guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
        throw CLIError(
          "--map takes OLD=NEW (a name in the file, the attendee here), found '\(pair)'")
      }
      out[parts[0].lowercased()] = parts[1]
    }
    return out
  }

  /// Prints the notes (to stderr) and what was committed, or with --dry-run would be.
  func report(_ result: InterchangeProvider.ImportResult) {
    for note in result.notes { Terminal.error("note: " + note + "\n") }
    if dryRun, result.commit == nil, !result.paths.isEmpty {
      Terminal.output(
        "would commit: \(result.subject)\n" + result.paths.map { "  \($0)\n" }.joined())
      return
    }
    var line = result.subject
    if result.commit != nil, result.scrumsHere + result.meetingsHere > 0 {
      line += " (\(result.scrumsHere + result.meetingsHere) already here, left as they are)"
    }
    Terminal.output(line + "\n")
  }

  func run() throws {
    try reporting {
      guard ["scrumdinger", "syncups", "geekbot"].contains(app.lowercased()) else {
        throw CLIError("dinger imports from scrumdinger, syncups or geekbot, not '\(app)'")
      }
      let bytes = try InterchangeProvider.readFile(file, limit: AppFiles.maxBytes)
      let repository = try global.repository()
      switch app.lowercased() {
      case "scrumdinger", "syncups":
        var batch: ImportBatch
        do {
          batch =
            app.lowercased() == "scrumdinger"
            ? try ImportBatch.scrumdinger(bytes) : try ImportBatch.syncups(bytes)
        } catch let error as ImportError {
          throw CLIError("\(file): \(error.description); nothing was imported")
        }
        batch.renamePeople(try renames())
        let result = try InterchangeProvider.live(repository: repository).importBatch(
          batch, dryRun: dryRun)
        report(result)
      case "geekbot":
        guard let scrum else {
          throw CLIError(
            "Geekbot's reports become one scrum's written stand-ups: name it with --scrum S")
        }
        let stored = try ScrumProvider.live(repository: repository).find(scrum)
        let result = try InterchangeProvider.live(repository: repository).importGeekbot(
          bytes, into: stored, zone: userZone, now: currentDate(), renames: try renames(),
          dryRun: dryRun)
        report(result)
      default:
        throw CLIError("dinger imports from scrumdinger, syncups or geekbot, not '\(app)'")
      }
    }
  }
}
