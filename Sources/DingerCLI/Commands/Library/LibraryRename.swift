import ArgumentParser
import Providers

extension LibraryCommand {
  /// `dinger library rename L NEW-SLUG`.
  struct Rename: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "rename",
      abstract: "Rename a library's file (and move its quiz results' folder), as one commit.",
      discussion: """
        The name stays; libraries/OLD.yaml becomes libraries/NEW-SLUG.yaml and quizzes/OLD/ \
        becomes quizzes/NEW-SLUG/. The log follows the library across renames by its id.

        Examples:
          dinger library rename spanish-basics spanish
        """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The library: slug, name or id prefix.", completion: Completions.libraries)
    var library: String
    @Argument(help: "The new file name, without .yaml (lowercase letters, digits, dashes).")
    var slug: String

    func run() throws {
      try reporting {
        let provider = LibraryProvider.live(repository: try global.repository())
        let result = try provider.rename(try provider.find(library), to: slug)
        Terminal.output("\(result.subject) (\(result.stored.path))\n")
      }
    }
  }
}
