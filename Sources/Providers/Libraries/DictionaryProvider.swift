import Base
import FoundationEssentials
import Glibc
import Models

/// Word look-ups from a Free-Dictionary-API-compatible service and random words from a
/// random-word service, falling back to the team's own libraries (in the asked language) when
/// the service is not configured, unreachable, slow, or does not know the word.
public struct DictionaryProvider: Sendable {
  /// The network verb: GET a URL within a timeout.
  public struct Dependencies: Sendable {
    /// GETs a URL within a number of seconds.
    public var get: @Sendable (URL, Double) throws -> HTTPClient.Response

    /// Creates dependencies.
    public init(get: @escaping @Sendable (URL, Double) throws -> HTTPClient.Response) {
      self.get = get
    }
  }

  /// The verbs.
  public let dependencies: Dependencies

  /// Wraps dependencies.
  public init(_ dependencies: Dependencies) { self.dependencies = dependencies }

  /// Look-ups over the network.
  public static let live = DictionaryProvider(
    Dependencies { url, timeout in try HTTPClient.get(url, timeout: timeout) })

  /// Seconds a request may take when nothing says otherwise.
  public static let defaultTimeout = 5.0

  /// What a look-up found.
  public enum Outcome: Sendable, Equatable {
    /// The service's answer.
    case found([Word])
    /// The service could not help (`reason`); these are the team's own words with that text.
    case fallback(reason: String, words: [LibraryWord])
  }

  /// Looks `text` up in `language` at `base` (nil: no service configured).
  public func lookup(
    _ text: String, language: String, base: URL?, timeout: Double, libraries: LibraryProvider
  ) throws -> Outcome {
    let key = Word(text: text).naturalKey
    func local(_ reason: String) throws -> Outcome {
      let words = try libraries.words(language: language).filter { $0.word.naturalKey == key }
      return .fallback(reason: reason, words: words)
    }
    guard let base else {
      return try local(
        "no dictionary service is configured (set dictionary.definitions in .dinger/config.yaml, or pass --endpoint URL)"
      )
    }
    let url = Self.url(base, appending: ["api", "v2", "entries", language, text.trimmed])
    let response: HTTPClient.Response
    do {
      response = try dependencies.get(url, timeout)
    } catch let failure as HTTPClient.Failure {
      return try local("the dictionary at \(Self.host(base)) did not answer: \(failure)")
    }
    switch response.status {
    case 200:
      do {
        let words = try Self.entries(response.body)
        if words.isEmpty {
          return try local(
            "the dictionary at \(Self.host(base)) has no definitions of '\(text.trimmed)'")
        }
        return .found(words)
      } catch {
        return try local(
          "the dictionary at \(Self.host(base)) answered something that is not a dictionary entry (\(error))"
        )
      }
    case 404:
      return try local(
        "the dictionary at \(Self.host(base)) does not know '\(text.trimmed)' in '\(language)'")
    default:
      return try local("the dictionary at \(Self.host(base)) answered HTTP \(response.status)")
    }
  }

  /// `count` random words in `language` from the service at `base`, or else from the team's
  /// libraries (then `reason` says why).
  public func random(
    count: Int, language: String, base: URL?, timeout: Double, libraries: LibraryProvider,
    using rng: inout some RandomNumberGenerator
  ) throws -> (words: [String], reason: String?) {
    func local(_ reason: String) throws -> ([String], String?) {
      let words = try libraries.words(language: language).map(\.word.text)
      var seen = Set<String>()
      let unique = words.filter { seen.insert(Word(text: $0).naturalKey).inserted }
      return (Array(unique.shuffled(using: &rng).prefix(count)), reason)
    }
    guard let base else {
      return try local(
        "no random-word service is configured (set dictionary.randomWords in .dinger/config.yaml, or pass --endpoint URL)"
      )
    }
    var components = URLComponents(
      url: base.appendingPathComponent("word"), resolvingAgainstBaseURL: false)!
    components.queryItems = [
      .init(name: "number", value: String(count)), .init(name: "lang", value: language),
    ]
    do {
      let response = try dependencies.get(components.url!, timeout)
      guard response.status == 200 else {
        return try local(
          "the random-word service at \(Self.host(base)) answered HTTP \(response.status)")
      }
      guard let words = try? JSONDecoder().decode([String].self, from: Data(response.body)) else {
        return try local(
          "the random-word service at \(Self.host(base)) did not answer a list of words")
      }
      return (Array(words.prefix(count)), nil)
    } catch let failure as HTTPClient.Failure {
      return try local("the random-word service at \(Self.host(base)) did not answer: \(failure)")
    }
  }

  /// `base` with path segments added, each percent-encoded exactly once (a `/` in a word
  /// stays inside its segment).
  static func url(_ base: URL, appending segments: [String]) -> URL {
    var parts = URLComponents(url: base, resolvingAgainstBaseURL: false) ?? URLComponents()
    var path = parts.percentEncodedPath
    while path.hasSuffix("/") { path.removeLast() }
    for segment in segments {
      path += "/" + segment.percentEncoded(keeping: "!$&'()*+,=:@")
    }
    parts.percentEncodedPath = path
    return parts.url ?? base
  }

  static func host(_ url: URL) -> String {
    url.host.map { h in url.port.map { "\(h):\($0)" } ?? h } ?? url.absoluteString
  }

  /// The words of a Free Dictionary API answer: entries with the same text are merged.
  static func entries(_ body: [UInt8]) throws -> [Word] {
    struct Entry: Decodable {
      var word: String
      var phonetic: String?
      var phonetics: [Phonetic]?
      var meanings: [EntryMeaning]?
    }
    struct Phonetic: Decodable { var text: String? }
    struct EntryMeaning: Decodable {
      var partOfSpeech: String?
      var definitions: [Definition]?
    }
    struct Definition: Decodable {
      var definition: String
      var example: String?
    }
    let entries = try JSONDecoder().decode([Entry].self, from: Data(body))
    var out: [Word] = []
    for entry in entries {
      let phonetic = entry.phonetic ?? entry.phonetics?.compactMap(\.text).first { !$0.isEmpty }
      let meanings = (entry.meanings ?? []).flatMap { m in
        (m.definitions ?? []).map {
          Meaning(partOfSpeech: m.partOfSpeech, definition: $0.definition, example: $0.example)
        }
      }.filter { !$0.definition.trimmed.isEmpty }
      let word = Word(text: entry.word, phonetic: phonetic, meanings: meanings)
      if let i = out.firstIndex(where: { $0.naturalKey == word.naturalKey }) {
        out[i].meanings += meanings
        if out[i].phonetic == nil { out[i].phonetic = phonetic }
      } else {
        out.append(word)
      }
    }
    return out.filter { !$0.meanings.isEmpty }
  }
}
