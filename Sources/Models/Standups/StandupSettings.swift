import Base
import FoundationEssentials

/// A scrum's written stand-up: its questions and the days an entry is expected.
///
/// ```yaml
/// standup:
///   questions:                   # default: yesterday, today (blockers are always asked)
///     - {key: yesterday, ask: What did you finish?}
///     - {key: risks, ask: Anything that could slip?}
///   days: [mon, tue, wed, thu]   # default: the schedule's days, else Monday to Friday
/// ```
public struct StandupSettings: Hashable, Sendable, Codable {
  /// The questions, in the order they are asked.
  public var questions: [Question]
  /// The days an entry is expected, as written (`mon`, `tuesday`...); empty: the default.
  public var days: [String]
  /// When each person is reminded to write, in their own time zone (`"09:00"`): `dinger remind`
  /// mentions each attendee at their own morning; nil: no personal reminders.
  public var remind: String?
  /// Keys the schema does not know, kept as written.
  public var unknown = UnknownFields()

  public static let keys = ["questions", "days", "remind"]

  /// One question: the key its answers are written under, and how it is asked.
  public struct Question: Hashable, Sendable, Codable {
    public var key: String
    public var ask: String
    /// What an answer is: nil or `text` (anything), `mood` (1 to 5, then an optional word:
    /// `4 tired`), `choice` (one of `options`).
    public var kind: String?
    /// A `choice` question's answers.
    public var options: [String] = []
    /// Keys the schema does not know, kept as written.
    public var unknown = UnknownFields()

    /// The kinds a question may be.
    public static let kinds = ["text", "mood", "choice"]

    public init(key: String, ask: String, kind: String? = nil, options: [String] = []) {
      (self.key, self.ask, self.kind, self.options) = (key, ask, kind, options)
    }

    /// A mood answer's number (`4` of `4 tired`), nil when it does not start with 1 to 5.
    public static func mood(_ text: String) -> Int? {
      let first = text.trimmed().prefix { !$0.isWhitespace }
      guard let n = Int(first), (1...5).contains(n) else { return nil }
      return n
    }

    /// Why `text` is no answer to this question, or nil when it is one.
    public func problem(with text: String) -> String? {
      switch kind {
      case "mood":
        return Self.mood(text) == nil
          ? "'\(key)' is a mood: 1 (low) to 5 (great), then a word if you like (e.g. '4 tired'); found '\(OneLineText.excerpt(text))'"
          : nil
      case "choice":
        let t = text.trimmed().lowercased()
        return options.contains(where: { $0.trimmed().lowercased() == t })
          ? nil
          : "'\(key)' is one of: \(options.joined(separator: ", ")); found '\(OneLineText.excerpt(text))'"
      default: return nil
      }
    }

    public init(from decoder: any Decoder) throws {
      if let single = try? decoder.singleValueContainer(),
        let key = try? single.decode(String.self)
      {
        (self.key, ask) = (key, key)
        return
      }
      var r = try FieldReader(decoder, known: ["key", "ask", "kind", "options"])
      key = r.required("key") ?? ""
      ask = r.optional("ask") ?? key
      kind = r.optional("kind")
      options = r.list("options")
      unknown = r.unknown()
      try r.finish(self)
    }

    public func encode(to encoder: any Encoder) throws {
      var w = FieldWriter(encoder)
      try w.write("key", key)
      try w.write("ask", ask)
      try w.write("kind", kind)
      try w.writeNonEmpty("options", options)
      try w.write(unknown)
    }
  }

  /// The questions a scrum asks when it sets none (Geekbot's and every stand-up tool's).
  public static let defaultQuestions = [
    Question(key: "yesterday", ask: "What did you do since your last entry?"),
    Question(key: "today", ask: "What will you do today?"),
  ]

  public init(questions: [Question] = [], days: [String] = []) {
    (self.questions, self.days) = (questions, days)
  }

  public init(from decoder: any Decoder) throws {
    var r = try FieldReader(decoder, known: Self.keys)
    questions = r.list("questions")
    days = r.list("days")
    remind = r.optional("remind")
    unknown = r.unknown()
    try r.finish(self)
  }

  public func encode(to encoder: any Encoder) throws {
    var w = FieldWriter(encoder)
    try w.writeNonEmpty("questions", questions)
    try w.writeNonEmpty("days", days)
    try w.write("remind", remind)
    try w.write(unknown)
  }

  /// What the questions of `scrum` say of `entry`'s answers, in order, by key: an answer to a
  /// question it does not ask (stand-up rule 1), and one that is no answer to its question's
  /// kind (a mood that is no 1 to 5). The one rule that writes (refusing) and `check` (warning)
  /// both apply.
  public static func problems(of entry: StandupEntry, in scrum: Scrum) -> [(
    key: String, message: String
  )] {
    let questions = (scrum.standup ?? StandupSettings()).asked
    let asked = questions.map(\.key)
    var out: [(key: String, message: String)] = []
    for answer in entry.answers {
      guard let question = questions.first(where: { $0.key == answer.key }) else {
        out.append(
          (
            answer.key,
            "\(scrum.title) asks no question '\(OneLineText.excerpt(answer.key))'\(Suggestions.hint(for: answer.key, in: asked)); it asks: \(asked.joined(separator: ", "))"
          ))
        continue
      }
      if !answer.text.trimmed().isEmpty, let problem = question.problem(with: answer.text) {
        out.append((answer.key, problem))
      }
    }
    return out
  }

  /// The questions asked: the scrum's, else the default ones.
  public var asked: [Question] { questions.isEmpty ? Self.defaultQuestions : questions }

  /// Whether `key` may name a question: lowercase letters, digits and `-`, 1 to 40 of them,
  /// and not a key an entry keeps for itself.
  public static func isQuestionKey(_ key: String) -> Bool {
    let b = Array(key.utf8)
    return (1...40).contains(b.count) && (97...122).contains(b[0])
      && b.allSatisfy { (97...122).contains($0) || (48...57).contains($0) || $0 == 45 }
      && !StandupEntry.reservedKeys.contains(key)
  }

  /// The days an entry is expected: `days`, else the schedule's, else Monday to Friday.
  public static func expectedDays(_ settings: StandupSettings?, schedule: Schedule?) -> [Weekday] {
    if let days = settings?.days, !days.isEmpty {
      let parsed = days.compactMap { Weekday(name: $0) }
      if !parsed.isEmpty { return parsed.sorted() }
    }
    if let plan = schedule?.plan { return plan.days }
    return [.monday, .tuesday, .wednesday, .thursday, .friday]
  }

  func validate(at path: [PathComponent]) -> [ValidationIssue] {
    var issues: [ValidationIssue] = []
    var seen = Set<String>()
    for (i, q) in questions.enumerated() {
      let at = path + [.key("questions"), .index(i)]
      if !Self.isQuestionKey(q.key) {
        issues.append(
          .init(
            at: at + [.key("key")],
            "'\(OneLineText.excerpt(q.key))' is not a question key: lowercase letters, digits and '-' (not scrum, date, by, blockers or resolved)"
          ))
      } else if !seen.insert(q.key).inserted {
        issues.append(.init(at: at, "the question '\(q.key)' is asked twice; remove one"))
      }
      if let kind = q.kind, !Question.kinds.contains(kind) {
        issues.append(
          .init(
            at: at + [.key("kind")],
            "'\(OneLineText.excerpt(kind))' is not a kind of question: text, mood or choice"))
      }
      if q.kind == "choice", q.options.isEmpty {
        issues.append(
          .init(at: at + [.key("options")], "a choice question lists its options (options: [a, b])")
        )
      }
    }
    if questions.count > 20 {
      issues.append(
        .init(at: path + [.key("questions")], "a stand-up asks at most 20 questions"))
    }
    if let remind, LocalTime(remind) == nil {
      issues.append(
        .init(
          at: path + [.key("remind")],
          "'\(OneLineText.excerpt(remind))' is not a time of day; write it as HH:MM (e.g. \"09:00\"), each person's own"
        ))
    }
    for (i, day) in days.enumerated() where Weekday(name: day) == nil {
      issues.append(
        .init(
          at: path + [.key("days"), .index(i)],
          "'\(OneLineText.excerpt(day))' is not a day of the week (mon ... sun)"))
    }
    return issues
  }
}

/// A stretch of days an attendee is away, both ends included: `{from: 2026-12-21, until:
/// 2027-01-01, note: holiday}`.
public struct Absence: Hashable, Sendable, Codable {
  public var from: String
  public var until: String
  public var note: String?
  /// Keys the schema does not know, kept as written.
  public var unknown = UnknownFields()

  public init(from: String, until: String, note: String? = nil) {
    (self.from, self.until, self.note) = (from, until, note)
  }

  public init(from decoder: any Decoder) throws {
    var r = try FieldReader(decoder, known: ["from", "until", "note"])
    from = r.required("from") ?? ""
    until = r.optional("until") ?? from
    note = r.optional("note")
    unknown = r.unknown()
    try r.finish(self)
  }

  public func encode(to encoder: any Encoder) throws {
    var w = FieldWriter(encoder)
    try w.write("from", from)
    try w.write("until", until)
    try w.write("note", note)
    try w.write(unknown)
  }

  /// Whether `day` falls in it.
  public func covers(_ day: CivilDate) -> Bool {
    guard let a = CivilDate(from), let b = CivilDate(until) else { return false }
    return a <= day && day <= b
  }

  /// What is wrong with an absence, in words; nil when nothing is.
  public static func problem(_ absence: Absence) -> String? {
    absence.validate(at: []).first?.message
  }

  func validate(at path: [PathComponent]) -> [ValidationIssue] {
    guard let a = CivilDate(from) else {
      return [
        .init(
          at: path + [.key("from")],
          "'from' must be a day written YYYY-MM-DD, found '\(OneLineText.excerpt(from))'")
      ]
    }
    guard let b = CivilDate(until) else {
      return [
        .init(
          at: path + [.key("until")],
          "'until' must be a day written YYYY-MM-DD, found '\(OneLineText.excerpt(until))'")
      ]
    }
    if b < a {
      return [.init(at: path + [.key("until")], "'until' (\(until)) is before 'from' (\(from))")]
    }
    return []
  }
}

extension Attendee {
  /// Whether the attendee is away on `day`, and the absence's note.
  public func away(on day: CivilDate) -> Absence? { away.first { $0.covers(day) } }
}
