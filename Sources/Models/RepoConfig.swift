import Base
import FoundationEssentials
import Glibc

/// The data repository's settings: `.dinger/config.yaml`.
public struct RepoConfig: Hashable, Sendable, Codable {
  /// The file format version; this dinger reads and writes version 1.
  public var format: Int
  /// Default language for new libraries and look-ups.
  public var language: String?
  /// Quiz defaults.
  public var quiz: QuizDefaults?
  /// Dictionary endpoints for `word lookup` and `word random`.
  public var dictionary: DictionaryEndpoints?
  /// Meeting settings.
  public var meet: MeetDefaults?
  /// Keys the schema does not know, kept as written.
  public var unknown = UnknownFields()

  /// The format version this dinger understands.
  public static let currentFormat = 1
  /// The keys of a config file, in the order they are written.
  public static let keys = ["format", "language", "quiz", "dictionary", "meet"]

  /// Creates a config.
  public init(
    format: Int = RepoConfig.currentFormat, language: String? = "en", quiz: QuizDefaults? = nil,
    dictionary: DictionaryEndpoints? = nil
  ) {
    self.format = format
    self.language = language
    self.quiz = quiz
    self.dictionary = dictionary
  }

  public init(from decoder: any Decoder) throws {
    var r = try FieldReader(decoder, known: Self.keys)
    format = r.required("format") ?? Self.currentFormat
    language = r.optional("language")
    quiz = r.optional("quiz")
    dictionary = r.optional("dictionary")
    meet = r.optional("meet")
    unknown = r.unknown()
    try r.finish(self)
  }

  public func encode(to encoder: any Encoder) throws {
    var w = FieldWriter(encoder)
    try w.write("format", format)
    try w.write("language", language)
    try w.write("quiz", quiz)
    try w.write("dictionary", dictionary)
    try w.write("meet", meet)
    try w.write(unknown)
  }

  /// The rules a config must follow beyond its types.
  public func validate() -> [ValidationIssue] {
    var issues: [ValidationIssue] = []
    if format > Self.currentFormat {
      issues.append(
        .init(
          at: [.key("format")],
          "this data uses format \(format), newer than this dinger understands (\(Self.currentFormat)); update dinger"
        ))
    } else if format < 1 {
      issues.append(.init(at: [.key("format")], "'format' must be 1, found \(format)"))
    }
    if let language, !LanguageCode.isWellFormed(language) {
      issues.append(.init(at: [.key("language")], LanguageCode.message(language)))
    }
    if let quiz {
      if let q = quiz.questions, !(1...100).contains(q) {
        issues.append(
          .init(
            at: [.key("quiz"), .key("questions")], "'questions' must be from 1 to 100, found \(q)"))
      }
      if let s = quiz.seconds, !(1...600).contains(s) {
        issues.append(
          .init(at: [.key("quiz"), .key("seconds")], "'seconds' must be from 1 to 600, found \(s)"))
      }
    }
    if let t = dictionary?.timeout, !(t > 0 && t <= 120) {
      issues.append(
        .init(
          at: [.key("dictionary"), .key("timeout")],
          "'timeout' must be more than 0 and at most 120 seconds, found \(t)"))
    }
    return issues
  }
}

/// Meeting settings a repository may set.
public struct MeetDefaults: Hashable, Sendable, Codable {
  /// Play a ding through the sound server at each speaker change (`meet --sound`).
  public var sound: Bool?
  /// Keys the schema does not know, kept as written.
  public var unknown = UnknownFields()

  /// Creates meeting settings.
  public init(sound: Bool? = nil) { self.sound = sound }

  public init(from decoder: any Decoder) throws {
    var r = try FieldReader(decoder, known: ["sound"])
    sound = r.optional("sound")
    unknown = r.unknown()
    try r.finish(self)
  }

  public func encode(to encoder: any Encoder) throws {
    var w = FieldWriter(encoder)
    try w.write("sound", sound)
    try w.write(unknown)
  }
}

/// Quiz settings a repository may set.
public struct QuizDefaults: Hashable, Sendable, Codable {
  /// Questions per quiz.
  public var questions: Int?
  /// Seconds per question.
  public var seconds: Int?
  /// Keys the schema does not know, kept as written.
  public var unknown = UnknownFields()

  /// Creates quiz defaults.
  public init(questions: Int? = nil, seconds: Int? = nil) {
    self.questions = questions
    self.seconds = seconds
  }

  public init(from decoder: any Decoder) throws {
    var r = try FieldReader(decoder, known: ["questions", "seconds"])
    questions = r.optional("questions")
    seconds = r.optional("seconds")
    unknown = r.unknown()
    try r.finish(self)
  }

  public func encode(to encoder: any Encoder) throws {
    var w = FieldWriter(encoder)
    try w.write("questions", questions)
    try w.write("seconds", seconds)
    try w.write(unknown)
  }
}

/// Where `word lookup` and `word random` ask.
public struct DictionaryEndpoints: Hashable, Sendable, Codable {
  /// Base URL of a Free-Dictionary-API-compatible service.
  public var definitions: URL?
  /// Base URL of a random-word service.
  public var randomWords: URL?
  /// Seconds before a request gives up.
  public var timeout: Double?
  /// Keys the schema does not know, kept as written.
  public var unknown = UnknownFields()

  /// Creates endpoints.
  public init(definitions: URL? = nil, randomWords: URL? = nil, timeout: Double? = nil) {
    self.definitions = definitions
    self.randomWords = randomWords
    self.timeout = timeout
  }

  public init(from decoder: any Decoder) throws {
    var r = try FieldReader(decoder, known: ["definitions", "randomWords", "timeout"])
    definitions = r.optional("definitions")
    randomWords = r.optional("randomWords")
    timeout = r.optional("timeout")
    unknown = r.unknown()
    try r.finish(self)
  }

  public func encode(to encoder: any Encoder) throws {
    var w = FieldWriter(encoder)
    try w.write("definitions", definitions)
    try w.write("randomWords", randomWords)
    try w.write("timeout", timeout)
    try w.write(unknown)
  }
}
