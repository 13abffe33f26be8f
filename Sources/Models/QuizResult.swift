import Base
import FoundationEssentials
import Glibc

/// One quiz taken on a library: `quizzes/<library-slug>/<yyyy-mm-dd>-<id8>.yaml`.
public struct QuizResult: Hashable, Sendable, Codable {
  /// Identity; nil for a hand-written file that has none yet.
  public var id: UUID?
  /// The id of the library quizzed.
  public var library: UUID
  /// When the quiz started.
  public var date: Date
  /// Seconds allowed per question.
  public var seconds: Int?
  /// Each question and how it went, in order.
  public var questions: [QuizAnswer]
  /// Keys the schema does not know, kept as written.
  public var unknown = UnknownFields()

  /// The keys of a quiz file, in the order they are written.
  public static let keys = ["id", "library", "date", "seconds", "questions"]

  /// Creates a result.
  public init(
    id: UUID? = nil, library: UUID, date: Date, seconds: Int? = nil, questions: [QuizAnswer]
  ) {
    self.id = id
    self.library = library
    self.date = date
    self.seconds = seconds
    self.questions = questions
  }

  /// Questions answered right.
  public var score: Int { questions.filter(\.correct).count }

  public init(from decoder: any Decoder) throws {
    var r = try FieldReader(decoder, known: Self.keys)
    id = r.optional("id")
    library = r.required("library") ?? UUID.nil
    date = r.required("date") ?? Date(timeIntervalSince1970: 0)
    seconds = r.optional("seconds")
    questions = r.list("questions", required: true)
    unknown = r.unknown()
    try r.finish(self)
  }

  public func encode(to encoder: any Encoder) throws {
    var w = FieldWriter(encoder)
    try w.write("id", id)
    try w.write("library", library)
    try w.write("date", date)
    try w.write("seconds", seconds)
    try w.write("questions", questions)
    try w.write(unknown)
  }

  /// The rules a quiz result must follow beyond its types.
  public func validate() -> [ValidationIssue] {
    var issues: [ValidationIssue] = []
    if questions.isEmpty {
      issues.append(.init(at: [.key("questions")], "a quiz result needs at least one question"))
    }
    if let seconds, seconds < 1 {
      issues.append(.init(at: [.key("seconds")], "'seconds' must be 1 or more, found \(seconds)"))
    }
    for (i, q) in questions.enumerated() where q.word.trimmed.isEmpty {
      issues.append(
        .init(at: [.key("questions"), .index(i), .key("word")], "question \(i + 1) has no word"))
    }
    return issues
  }
}

/// One quiz question's outcome.
public struct QuizAnswer: Hashable, Sendable, Codable {
  /// The word asked.
  public var word: String
  /// Whether the answer was right (a timeout is wrong).
  public var correct: Bool
  /// Keys the schema does not know, kept as written.
  public var unknown = UnknownFields()

  /// Creates an answer.
  public init(word: String, correct: Bool) {
    self.word = word
    self.correct = correct
  }

  public init(from decoder: any Decoder) throws {
    var r = try FieldReader(decoder, known: ["word", "correct"])
    word = r.required("word") ?? ""
    correct = r.required("correct") ?? false
    unknown = r.unknown()
    try r.finish(self)
  }

  public func encode(to encoder: any Encoder) throws {
    var w = FieldWriter(encoder)
    try w.write("word", word)
    try w.write("correct", correct)
    try w.write(unknown)
  }
}
