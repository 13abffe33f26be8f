import ArgumentParser
import Base
import Components
import FoundationEssentials
import Glibc
import Models
import Providers

/// Where the dictionary services are and how long to wait: flags over `.dinger/config.yaml`.
struct EndpointOptions: ParsableArguments {
  @Option(help: "Base URL of the service (overrides .dinger/config.yaml).")
  var endpoint: String?
  @Option(help: "Seconds to wait for the service (default: dictionary.timeout, else 5).")
  var timeout: Double?

  func validate() throws {
    if let timeout, !(timeout > 0 && timeout <= 120) {
      throw ValidationError("--timeout must be more than 0 and at most 120 seconds")
    }
    if let endpoint, URL(string: endpoint)?.host == nil {
      throw ValidationError(
        "--endpoint must be a URL like http://localhost:8080, found '\(endpoint)'")
    }
  }

  func resolve(_ config: RepoConfig, configured: KeyPath<DictionaryEndpoints, URL?>) -> (
    URL?, Double
  ) {
    let base = endpoint.flatMap(URL.init(string:)) ?? config.dictionary?[keyPath: configured]
    return (base, timeout ?? config.dictionary?.timeout ?? DictionaryProvider.defaultTimeout)
  }
}

extension WordCommand {
  struct Lookup: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "lookup",
      abstract:
        "Look a word up in the dictionary service; the team's libraries when it cannot help.",
      discussion: """
        The service is any Free-Dictionary-API-compatible endpoint (GET {base}/api/v2/entries/{lang}/{word}), \
        set as dictionary.definitions in .dinger/config.yaml or with --endpoint. When it is not set, \
        cannot be reached, is slower than the timeout or does not know the word, the words of the \
        team's libraries in that language are shown instead, with the reason.

        Examples:
          dinger word lookup serendipity
          dinger word lookup hola --language es --save --library spanish-basics
          dinger word lookup hello --endpoint https://api.dictionaryapi.dev --timeout 3
        """)
    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var service: EndpointOptions
    @Argument(help: "The word.") var text: String
    @Option(help: "Language code (default: the repository's).") var language: String?
    @Flag(help: "Add what the dictionary says to a library (with --library).") var save = false
    @Option(help: "The library --save adds to.", completion: Completions.libraries) var library:
      String?

    func validate() throws {
      if save && library == nil { throw ValidationError("--save needs --library NAME") }
      if text.trimmed.isEmpty { throw ValidationError("give a word to look up") }
    }

    func run() throws {
      try reporting {
        let repository = try global.repository()
        let config = try repoConfig(repository)
        let language = language ?? config.language ?? "en"
        let libraries = LibraryProvider.live(repository: repository)
        let target = try library.map { try libraries.find($0) }
        if save, let target { try checkLanguage(language, target) }
        let (base, timeout) = service.resolve(config, configured: \.definitions)
        let outcome = try DictionaryProvider.live.lookup(
          text, language: language, base: base, timeout: timeout, libraries: libraries)
        let color = Terminal.colorOnStdout
        switch outcome {
        case .found(let words):
          if output.json {
            Terminal.output(
              try JSONView.render(
                LookupJSON(
                  source: "dictionary", reason: nil, words: words.map { WordJSON($0, library: nil) }
                )))
          } else {
            Terminal.output(
              words.map { WordView(word: $0, color: color).render() }.joined(separator: "\n"))
          }
          if save, let target {
            for word in words {
              let result = try libraries.addWord(word, to: try libraries.find(target.slug))
              Terminal.error(result.subject + "\n")
            }
          }
        case .fallback(let reason, let words):
          Terminal.error("note: \(reason); showing the team's libraries instead\n")
          if output.json {
            Terminal.output(
              try JSONView.render(
                LookupJSON(
                  source: "libraries", reason: reason,
                  words: words.map { WordJSON($0.word, library: $0.library) })))
          } else if words.isEmpty {
            Terminal.output("no library in '\(language)' has '\(text.trimmed)' either\n")
          } else {
            Terminal.output(
              words.map {
                "\($0.library.library.name):\n"
                  + WordView(word: $0.word, color: color).render(indent: "  ")
              }.joined(separator: "\n"))
          }
          if save { throw CLIError("nothing saved: the dictionary did not answer") }
          if words.isEmpty { throw ExitCode(1) }
        }
      }
    }
  }

  struct RandomWords: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "random",
      abstract: "Random words from the random-word service, or from the team's libraries.",
      discussion: """
        The service answers GET {base}/word?number=N&lang=L with a JSON list of words; set it as \
        dictionary.randomWords in .dinger/config.yaml or with --endpoint.

        Examples:
          dinger word random
          dinger word random --count 5 --language es
        """)
    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var service: EndpointOptions
    @Option(help: "How many words (1-100).") var count = 1
    @Option(help: "Language code (default: the repository's).") var language: String?

    func validate() throws {
      guard (1...100).contains(count) else {
        throw ValidationError("--count must be from 1 to 100")
      }
    }

    func run() throws {
      try reporting {
        let repository = try global.repository()
        let config = try repoConfig(repository)
        let language = language ?? config.language ?? "en"
        let (base, timeout) = service.resolve(config, configured: \.randomWords)
        var rng = SystemRandomNumberGenerator()
        let (words, reason) = try DictionaryProvider.live.random(
          count: count, language: language, base: base, timeout: timeout,
          libraries: LibraryProvider.live(repository: repository), using: &rng)
        if let reason {
          Terminal.error("note: \(reason); picking from the team's libraries instead\n")
        }
        if output.json {
          Terminal.output(try JSONView.render("words", words))
        } else if words.isEmpty {
          throw CLIError("no words in '\(language)' to pick from; add some with 'dinger word add'")
        } else {
          Terminal.output(words.map { $0 + "\n" }.joined())
        }
      }
    }
  }
}

/// The JSON shape of a look-up.
struct LookupJSON: Encodable {
  var source: String
  var reason: String?
  var words: [WordJSON]
}
