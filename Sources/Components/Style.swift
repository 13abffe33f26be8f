import Models

/// ANSI styling, applied only when asked (the caller knows whether output is a terminal).
public enum Style {
  /// `error:` in red or `warning:` in magenta, bold.
  public static func severity(_ s: Severity, color: Bool) -> String {
    switch s {
    case .error: return wrap("error:", "1;31", color)
    case .warning: return wrap("warning:", "1;35", color)
    }
  }

  /// Bold text.
  public static func bold(_ text: String, color: Bool) -> String { wrap(text, "1", color) }

  /// The caret under a column.
  public static func caret(color: Bool) -> String { wrap("^", "1;32", color) }

  /// `1 file`, `2 files`.
  public static func plural(_ n: Int, _ noun: String) -> String {
    "\(n) \(noun)\(n == 1 ? "" : "s")"
  }

  static func wrap(_ text: String, _ code: String, _ color: Bool) -> String {
    color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
  }
}

extension Style {
  /// `error:` for a one-line failure message.
  public static func severityLabel(color: Bool) -> String { severity(.error, color: color) }
}

/// Text from the data (titles, names, words, messages quoting them) made safe for a terminal:
/// a teammate's commit must not be able to clear the screen, set the window title or move the
/// cursor. Control characters are shown as `\x1b`-style escapes.
public enum Printable {
  /// `text` with every control character escaped except newline and tab (and a CR that ends a
  /// line before its newline); with `keepColors`, colour sequences (`ESC [ digits ; m`) stay,
  /// since they only colour text (dinger's own output uses them).
  public static func escaped(_ text: String, keepColors: Bool = false) -> String {
    let scalars = Array(text.unicodeScalars)
    guard scalars.contains(where: isControl) else { return text }
    var out = String.UnicodeScalarView()
    var i = 0
    while i < scalars.count {
      let s = scalars[i]
      if s == "\u{1B}", keepColors, let end = colorEnd(scalars, from: i) {
        out.append(contentsOf: scalars[i...end])
        i = end + 1
        continue
      }
      if isControl(s) && !(s == "\r" && i + 1 < scalars.count && scalars[i + 1] == "\n") {
        out.append(contentsOf: String(cFormat: "\\x%02x", s.value).unicodeScalars)
      } else {
        out.append(s)
      }
      i += 1
    }
    return String(out)
  }

  static func isControl(_ s: Unicode.Scalar) -> Bool {
    (s.value < 0x20 && s != "\n" && s != "\t") || (0x7F...0x9F).contains(s.value)
  }

  /// Where an SGR sequence starting at `from` ends (its `m`), if it is one.
  static func colorEnd(_ scalars: [Unicode.Scalar], from: Int) -> Int? {
    guard from + 2 < scalars.count, scalars[from + 1] == "[" else { return nil }
    var j = from + 2
    while j < scalars.count, j - from < 64 {
      let s = scalars[j]
      if s == "m" { return j }
      guard ("0"..."9").contains(s) || s == ";" else { return nil }
      j += 1
    }
    return nil
  }
}
