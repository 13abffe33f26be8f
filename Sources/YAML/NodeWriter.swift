/// Writes a parsed (or built) node tree back as YAML text, block style, for values that have no
/// Swift type: merged records before they are validated, values kept in conflict records.
///
/// Plain scalars are written as they were read (so `10` stays a number and `2026-01-01` stays
/// whatever the schema makes of it); quoted and block scalars go through the encoder's quoting.
public enum NodeWriter {
  /// The document text for `node`, ending in a newline.
  public static func text(_ node: Node) -> String {
    var emitter = Emitter(flowPaths: [])
    return emitter.document(encoded(node))
  }

  /// True when two nodes mean the same: equal scalars (a quoted `abc` equals a plain `abc`
  /// unless the plain one is a number, boolean or null), equal collections item by item.
  public static func same(_ a: Node, _ b: Node) -> Bool {
    switch (a.value, b.value) {
    case (.scalar(let x, let sx), .scalar(let y, let sy)):
      guard x == y, a.tag == b.tag else { return false }
      let plainX = sx == .plain
      let plainY = sy == .plain
      if plainX == plainY { return true }
      return CoreSchema.resolve(x) == .string(x)
    case (.sequence(let x, _), .sequence(let y, _)):
      return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
    case (.mapping(let x, _), .mapping(let y, _)):
      guard x.count == y.count else { return false }
      return zip(x, y).allSatisfy { same($0.key, $1.key) && same($0.value, $1.value) }
    default:
      return false
    }
  }

  static func encoded(_ node: Node) -> Encoded {
    switch node.value {
    case .scalar(let text, let style):
      if style == .plain {
        if CoreSchema.isNull(text) { return .empty }
        // NB: as it was read (a number stays a number), unless plain text would read back as
        // something else: `[text:hola]` is a string here, not a list.
        if !text.containsText("\n")
          && (CoreSchema.resolve(text) != .string(text) || Emitter.plainAllowed(text, flow: false))
        {
          return .raw(text)
        }
      }
      return .string(text)
    case .sequence(let items, _):
      return .sequence(items.map { box(encoded($0)) })
    case .mapping(let pairs, _):
      return .mapping(pairs.map { ($0.key.scalarText ?? "", box(encoded($0.value))) })
    }
  }

  private static func box(_ value: Encoded) -> Encoded.Box {
    let b = Encoded.Box()
    b.value = value
    return b
  }
}
