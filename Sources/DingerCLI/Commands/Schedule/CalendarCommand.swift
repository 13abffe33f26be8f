import ArgumentParser
import Base
import FoundationEssentials
import Glibc
import Models
import Providers

/// `dinger calendar`: the team's schedules as one iCalendar file.
struct CalendarCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "calendar",
    abstract: "Write the scrums' schedules as an iCalendar (.ics) file calendar apps subscribe to.",
    discussion: """
      One recurring event per scheduled scrum (in its own time zone, so it stays at 09:30 \
      there across daylight saving), skipped days left out, moved ones at their new time. \
      Event ids come from the scrums' ids and each change raises SEQUENCE, so a subscribed \
      calendar updates in place. The same data gives the same file: publish it from CI \
      (docs/ci.md) and teammates subscribe to its URL.

      Examples:
        dinger calendar --out standups.ics
        dinger calendar design --history > design.ics
      """)

  @OptionGroup var global: GlobalOptions

  @Argument(
    help: "Only these scrums (default: every scheduled one).", completion: Completions.scrums)
  var scrums: [String] = []

  @Option(
    help: "Write to this file instead of standard output.", completion: .file(extensions: ["ics"]))
  var out: String?

  @Flag(help: "Add the recorded meetings as single events, with their real length.")
  var history = false

  @Option(help: "The calendar's name (default: the data folder's name and 'stand-ups').")
  var name: String?

  @Option(
    parsing: .unconditional,
    help: "Remind this long before each stand-up (a VALARM calendar apps act on): 10m, 1h.")
  var alarm: MinutesArgument?

  func run() throws {
    try reporting {
      let repository = try global.repository()
      let provider = ScheduleProvider.live(repository: repository)
      let only = scrums.isEmpty ? nil : try scrums.map { try provider.scrums.find($0) }
      if let only, let unscheduled = only.first(where: { $0.scrum.schedule?.plan == nil }) {
        throw CLIError(
          "scrum '\(unscheduled.scrum.title)' has no schedule (or one with errors); give it one with 'dinger scrum edit \(unscheduled.slug) --at 09:30 --days weekdays'"
        )
      }
      let title = name ?? "\(repository.root.lastPathComponent) stand-ups"
      let text = try provider.calendar(
        name: title, only: only, history: history, alarm: alarm?.minutes)
      guard let out else {
        Terminal.output(text)
        return
      }
      try writeReplacing(out, Array(text.utf8))
      Terminal.error("wrote \(out)\n")
    }
  }
}

/// Writes `bytes` to `path` whole (`AtomicFile`): a reader never sees half a file, and a
/// symlink at `path` is replaced, never followed.
func writeReplacing(_ path: String, _ bytes: [UInt8]) throws {
  do {
    try AtomicFile.write(bytes, to: path, durability: .durable)
  } catch {
    throw CLIError(error.description)
  }
}
