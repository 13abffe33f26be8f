import Base
import Models

/// The written stand-up as text: a day's entries, and the open blockers.
public enum StandupViews {
  /// One attendee's line of a day: what they wrote, that they are away, or that it is missing.
  public struct DayRow: Sendable {
    public var person: String
    /// written, away, missing, notExpected.
    public var status: String
    public var answers: [(key: String, text: String)]
    public var blockers: [(id: String, text: String)]
    public var resolved: [String]
    public var awayNote: String?

    public init(
      person: String, status: String, answers: [(key: String, text: String)] = [],
      blockers: [(id: String, text: String)] = [], resolved: [String] = [], awayNote: String? = nil
    ) {
      (self.person, self.status, self.answers) = (person, status, answers)
      (self.blockers, self.resolved, self.awayNote) = (blockers, resolved, awayNote)
    }
  }

  /// `Platform, Friday 2026-11-27: 2 of 3 written` and each person's entry.
  public static func day(title: String, date: CivilDate, rows: [DayRow], color: Bool) -> String {
    let written = rows.filter { $0.status == "written" }.count
    let expected = rows.filter { $0.status == "written" || $0.status == "missing" }.count
    var out =
      Style.bold(
        "\(title), \(date.weekday.name.capitalized) \(date): \(written) of \(expected) written",
        color: color) + "\n"
    for row in rows {
      switch row.status {
      case "written":
        out += "\n" + Style.bold(row.person, color: color) + "\n"
        for (key, text) in row.answers where !text.trimmed.isEmpty {
          let lines = text.trimmed.split(separator: "\n", omittingEmptySubsequences: false)
          out += "  \(key): \(lines.first ?? "")\n"
          for line in lines.dropFirst() {
            out += "  " + String(repeating: " ", count: key.count + 2) + line + "\n"
          }
        }
        for (id, text) in row.blockers { out += "  blocker \(id): \(text)\n" }
        for id in row.resolved { out += "  resolved \(id)\n" }
      default: continue
      }
    }
    let away = rows.filter { $0.status == "away" }
    if !away.isEmpty {
      out += "\nAway: "
      out += away.map { $0.person + ($0.awayNote.map { " (\($0))" } ?? "") }.joined(separator: ", ")
      out += "\n"
    }
    let missing = rows.filter { $0.status == "missing" }
    if !missing.isEmpty {
      out += "Not written yet: " + missing.map(\.person).joined(separator: ", ") + "\n"
    }
    if expected == 0 && away.isEmpty {
      out += "\nNo entry is expected on a \(date.weekday.name.capitalized).\n"
    }
    return out
  }

  /// A blocker as listed: id, age in working days, owner, text, and who resolved it.
  public struct BlockerRow: Sendable {
    public var id: String
    public var owner: String
    public var opened: String
    public var age: Int
    public var text: String
    public var mentions: Int
    public var resolved: String?

    public init(
      id: String, owner: String, opened: String, age: Int, text: String, mentions: Int,
      resolved: String?
    ) {
      (self.id, self.owner, self.opened, self.age) = (id, owner, opened, age)
      (self.text, self.mentions, self.resolved) = (text, mentions, resolved)
    }
  }

  /// The blockers, oldest first.
  public static func blockers(title: String, rows: [BlockerRow], all: Bool, color: Bool) -> String {
    let open = rows.filter { $0.resolved == nil }
    guard !rows.isEmpty, all || !open.isEmpty else {
      return "\(title): no open blockers\n"
    }
    var out = Style.bold("\(title): \(Style.plural(open.count, "open blocker"))", color: color)
    out += "\n"
    let shown = all ? rows : open
    let ownerWidth = min(24, shown.map { $0.owner.count }.max() ?? 0)
    for row in shown {
      let age = row.age == 1 ? "1 day " : "\(row.age) days"
      let owner = row.owner + String(repeating: " ", count: max(0, ownerWidth - row.owner.count))
      out += "  \(row.id)  \(age.leftPadded(to: 8))  \(owner)  \(row.text)"
      if row.mentions > 0 { out += "  (raised \(row.mentions + 1) times)" }
      if let resolved = row.resolved { out += "  resolved \(resolved)" }
      out += "\n"
    }
    return out
  }
}

extension String {
  fileprivate func leftPadded(to width: Int) -> String {
    count >= width ? self : String(repeating: " ", count: width - count) + self
  }
}
