import Foundation
import Models

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
    let oldNames = old.attendees.map(\.naturalKey)
    let newNames = new.attendees.map(\.naturalKey)
    let added = new.attendees.filter { !oldNames.contains($0.naturalKey) }.map(\.name)
    let removed = old.attendees.filter { !newNames.contains($0.naturalKey) }.map(\.name)
    if !added.isEmpty { parts.append(list("add", added)) }
    if !removed.isEmpty { parts.append(list("remove", removed)) }
    if added.isEmpty && removed.isEmpty && oldNames != newNames && Set(oldNames) == Set(newNames) {
      parts.append("reorder attendees")
    }
    if old.unknown != new.unknown { parts.append("other fields") }
    return parts
  }

  private static func list(_ verb: String, _ names: [String]) -> String {
    "\(verb) attendee\(names.count == 1 ? "" : "s") \(names.joined(separator: ", "))"
  }
}

/// File names from titles.
public enum Slug {
  /// `Design Review!` -> `design-review`; accents folded, anything else a dash.
  public static func make(_ title: String) -> String {
    let folded = title.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil)
      .lowercased()
    var out = ""
    for scalar in folded.unicodeScalars {
      if scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar)) {
        out.unicodeScalars.append(scalar)
      } else if !out.isEmpty && !out.hasSuffix("-") {
        out += "-"
      }
    }
    while out.hasSuffix("-") { out.removeLast() }
    return String(out.prefix(60))
  }

  /// `folder/slug.yaml`, with `-2`, `-3` ... when taken.
  public static func uniquePath(folder: String, title: String, taken: Set<String>, fallback: String)
    -> String
  {
    let base = make(title).isEmpty ? fallback : make(title)
    var candidate = "\(folder)/\(base).yaml"
    var n = 2
    while taken.contains(candidate) {
      candidate = "\(folder)/\(base)-\(n).yaml"
      n += 1
    }
    return candidate
  }
}

/// Whether a YAML file has comments (a `#` that starts a line or follows a blank outside quotes).
enum CommentDetector {
  static func hasComments(_ bytes: [UInt8]) -> Bool {
    var inSingle = false
    var inDouble = false
    var previous: UInt8 = UInt8(ascii: "\n")
    for b in bytes {
      switch b {
      case UInt8(ascii: "\n"):
        inSingle = false
        inDouble = false
      case UInt8(ascii: "'") where !inDouble: inSingle.toggle()
      case UInt8(ascii: "\"") where !inSingle: inDouble.toggle()
      case UInt8(ascii: "#") where !inSingle && !inDouble:
        if previous == UInt8(ascii: " ") || previous == UInt8(ascii: "\n")
          || previous == UInt8(ascii: "\t")
        {
          return true
        }
      default: break
      }
      previous = b
    }
    return false
  }
}
