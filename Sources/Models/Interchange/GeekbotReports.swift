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

  /// Answers that say there is no blocker.
  static let noBlocker: Set<String> = [
    "", "-", "no", "none", "nope", "nothing", "n/a", "na", "no blockers", "nothing blocking",
    "all good", "no.", "none.", "nothing.",
  ]

  /// Reads the reports and makes entries for `scrum` (its id `id`). `day` gives a report's
  /// local day; a report's writer must be one of the scrum's attendees (by real name or user
  /// name, case ignored).
  public static func convert(
    _ bytes: [UInt8], scrum: Scrum, id: UUID, day: (Date) -> CivilDate
  ) throws -> Converted {
    let reports = try ImportBatch.decode([Report].self, bytes, app: "Geekbot")
    let asked = (scrum.standup ?? StandupSettings()).asked
    var out = Converted()
    var seen = Set<String>()
    // NB: the first attendee of each name, looked up, not searched per report.
    var byKey: [String: Int] = [:]
    for (i, a) in scrum.attendees.enumerated() where byKey[a.naturalKey] == nil {
      byKey[a.naturalKey] = i
    }
    for report in reports.sorted(by: { $0.timestamp < $1.timestamp }) {
      let names = [report.member.realname, report.member.username].compactMap { $0?.trimmed }
        .filter { !$0.isEmpty }
      let who = names.first ?? "?"
      guard let index = names.compactMap({ byKey[$0.lowercased()] }).min() else {
        out.notes.append(
          "report \(report.id) by '\(OneLineText.excerpt(who))' left out: not an attendee of \(scrum.title) (add them with dinger scrum edit, then import again)"
        )
        continue
      }
      let attendee = scrum.attendees[index]
      let date = day(Date(timeIntervalSince1970: Double(report.timestamp))).description
      guard seen.insert("\(attendee.naturalKey)@\(date)").inserted else {
        out.notes.append(
          "report \(report.id) left out: \(attendee.name) has an earlier report for \(date) in the file"
        )
        continue
      }
      var entry = StandupEntry(scrum: id, date: date, by: attendee.name)
      for q in report.questions {
        let answer = (q.answer ?? "").trimmed
        let key = match(q.question, asked: asked)
        if key == "blockers" {
          for line in answer.split(whereSeparator: \.isNewline) {
            let text = String(line).trimmed.drop { "-*•".contains($0) }.description.trimmed
            guard !noBlocker.contains(text.lowercased()) else { continue }
            entry.blockers.append(BlockerMention(text: String(text.prefix(StandupEntry.maxAnswer))))
          }
        } else if let key {
          guard !answer.isEmpty else { continue }
          entry.answers.append(.init(key: key, text: String(answer.prefix(StandupEntry.maxAnswer))))
        } else if !answer.isEmpty {
          out.notes.append(
            "report \(report.id): \(scrum.title) asks nothing like '\(OneLineText.excerpt(q.question))'; that answer was left out (add the question to the scrum's standup: questions, then import again)"
          )
        }
      }
      guard entry.isWritten else {
        out.notes.append("report \(report.id) by \(attendee.name) left out: it answers nothing")
        continue
      }
      out.entries.append(entry)
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
