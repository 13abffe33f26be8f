import Base
import FoundationEssentials
import Glibc

/// A shared word library: `libraries/<slug>.yaml`, its words inside.
public struct Library: Hashable, Sendable, Codable {
  /// Identity; nil for a hand-written file that has none yet.
  public var id: UUID?
  /// Shown everywhere; not the file name.
  public var name: String
  /// Language code of the words (`es`, `en-GB`).
  public var language: String
  /// The words, in the order they were added.
  public var words: [Word]
  /// Keys the schema does not know, kept as written.
  public var unknown = UnknownFields()

  /// The keys of a library file, in the order they are written.
  public static let keys = ["id", "name", "language", "words"]

  /// Creates a library.
  public init(id: UUID? = nil, name: String, language: String, words: [Word] = []) {
    self.id = id
    self.name = name
    self.language = language
    self.words = words
  }

  public init(from decoder: any Decoder) throws {
    var r = try FieldReader(decoder, known: Self.keys)
    id = r.optional("id")
    name = r.required("name") ?? ""
    language = r.required("language") ?? ""
    words = r.list("words")
    unknown = r.unknown()
    try r.finish(self)
  }

  public func encode(to encoder: any Encoder) throws {
    var w = FieldWriter(encoder)
    try w.write("id", id)
    try w.write("name", name)
    try w.write("language", language)
    try w.writeNonEmpty("words", words)
    try w.write(unknown)
  }

  /// The rules a library must follow beyond its types.
  public func validate() -> [ValidationIssue] {
    var issues: [ValidationIssue] = []
    if name.trimmed.isEmpty {
      issues.append(.init(at: [.key("name")], "'name' must not be empty"))
    }
    if !LanguageCode.isWellFormed(language) {
      issues.append(.init(at: [.key("language")], LanguageCode.message(language)))
    }
    var seen: [String: Int] = [:]
    for (i, word) in words.enumerated() {
      let path: [PathComponent] = [.key("words"), .index(i)]
      issues += word.validate(at: path)
      let key = word.naturalKey
      guard !key.isEmpty else { continue }
      if let first = seen[key] {
        issues.append(
          .init(
            at: path + [.key("text")],
            "word '\(word.text)' is listed twice (also item \(first + 1)); merge the two"))
      } else {
        seen[key] = i
      }
    }
    return issues
  }
}

/// A word and its meanings.
public struct Word: Hashable, Sendable, Codable {
  /// The word as written.
  public var text: String
  /// Pronunciation, e.g. `/ˈola/`.
  public var phonetic: String?
  /// What it means, most common first.
  public var meanings: [Meaning]
  /// Keys the schema does not know, kept as written.
  public var unknown = UnknownFields()

  /// The keys of a word, in the order they are written.
  public static let keys = ["text", "phonetic", "meanings"]

  /// Creates a word.
  public init(text: String, phonetic: String? = nil, meanings: [Meaning] = []) {
    self.text = text
    self.phonetic = phonetic
    self.meanings = meanings
  }

  /// Identity within a library: Unicode-normalised (NFC), case-insensitive, trimmed.
  public var naturalKey: String {
    let t = text.trimmed
    // NB: ASCII is its own NFC form; Foundation's normalisation was a sixth of `word list`.
    if t.utf8.allSatisfy({ $0 < 0x80 }) { return t.lowercased() }
    return t.composed.lowercased()
  }

  public init(from decoder: any Decoder) throws {
    var r = try FieldReader(decoder, known: Self.keys)
    text = r.required("text") ?? ""
    phonetic = r.optional("phonetic")
    meanings = r.list("meanings")
    unknown = r.unknown()
    try r.finish(self)
  }

  public func encode(to encoder: any Encoder) throws {
    var w = FieldWriter(encoder)
    try w.write("text", text)
    try w.write("phonetic", phonetic)
    try w.writeNonEmpty("meanings", meanings)
    try w.write(unknown)
  }

  func validate(at path: [PathComponent]) -> [ValidationIssue] {
    var issues: [ValidationIssue] = []
    if naturalKey.isEmpty {
      issues.append(.init(at: path + [.key("text")], "a word's 'text' must not be empty"))
    }
    for (i, meaning) in meanings.enumerated()
    where meaning.definition.trimmed.isEmpty {
      issues.append(
        .init(
          at: path + [.key("meanings"), .index(i), .key("definition")],
          "meaning \(i + 1) of '\(text)' has an empty definition"))
    }
    return issues
  }
}

/// One meaning of a word.
public struct Meaning: Hashable, Sendable, Codable {
  /// Part of speech: noun, verb, interjection, ...
  public var partOfSpeech: String?
  /// The definition.
  public var definition: String
  /// An example sentence.
  public var example: String?
  /// Keys the schema does not know, kept as written.
  public var unknown = UnknownFields()

  /// The keys of a meaning, in the order they are written.
  public static let keys = ["partOfSpeech", "definition", "example"]

  /// Creates a meaning.
  public init(partOfSpeech: String? = nil, definition: String, example: String? = nil) {
    self.partOfSpeech = partOfSpeech
    self.definition = definition
    self.example = example
  }

  public init(from decoder: any Decoder) throws {
    var r = try FieldReader(decoder, known: Self.keys)
    partOfSpeech = r.optional("partOfSpeech")
    definition = r.required("definition") ?? ""
    example = r.optional("example")
    unknown = r.unknown()
    try r.finish(self)
  }

  public func encode(to encoder: any Encoder) throws {
    var w = FieldWriter(encoder)
    try w.write("partOfSpeech", partOfSpeech)
    try w.write("definition", definition)
    try w.write("example", example)
    try w.write(unknown)
  }
}

/// BCP 47 language tags, in the simple form dinger accepts: `es`, `en-GB`, `zh-Hant`, `pt-BR`.
public enum LanguageCode {
  /// True for a primary tag of 2-3 lowercase letters followed by subtags of 2-8 letters or digits.
  public static func isWellFormed(_ code: String) -> Bool {
    let parts = code.split(separator: "-", omittingEmptySubsequences: false)
    guard let primary = parts.first, (2...3).contains(primary.count),
      primary.allSatisfy({ $0.isASCII && $0.isLowercase })
    else { return false }
    return parts.dropFirst().allSatisfy { part in
      (2...8).contains(part.count) && part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
    }
  }

  /// The error for a malformed code.
  public static func message(_ code: String) -> String {
    "'language' must be a language code like 'es' or 'en-GB', found '\(code)'"
  }
}
