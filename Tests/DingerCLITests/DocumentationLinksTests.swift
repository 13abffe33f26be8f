import Foundation
import Testing

/// The repository is whole: every link in README and docs/ to a file points at one inside the
/// repository that exists (a user's clone has nothing beside it), and no page names a path
/// outside it.
@Suite struct DocumentationLinksTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().standardizedFileURL

  static var pages: [URL] {
    let docs = root.appendingPathComponent("docs")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: docs.path)) ?? []
    return [root.appendingPathComponent("README.md")]
      + names.filter { $0.hasSuffix(".md") }.sorted().map { docs.appendingPathComponent($0) }
  }

  /// Markdown link targets: `[text](target)`, outside code (fenced blocks and `inline` spans).
  static func targets(in text: String) -> [String] {
    var found: [String] = []
    var prose = ""
    var fenced = false
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
        fenced.toggle()
        continue
      }
      guard !fenced else { continue }
      // NB: the parts between backticks are code.
      prose +=
        line.split(separator: "`", omittingEmptySubsequences: false).enumerated()
        .filter { $0.offset % 2 == 0 }.map(\.element).joined(separator: " ") + "\n"
    }
    var rest = Substring(prose)
    while let open = rest.range(of: "](") {
      let after = rest[open.upperBound...]
      guard let close = after.firstIndex(of: ")") else { break }
      found.append(String(after[..<close]))
      rest = after[close...]
    }
    return found
  }

  @Test func everyLinkToAFileStaysInsideTheRepository() throws {
    #expect(Self.pages.count > 10)
    for page in Self.pages {
      let text = try String(contentsOf: page, encoding: .utf8)
      #expect(!text.contains("../shared"), "\(page.lastPathComponent) names ../shared")
      for target in Self.targets(in: text) {
        let path = String(
          target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0])
        guard !path.isEmpty, !path.contains("://"), !path.hasPrefix("mailto:") else { continue }
        let resolved = page.deletingLastPathComponent().appendingPathComponent(path)
          .standardizedFileURL
        #expect(
          resolved.path.hasPrefix(Self.root.path + "/"),
          "\(page.lastPathComponent): \(target) points outside the repository")
        #expect(
          FileManager.default.fileExists(atPath: resolved.path),
          "\(page.lastPathComponent): \(target) does not exist")
      }
    }
  }

  @Test func theLinkReaderFindsWhatAPageLinks() {
    #expect(
      Self.targets(in: "see [a](docs/a.md) and [b](../shared/x.md#top), not (this)")
        == ["docs/a.md", "../shared/x.md#top"])
    #expect(Self.targets(in: "code: `[text](url)`\n```\n[x](y)\n```\n[c](c.md)") == ["c.md"])
  }
}
