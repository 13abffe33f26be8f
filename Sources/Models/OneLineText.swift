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

  /// Why `text` is not one line of printable text, or nil when it is; `field` names it.
  public static func problem(_ text: String, field: String) -> String? {
    // NB: decided on Unicode scalars, never on Characters: a combining mark after ESC makes
    // one Character of the two.
    var position = 0
    for scalar in text.unicodeScalars {
      position += 1
      let v = scalar.value
      guard v < 0x20 || (0x7F..<0xA0).contains(v) else { continue }
      let code = String(v, radix: 16, uppercase: true)
      return
        "'\(field)' holds the control character U+\(String(repeating: "0", count: max(0, 4 - code.count)) + code) (at character \(position)); a \(field) is one line of printable text, so remove it"
    }
    return nil
  }
}
