import ArgumentParser
import Base
import FoundationEssentials
import Glibc
import Providers

extension ScrumCommand {
  /// `dinger scrum rm S [--with-history]`.
  struct Remove: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "rm",
      abstract: "Remove a scrum (refuses while it has meetings, unless --with-history).",
      discussion: """
        Examples:
          dinger scrum rm design
          dinger scrum rm design --with-history
          dinger undo                 brings it back
        """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The scrum: slug, title or id prefix.", completion: Completions.scrums)
    var scrum: String

    @Flag(help: "Remove its history too (recorded meetings and written stand-up entries).")
    var withHistory = false

    func run() throws {
      try reporting {
        let provider = ScrumProvider.live(repository: try global.repository())
        let result = try provider.remove(try provider.find(scrum), withHistory: withHistory)
        Terminal.output(result.subject + "\n")
      }
    }
  }
}
