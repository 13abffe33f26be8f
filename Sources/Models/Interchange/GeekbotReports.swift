import Base
import FoundationEssentials

/// Geekbot's stand-up reports as its API gives them (`GET /v1/reports`): `[{id, standup_id,
/// timestamp, member: {id, realname, username}, questions: [{question, answer, ...}]}]`,
/// made into written stand-up entries of one scrum.
public enum GeekbotReports {
  public struct Report: Decodable, Sendable {
    public var id: LooseID
    public var timestamp: Int64
    public var member: Member
    public var questions: [Question]
  }

  public struct Member: Decodable, Sendable {
    public var realname: String?
    public var username: String?
  }

  public struct Question: Decodable, Sendable {
    public var question: String
    public var answer: String?
  }

  /// Geekbot's ids are numbers; a string is taken too.
  public struct LooseID: Decodable, Sendable, CustomStringConvertible {
    public var description: String
    public init(from decoder: any Decoder) throws {
      let c = try decoder.singleValueContainer()
      if let n = try? c.decode(Int64.self) {
        description = String(n)
      } else {
        description = try c.decode(String.self)
      }
    }
  }

  /// What the reports become: one entry per person and day, and a note for each thing left
  /// out or changed.
  public struct Converted: Sendable {
    public var entries: [StandupEntry] = []
    public var notes: [String] = []
  }

  /// Answers that say there is no blocker, once case, punctuation, emoji and `:shortcodes:`
  /// are set aside.
  static let noBlocker: Set<String> = [
    "", "no", "none", "nope", "nah", "nothing", "n a", "na", "nil", "no blockers", "no blocker",
    "nothing blocking", "nothing blocking me", "not blocked", "no blocks", "all good",
    "none so far",
    "nothing so far", "no issues", "no problems", "not really", "none today", "nothing today",
    "no blockers today", "all clear",
  ]

  /// Whether a line of a blocker answer says there is none: "Nope :slightly_smiling_face:",
  /// "N/A.", "-", "NONE!", "👍", "no blockers 🎉".
  public static func saysNone(_ line: String) -> Bool {
    var text = ""
    var rest = Substring(line)
    // :shortcodes: out.
    while let colon = rest.firstIndex(of: ":") {
      text += rest[..<colon]
      let after = rest[rest.index(after: colon)...]
      if let end = after.firstIndex(of: ":"),
        after[..<end].allSatisfy({ $0.isLetter || $0.isNumber || "_+-".contains($0) }),
        !after[..<end].isEmpty
      {
        rest = after[after.index(after: end)...]
      } else {
        rest = after
      }
    }
    text += rest
    // Letters and digits only (emoji and punctuation out), words separated by one space.
    let words = text.lowercased().split(whereSeparator: { !($0.isLetter || $0.isNumber) })
    return noBlocker.contains(words.joined(separator: " "))
  }

  /// Reads the reports and makes entries for `scrum` (its id `id`). `day` gives a report's
  /// day in its writer's zone; `today` the writer's today (a later report is refused). A
  /// report's writer must be one of the scrum's attendees (by real name or user name, case
  /// ignored). Blockers come from the question that asks for them alone, and a day's answer is
  /// that day's state: a blocker the writer does not repeat in their next report is resolved in
  /// it, one they repeat keeps its id.
  public static func convert(
    _ bytes: [UInt8], scrum: Scrum, id: UUID, day: (Date, Attendee) -> CivilDate,
    today: (Attendee) -> CivilDate, renames: [String: String] = [:]
  ) throws -> Converted {
    let reports = try ImportBatch.decode([Report].self, bytes, app: "Geekbot")
    let asked = (scrum.standup ?? StandupSettings()).asked
    var out = Converted()
    var seen = Set<String>()
    // NB: the first attendee of each name, looked up, not searched per report.
    var byKey: [String: Int] = [:]
    // NB: a person's other names (aka) find them too.
    for (i, a) in scrum.attendees.enumerated() {
      for key in a.keys where byKey[key] == nil { byKey[key] = i }
    }
    /// Each writer's open blockers: text (as compared) to id.
    var open: [String: [(key: String, id: String)]] = [:]
    var moods: [String: Int] = [:]
    for report in reports.sorted(by: { $0.timestamp < $1.timestamp }) {
      // NB: `--map OLD=NEW` first: a name from the other tool is the attendee it names.
      let names = [report.member.realname, report.member.username].compactMap { $0?.trimmed }
        .filter { !$0.isEmpty }.map { renames[$0.lowercased()] ?? $0 }
      let who = names.first ?? "?"
      guard let index = names.compactMap({ byKey[$0.lowercased()] }).min() else {
        out.notes.append(
          "report \(report.id) by '\(OneLineText.excerpt(who))' left out: not an attendee of \(scrum.title) (add them with dinger scrum edit, then import again)"
        )
        continue
      }
      let attendee = scrum.attendees[index]
      guard let at = ImportBatch.date(unixSeconds: report.timestamp) else {
        out.notes.append(
          "report \(report.id) by \(attendee.name) left out: its timestamp \(report.timestamp) is not between 1970 and 2200"
        )
        continue
      }
      let civil = day(at, attendee)
      guard civil <= today(attendee) else {
        out.notes.append(
          "report \(report.id) by \(attendee.name) left out: it is dated \(civil), after the writer's today (an entry is never dated in the future)"
        )
        continue
      }
      let date = civil.description
      guard seen.insert("\(attendee.naturalKey)@\(date)").inserted else {
        out.notes.append(
          "report \(report.id) left out: \(attendee.name) has an earlier report for \(date) in the file"
        )
        continue
      }
      var entry = StandupEntry(scrum: id, date: date, by: attendee.name)
      var blockerAnswer: [String]?
      for q in report.questions {
        let answer = (q.answer ?? "").trimmed
        switch match(q.question, asked: asked) {
        case "blockers":
          blockerAnswer =
            (blockerAnswer ?? [])
            + answer.split(whereSeparator: \.isNewline).map {
              String($0).trimmed.drop { "-*•".contains($0) }.description.trimmed
            }.filter { !saysNone($0) }
        case "mood":
          if !answer.isEmpty { moods[q.question, default: 0] += 1 }
        case let key?:
          guard !answer.isEmpty else { continue }
          entry.answers.append(.init(key: key, text: String(answer.prefix(StandupEntry.maxAnswer))))
        case nil:
          if !answer.isEmpty {
            out.notes.append(
              "report \(report.id): \(scrum.title) asks nothing like '\(OneLineText.excerpt(q.question))'; that answer was left out (add the question to the scrum's standup: questions, then import again)"
            )
          }
        }
      }
      // NB: a report that answers the blocker question says the day's state; one that does not
      // ask it (another stand-up's) says nothing about blockers.
      if let listed = blockerAnswer {
        var still: [(key: String, id: String)] = []
        for text in listed {
          let text = String(text.prefix(StandupEntry.maxAnswer))
          let key = text.lowercased()
          if let known = open[attendee.naturalKey, default: []].first(where: { $0.key == key })
            ?? still.first(where: { $0.key == key })
          {
            if !still.contains(where: { $0.key == key }) { still.append(known) }
            entry.blockers.append(BlockerMention(id: known.id, text: text))
          } else {
            let new = BlockerID.derived(scrum: id, date: date, by: attendee.name, text: text)
            still.append((key, new))
            entry.blockers.append(BlockerMention(text: text))
          }
        }
        for gone in open[attendee.naturalKey, default: []]
        where !still.contains(where: { $0.id == gone.id }) {
          entry.resolved.append(
            BlockerResolution(id: gone.id, note: "not in the next Geekbot report"))
        }
        open[attendee.naturalKey] = still
      }
      guard entry.isWritten || !entry.resolved.isEmpty else {
        out.notes.append("report \(report.id) by \(attendee.name) left out: it answers nothing")
        continue
      }
      out.entries.append(entry)
    }
    for (question, count) in moods.sorted(by: { $0.key < $1.key }) {
      out.notes.append(
        "'\(OneLineText.excerpt(question))' asks for a mood, and a scrum's questions have no mood answers yet: its \(count) answer\(count == 1 ? " was" : "s were") left out"
      )
    }
    return out
  }

  /// The key of the scrum's question a Geekbot question asks, `blockers` for the blocker
  /// question, nil when it asks none of them.
  static func match(_ question: String, asked: [StandupSettings.Question]) -> String? {
    let q = question.trimmed.lowercased()
    if let same = asked.first(where: { $0.ask.trimmed.lowercased() == q || $0.key == q }) {
      return same.key
    }
    // NB: before "today": Geekbot's first default question is "How do you feel today?".
    if ["feel", "mood", "how are you"].contains(where: { q.contains($0) }) { return "mood" }
    if ["block", "obstacle", "imped", "stuck", "in your way"].contains(where: { q.contains($0) }) {
      return "blockers"
    }
    let keys = Set(asked.map(\.key))
    if keys.contains("yesterday"),
      ["yesterday", "since", "did you", "last", "accomplish", "finish"].contains(where: {
        q.contains($0)
      })
    {
      return "yesterday"
    }
    if keys.contains("today"),
      ["today", "will you", "plan", "working on"].contains(where: { q.contains($0) })
    {
      return "today"
    }
    return nil
  }
}
