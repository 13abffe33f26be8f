import Foundation
import Models
import TestSupport
import Testing

@testable import Storage

/// The malformed-file corpus: each folder of `Corpus/` is a small data directory with an
/// `expected.txt` holding the exact diagnostics, one `file:line:col: severity: message` a line.
@Suite struct CorpusTests {
  static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Corpus")

  static var cases: [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: corpus.path)) ?? []).sorted()
  }

  static func files(of name: String) throws -> [(path: String, bytes: [UInt8])] {
    let dir = corpus.appendingPathComponent(name)
    var out: [(String, [UInt8])] = []
    let walker = FileManager.default.enumerator(atPath: dir.path)
    while let item = walker?.nextObject() as? String {
      var isDir: ObjCBool = false
      let full = dir.appendingPathComponent(item).path
      guard FileManager.default.fileExists(atPath: full, isDirectory: &isDir), !isDir.boolValue,
        item != "expected.txt"
      else { continue }
      out.append((item, Array(try Data(contentsOf: URL(fileURLWithPath: full)))))
    }
    return out
  }

  static func lines(_ report: CheckReport) -> [String] {
    report.diagnostics.map { d in
      var at = d.file
      if let line = d.line, let column = d.column { at += ":\(line):\(column)" }
      return "\(at): \(d.severity.rawValue): \(d.message)"
    }
  }

  @Test func corpusHasAtLeastThirtyMalformedFiles() throws {
    let failing = try Self.cases.filter { name in
      !(try String(
        contentsOf: Self.corpus.appendingPathComponent("\(name)/expected.txt"), encoding: .utf8))
        .isEmpty
    }
    #expect(failing.count >= 30)
  }

  @Test(arguments: CorpusTests.cases)
  func diagnosticsAreExactlyAsExpected(name: String) throws {
    let expected = try String(
      contentsOf: Self.corpus.appendingPathComponent("\(name)/expected.txt"), encoding: .utf8
    ).split(separator: "\n").map(String.init)
    let report = DataChecker.check(files: try Self.files(of: name))
    #expect(Self.lines(report) == expected)
    // Decoded ahead on every core, one file per run: the same findings, in the same order.
    let inRuns = DataChecker.check(
      files: try Self.files(of: name), problems: [], only: nil, parallelFrom: 1)
    #expect(Self.lines(inRuns) == expected)
    #expect(inRuns.diagnostics == report.diagnostics)
    // Every located diagnostic shows its source line for the caret display.
    for d in report.diagnostics where d.line != nil { #expect(d.sourceLine != nil) }
  }

  @Test func oversizedFilesFailFast() {
    let big = Array("title: X\n".utf8) + [UInt8](repeating: UInt8(ascii: "#"), count: 64 << 20)
    let report = DataChecker.check(files: [("scrums/big.yaml", big)])
    #expect(
      Self.lines(report) == [
        "scrums/big.yaml: error: this scrum file is 67108873 bytes; a scrum file is at most 1048576 bytes (docs/trust.md lists the bounds), so dinger leaves it out: shorten what grew (a pasted text, a generated list)"
      ])
    // A library may be bigger, up to the parser's own limit.
    let library = Array("name: X\n".utf8) + [UInt8](repeating: UInt8(ascii: "#"), count: 64 << 20)
    #expect(
      Self.lines(DataChecker.check(files: [("libraries/big.yaml", library)])) == [
        "libraries/big.yaml: error: this word library file is 67108872 bytes; a word library file is at most 67108864 bytes (docs/trust.md lists the bounds), so dinger leaves it out: shorten what grew (a pasted text, a generated list)"
      ])
  }

  /// Decoded ahead, a window ends after the file that reaches its bytes: the files after a big
  /// library go in the next window, and the findings are those of one thread.
  @Test func aWindowEndsAtItsBytesWithTheSameFindings() {
    let big =
      Array("name: Big\n".utf8)
      + [UInt8](repeating: UInt8(ascii: "#"), count: DataChecker.DecodeAhead.windowBytes)
    let files: [(path: String, bytes: [UInt8])] = [
      ("libraries/big.yaml", big),
      ("scrums/a.yaml", Array("title: Design\n".utf8)),
      ("scrums/b.yaml", Array("title: design\nlength: ten\n".utf8)),
    ]
    let alone = DataChecker.check(files: files, problems: [], only: nil, parallelFrom: .max)
    let inRuns = DataChecker.check(files: files, problems: [], only: nil, parallelFrom: 1)
    #expect(alone.diagnostics.count >= 2, "\(alone.diagnostics)")
    #expect(inRuns.diagnostics == alone.diagnostics)
    #expect(inRuns.files == 3)
  }

  @Test func crlfFilesPointAtTheRightLines() throws {
    let files = try Self.files(of: "crlf-error-lines")
    let report = DataChecker.check(files: files)
    #expect(report.diagnostics.first?.sourceLine == "length: ten")
  }

  @Test func onlyLimitsFindingsButStillUsesOtherFilesAsReferences() throws {
    let files = try Self.files(of: "meeting-wrong-folder")
    let report = DataChecker.check(files: files, only: ["scrums/design.yaml"])
    #expect(report.diagnostics.isEmpty)
    #expect(report.files == 1)
    let meetingOnly = DataChecker.check(files: files, only: ["history/web/m.yaml"])
    #expect(meetingOnly.warnings == 1)
  }
}
