import ArgumentParser
import Base
import Components
import FoundationEssentials
import Glibc
import Models
import Providers

extension LibraryCommand {
  /// `dinger library list`.
  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "list",
      abstract: "List the libraries: name, language, words, file.",
      discussion: "Examples:\n  dinger library list\n  dinger library list --json", aliases: ["ls"])
    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
      try reporting {
        let (libraries, problems) = try LibraryProvider.live(repository: try global.repository())
          .list()
        if output.json {
          Terminal.output(
            try JSONView.render("libraries", libraries.map { LibraryJSON($0, words: false) }))
        } else {
          Terminal.output(
            LibraryListView(rows: libraries.map { ($0.slug, $0.library, $0.broken.count) }).render()
          )
        }
        warnUnreadable(problems, noun: "library file")
      }
    }
  }
}
