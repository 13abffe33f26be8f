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
        dinger scrum new "Design Review" --theme yellow --length 10 --attendee Ada --attendee Grace
        dinger scrum edit design-review --length 15
        dinger scrum attendee add design-review Bob
      """,
    subcommands: [List.self, Show.self, New.self, Edit.self, Remove.self, AttendeeCommand.self])
}

/// Options that name a scrum's theme, length and title, shared by `new` and `edit`.
struct ScrumFields: ParsableArguments {
  @Option(help: "One of the 16 themes: \(ThemeArgument.names).")
  var theme: ThemeArgument?

  @Option(help: "Planned minutes, 1...600.")
  var length: Int?
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
}
