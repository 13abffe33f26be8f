import Base
import FoundationEssentials
import Glibc

/// One teammate's written stand-up for one day:
/// `standups/<scrum-slug>/<yyyy-mm-dd>-<person-slug>.yaml`. Each person writes only their own
/// file, so two teammates never conflict; a teammate editing someone else's entry merges field
/// by field like any record.
///
/// ```yaml
/// scrum: 6a4f0c1e-...
/// date: 2026-11-27              # the writer's local day
/// by: Ada Lovelace
/// yesterday: Finished the staging migration.
/// today: Cut the release candidate.
/// blockers:
///   - Waiting on the signing key from Grace       # opened here (its id comes from the text)
///   - {id: b1f0c2a9d, text: CI runners are full}  # an open one, carried over
/// resolved: [b7d21e004]                           # blockers this person resolved that day
/// ```
///
/// Every other key is the answer to one of the scrum's questions (`standup.questions`; the
/// default ones are `yesterday` and `today`).
public struct StandupEntry: Hashable, Sendable, Codable {
  /// The id of the scrum it belongs to.
  public var scrum: UUID
  /// The writer's local day, `YYYY-MM-DD`.
  public var date: String
  /// The attendee who wrote it.
  public var by: String
  /// Answers by question key, in the file's order.
  public var answers: [Answer]
  /// Blockers opened or carried over in this entry.
  public var blockers: [BlockerMention]
  /// Blockers this person resolved that day.
  public var resolved: [BlockerResolution]

  /// The keys that are not answers, in the order they are written.
  public static let reservedKeys = ["scrum", "date", "by", "blockers", "resolved"]
  /// The longest answer, in characters: a stand-up is a few lines.
  public static let maxAnswer = 10_000
  /// The most blockers one entry may open or carry.
  public static let maxBlockers = 100

  /// One answer.
  public struct Answer: Hashable, Sendable {
    public var key: String
    public var text: String
    public init(key: String, text: String) { (self.key, self.text) = (key, text) }
  }

  /// Creates an entry.
  public init(
    scrum: UUID, date: String, by: String, answers: [Answer] = [],
    blockers: [BlockerMention] = [], resolved: [BlockerResolution] = []
  ) {
    (self.scrum, self.date, self.by) = (scrum, date, by)
    (self.answers, self.blockers, self.resolved) = (answers, blockers, resolved)
  }

  /// The answer to `key`, if any.
  public func answer(_ key: String) -> String? { answers.first { $0.key == key }?.text }

  /// Whether it holds anything of a stand-up (an answer or a blocker), not only resolutions.
  public var isWritten: Bool {
    answers.contains { !$0.text.trimmed.isEmpty } || !blockers.isEmpty
  }

  public init(from decoder: any Decoder) throws {
    let all = try decoder.container(keyedBy: DynamicKey.self).allKeys.map(\.stringValue)
    let answerKeys = all.filter { !Self.reservedKeys.contains($0) }
    var r = try FieldReader(decoder, known: Self.reservedKeys + answerKeys)
    scrum = r.required("scrum") ?? UUID.nil
    date = r.required("date") ?? ""
    by = r.required("by") ?? ""
    var answers: [Answer] = []
    for key in answerKeys {
      // NB: an answer left empty (`today:`) is no answer.
      if let text: String = r.optional(key) { answers.append(Answer(key: key, text: text)) }
    }
    self.answers = answers
    blockers = r.list("blockers")
    resolved = r.list("resolved")
    _ = r.unknown()
    try r.finish(self)
  }

  public func encode(to encoder: any Encoder) throws {
    var w = FieldWriter(encoder)
    try w.write("scrum", scrum)
    try w.write("date", date)
    try w.write("by", by)
    for answer in answers { try w.write(answer.key, answer.text) }
    try w.writeNonEmpty("blockers", blockers)
    try w.writeNonEmpty("resolved", resolved)
  }

  /// The rules an entry follows on its own (the scrum, its attendees and questions are checked
  /// against the scrum's file by `check`).
  public func validate() -> [ValidationIssue] {
    var issues: [ValidationIssue] = []
    if CivilDate(date) == nil {
      issues.append(
        .init(
          at: [.key("date")],
          "'date' must be a day written YYYY-MM-DD, found '\(OneLineText.excerpt(date))'"))
    }
    if by.trimmed.isEmpty {
      issues.append(.init(at: [.key("by")], "'by' must name the attendee who wrote the entry"))
    } else if by.unicodeScalars.count > Attendee.maxName {
      issues.append(
        .init(
          at: [.key("by")], "'by' is longer than a name may be (\(Attendee.maxName) characters)"))
    }
    for answer in answers {
      if !StandupSettings.isQuestionKey(answer.key) {
        issues.append(
          .init(
            at: [.key(answer.key)],
            "'\(OneLineText.excerpt(answer.key))' is not a question key (lowercase letters, digits and '-')"
          ))
      } else if answer.text.unicodeScalars.count > Self.maxAnswer {
        issues.append(
          .init(
            at: [.key(answer.key)],
            "the answer to '\(answer.key)' is \(answer.text.unicodeScalars.count) characters long; an answer is at most \(Self.maxAnswer)"
          ))
      }
    }
    if blockers.count > Self.maxBlockers {
      issues.append(
        .init(
          at: [.key("blockers")],
          "an entry lists at most \(Self.maxBlockers) blockers, found \(blockers.count)"))
    }
    var seen = Set<String>()
    for (i, blocker) in blockers.enumerated() {
      let path: [PathComponent] = [.key("blockers"), .index(i)]
      if blocker.text.trimmed.isEmpty && blocker.id == nil {
        issues.append(.init(at: path, "blocker \(i + 1) says nothing; write what blocks you"))
      } else if blocker.text.unicodeScalars.count > Self.maxAnswer {
        issues.append(.init(at: path, "blocker \(i + 1) is longer than an answer may be"))
      }
      if let id = blocker.id, !BlockerID.isValid(id) {
        issues.append(
          .init(
            at: path + [.key("id")],
            "'\(OneLineText.excerpt(id))' is not a blocker id (like b1f0c2a9d: 'b' and 8 hex digits)"
          ))
      }
      let id = self.id(of: blocker)
      if !seen.insert(id).inserted {
        issues.append(.init(at: path, "blocker \(id) is listed twice; remove one"))
      }
    }
    for (i, resolution) in resolved.enumerated() where !BlockerID.isValid(resolution.id) {
      issues.append(
        .init(
          at: [.key("resolved"), .index(i)],
          "'\(OneLineText.excerpt(resolution.id))' is not a blocker id (like b1f0c2a9d: 'b' and 8 hex digits)"
        ))
    }
    return issues
  }

  /// A blocker's id: the one written, else the one its text gives on this entry's day.
  public func id(of blocker: BlockerMention) -> String {
    blocker.id ?? BlockerID.derived(scrum: scrum, date: date, by: by, text: blocker.text)
  }
}

/// A blocker as an entry lists it: a plain line (opened here), or `{id, text}` (carried over).
public struct BlockerMention: Hashable, Sendable, Codable {
  public var id: String?
  public var text: String
  /// Keys the schema does not know, kept as written.
  public var unknown = UnknownFields()

  public init(id: String? = nil, text: String) { (self.id, self.text) = (id, text) }

  public init(from decoder: any Decoder) throws {
    if let single = try? decoder.singleValueContainer(), let text = try? single.decode(String.self)
    {
      (id, self.text) = (nil, text)
      return
    }
    var r = try FieldReader(decoder, known: ["id", "text"])
    id = r.optional("id")
    text = r.optional("text") ?? ""
    unknown = r.unknown()
    try r.finish(self)
  }

  public func encode(to encoder: any Encoder) throws {
    guard id != nil || !unknown.isEmpty else {
      var c = encoder.singleValueContainer()
      try c.encode(text)
      return
    }
    var w = FieldWriter(encoder)
    try w.write("id", id)
    try w.write("text", text)
    try w.write(unknown)
  }
}

/// A blocker resolved in an entry: its id, or `{id, note}`.
public struct BlockerResolution: Hashable, Sendable, Codable {
  public var id: String
  public var note: String?
  /// Keys the schema does not know, kept as written.
  public var unknown = UnknownFields()

  public init(id: String, note: String? = nil) { (self.id, self.note) = (id, note) }

  public init(from decoder: any Decoder) throws {
    if let single = try? decoder.singleValueContainer(), let id = try? single.decode(String.self) {
      (self.id, note) = (id, nil)
      return
    }
    var r = try FieldReader(decoder, known: ["id", "note"])
    id = r.required("id") ?? ""
    note = r.optional("note")
    unknown = r.unknown()
    try r.finish(self)
  }

  public func encode(to encoder: any Encoder) throws {
    guard note != nil || !unknown.isEmpty else {
      var c = encoder.singleValueContainer()
      try c.encode(id)
      return
    }
    var w = FieldWriter(encoder)
    try w.write("id", id)
    try w.write("note", note)
    try w.write(unknown)
  }
}

/// Blocker ids: `b` and 8 lowercase hex digits, from the text that opened the blocker.
public enum BlockerID {
  /// The id a blocker opened with `text` by `by` on `date` gets.
  public static func derived(scrum: UUID, date: String, by: String, text: String) -> String {
    var h = FNV1a()
    h.add(scrum.uuidString.lowercased().utf8)
    h.add(0)
    h.add(date.utf8)
    h.add(0)
    h.add(by.trimmed.lowercased().utf8)
    h.add(0)
    h.add(text.trimmed.utf8)
    let hex = String(h.value & 0xffff_ffff, radix: 16)
    return "b" + String(repeating: "0", count: 8 - hex.count) + hex
  }

  /// Whether `id` has an id's form.
  public static func isValid(_ id: String) -> Bool {
    let b = Array(id.utf8)
    return b.count == 9 && b[0] == UInt8(ascii: "b")
      && b.dropFirst().allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
  }
}

extension StandupEntry {
  /// What changed between two versions of an entry, in words: "today changed", "blocker
  /// b1f0c2a9d opened", "resolved b7d21e004".
  public static func describe(from a: StandupEntry, to b: StandupEntry) -> [String] {
    var parts: [String] = []
    let keys = (a.answers.map(\.key) + b.answers.map(\.key)).reduce(into: [String]()) {
      if !$0.contains($1) { $0.append($1) }
    }
    for key in keys where a.answer(key) != b.answer(key) {
      parts.append(
        a.answer(key) == nil
          ? "\(key) answered" : b.answer(key) == nil ? "\(key) cleared" : "\(key) changed")
    }
    let before = Set(a.blockers.map { a.id(of: $0) })
    let after = Set(b.blockers.map { b.id(of: $0) })
    for id in b.blockers.map({ b.id(of: $0) }) where !before.contains(id) {
      parts.append("blocker \(id) listed")
    }
    for id in a.blockers.map({ a.id(of: $0) }) where !after.contains(id) {
      parts.append("blocker \(id) no longer listed")
    }
    let resolvedBefore = Set(a.resolved.map(\.id))
    for r in b.resolved where !resolvedBefore.contains(r.id) { parts.append("resolved \(r.id)") }
    if a.scrum != b.scrum || a.date != b.date || a.by != b.by {
      parts.append("moved to another day or person")
    }
    return parts
  }
}
