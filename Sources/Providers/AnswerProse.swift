import Base

/// Prose in an answers buffer (the editor's, `--file`) needs no quoting: a one-line answer or
/// blocker that YAML would read otherwise (`today: fix: the login`, `fix #123` whose `#...` YAML
/// drops as a comment, `- item`, `@here`) is quoted before the buffer is read, on its own line,
/// so every line number stays the buffer's. A value already quoted, a block scalar (`|`, `>`),
/// a flow collection, an alias, or one continued on indented lines below is left as written.
enum AnswerProse {
  static func quoted(_ text: String) -> String {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    var out: [String] = []
    for (i, line) in lines.enumerated() {
      let next = i + 1 < lines.count ? lines[i + 1] : ""
      let continued =
        next.first == " " && !next.trimmed().hasPrefix("- ")
        && !next.trimmed().hasPrefix("#") && !next.trimmed().isEmpty
      if let (head, value) = split(line), !continued, needsQuotes(value) {
        out.append(head + "\"" + escaped(value) + "\"")
      } else {
        out.append(line)
      }
    }
    return out.joined(separator: "\n")
  }

  /// `key: value` at the top (a question's answer) or `  - value` (a blocker): the part before
  /// the value, and the value; nil for anything else.
  static func split(_ line: String) -> (String, String)? {
    if line.first?.isLetter == true, let colon = line.firstIndex(of: ":"),
      line.index(after: colon) < line.endIndex, line[line.index(after: colon)] == " "
    {
      let key = line[..<colon]
      guard key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }),
        !["scrum", "date", "by", "blockers", "resolved"].contains(String(key))
      else { return nil }
      let start = line.index(colon, offsetBy: 2)
      let value = String(line[start...]).trimmed()
      return value.isEmpty ? nil : (String(line[..<start]), value)
    }
    let indent = line.prefix { $0 == " " }
    guard !indent.isEmpty, line.dropFirst(indent.count).hasPrefix("- ") else { return nil }
    let value = String(line.dropFirst(indent.count + 2)).trimmed()
    return value.isEmpty ? nil : (String(indent) + "- ", value)
  }

  /// True when YAML would not read `value` as this very text.
  static func needsQuotes(_ value: String) -> Bool {
    guard let first = value.first else { return false }
    // NB: what the writer quoted or structured is theirs.
    if "\"'|>[{&*!".contains(first) { return false }
    if "-?:@`%#,".contains(first) { return true }
    return value.containsText(": ") || value.containsText(" #") || value.hasSuffix(":")
  }

  static func escaped(_ value: String) -> String {
    value.replacingText("\\", with: "\\\\").replacingText("\"", with: "\\\"")
  }
}
