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
