import ArgumentParser
import Models

/// `dinger scrum ...`: the stand-up meetings a team holds.
struct ScrumCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "scrum",
    abstract: "List, show, add, edit and remove scrums.",
    discussion: """
      A scrum is named by its file name (slug), its title (any case) or a prefix of its id.

      Examples:
        dinger scrum list
        dinger scrum new "Design Review" --length 10 --attendee Ada --attendee Grace
        dinger scrum edit design-review --length 15
        dinger scrum attendee add design-review Bob
      """,
    subcommands: [
      List.self, Show.self, New.self, Edit.self, Remove.self, Rename.self, AttendeeCommand.self,
    ])
}

/// Options that name a scrum's theme, length and title, shared by `new` and `edit`.
struct ScrumFields: ParsableArguments {
  // NB: the values are listed once, by ArgumentParser ("values: ...").
  @Option(help: "One of the 16 themes.")
  var theme: ThemeArgument?

  // NB: unconditional, so that `--length -5` is told it is out of range, not "missing value".
  @Option(parsing: .unconditional, help: "Planned length: 15, 15m, 1h or 1h30m (1 to 600 minutes).")
  var length: MinutesArgument?

  @Option(
    help:
      "The days a written stand-up is expected, apart from the meeting's: mon-fri, \"mon,wed,fri\", daily; 'default' for the meeting's days (else Monday to Friday)."
  )
  var standupDays: String?

  /// Sets `standup.days` from `--standup-days`, when it was given.
  func applyStandupDays(to scrum: inout Scrum) throws {
    guard let standupDays else { return }
    var settings = scrum.standup ?? StandupSettings()
    if standupDays.trimmed().lowercased() == "default" {
      settings.days = []
    } else {
      switch Schedule.parseDays([standupDays]) {
      case .days(let days): settings.days = days.map(\.short)
      case .empty:
        throw CLIError("--standup-days names no day; write e.g. mon-fri or \"mon,wed,fri\"")
      case .unknown(let word, let suggestion):
        throw CLIError(
          "--standup-days: '\(word)' is not a day\(suggestion.map { " (did you mean '\($0)'?)" } ?? ""); write e.g. mon-fri, \"mon,wed,fri\" or daily"
        )
      }
    }
    scrum.standup = settings == StandupSettings() ? nil : settings
  }
}

/// A length in whole minutes: `15`, `15m`, `15min`, `1h`, `1h30m`, `90s` (whole minutes only).
struct MinutesArgument: ExpressibleByArgument, Equatable {
  let minutes: Int

  init?(argument: String) {
    var t = Substring(argument.trimmingSpaces().lowercased())
    if let n = Int(t) {
      minutes = n
      return
    }
    var seconds = 0
    var matched = false
    for (unit, factor) in [("h", 3600), ("min", 60), ("m", 60), ("s", 1)] {
      guard let end = t.firstRange(ofText: unit) else { continue }
      guard let n = Int(t[..<end.lowerBound]), n >= 0 else { return nil }
      seconds += n * factor
      t = t[end.upperBound...]
      matched = true
    }
    guard matched, t.isEmpty, seconds % 60 == 0 else { return nil }
    minutes = seconds / 60
  }

  static var defaultCompletionKind: CompletionKind { .list(["5", "10", "15", "30", "45", "60"]) }

  /// How `--help` shows a default: `10m`, `1h`.
  var defaultValueDescription: String {
    minutes % 60 == 0 && minutes > 0 ? "\(minutes / 60)h" : "\(minutes)m"
  }
}

/// A theme given on the command line; a wrong name is a usage error listing the valid ones.
struct ThemeArgument: ExpressibleByArgument {
  let theme: Theme

  static var names: String { Theme.allCases.map(\.rawValue).joined(separator: ", ") }

  init?(argument: String) {
    guard let theme = Theme(rawValue: argument.lowercased()) else { return nil }
    self.theme = theme
  }

  static var allValueStrings: [String] { Theme.allCases.map(\.rawValue) }
  static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }
}
