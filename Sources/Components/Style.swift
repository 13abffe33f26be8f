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
    color ? Printable.color(code) + text + Printable.color("0") : text
  }
}

extension Style {
  /// `error:` for a one-line failure message.
  public static func severityLabel(color: Bool) -> String { severity(.error, color: color) }
}

/// Text from the data (titles, names, words, messages quoting them) made safe for a terminal:
/// a teammate's commit must not be able to clear the screen, set the window title, move the
/// cursor, colour or hide text, or reorder it. Control characters are shown as `\x1b`-style
/// escapes; bidirectional controls and invisible characters as `<U+202E>`. dinger's own colours
/// carry a mark no data can forge (a random one per process): only they are kept.
public enum Printable {
  /// The mark before each of dinger's own colour sequences: a private-use character and 16
  /// more that spell a random number, chosen once per process, never shown (the escaping
  /// removes it). Data may hold private-use characters, but not this process's number.
  static let mark: String = {
    var value = UInt64.random(in: .min ... .max)
    var out = String.UnicodeScalarView()
    out.append("\u{F8FF}")
    for _ in 0..<16 {
      out.append(Unicode.Scalar(0xF0000 + UInt32(value & 0xF))!)
      value >>= 4
    }
    return String(out)
  }()

  /// dinger's own colour sequence `ESC [ code m`, marked as dinger's.
  public static func color(_ code: String) -> String { mark + "\u{1B}[" + code + "m" }

  /// `text` with every control character escaped except newline and tab (and a CR that ends a
  /// line before its newline), bidirectional controls and invisible characters shown by their
  /// code point; with `keepColors`, dinger's own colour sequences stay (any other is escaped).
  public static func escaped(_ text: String, keepColors: Bool = false) -> String {
    let scalars = Array(text.unicodeScalars)
    guard scalars.contains(where: { isControl($0) || isHidden($0) || $0 == "\u{F8FF}" }) else {
      return text
    }
    let mark = Array(Self.mark.unicodeScalars)
    var out = String.UnicodeScalarView()
    var i = 0
    while i < scalars.count {
      let s = scalars[i]
      if s == "\u{F8FF}", i + mark.count < scalars.count,
        scalars[i..<(i + mark.count)].elementsEqual(mark)
      {
        // dinger's own colour: kept on request, else left out with its mark.
        let start = i + mark.count
        if let end = colorEnd(scalars, from: start) {
          if keepColors { out.append(contentsOf: scalars[start...end]) }
          i = end + 1
          continue
        }
      }
      if isControl(s) && !(s == "\r" && i + 1 < scalars.count && scalars[i + 1] == "\n") {
        out.append(contentsOf: String(cFormat: "\\x%02x", s.value).unicodeScalars)
      } else if isHidden(s) {
        out.append(contentsOf: String(cFormat: "<U+%04X>", s.value).unicodeScalars)
      } else {
        out.append(s)
      }
      i += 1
    }
    return String(out)
  }

  /// `text` for a pipe or a file: the data's bytes as they are, dinger's marks taken out (a
  /// colour is only ever asked for on a terminal; this keeps a mark from leaking if one is).
  public static func unmarked(_ text: String) -> String {
    guard text.unicodeScalars.contains("\u{F8FF}") else { return text }
    return text.replacingText(mark, with: "")
  }

  static func isControl(_ s: Unicode.Scalar) -> Bool {
    (s.value < 0x20 && s != "\n" && s != "\t") || (0x7F...0x9F).contains(s.value)
  }

  /// Characters that change how text around them is shown without being seen: bidirectional
  /// embeddings, overrides, isolates and marks, and zero-width spaces and joiners that are not
  /// part of a script's or an emoji's spelling (ZWJ and ZWNJ are: they stay).
  static func isHidden(_ s: Unicode.Scalar) -> Bool {
    switch s.value {
    case 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C: true
    case 0x200B, 0x2060, 0xFEFF, 0x180E, 0x2061...0x2064: true
    default: false
    }
  }

  /// Where an SGR sequence starting at `from` ends (its `m`), if it is one.
  static func colorEnd(_ scalars: [Unicode.Scalar], from: Int) -> Int? {
    guard from + 2 < scalars.count, scalars[from] == "\u{1B}", scalars[from + 1] == "[" else {
      return nil
    }
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
