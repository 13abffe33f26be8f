import ArgumentParser
import Providers

extension ScrumCommand {
  /// `dinger scrum rename S NEW-SLUG`: a new file name, its meetings moved along, one commit.
  struct Rename: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "rename",
      abstract: "Rename a scrum's file (and move its meetings' folder), as one commit.",
      discussion: """
        The title stays (change it with 'dinger scrum edit S --title T'); the file \
        scrums/OLD.yaml becomes scrums/NEW-SLUG.yaml and history/OLD/ becomes history/NEW-SLUG/. \
        The log, history and 'scrum show' follow the scrum across renames by its id, a rename \
        done by hand with 'git mv' included.

        Examples:
          dinger scrum rename design design-review
        """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The scrum (file name, title or id prefix).") var scrum: String
    @Argument(help: "The new file name, without .yaml (lowercase letters, digits, dashes).")
    var slug: String

    func run() throws {
      try reporting {
        let provider = ScrumProvider.live(repository: try global.repository())
        let result = try provider.rename(try provider.find(scrum), to: slug)
        Terminal.output("\(result.subject) (\(result.stored.path))\n")
      }
    }
  }
}
