import ArgumentParser
import Base
import Components
import FoundationEssentials
import Glibc
import Models
import Providers

extension LibraryCommand {
  /// `dinger library new`.
  struct New: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "new",
      abstract: "Add an empty library.",
      discussion: """
        Examples:
          dinger library new "Spanish basics" --language es
          dinger library new Jargon            (the repository's default language)
        """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The library's name.") var name: String
    @Option(help: "Language code of its words (es, en-GB); default: the repository's.")
    var language: String?

    func validate() throws {
      // NB: a name with a line break split `library list` in two.
      if let problem = OneLineText.problem(name, field: "name") { throw ValidationError(problem) }
    }

    func run() throws {
      try reporting {
        let repository = try global.repository()
        let language = try language ?? repoConfig(repository).language ?? "en"
        let result = try LibraryProvider.live(repository: repository).create(
          name: name, language: language)
        Terminal.output("\(result.subject) (\(result.stored.path))\n")
      }
    }
  }
}
