/// The outcome of checking a data directory.
public struct CheckReport: Sendable, Codable {
  /// How many record files were read.
  public var files: Int
  /// Every finding, grouped by file in path order.
  public var diagnostics: [Diagnostic]

  /// Creates a report.
  public init(files: Int, diagnostics: [Diagnostic]) {
    self.files = files
    self.diagnostics = diagnostics
  }

  /// Findings that make the check fail.
  public var errors: Int { diagnostics.filter { $0.severity == .error }.count }
  /// Findings that do not.
  public var warnings: Int { diagnostics.filter { $0.severity == .warning }.count }
}
