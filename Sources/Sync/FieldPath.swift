import Base
import FoundationEssentials
import Glibc
import YAML

/// Where a value sits inside a record: mapping keys and list items named by identity
/// (`attendees[Ada Lovelace]`, `words[hola].phonetic`), never by position, so it still finds the
/// value after either side reordered or added items.
public struct FieldPath: Sendable, Hashable, CustomStringConvertible {
  /// One step down.
  public enum Segment: Sendable, Hashable {
    /// A mapping key.
    case key(String)
    /// A list item, by its identity (see `NodeIdentity`).
    case item(String)
  }

  /// The steps from the record's root; empty for the whole record.
  public var segments: [Segment]

  /// A path from its steps.
  public init(_ segments: [Segment] = []) { self.segments = segments }

  /// One step further down.
  public func appending(_ segment: Segment) -> FieldPath { FieldPath(segments + [segment]) }

  /// `length`, `attendees[Ada Lovelace]`, `words[hola].meanings`; `(whole record)` when empty.
  public var description: String {
    guard !segments.isEmpty else { return "(whole record)" }
    var out = ""
    for segment in segments {
      switch segment {
      case .key(let k): out += (out.isEmpty ? "" : ".") + k
      case .item(let id): out += "[" + NodeIdentity.display(id) + "]"
      }
    }
    return out
  }

  /// The machine form kept in conflict records: keys as they are, items as `[identity]`.
  public var stored: [String] {
    segments.map {
      switch $0 {
      case .key(let k): k
      case .item(let id): "[" + id + "]"
      }
    }
  }

  /// Reads the machine form back.
  public init(stored: [String]) {
    segments = stored.map {
      $0.hasPrefix("[") && $0.hasSuffix("]") && $0.count >= 2
        ? .item(String($0.dropFirst().dropLast())) : .key($0)
    }
  }
}

/// How list items are matched between versions: by `id`, else by a natural key (a word's
/// `text`, a speaker's `name`, a plain name), else by the whole value.
public enum NodeIdentity {
  /// The identity of a list item.
  public static func of(_ node: Node) -> String {
    if node.pairs != nil {
      if let id = node["id"]?.scalarText, !id.isEmpty { return "id:" + id.lowercased() }
      if let text = node["text"]?.scalarText { return "text:" + naturalKey(text) }
      if let name = node["name"]?.scalarText { return "name:" + naturalKey(name) }
      return "value:" + NodeWriter.text(node)
    }
    if let text = node.scalarText { return "name:" + naturalKey(text) }
    return "value:" + NodeWriter.text(node)
  }

  /// The readable part of an identity, for messages.
  public static func display(_ identity: String) -> String {
    guard let colon = identity.firstIndex(of: ":") else { return identity }
    let kind = identity[..<colon]
    let rest = String(identity[identity.index(after: colon)...])
    switch kind {
    case "id": return String(rest.prefix(8))
    case "value":
      let line = rest.split(separator: "\n").first.map(String.init) ?? rest
      return line.count > 30 ? String(line.prefix(27)) + "..." : line
    default: return rest
    }
  }

  /// Trimmed, NFC, lowercase: how a person tells two names or words apart.
  static func naturalKey(_ text: String) -> String {
    let t = text.trimmed()
    if t.utf8.allSatisfy({ $0 < 0x80 }) { return t.lowercased() }
    return t.composed.lowercased()
  }
}
