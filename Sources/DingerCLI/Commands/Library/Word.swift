import ArgumentParser
import Base
import Components
import FoundationEssentials
import Glibc
import Models
import Providers

/// `dinger word ...`.
struct WordCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "word",
    abstract: "Words in the libraries: add, list, show, edit, remove, look up, pick at random.",
    discussion: """
      Examples:
        dinger word add hola --library spanish-basics --definition hello --pos intj
        dinger word list --search hel
        dinger word show hola
        dinger word edit hola --library spanish-basics --example "¡Hola, amigo!"
        dinger word lookup serendipity --save --library jargon
        dinger word random --count 5 --language es
      """,
    subcommands: [
      Add.self, List.self, Show.self, Edit.self, Remove.self, Lookup.self, RandomWords.self,
    ])
}

/// A meaning's fields as options.
struct MeaningOptions: ParsableArguments {
  @Option(help: "What the word means.") var definition: String?
  @Option(name: .customLong("pos"), help: "Part of speech: noun, verb, interjection, ...")
  var pos: String?
  @Option(help: "An example sentence.") var example: String?

  /// The meaning, when a definition is given.
  var meaning: Meaning? {
    definition.map { Meaning(partOfSpeech: pos, definition: $0, example: example) }
  }
}

/// Refuses a word whose stated language is not its library's.
func checkLanguage(_ language: String?, _ stored: StoredLibrary) throws {
  guard let language, !LibraryProvider.sameLanguage(language, stored.library.language),
    !LibraryProvider.sameLanguage(stored.library.language, language)
  else { return }
  throw CLIError(
    "the word is in '\(language)' but \(stored.library.name) is in '\(stored.library.language)'; pick a library in '\(language)' (dinger library list) or make one (dinger library new NAME --language \(language))"
  )
}
