import ArgumentParser
import Base
import Components
import FoundationEssentials
import Glibc
import Models
import Providers

extension WordCommand {
  /// `dinger word show`.
  struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "show",
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
}
