import ArgumentParser
import Foundation
import Models
import Providers

extension ScrumCommand {
  /// `dinger scrum new TITLE`.
  struct New: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Add a scrum (one commit).",
      discussion: """
        Without --theme the scrum gets the first theme no scrum uses yet; without --length, 5 \
        minutes.

        Examples:
          dinger scrum new "Design Review" --attendee Ada --attendee Grace
          dinger scrum new "App Dev" --theme orange --length 5 --attendee Katie --attendee Gray
        """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var fields: ScrumFields

    @Argument(help: "The title.")
    var title: String

    @Option(name: .customLong("attendee"), help: "An attendee; repeat for each, in speaking order.")
    var attendees: [String] = []

    func validate() throws {
      if attendees.isEmpty {
        throw ValidationError("a scrum needs at least one attendee; add --attendee NAME")
      }
      if let length = fields.length, !Scrum.lengthRange.contains(length) {
        throw ValidationError("--length must be from 1 to 600 minutes, found \(length)")
      }
    }

    func run() throws {
      try reporting {
        let provider = ScrumProvider.live(repository: try global.repository())
        let scrum = Scrum(
          title: title, theme: fields.theme?.theme, length: fields.length ?? 5,
          attendees: attendees.map(Attendee.init(name:)))
        let result = try provider.add(scrum)
        Terminal.output("\(result.subject) (\(result.stored.path))\n")
      }
    }
  }
}
