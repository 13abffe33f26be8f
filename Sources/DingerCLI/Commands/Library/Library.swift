import ArgumentParser
import Components
import Foundation
import Models
import Providers
import Storage

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
      """,
    subcommands: [New.self, List.self, Show.self, Remove.self])

  struct New: ParsableCommand {
    static let configuration = CommandConfiguration(
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

  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "List the libraries: name, language, words, file.",
      discussion: "Examples:\n  dinger library list\n  dinger library list --json")
    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
      try reporting {
        let (libraries, problems) = try LibraryProvider.live(repository: try global.repository())
          .list()
        if output.json {
          Terminal.output(try JSONView.render("libraries", libraries.map { LibraryJSON($0, words: false) }))
        } else {
          Terminal.output(
            LibraryListView(rows: libraries.map { ($0.slug, $0.library, $0.broken.count) }).render()
          )
        }
        warnUnreadable(problems, noun: "library file")
      }
    }
  }

  struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Show a library and all its words.",
      discussion:
        "Examples:\n  dinger library show spanish-basics\n  dinger library show \"Spanish basics\" --json"
    )
    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The library: slug, name or id prefix.", completion: Completions.libraries) var library: String

    func run() throws {
      try reporting {
        let stored = try LibraryProvider.live(repository: try global.repository()).find(library)
        if output.json {
          Terminal.output(try JSONView.render(LibraryJSON(stored, words: true)))
          return
        }
        let color = Terminal.colorOnStdout
        var text = Style.bold(stored.library.name, color: color)
        text +=
          "  \(stored.library.language)  \(Style.plural(stored.library.words.count, "word"))  \(stored.path)\n\n"
        for word in stored.library.words { text += WordView(word: word, color: color).render() }
        Terminal.output(text)
        warnBroken(stored)
      }
    }
  }

  struct Remove: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "rm",
      abstract: "Remove a library (refuses while it has quiz results, unless --with-quizzes).",
      discussion:
        "Examples:\n  dinger library rm spanish-basics\n  dinger undo        brings it back")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The library: slug, name or id prefix.", completion: Completions.libraries) var library: String
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
