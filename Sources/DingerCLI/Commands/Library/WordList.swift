import ArgumentParser
import Base
import Components
import FoundationEssentials
import Glibc
import Models
import Providers

extension WordCommand {
  /// `dinger word list`.
  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "list",
      abstract: "List words with their first definition.",
      discussion: """
        Examples:
          dinger word list
          dinger word list --library spanish-basics
          dinger word list --language es --search hel --json
        """, aliases: ["ls"])
    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Option(help: "Only this library.", completion: Completions.libraries) var library: String?
    @Option(help: "Only libraries of this language (es also matches es-MX).") var language: String?
    @Option(help: "Only words whose text, phonetic or definitions contain this.") var search:
      String?

    func run() throws {
      try reporting {
        let provider = LibraryProvider.live(repository: try global.repository())
        // NB: the plain listing straight from packed rows, when the record cache has them:
        // 50,000 words were 150,000 objects to make and walk.
        if search == nil, !output.json,
          let listing = provider.wordListing(library: library, language: language),
          !listing.isEmpty
        {
          let view = WordListView(listing: listing, showLibrary: library == nil)
          Terminal.output(pieces: view.render)
          Workspace.trace("rendered and written")
          return
        }
        let stored = try library.map { try provider.find($0) }
        let groups = try provider.wordsByLibrary(in: stored, language: language, search: search)
        Workspace.trace("words listed")
        if output.json {
          let words = groups.flatMap { g in g.words.map { WordJSON($0, library: g.library) } }
          Terminal.output(try JSONView.render("words", words))
        } else if groups.isEmpty {
          Terminal.output("no words\(search.map { " matching '\($0)'" } ?? "")\n")
        } else {
          let bytes = WordListView(
            groups: groups.map { ($0.library.library.name, $0.words) }, showLibrary: stored == nil
          ).renderBytes()
          Workspace.trace("rendered")
          Terminal.output(bytes: bytes)
          Workspace.trace("written")
        }
        if let stored { warnBroken(stored) }
      }
    }
  }
}
