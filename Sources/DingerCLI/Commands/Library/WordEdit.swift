import ArgumentParser
import Base
import Components
import FoundationEssentials
import Glibc
import Models
import Providers

extension WordCommand {
  /// `dinger word edit`.
  struct Edit: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "edit",
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
    @Option(help: "The library: slug, name or id prefix.", completion: Completions.libraries)
    var library: String
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
}
