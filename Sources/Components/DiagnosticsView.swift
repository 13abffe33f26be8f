import Models

/// Renders diagnostics the way compilers do:
///
///     scrums/design.yaml:4:9: error: 'length' must be a whole number, found "ten"
///     length: ten
///             ^
public struct DiagnosticsView {
  /// What to show.
  public var diagnostics: [Diagnostic]
  /// Colour the severity labels (only on a terminal, never with NO_COLOR).
  public var color: Bool

  /// Creates a view.
  public init(_ diagnostics: [Diagnostic], color: Bool = false) {
    self.diagnostics = diagnostics
    self.color = color
  }

  /// The text, one block per diagnostic, each line ending in a newline.
  public func render() -> String {
    diagnostics.map { Self.render($0, color: color) }.joined()
  }

  /// One diagnostic.
  public static func render(_ d: Diagnostic, color: Bool = false) -> String {
    var location = d.file
    if let line = d.line {
      location += ":\(line)"
      if let column = d.column { location += ":\(column)" }
    }
    let label = Style.severity(d.severity, color: color)
    var out = "\(Style.bold(location, color: color)): \(label) \(d.message)\n"
    if let source = d.sourceLine, let column = d.sourceColumn ?? d.column {
      let (shown, caretAt) = Self.window(source, column: column)
      out += shown + "\n"
      // NB: keep tabs in the caret's indentation so the caret lines up under tabbed text.
      let prefix = shown.unicodeScalars.prefix(caretAt).map { $0 == "\t" ? "\t" : " " }
      out += prefix.joined() + Style.caret(color: color) + "\n"
    }
    return out
  }

  /// How much of a source line is shown around the caret (a one-line file of 200 KB is not
  /// echoed whole): at most `width` characters, with `...` where it was cut; and how many
  /// characters stand before the caret in what is shown.
  static func window(_ line: String, column: Int, width: Int = 120) -> (String, Int) {
    let scalars = Array(line.unicodeScalars)
    let at = min(max(0, column - 1), scalars.count)
    guard scalars.count > width else { return (line, at) }
    let start = max(0, min(at - width / 2, scalars.count - width))
    let end = min(scalars.count, start + width)
    var shown = String(String.UnicodeScalarView(scalars[start..<end]))
    var caret = at - start
    if start > 0 {
      shown = "..." + shown
      caret += 3
    }
    if end < scalars.count { shown += "..." }
    return (shown, caret)
  }
}

/// The summary line after a check.
public struct CheckSummaryView {
  /// Files read, errors and warnings found.
  public var files: Int, errors: Int, warnings: Int

  /// Creates a summary.
  public init(files: Int, errors: Int, warnings: Int) {
    (self.files, self.errors, self.warnings) = (files, errors, warnings)
  }

  /// `checked 12 files: 2 errors, 1 warning` or `checked 12 files: no problems`.
  public func render() -> String {
    let checked = "checked \(Style.plural(files, "file"))"
    if errors == 0 && warnings == 0 { return "\(checked): no problems\n" }
    var parts: [String] = []
    if errors > 0 { parts.append(Style.plural(errors, "error")) }
    if warnings > 0 { parts.append(Style.plural(warnings, "warning")) }
    return "\(checked): \(parts.joined(separator: ", "))\n"
  }
}
