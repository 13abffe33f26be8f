import Foundation
import TestSupport
import Testing

/// docs/environment.md lists every environment variable dinger's sources read: a variable read
/// (`environment["X"]`, `env["X"]`, `getenv("X")`) and not named on the page fails here, with
/// its name and file.
@Suite struct EnvironmentDocsTests {
  /// The variables a source text reads, with the pattern's matches.
  static func variables(in text: String) -> Set<String> {
    let pattern = #"(?:environment|env)\[\s*"([A-Z][A-Z0-9_]+)"|getenv\("([A-Z][A-Z0-9_]+)"\)"#
    let regex = try! NSRegularExpression(pattern: pattern)
    var out = Set<String>()
    let range = NSRange(text.startIndex..., in: text)
    for match in regex.matches(in: text, range: range) {
      for group in 1...2 {
        if let r = Range(match.range(at: group), in: text) { out.insert(String(text[r])) }
      }
    }
    return out
  }

  /// The variables docs/environment.md names in backticks.
  static func documented(_ page: String) -> Set<String> {
    Set(
      page.components(separatedBy: "`").enumerated().filter { $0.offset % 2 == 1 }.map(\.element))
  }

  @Test func everyVariableReadIsDocumented() throws {
    let sources = packageRoot.appendingPathComponent("Sources")
    var read: [String: String] = [:]
    let files =
      FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String }
      .filter { $0.hasSuffix(".swift") } ?? []
    for file in files {
      let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
      for name in Self.variables(in: text) where read[name] == nil { read[name] = file }
    }
    #expect(read.count > 30, "the scan found \(read.count) variables")
    let page = try String(
      contentsOf: packageRoot.appendingPathComponent("docs/environment.md"), encoding: .utf8)
    let named = Self.documented(page)
    let missing = read.keys.filter { !named.contains($0) }.sorted().map { "\($0) (\(read[$0]!))" }
    #expect(missing.isEmpty, "read by Sources and not in docs/environment.md: \(missing)")
  }

  /// The check finds what it is for: a planted variable read is missing from the page.
  @Test func aPlantedVariableIsFound() throws {
    // NB: the name is put together here, so that this file does not read as using it.
    let name = "DINGER_" + "PLANTED"
    let planted = "let x = ProcessInfo.processInfo.environment[\"" + name + "\"] ?? \"\""
    #expect(Self.variables(in: planted) == [name])
    let page = try String(
      contentsOf: packageRoot.appendingPathComponent("docs/environment.md"), encoding: .utf8)
    #expect(!Self.documented(page).contains(name))
    #expect(Self.variables(in: #"getenv("TZ")"#) == ["TZ"])
  }
}
