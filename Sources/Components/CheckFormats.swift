import Models

/// `check --format github`: GitHub Actions workflow commands, one per problem, so that the
/// problems show on the changed lines of a pull request.
///
///     ::error file=scrums/design.yaml,line=4,col=9,title=dinger wrong-type::'length' must be a whole number, found "ten"
public struct GitHubAnnotationsView {
  public var diagnostics: [Diagnostic]

  public init(_ diagnostics: [Diagnostic]) { self.diagnostics = diagnostics }

  public func render() -> String {
    diagnostics.map { d in
      var properties = ["file=\(Self.property(d.file))"]
      if let line = d.line { properties.append("line=\(line)") }
      if let column = d.column { properties.append("col=\(column)") }
      properties.append("title=\(Self.property("dinger \(DiagnosticRule.of(d).rawValue)"))")
      return
        "::\(d.severity.rawValue) \(properties.joined(separator: ","))::\(Self.data(d.message))\n"
    }.joined()
  }

  /// A message, escaped as GitHub's runner reads it.
  static func data(_ s: String) -> String {
    s.replacingText("%", with: "%25").replacingText("\r", with: "%0D")
      .replacingText("\n", with: "%0A")
  }

  /// A property value: also without ':' and ','.
  static func property(_ s: String) -> String {
    data(s).replacingText(":", with: "%3A").replacingText(",", with: "%2C")
  }
}

/// `check --format sarif`: a SARIF 2.1.0 log, for code-scanning tools (GitHub code scanning,
/// GitLab, Azure DevOps): one run of the `dinger` tool, its rules, and a result per problem.
public struct SARIFView {
  public var diagnostics: [Diagnostic]
  public var version: String

  public init(_ diagnostics: [Diagnostic], version: String) {
    self.diagnostics = diagnostics
    self.version = version
  }

  public func render() -> String {
    let used = Set(diagnostics.map { DiagnosticRule.of($0) })
    let rules = DiagnosticRule.allCases.filter { used.contains($0) }
    let results: [JSONValue] = diagnostics.map { d in
      let rule = DiagnosticRule.of(d)
      var region: [JSONValue.Member] = []
      if let line = d.line { region.append(.init("startLine", .integer(line))) }
      if let column = d.column { region.append(.init("startColumn", .integer(column))) }
      var physical: [JSONValue.Member] = [.init("artifactLocation", ["uri": .string(d.file)])]
      if !region.isEmpty { physical.append(.init("region", .object(region))) }
      var result: [JSONValue.Member] = [
        .init("ruleId", .string(rule.rawValue)),
        .init("ruleIndex", .integer(rules.firstIndex(of: rule) ?? 0)),
        .init("level", .string(d.severity == .error ? "error" : "warning")),
        .init("message", ["text": .string(d.message)]),
        .init("locations", [["physicalLocation": .object(physical)]]),
      ]
      if !d.path.isEmpty {
        result.append(.init("properties", ["field": .string(d.path)]))
      }
      return .object(result)
    }
    let driver: JSONValue = .object([
      .init("name", "dinger"),
      .init("version", .string(version)),
      .init(
        "rules",
        .array(
          rules.map { rule in
            .object([
              .init("id", .string(rule.rawValue)),
              .init("shortDescription", ["text": .string(rule.summary)]),
            ])
          })),
    ])
    let log: JSONValue = .object([
      .init("$schema", "https://json.schemastore.org/sarif-2.1.0.json"),
      .init("version", "2.1.0"),
      .init(
        "runs", [.object([.init("tool", ["driver": driver]), .init("results", .array(results))])]),
    ])
    return log.text
  }
}
