/// Writes encoded values as YAML text. Our own emitter rather than libyaml's: libyaml can pick
/// flow style per node, but it never indents a block sequence inside a mapping (`key:\n- a`),
/// and its quoting follows YAML 1.1 rules only in part, where DESIGN.md's format indents lists
/// and quotes every scalar a YAML 1.1 reader would take for another type (`'09:30'`,
/// `'2026-12-24'`). Every output is checked against libyaml (our parser) and PyYAML in the tests.
struct Emitter {
  let flowPaths: Set<String>
  var out = ""
  private static let indentUnit = 2
  private static let maxFlowWidth = 80

  init(flowPaths: Set<String>) { self.flowPaths = flowPaths }

  mutating func document(_ value: Encoded) -> String {
    out = ""
    switch value {
    case .mapping(let pairs) where !pairs.isEmpty:
      mapping(pairs, indent: 0, path: "")
    case .sequence(let items) where !items.isEmpty:
      sequence(items, indent: 0, path: "")
    default:
      out += inline(value, path: "") ?? "null"
      out += "\n"
    }
    return out
  }

  // MARK: Block collections

  mutating func mapping(
    _ pairs: [(String, Encoded.Box)], indent: Int, path: String, firstInline: Bool = false
  ) {
    let pad = String(repeating: " ", count: indent)
    for (i, (key, box)) in pairs.enumerated() {
      if !(firstInline && i == 0) { out += pad }
      out += Emitter.scalar(key, flow: false)
      out += ":"
      value(box.value, indent: indent, path: path.isEmpty ? key : path + "." + key)
    }
  }

  mutating func sequence(_ items: [Encoded.Box], indent: Int, path: String) {
    let pad = String(repeating: " ", count: indent)
    let itemPath = path + "[]"
    for box in items {
      out += pad + "-"
      switch box.value {
      case .mapping(let pairs) where !pairs.isEmpty && !wantsFlow(itemPath, box.value, indent + 2):
        out += " "
        mapping(pairs, indent: indent + 2, path: itemPath, firstInline: true)
      case .sequence(let inner) where !inner.isEmpty && !wantsFlow(itemPath, box.value, indent + 2):
        out += "\n"
        sequence(inner, indent: indent + 2, path: itemPath)
      default:
        value(box.value, indent: indent, path: itemPath)
      }
    }
  }

  /// Writes what follows `key:` or `-`: an inline value and newline, or a nested block.
  mutating func value(_ value: Encoded, indent: Int, path: String) {
    switch value {
    case .mapping(let pairs) where !pairs.isEmpty:
      if wantsFlow(path, value, indent), let flow = inline(value, path: path) {
        out += " " + flow + "\n"
      } else {
        out += "\n"
        mapping(pairs, indent: indent + Emitter.indentUnit, path: path)
      }
    case .sequence(let items) where !items.isEmpty:
      if wantsFlow(path, value, indent), let flow = inline(value, path: path) {
        out += " " + flow + "\n"
      } else {
        out += "\n"
        sequence(items, indent: indent + Emitter.indentUnit, path: path)
      }
    case .string(let s) where Emitter.literalAllowed(s):
      literal(s, indent: indent + Emitter.indentUnit)
    default:
      out += " " + (inline(value, path: path) ?? "null") + "\n"
    }
  }

  private mutating func literal(_ s: String, indent: Int) {
    var trailing = 0
    for ch in s.utf8.reversed() {
      guard ch == UInt8(ascii: "\n") else { break }
      trailing += 1
    }
    out += trailing == 0 ? " |-\n" : trailing == 1 ? " |\n" : " |+\n"
    let pad = String(repeating: " ", count: indent)
    var lines = s.split(separator: "\n", omittingEmptySubsequences: false)
    if trailing > 0 { lines.removeLast() }
    for line in lines {
      out += line.isEmpty ? "\n" : pad + line + "\n"
    }
  }

  // MARK: Flow and scalars

  private func wantsFlow(_ path: String, _ value: Encoded, _ indent: Int) -> Bool {
    guard flowPaths.contains(path), let text = inline(value, path: path) else { return false }
    return indent + text.count <= Emitter.maxFlowWidth
  }

  /// The one-line form of a value, or nil when it needs block style (a multi-line string, or a
  /// collection holding one).
  func inline(_ value: Encoded, path: String, flow: Bool = false) -> String? {
    switch value {
    case .empty: return "null"
    case .raw(let text): return text
    case .string(let s):
      if !flow && Emitter.literalAllowed(s) { return nil }
      return Emitter.scalar(s, flow: flow)
    case .sequence(let items):
      var parts: [String] = []
      for box in items {
        guard let part = inline(box.value, path: path + "[]", flow: true) else { return nil }
        parts.append(part)
      }
      return "[" + parts.joined(separator: ", ") + "]"
    case .mapping(let pairs):
      var parts: [String] = []
      for (key, box) in pairs {
        guard let part = inline(box.value, path: path + "." + key, flow: true) else { return nil }
        parts.append(Emitter.scalar(key, flow: true) + ": " + part)
      }
      return "{" + parts.joined(separator: ", ") + "}"
    }
  }

  /// A string as a plain, single-quoted or double-quoted scalar, whichever is the first that reads
  /// back as exactly this string under both YAML 1.1 and 1.2 parsers.
  static func scalar(_ s: String, flow: Bool) -> String {
    if plainAllowed(s, flow: flow) { return s }
    if singleQuotedAllowed(s) { return "'" + s.replacingText("'", with: "''") + "'" }
    return doubleQuoted(s)
  }

  static func isPrintable(_ c: Unicode.Scalar) -> Bool {
    switch c.value {
    case 0x09, 0x0A, 0x0D, 0x20...0x7E, 0x85, 0xA0...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF:
      return c.value != 0xFEFF
    default: return false
    }
  }

  static func isBreak(_ c: Unicode.Scalar) -> Bool {
    c == "\n" || c == "\r" || c == "\u{85}" || c == "\u{2028}" || c == "\u{2029}"
  }

  static func plainAllowed(_ s: String, flow: Bool) -> Bool {
    guard let first = s.unicodeScalars.first, let last = s.unicodeScalars.last else { return false }
    if "-?:,[]{}#&*!|>'\"%@` \t".unicodeScalars.contains(first) { return false }
    if last == " " || last == "\t" || last == ":" { return false }
    if CoreSchema.isAmbiguous(s) { return false }
    var previous: Unicode.Scalar = " "
    for c in s.unicodeScalars {
      if !isPrintable(c) || isBreak(c) || c == "\t" { return false }
      if c == " " && previous == ":" { return false }
      if c == "#" && previous == " " { return false }
      if flow && ",[]{}:#?".unicodeScalars.contains(c) { return false }
      previous = c
    }
    return true
  }

  static func singleQuotedAllowed(_ s: String) -> Bool {
    s.unicodeScalars.allSatisfy { isPrintable($0) && !isBreak($0) }
  }

  static func doubleQuoted(_ s: String) -> String {
    var out = "\""
    for c in s.unicodeScalars {
      switch c {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\t": out += "\\t"
      case "\r": out += "\\r"
      case "\0": out += "\\0"
      case "\u{85}": out += "\\N"
      case "\u{2028}": out += "\\L"
      case "\u{2029}": out += "\\P"
      default:
        if isPrintable(c) {
          out.unicodeScalars.append(c)
        } else if c.value <= 0xFF {
          out += "\\x" + hex(c.value, 2)
        } else if c.value <= 0xFFFF {
          out += "\\u" + hex(c.value, 4)
        } else {
          out += "\\U" + hex(c.value, 8)
        }
      }
    }
    return out + "\""
  }

  private static func hex(_ v: UInt32, _ width: Int) -> String {
    let s = String(v, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, width - s.count)) + s
  }

  /// Multi-line text goes in a literal block when every line can be written there as is.
  static func literalAllowed(_ s: String) -> Bool {
    guard s.utf8.contains(UInt8(ascii: "\n")), let first = s.unicodeScalars.first else {
      return false
    }
    // NB: a first line that is empty or starts with a blank would need an indentation indicator;
    // such rare texts are written double-quoted instead.
    if first == " " || first == "\t" || first == "\n" { return false }
    for c in s.unicodeScalars {
      if c == "\n" { continue }
      if !isPrintable(c) || isBreak(c) { return false }
    }
    return true
  }
}
