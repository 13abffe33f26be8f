import Foundation

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
    if old.attendees == new.attendees {
      if old.unknown != new.unknown { parts.append("other fields") }
      return parts
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

  private static func list(_ verb: String, _ names: [String]) -> String {
    "\(verb) attendee\(names.count == 1 ? "" : "s") \(names.joined(separator: ", "))"
  }
}
