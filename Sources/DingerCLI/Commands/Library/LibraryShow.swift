import ArgumentParser
import Base
import Components
import FoundationEssentials
import Glibc
import Models
import Providers

extension LibraryCommand {
  /// `dinger library show`.
  struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "show",
      abstract: "Show a library and all its words.",
      discussion:
        "Examples:\n  dinger library show spanish-basics\n  dinger library show \"Spanish basics\" --json"
    )
    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The library: slug, name or id prefix.", completion: Completions.libraries)
    var library: String

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
}
