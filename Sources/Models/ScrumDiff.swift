import Base
import FoundationEssentials
import Glibc

/// Says in words what changed between two versions of a scrum, for commit subjects.
public enum ScrumDiff {
  /// `["rename to Design Sync", "theme yellow -> orange", "length 10 -> 15 min",
  /// "add attendee Bob", "remove attendees Ada, Eve"]`; empty when nothing changed.
  public static func describe(from old: Scrum, to new: Scrum) -> [String] {
    var parts: [String] = []
    if old.title != new.title { parts.append("rename to \(new.title)") }
    if old.effectiveTheme != new.effectiveTheme || (old.theme == nil) != (new.theme == nil) {
      parts.append("theme \(old.effectiveTheme.rawValue) -> \(new.effectiveTheme.rawValue)")
    }
    if old.length != new.length { parts.append("length \(old.length) -> \(new.length) min") }
    parts += scheduleChanges(old.schedule, new.schedule)
    if old.standup != new.standup { parts.append("stand-up questions and days") }
    if old.attendees == new.attendees {
      if old.unknown != new.unknown { parts.append("other fields") }
      return parts
    }
    // NB: absences and emails of attendees on both sides, by name (linear: a dictionary).
    let before = Dictionary(
      old.attendees.map { ($0.naturalKey, $0) }, uniquingKeysWith: { a, _ in a })
    for a in new.attendees {
      guard let b = before[a.naturalKey] else { continue }
      for absence in a.away where !b.away.contains(absence) {
        let span =
          absence.from == absence.until ? absence.from : "\(absence.from) to \(absence.until)"
        parts.append("\(a.name) away \(span)")
      }
      for absence in b.away where !a.away.contains(absence) {
        parts.append("\(a.name) no longer away from \(absence.from)")
      }
      if a.email != b.email { parts.append("\(a.name)'s email") }
    }
    let oldNames = old.attendees.map(\.naturalKey)
    let newNames = new.attendees.map(\.naturalKey)
    // NB: sets, so a scrum of 100,000 attendees is compared in linear time.
    let (oldSet, newSet) = (Set(oldNames), Set(newNames))
    let added = new.attendees.filter { !oldSet.contains($0.naturalKey) }.map(\.name)
    let removed = old.attendees.filter { !newSet.contains($0.naturalKey) }.map(\.name)
    if !added.isEmpty { parts.append(list("add", added)) }
    if !removed.isEmpty { parts.append(list("remove", removed)) }
    if added.isEmpty && removed.isEmpty && oldNames != newNames && oldSet == newSet {
      parts.append("reorder attendees")
    }
    if old.unknown != new.unknown { parts.append("other fields") }
    return parts
  }

  /// `schedule weekdays 09:30 Europe/Berlin`, `skip 2026-12-24`, `move 2027-01-07 to 11:00`,
  /// `remove schedule`.
  static func scheduleChanges(_ old: Schedule?, _ new: Schedule?) -> [String] {
    guard old != new else { return [] }
    guard let new else { return ["remove schedule"] }
    func summary(_ s: Schedule) -> String {
      var text = s.plan?.summary ?? "\(s.days.items.joined(separator: ", ")) \(s.at) \(s.zone)"
      if let from = s.from { text += " from \(from)" }
      if let until = s.until { text += " until \(until)" }
      return "schedule " + text
    }
    guard let old else { return [summary(new)] }
    var parts: [String] = []
    var core = old
    (core.skip, core.moved) = (new.skip, new.moved)
    if core != new { parts.append(summary(new)) }
    let added = new.skip.filter { !old.skip.contains($0) }
    let removed = old.skip.filter { !new.skip.contains($0) }
    if !added.isEmpty { parts.append("skip " + added.joined(separator: ", ")) }
    if !removed.isEmpty { parts.append("unskip " + removed.joined(separator: ", ")) }
    let oldMoves = Dictionary(old.moved.map { ($0.date, $0.at) }, uniquingKeysWith: { a, _ in a })
    let newMoves = Dictionary(new.moved.map { ($0.date, $0.at) }, uniquingKeysWith: { a, _ in a })
    for m in new.moved where oldMoves[m.date] != m.at { parts.append("move \(m.date) to \(m.at)") }
    for m in old.moved where newMoves[m.date] == nil {
      parts.append("move \(m.date) back to \(new.at)")
    }
    return parts
  }

  private static func list(_ verb: String, _ names: [String]) -> String {
    "\(verb) attendee\(names.count == 1 ? "" : "s") \(names.joined(separator: ", "))"
  }
}
