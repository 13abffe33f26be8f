/// One node of a parsed YAML document: a scalar, a sequence or a mapping, with the exact source
/// range it came from and the style it was written in.
public struct Node: Sendable, Equatable {
  /// What the node holds.
  public var value: Value
  /// Where the node is in the source; synthesized nodes have an empty range at the start.
  public var range: SourceRange
  /// The explicit tag (`!!str`, `!custom`), if the source had one.
  public var tag: String?

  /// Creates a node.
  public init(_ value: Value, range: SourceRange = .init(start: .start, end: .start), tag: String? = nil) {
    self.value = value
    self.range = range
    self.tag = tag
  }

  /// The content of a node.
  public enum Value: Sendable, Equatable {
    /// A scalar's text (escapes resolved, folding applied) and how it was written.
    case scalar(String, ScalarStyle)
    /// The items of a sequence, in order.
    case sequence([Node], CollectionStyle)
    /// The key-value pairs of a mapping, in source order.
    case mapping([Pair], CollectionStyle)
  }

  /// A mapping entry.
  public struct Pair: Sendable, Equatable {
    /// The key node (a scalar in every Dinger file).
    public var key: Node
    /// The value node.
    public var value: Node

    /// Creates a pair.
    public init(key: Node, value: Node) {
      self.key = key
      self.value = value
    }
  }

  /// Creates a plain or quoted scalar node.
  public static func scalar(_ text: String, _ style: ScalarStyle = .plain) -> Node {
    Node(.scalar(text, style))
  }
}

/// How a scalar was written.
public enum ScalarStyle: String, Sendable, Equatable, Codable {
  case plain, singleQuoted, doubleQuoted, literal, folded
}

/// How a collection was written.
public enum CollectionStyle: String, Sendable, Equatable, Codable {
  case block, flow
}

extension Node {
  /// The scalar text, or nil for a collection.
  public var scalarText: String? {
    if case .scalar(let text, _) = value { return text }
    return nil
  }

  /// The pairs of a mapping, or nil.
  public var pairs: [Pair]? {
    if case .mapping(let pairs, _) = value { return pairs }
    return nil
  }

  /// The items of a sequence, or nil.
  public var items: [Node]? {
    if case .sequence(let items, _) = value { return items }
    return nil
  }

  /// The value for a scalar key of a mapping.
  public subscript(key: String) -> Node? {
    pairs?.first { $0.key.scalarText == key }?.value
  }

  /// True for a plain, untagged scalar: only those are resolved by the core schema.
  public var isPlainUntagged: Bool {
    if case .scalar(_, .plain) = value { return tag == nil }
    return false
  }

  /// True when the node is `null`, `~`, `Null`, `NULL` or an empty plain value.
  public var isNull: Bool {
    guard case .scalar(let text, .plain) = value else { return false }
    if let tag { return tag == "tag:yaml.org,2002:null" }
    return CoreSchema.isNull(text)
  }

  /// A short description for "found ..." in messages: the scalar quoted, or the collection kind.
  public var foundDescription: String {
    switch value {
    case .scalar(let text, _):
      if isNull { return "nothing" }
      let shown = text.count > 40 ? String(text.prefix(37)) + "..." : text
      return "\"" + shown.replacingNewlines() + "\""
    case .sequence: return "a list"
    case .mapping: return "a mapping"
    }
  }
}

extension String {
  func replacingNewlines() -> String {
    var out = ""
    for ch in unicodeScalars {
      switch ch {
      case "\n": out += "\\n"
      case "\t": out += "\\t"
      case "\r": out += "\\r"
      default: out.unicodeScalars.append(ch)
      }
    }
    return out
  }
}
