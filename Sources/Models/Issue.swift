/// One step of a path into a record: a mapping key or a list index.
public enum PathComponent: Hashable, Sendable, CustomStringConvertible {
  case key(String)
  case index(Int)

  public var description: String {
    switch self {
    case .key(let k): return k
    case .index(let i): return "[\(i)]"
    }
  }
}

extension Array where Element == PathComponent {
  /// `attendees[2].name`.
  public var dotted: String {
    var out = ""
    for c in self {
      switch c {
      case .key(let k): out += out.isEmpty ? k : "." + k
      case .index(let i): out += "[\(i)]"
      }
    }
    return out
  }
}

/// How serious a finding is: errors make `check` fail, warnings do not.
public enum Severity: String, Sendable, Codable, Comparable {
  case error, warning

  public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs == .error && rhs == .warning }
}

/// A rule a decoded record breaks, pointing at the field that breaks it.
public struct ValidationIssue: Hashable, Sendable {
  /// Error or warning.
  public var severity: Severity
  /// The field at fault, from the record's root.
  public var path: [PathComponent]
  /// Lowercase, no final period; says what is wrong and how to fix it.
  public var message: String

  /// Creates an issue.
  public init(_ severity: Severity = .error, at path: [PathComponent], _ message: String) {
    self.severity = severity
    self.path = path
    self.message = message
  }
}

/// A finding about a file, ready to show: where, how bad, what.
public struct Diagnostic: Hashable, Sendable, Codable {
  /// Error or warning.
  public var severity: Severity
  /// The file, relative to the data directory where there is one.
  public var file: String
  /// 1-based line, or nil when the finding is about the whole file.
  public var line: Int?
  /// 1-based column (Unicode scalars).
  public var column: Int?
  /// The key path inside the record (`attendees[2].name`), empty when not about one field.
  public var path: String
  /// Lowercase, no final period.
  public var message: String
  /// The source line the finding points at, for the caret display.
  public var sourceLine: String?
  /// The caret's column in `sourceLine` when that is an excerpt of a long line; nil: `column`.
  public var sourceColumn: Int?

  /// Creates a diagnostic.
  public init(
    _ severity: Severity, file: String, line: Int? = nil, column: Int? = nil, path: String = "",
    message: String, sourceLine: String? = nil
  ) {
    self.severity = severity
    self.file = file
    self.line = line
    self.column = column
    self.path = path
    self.message = message
    self.sourceLine = sourceLine
  }
}
