/// The kinds of problem `check` finds, as rule ids for CI tools (SARIF's `ruleId`, GitHub's
/// annotation titles), each with a one-line description.
public enum DiagnosticRule: String, CaseIterable, Sendable {
  case yamlSyntax = "yaml-syntax"
  case encoding = "encoding"
  case missingKey = "missing-key"
  case unknownKey = "unknown-key"
  case wrongType = "wrong-type"
  case outOfRange = "out-of-range"
  case unknownTheme = "unknown-theme"
  case emptyValue = "empty-value"
  case duplicateEntry = "duplicate-entry"
  case duplicateID = "duplicate-id"
  case unknownReference = "unknown-reference"
  case misfiled = "misfiled"
  case dataFormat = "data-format"
  case invalidValue = "invalid-value"

  /// What the rule is about.
  public var summary: String {
    switch self {
    case .yamlSyntax:
      "The file is not YAML dinger can read (syntax, indentation, quoting, documents)."
    case .encoding: "The file is not clean UTF-8 text."
    case .missingKey: "A key the record needs is missing."
    case .unknownKey: "A key dinger does not know (kept as written; often a typo)."
    case .wrongType:
      "A value of the wrong type (text where a number belongs, a list where text belongs)."
    case .outOfRange: "A number outside its allowed range."
    case .unknownTheme: "A theme that is not one of the 16."
    case .emptyValue: "A value that must not be empty is empty."
    case .duplicateEntry: "The same name or word is listed twice in one record."
    case .duplicateID: "Two records share an id."
    case .unknownReference: "A record points at an id no record has."
    case .misfiled: "A file is not where its kind of record lives."
    case .dataFormat: "The data format version is not one this dinger reads."
    case .invalidValue: "A value dinger cannot use."
    }
  }

  /// The rule of a diagnostic, told from its message: `check`'s messages are fixed phrases
  /// per kind of problem (the producers do not tag them yet; this is the one place that reads
  /// them, for labels only).
  public static func of(_ d: Diagnostic) -> DiagnosticRule {
    let m = d.message
    func has(_ s: String) -> Bool { m.containsText(s) }
    if has("UTF-8") || has("control character") || has("byte order") { return .encoding }
    if has("missing required key") || has("needs at least 'title'") { return .missingKey }
    if has("unknown key") { return .unknownKey }
    if has("unknown theme") { return .unknownTheme }
    if has("is also used by") { return .duplicateID }
    if has("no scrum has id") || has("no library has id") { return .unknownReference }
    if has("is filed under") || has("reads only '.yaml'") || has("belongs to") { return .misfiled }
    if has("format ") && (has("newer than") || has("'format' must")) { return .dataFormat }
    if has("listed twice") { return .duplicateEntry }
    if has("must be from") || has("or more") || has("at most") || has("more than 0") {
      return .outOfRange
    }
    if has("must not be empty") || has("empty name") || has("empty definition")
      || has("needs at least one")
      || has("has no word")
    {
      return .emptyValue
    }
    if has("must be a whole number") || has("must be text") || has("must be a list")
      || has("must be true or false") || has("must be a date") || has("must be an id")
      || has("must be a mapping") || has("must be a number")
    {
      return .wrongType
    }
    if d.path.isEmpty && d.column != nil { return .yamlSyntax }
    if has("quote") || has("indent") || has("alias") || has("duplicate key") || has("document")
      || has("nesting") || has("not closed") || has("unexpected") || has("the file is empty")
    {
      return .yamlSyntax
    }
    return .invalidValue
  }
}
