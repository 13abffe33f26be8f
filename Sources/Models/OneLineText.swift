import Base

/// The rule for names and titles: one line of printable text. A control character (a line
/// break, a tab, ESC, DEL, or a C1 control such as U+009B, a one-byte CSI) in a title would
/// break every table it is listed in, and reach a terminal that acts on it.
public enum OneLineText {
  /// `text` as a message quotes it: at most `limit` characters, then `…` and how long it is
  /// (a teammate's 1 MB value is not echoed whole into every message about it).
  public static func excerpt(_ text: String, limit: Int = 64) -> String {
    let scalars = text.unicodeScalars
    guard scalars.count > limit else { return text }
    return String(String.UnicodeScalarView(scalars.prefix(limit)))
      + "… (\(scalars.count) characters)"
  }

  /// The characters that change how text reads without showing themselves (Trojan Source,
  /// CVE-2021-42574): the bidirectional overrides, embeddings and isolates, and the invisible
  /// zero-width space, word joiner and byte order mark. The zero-width joiner and non-joiner
  /// are not among them: Persian, the Indic scripts and emoji sequences need them.
  public static let hidden: [UInt32: String] = [
    0x202A: "LEFT-TO-RIGHT EMBEDDING", 0x202B: "RIGHT-TO-LEFT EMBEDDING",
    0x202C: "POP DIRECTIONAL FORMATTING", 0x202D: "LEFT-TO-RIGHT OVERRIDE",
    0x202E: "RIGHT-TO-LEFT OVERRIDE", 0x2066: "LEFT-TO-RIGHT ISOLATE",
    0x2067: "RIGHT-TO-LEFT ISOLATE", 0x2068: "FIRST STRONG ISOLATE",
    0x2069: "POP DIRECTIONAL ISOLATE", 0x200B: "ZERO WIDTH SPACE", 0x2060: "WORD JOINER",
    0xFEFF: "ZERO WIDTH NO-BREAK SPACE",
  ]

  /// Why `text` (which may span lines: an answer) holds a hidden character, or nil.
  public static func hiddenProblem(_ text: String, field: String) -> String? {
    guard text.unicodeScalars.contains(where: { hidden[$0.value] != nil }) else { return nil }
    return problem(text.replacingText("\n", with: " "), field: field)
  }

  /// Why `text` is not one line of printable text, or nil when it is; `field` names it. A
  /// hidden character (`hidden`) is refused too: it can make a blocker read otherwise than it
  /// is, on a terminal and in chat.
  public static func problem(_ text: String, field: String) -> String? {
    // NB: decided on Unicode scalars, never on Characters: a combining mark after ESC makes
    // one Character of the two.
    var position = 0
    for scalar in text.unicodeScalars {
      position += 1
      let v = scalar.value
      if let name = hidden[v] {
        return
          "'\(field)' holds the hidden character U+\(String(v, radix: 16, uppercase: true)) \(name) (at character \(position)), which changes how the text reads without showing itself; remove it"
      }
      guard v < 0x20 || (0x7F..<0xA0).contains(v) else { continue }
      let code = String(v, radix: 16, uppercase: true)
      return
        "'\(field)' holds the control character U+\(String(repeating: "0", count: max(0, 4 - code.count)) + code) (at character \(position)); a \(field) is one line of printable text, so remove it"
    }
    return nil
  }
}
