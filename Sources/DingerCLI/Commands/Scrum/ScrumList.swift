import ArgumentParser
import Components
import Foundation
import Models
import Providers

extension ScrumCommand {
  /// `dinger scrum list`.
  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
    commandName: "list",
      abstract: "List the scrums: title, theme, length, attendees, file.",
      discussion: """
        Examples:
          dinger scrum list
          dinger scrum list --json | jq '.scrums[].title'
        """, aliases: ["ls"])

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
      try reporting {
        let provider = ScrumProvider.live(repository: try global.repository())
        let (scrums, problems) = try provider.list()
        if output.json {
          Terminal.output(try JSONView.render("scrums", scrums.map { ScrumJSON($0) }))
        } else {
          Terminal.output(
            ScrumListView(rows: scrums.map { ($0.slug, $0.scrum) }, color: Terminal.colorOnStdout)
              .render())
        }
        warnUnreadable(problems, noun: "scrum file")
      }
    }
  }
}

/// The JSON shape of a scrum.
struct ScrumJSON: Encodable {
  var id: String?
  var slug: String
  var path: String
  var title: String
  var theme: String
  var length: Int
  var attendees: [String]
  /// How many meetings were recorded (`scrum show --json` only; the list does not count).
  var meetings: Int?

  init(_ stored: StoredScrum, meetings: Int? = nil) {
    self.meetings = meetings
    id = stored.scrum.id?.uuidString.lowercased()
    slug = stored.slug
    path = stored.path
    title = stored.scrum.title
    theme = stored.scrum.effectiveTheme.rawValue
    length = stored.scrum.length
    attendees = stored.scrum.attendees.map(\.name)
  }
}
