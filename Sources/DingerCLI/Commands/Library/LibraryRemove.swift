import ArgumentParser
import Base
import Components
import FoundationEssentials
import Glibc
import Models
import Providers

extension LibraryCommand {
  /// `dinger library rm`.
  struct Remove: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "rm",
      abstract: "Remove a library (refuses while it has quiz results, unless --with-quizzes).",
      discussion:
        "Examples:\n  dinger library rm spanish-basics\n  dinger undo        brings it back")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The library: slug, name or id prefix.", completion: Completions.libraries)
    var library: String
    @Flag(help: "Remove its quiz results too.") var withQuizzes = false

    func run() throws {
      try reporting {
        let provider = LibraryProvider.live(repository: try global.repository())
        let result = try provider.remove(try provider.find(library), withQuizzes: withQuizzes)
        Terminal.output(result.subject + "\n")
      }
    }
  }
}
