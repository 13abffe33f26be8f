/// YAML 1.2 core-schema resolution of plain scalars, and the wider YAML 1.1 set that other
/// parsers (PyYAML, many editors) still apply, so the encoder knows which strings to quote.
public enum CoreSchema {
  /// What a plain, untagged scalar means under the YAML 1.2 core schema.
  public enum Resolved: Equatable, Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case float(Double)
    case string(String)
  }

  /// Resolves a plain scalar's text by the YAML 1.2 core schema.
  public static func resolve(_ text: String) -> Resolved {
    if isNull(text) { return .null }
    if let b = bool(text) { return .bool(b) }
    if let i = int(text) { return .int(i) }
    if let d = float(text) { return .float(d) }
    return .string(text)
  }

  /// `null`, `Null`, `NULL`, `~` or empty.
  public static func isNull(_ text: String) -> Bool {
    switch text {
    case "", "~", "null", "Null", "NULL": return true
    default: return false
    }
  }

  /// `isNull` on UTF-8 bytes.
  @inline(__always)
  static func isNull(bytes b: UnsafeBufferPointer<UInt8>) -> Bool {
    switch b.count {
    case 0: return true
    case 1: return b[0] == UInt8(ascii: "~")
    case 4:
      return b.elementsEqual("null".utf8) || b.elementsEqual("Null".utf8)
        || b.elementsEqual("NULL".utf8)
    default: return false
    }
  }

  /// `bool` on UTF-8 bytes.
  static func bool(bytes b: UnsafeBufferPointer<UInt8>) -> Bool? {
    guard b.count == 4 || b.count == 5 else { return nil }
    return bool(String(decoding: b, as: UTF8.self))
  }

  /// `int` on UTF-8 bytes, without making a string for plain decimals.
  static func int(bytes b: UnsafeBufferPointer<UInt8>) -> Int? {
    guard let first = b.first else { return nil }
    var i = 0
    var negative = false
    if first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
      negative = first == UInt8(ascii: "-")
      i = 1
    }
    guard i < b.count, b.count - i <= 18 else { return int(String(decoding: b, as: UTF8.self)) }
    var value = 0
    while i < b.count {
      let d = b[i] &- 48
      guard d < 10 else { return int(String(decoding: b, as: UTF8.self)) }
      value = value * 10 + Int(d)
      i += 1
    }
    return negative ? -value : value
  }

  /// `true`/`false` in the three spellings the core schema allows.
  public static func bool(_ text: String) -> Bool? {
    switch text {
    case "true", "True", "TRUE": return true
    case "false", "False", "FALSE": return false
    default: return nil
    }
  }

  /// Decimal (`-12`, `+3`), octal (`0o17`) and hexadecimal (`0x1F`) integers.
  public static func int(_ text: String) -> Int? {
    var utf8 = Substring(text).utf8[...]
    guard let first = utf8.first else { return nil }
    if utf8.count > 2, first == UInt8(ascii: "0") {
      let second = utf8[utf8.index(after: utf8.startIndex)]
      let digits = Substring(utf8.dropFirst(2))
      if second == UInt8(ascii: "x") { return digits.isEmpty ? nil : Int(digits, radix: 16) }
      if second == UInt8(ascii: "o") { return digits.isEmpty ? nil : Int(digits, radix: 8) }
    }
    var negative = false
    if first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
      negative = first == UInt8(ascii: "-")
      utf8 = utf8.dropFirst()
    }
    guard !utf8.isEmpty, utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
    guard let magnitude = Int(Substring(utf8)) else { return nil }
    return negative ? -magnitude : magnitude
  }

  /// Decimal and exponent floats, `.inf`, `-.inf` and `.nan` in their core spellings.
  public static func float(_ text: String) -> Double? {
    switch text {
    case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF": return .infinity
    case "-.inf", "-.Inf", "-.INF": return -.infinity
    case ".nan", ".NaN", ".NAN": return .nan
    default: break
    }
    // [-+]? ( \. [0-9]+ | [0-9]+ ( \. [0-9]* )? ) ( [eE] [-+]? [0-9]+ )?
    let b = Array(text.utf8)
    var i = 0
    func digits() -> Int {
      let s = i
      while i < b.count && b[i] >= 48 && b[i] <= 57 { i += 1 }
      return i - s
    }
    if i < b.count && (b[i] == UInt8(ascii: "-") || b[i] == UInt8(ascii: "+")) { i += 1 }
    let whole = digits()
    var fraction = 0
    if i < b.count && b[i] == UInt8(ascii: ".") {
      i += 1
      fraction = digits()
      if whole == 0 && fraction == 0 { return nil }
    } else if whole == 0 {
      return nil
    }
    if i < b.count && (b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E")) {
      i += 1
      if i < b.count && (b[i] == UInt8(ascii: "-") || b[i] == UInt8(ascii: "+")) { i += 1 }
      if digits() == 0 { return nil }
    }
    guard i == b.count else { return nil }
    return Double(text)
  }

  /// True when some YAML parser (1.2 core, or the 1.1 rules of PyYAML and others) would read this
  /// text, written plain, as something other than a string: the encoder quotes such strings.
  public static func isAmbiguous(_ text: String) -> Bool {
    if resolve(text) != .string(text) { return true }
    switch text {
    // YAML 1.1 booleans, merge and value keys.
    case "y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO",
      "on", "On", "ON", "off", "Off", "OFF", "<<", "=":
      return true
    default: break
    }
    let lower = text.lowercased()
    if [".inf", "+.inf", "-.inf", ".nan"].contains(lower) { return true }
    // 1.1 ints and floats (binary, old octal, sexagesimal, `_` separators) and timestamps: a
    // conservative test that quotes anything starting like a number and built only of characters
    // such forms use. Ordinary text ("10 minutes", "2026 planning") stays plain.
    guard let first = text.unicodeScalars.first else { return false }
    let startsNumeric =
      ("0"..."9").contains(first)
      || ((first == "-" || first == "+" || first == ".") && text.count > 1)
    guard startsNumeric else { return false }
    let numericSet = Set("0123456789abcdefABCDEFxXoO_:.+-eETtZz ")
    return text.allSatisfy { numericSet.contains($0) }
  }
}
