import ArgumentParser
import Base
import Components
import FoundationEssentials
import Glibc
import Models
import Providers

extension WordCommand {
  /// `dinger word add`.
  struct Add: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "add",
      abstract: "Add a word, or a meaning to a word the library has.",
      discussion: """
        A word is one per library, whatever its case or accent composition: adding it again with \
        another definition adds a meaning.

        Examples:
          dinger word add hola --library spanish-basics --definition hello --pos intj
          dinger word add hola --library spanish-basics --definition hi --example Hola
        """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The word.", completion: Completions.words) var text: String
    @Option(help: "The library: slug, name or id prefix.", completion: Completions.libraries)
    var library: String
    @OptionGroup var meaning: MeaningOptions
    @Option(help: "Pronunciation, e.g. /ˈola/.") var phonetic: String?
    @Option(help: "The word's language; must be the library's (a check against mix-ups).")
    var language: String?

    func validate() throws {
      if meaning.definition == nil && (meaning.pos != nil || meaning.example != nil) {
        throw ValidationError("--pos and --example describe a meaning: give --definition too")
      }
    }

    func run() throws {
      try reporting {
        let provider = LibraryProvider.live(repository: try global.repository())
        let stored = try provider.find(library)
        try checkLanguage(language, stored)
        let word = Word(
          text: text, phonetic: phonetic, meanings: meaning.meaning.map { [$0] } ?? [])
        let result = try provider.addWord(word, to: stored)
        Terminal.output(result.subject + "\n")
      }
    }
  }
}
