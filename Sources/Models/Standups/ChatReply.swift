import Base

/// A stand-up answered in chat: one line per question (`yesterday: ...`, `today: ...`,
/// `blocker: ...`, `resolve: b1f0c2a9d`, or the question's own words before the colon). Text
/// before the first key answers the first question; a line without a key goes on the answer
/// above it. A blocker line that says there are none ("no", "nope", "n/a", an emoji) opens
/// nothing, as in the Geekbot import.
public struct ChatReply: Sendable, Equatable {
  public var answers: [StandupEntry.Answer] = []
  public var blockers: [String] = []
  public var resolved: [String] = []

  /// True when the reply says nothing an entry keeps.
  public var isEmpty: Bool { answers.isEmpty && blockers.isEmpty && resolved.isEmpty }

  /// Reads a reply's text against the questions a scrum asks.
  public init(_ body: String, asked: [StandupSettings.Question]) {
    var current: String? = asked.first?.key
    var texts: [String: [String]] = [:]
    var order: [String] = []
    func add(_ key: String, _ text: String) {
      if texts[key] == nil { order.append(key) }
      texts[key, default: []].append(text)
    }
    for raw in body.split(separator: "\n", omittingEmptySubsequences: false) {
      let line = String(raw).trimmed()
      guard !line.isEmpty else { continue }
      if let colon = line.firstIndex(of: ":") {
        let label = String(line[..<colon]).trimmed().lowercased()
        let rest = String(line[line.index(after: colon)...]).trimmed()
        if ["blocker", "blockers", "blocked", "blocked by"].contains(label) {
          current = nil
          if !rest.isEmpty, !GeekbotReports.saysNone(rest) { blockers.append(rest) }
          continue
        }
        if ["resolve", "resolved", "resolves"].contains(label) {
          current = nil
          for id in rest.split(whereSeparator: { $0 == " " || $0 == "," }) {
            resolved.append(id.lowercased())
          }
          continue
        }
        if let question = asked.first(where: {
          $0.key == label || Self.words($0.ask) == Self.words(label)
        }) {
          current = question.key
          if !rest.isEmpty { add(question.key, rest) }
          continue
        }
      }
      if let current {
        add(current, line)
      } else if !GeekbotReports.saysNone(line) {
        // NB: lines after a blocker line are more blockers.
        blockers.append(line)
      }
    }
    answers = order.compactMap { key in
      let text = texts[key]!.joined(separator: "\n")
      return text.isEmpty ? nil : StandupEntry.Answer(key: key, text: text)
    }
  }

  /// A question's words, lower-cased, without the punctuation around them.
  static func words(_ text: some StringProtocol) -> String {
    text.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }).joined(separator: " ")
  }

  /// How a reminder tells people to answer: one line per question.
  public static func howToAnswer(_ asked: [StandupSettings.Question]) -> String {
    "Answer in this thread, one line each: "
      + (asked.map { "\($0.key): ..." } + ["blocker: ...", "resolve: ID"]).joined(separator: ", ")
  }
}
