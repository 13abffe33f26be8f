import ArgumentParser
import Components
import Foundation
import Models
import Providers
import Storage

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

  struct Add: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Add a word, or a meaning to a word the library has.",
      discussion: """
        A word is one per library, whatever its case or accent composition: adding it again with
        another definition adds a meaning.

        Examples:
          dinger word add hola --library spanish-basics --definition hello --pos intj
          dinger word add hola --library spanish-basics --definition hi --example Hola
        """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The word.", completion: Completions.words) var text: String
    @Option(help: "The library: slug, name or id prefix.", completion: Completions.libraries) var library: String
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

  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "List words with their first definition.",
      discussion: """
        Examples:
          dinger word list
          dinger word list --library spanish-basics
          dinger word list --language es --search hel --json
        """)
    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Option(help: "Only this library.", completion: Completions.libraries) var library: String?
    @Option(help: "Only libraries of this language (es also matches es-MX).") var language: String?
    @Option(help: "Only words whose text, phonetic or definitions contain this.") var search:
      String?

    func run() throws {
      try reporting {
        let provider = LibraryProvider.live(repository: try global.repository())
        let stored = try library.map { try provider.find($0) }
        let words = try provider.words(in: stored, language: language, search: search)
        if output.json {
          Terminal.output(
            try JSONView.render("words", words.map { WordJSON($0.word, library: $0.library) }))
        } else if words.isEmpty {
          Terminal.output("no words\(search.map { " matching '\($0)'" } ?? "")\n")
        } else {
          Terminal.output(
            WordListView(
              rows: words.map { ($0.library.library.name, $0.word) }, showLibrary: stored == nil
            ).render())
        }
        if let stored { warnBroken(stored) }
      }
    }
  }

  struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Show a word's meanings (from every library that has it, or one).",
      discussion:
        "Examples:\n  dinger word show hola\n  dinger word show hola --library spanish-basics --json"
    )
    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The word.", completion: Completions.words) var text: String
    @Option(help: "Only this library.", completion: Completions.libraries) var library: String?

    func run() throws {
      try reporting {
        let provider = LibraryProvider.live(repository: try global.repository())
        let found: [LibraryWord]
        if let library {
          let stored = try provider.find(library)
          found = [LibraryWord(library: stored, word: try provider.word(text, in: stored))]
        } else {
          let key = Word(text: text).naturalKey
          found = try provider.words().filter { $0.word.naturalKey == key }
          if found.isEmpty {
            let all = try provider.words().map(\.word.text)
            let close = Suggestions.closest(to: text, in: all, limit: 3)
            throw CLIError(
              "no library has the word '\(text)'"
                + (close.isEmpty
                  ? "; 'dinger word lookup \(text)' asks the dictionary"
                  : "; did you mean " + close.map { "'\($0)'" }.joined(separator: " or ") + "?"))
          }
        }
        if output.json {
          Terminal.output(
            try JSONView.render("words", found.map { WordJSON($0.word, library: $0.library) }))
          return
        }
        let color = Terminal.colorOnStdout
        Terminal.output(
          found.map {
            "\($0.library.library.name) (\($0.library.library.language)):\n"
              + WordView(word: $0.word, color: color).render(indent: "  ")
          }.joined(separator: "\n"))
      }
    }
  }

  struct Edit: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Change a word: its text, phonetic, or one meaning's fields.",
      discussion: """
        Examples:
          dinger word edit hola --library spanish-basics --phonetic /ˈola/
          dinger word edit hola --library spanish-basics --meaning 2 --definition hi
          dinger word edit hola --library spanish-basics --remove-meaning 2
          dinger word edit ola --library spanish-basics --text hola
        """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The word.", completion: Completions.words) var text: String
    @Option(help: "The library: slug, name or id prefix.", completion: Completions.libraries) var library: String
    @Option(name: .customLong("text"), help: "New text for the word.") var newText: String?
    @Option(help: "New pronunciation ('' removes it).") var phonetic: String?
    @Option(
      help: "Which meaning the meaning options change (1 = first; one past the last adds one).")
    var meaning = 1
    @OptionGroup var fields: MeaningOptions
    @Option(help: "Remove this meaning (1 = first).") var removeMeaning: Int?

    func run() throws {
      try reporting {
        let provider = LibraryProvider.live(repository: try global.repository())
        let stored = try provider.find(library)
        _ = try provider.word(text, in: stored)  // NB: a clear "no word" before any lock
        let result = try provider.updateWord(text, in: stored) { word in
          try edit(&word)
        }
        Terminal.output(result.subject + "\n")
      }
    }

    /// The options applied to the word as committed at the moment of the change.
    private func edit(_ word: inout Word) throws {
        if let newText { word.text = newText }
        if let phonetic { word.phonetic = phonetic.trimmed.isEmpty ? nil : phonetic }
        if fields.definition != nil || fields.pos != nil || fields.example != nil {
          guard (1...word.meanings.count + 1).contains(meaning) else {
            throw CLIError(
              "'\(word.text)' has \(Style.plural(word.meanings.count, "meaning")); --meaning must be 1 to \(word.meanings.count + 1)"
            )
          }
          if meaning == word.meanings.count + 1 {
            guard let definition = fields.definition else {
              throw CLIError("a new meaning needs --definition")
            }
            word.meanings.append(Meaning(definition: definition))
          }
          var m = word.meanings[meaning - 1]
          if let d = fields.definition { m.definition = d }
          if let p = fields.pos { m.partOfSpeech = p.trimmed.isEmpty ? nil : p }
          if let e = fields.example { m.example = e.trimmed.isEmpty ? nil : e }
          word.meanings[meaning - 1] = m
        }
        if let removeMeaning {
          guard word.meanings.indices.contains(removeMeaning - 1) else {
            throw CLIError(
              "'\(word.text)' has \(Style.plural(word.meanings.count, "meaning")); there is no meaning \(removeMeaning)"
            )
          }
          word.meanings.remove(at: removeMeaning - 1)
        }
    }
  }

  struct Remove: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "rm", abstract: "Remove a word from a library.",
      discussion: "Examples:\n  dinger word rm hola --library spanish-basics\n  dinger undo")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The word.", completion: Completions.words) var text: String
    @Option(help: "The library: slug, name or id prefix.", completion: Completions.libraries) var library: String

    func run() throws {
      try reporting {
        let provider = LibraryProvider.live(repository: try global.repository())
        let result = try provider.removeWord(text, from: try provider.find(library))
        Terminal.output(result.subject + "\n")
      }
    }
  }
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
