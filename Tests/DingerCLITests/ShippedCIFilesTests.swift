import Foundation
import TestSupport
import Testing

/// The GitHub Actions and GitLab CI files docs/ci.md ships validate against the schemas those
/// services publish (check-jsonschema carries them offline), and a broken copy does not.
@Suite(
  .enabled(
    if: Prerequisite.met(ProcessRunner.which("check-jsonschema") != nil),
    "needs check-jsonschema (make deps installs it with pip)"))
struct ShippedCIFilesTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  func validate(_ schema: String, _ file: String) throws -> ProcessResult {
    try ProcessRunner.run(
      ProcessRunner.which("check-jsonschema")!, ["--builtin-schema", schema, file], timeout: 120)
  }

  @Test(arguments: [
    ("vendor.github-workflows", "docs/examples/github-actions.yml"),
    ("vendor.gitlab-ci", "docs/examples/gitlab-ci.yml"),
    ("vendor.github-workflows", ".github/workflows/release.yml"),
  ])
  func theShippedFileValidates(schema: String, file: String) throws {
    let path = Self.root.appendingPathComponent(file).path
    let r = try validate(schema, path)
    #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
    // The validator is not a yes-man: a job without its steps (GitHub) or a script (GitLab)
    // is refused.
    let text = try String(contentsOfFile: path, encoding: .utf8)
    let broken =
      schema.hasSuffix("github-workflows")
      ? text.replacingOccurrences(of: "    runs-on: ubuntu-24.04\n", with: "    runs-on: 12\n")
      : text.replacingOccurrences(of: "  script:\n    - dinger check\n", with: "  script: 12\n")
    #expect(broken != text)
    let copy = FileManager.default.temporaryDirectory.appendingPathComponent(
      "broken-\(UUID().uuidString).yml")
    try broken.write(to: copy, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: copy) }
    #expect(try validate(schema, copy.path).status != 0)
  }

  /// docs/ci.md points at both files, and they use the commands as dinger spells them.
  @Test func theDocsPointAtThem() throws {
    let ci = try String(
      contentsOf: Self.root.appendingPathComponent("docs/ci.md"), encoding: .utf8)
    #expect(ci.contains("examples/github-actions.yml") && ci.contains("examples/gitlab-ci.yml"))
    for file in ["docs/examples/github-actions.yml", "docs/examples/gitlab-ci.yml"] {
      let text = try String(contentsOf: Self.root.appendingPathComponent(file), encoding: .utf8)
      for line in text.split(separator: "\n") where line.contains("dinger ") && !line.contains("#")
      {
        let words = line.split(separator: " ")
        guard let i = words.firstIndex(of: "dinger"), i + 1 < words.count else { continue }
        let command = String(words[i + 1])
        #expect(
          ["check", "calendar", "report", "remind", "digest", "--version"].contains(command),
          "\(file): \(line)")
      }
    }
  }
}
