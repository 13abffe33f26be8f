import ArgumentParser
import Base
import Components
import FoundationEssentials
import Glibc
import Models
import Providers

extension WordCommand {
  /// `dinger word rm`.
  struct Remove: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "rm", abstract: "Remove a word from a library.",
      discussion: "Examples:\n  dinger word rm hola --library spanish-basics\n  dinger undo")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The word.", completion: Completions.words) var text: String
    @Option(help: "The library: slug, name or id prefix.", completion: Completions.libraries)
    var library: String

    func run() throws {
      try reporting {
        let provider = LibraryProvider.live(repository: try global.repository())
        let result = try provider.removeWord(text, from: try provider.find(library))
        Terminal.output(result.subject + "\n")
      }
    }
  }
}
