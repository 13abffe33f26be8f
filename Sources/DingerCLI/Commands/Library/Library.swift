import ArgumentParser
import Base
import Components
import FoundationEssentials
import Glibc
import Models
import Providers

/// `dinger library ...`.
struct LibraryCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "library",
    abstract: "Word libraries: shared vocabulary, one file per library.",
    discussion: """
      Examples:
        dinger library new "Spanish basics" --language es
        dinger library list
        dinger library show spanish-basics
        dinger library rm spanish-basics
        dinger library export spanish-basics --anki spanish.txt
        dinger library import spanish-basics --csv words.csv
      """,
    subcommands: [
      New.self, List.self, Show.self, Remove.self, Rename.self, Export.self, Import.self,
    ])
}

/// Says on stderr which words of a library were left out, and where.
func warnBroken(_ stored: StoredLibrary) {
  for d in stored.broken {
    let at = [d.file, d.line.map(String.init), d.column.map(String.init)].compactMap { $0 }
      .joined(separator: ":")
    Terminal.error("warning: \(at): \(d.message) (this word is left out)\n")
  }
}

/// The JSON shape of a library.
struct LibraryJSON: Encodable {
  var id: String?
  var slug: String
  var path: String
  var name: String
  var language: String
  var wordCount: Int
  var words: [WordJSON]?

  init(_ stored: StoredLibrary, words: Bool) {
    id = stored.library.id?.lowercased
    slug = stored.slug
    path = stored.path
    name = stored.library.name
    language = stored.library.language
    wordCount = stored.library.words.count
    self.words = words ? stored.library.words.map { WordJSON($0, library: nil) } : nil
  }
}

/// The JSON shape of a word.
struct WordJSON: Encodable {
  struct MeaningJSON: Encodable {
    var partOfSpeech: String?
    var definition: String
    var example: String?
  }
  var text: String
  var phonetic: String?
  var meanings: [MeaningJSON]
  /// The library's slug, and its name.
  var library: String?
  var libraryName: String?

  init(_ word: Word, library stored: StoredLibrary?) {
    library = stored?.slug
    libraryName = stored?.library.name
    text = word.text
    phonetic = word.phonetic
    meanings = word.meanings.map {
      MeaningJSON(partOfSpeech: $0.partOfSpeech, definition: $0.definition, example: $0.example)
    }
  }
}
