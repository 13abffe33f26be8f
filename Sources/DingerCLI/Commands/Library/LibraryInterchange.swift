import ArgumentParser
import Base
import Components
import FoundationEssentials
import Glibc
import Models
import Providers

extension LibraryCommand {
  /// `dinger library export L --anki FILE`.
  struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "export",
      abstract: "Write a library as Anki's text import file (one note per meaning).",
      discussion: """
        The file begins with Anki's header lines (#separator, #html, #notetype:Basic, #deck \
        named after the library, #columns, #tags column, #guid column): in Anki, File > Import \
        takes it as it is. The front is the word and its phonetic, the back the definition and \
        example; the part of speech is a tag. Each meaning keeps one id, so importing a newer \
        export updates the notes instead of adding copies.

        Examples:
          dinger library export spanish-basics --anki spanish.txt
        """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The library.", completion: Completions.libraries) var library: String
    @Option(help: "The Anki text file to write (- for the output).") var anki: String

    func run() throws {
      try reporting {
        let provider = LibraryProvider.live(repository: try global.repository())
        let stored = try provider.find(library)
        warnBroken(stored)
        let text = AnkiText.render(stored.library)
        if anki == "-" {
          Terminal.output(text)
        } else {
          try writeReplacing(anki, Array(text.utf8))
          let notes = stored.library.words.reduce(0) { $0 + $1.meanings.count }
          Terminal.error("wrote \(anki): \(notes) note\(notes == 1 ? "" : "s") for Anki\n")
        }
      }
    }
  }

  /// `dinger library import L --csv FILE`.
  struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "import",
      abstract: "Add words from a spreadsheet's CSV to a library (one commit).",
      discussion: """
        The first row names the columns: text and definition, and any of phonetic, \
        partOfSpeech and example. Each row is one meaning; rows with one text are one word. A \
        word the library has already gains only the meanings and phonetic it lacked.

        Examples:
          dinger library import spanish-basics --csv words.csv
        """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The library.", completion: Completions.libraries) var library: String
    @Option(help: "The CSV file (RFC 4180, UTF-8).") var csv: String

    func run() throws {
      try reporting {
        let bytes = try InterchangeProvider.readFile(csv, limit: 64 << 20)
        let words: [Word]
        let notes: [String]
        do {
          (words, notes) = try LibraryCSV.words(bytes)
        } catch let failure as CSVReader.Failure {
          throw CLIError("\(csv): \(failure.description); nothing was imported")
        }
        for note in notes { Terminal.error("note: \(note)\n") }
        let provider = LibraryProvider.live(repository: try global.repository())
        let stored = try provider.find(library)
        let name = URL(fileURLWithPath: csv).lastPathComponent
        let (committed, _, _) = try provider.addWords(words, to: stored, from: name)
        Terminal.output(
          committed.commit == nil
            ? "nothing to import: every word and meaning of \(name) is in \(stored.library.name) already\n"
            : committed.subject + "\n")
      }
    }
  }
}
