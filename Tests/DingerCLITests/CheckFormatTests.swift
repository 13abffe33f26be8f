import Foundation
import TestSupport
import Testing

/// `check --format github|sarif`: what CI systems read, for every case of the malformed-file
/// corpus.
@Suite struct CheckFormatTests {
  static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("StorageTests/Corpus")
  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures")

  static var cases: [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: corpus.path)) ?? []).sorted()
  }

  func diagnostics(_ folder: URL) throws -> [[String: Any]] {
    let r = try ProcessRunner.run(dingerBinary, ["check", "--json", "."], in: folder)
    let report = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
    return (report?["diagnostics"] as? [[String: Any]]) ?? []
  }

  /// One workflow command per problem, exactly as GitHub's runner parses them: the message
  /// escaped (%, CR, LF), the properties also (: and ,), errors and warnings apart.
  @Test func githubAnnotationsForTheWholeCorpus() throws {
    #expect(Self.cases.count > 40)
    for name in Self.cases {
      let folder = Self.corpus.appendingPathComponent(name)
      let r = try ProcessRunner.run(dingerBinary, ["check", "--format", "github", "."], in: folder)
      let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      let found = try diagnostics(folder)
      #expect(
        r.status == (found.contains { $0["severity"] as? String == "error" } ? 1 : 0), "\(name)")
      #expect(lines.count == found.count + 2, "\(name): \(r.stdout)")  // the summary, the end
      for (line, d) in zip(lines, found) {
        func escape(_ s: String) -> String {
          s.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
        }
        func property(_ s: String) -> String {
          escape(s).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(
            of: ",", with: "%2C")
        }
        var expected = "::\(d["severity"] as! String) file=\(property(d["file"] as! String))"
        if let l = d["line"] as? Int { expected += ",line=\(l)" }
        if let c = d["column"] as? Int { expected += ",col=\(c)" }
        #expect(
          line.hasPrefix(expected + ",title=dinger "), "\(name): \(line) (expected \(expected))")
        #expect(line.hasSuffix("::" + escape(d["message"] as! String)), "\(name): \(line)")
        #expect(!line.dropFirst(2).contains("\n"))
      }
    }
  }

  /// The exact lines for one file with several problems.
  @Test func githubAnnotationsGolden() throws {
    let r = try ProcessRunner.run(
      dingerBinary, ["check", "--format", "github", "."],
      in: Self.corpus.appendingPathComponent("every-problem-reported"))
    #expect(r.status == 1)
    #expect(
      r.stdout == """
        ::error file=scrums/a.yaml,line=2,col=8,title=dinger unknown-theme::unknown theme 'pink'; themes are bubblegum, buttercup, indigo, lavender, magenta, navy, orange, oxblood, periwinkle, poppy, purple, seafoam, sky, tan, teal, yellow
        ::error file=scrums/a.yaml,line=3,col=9,title=dinger wrong-type::'length' must be a whole number, found "ten"
        ::error file=scrums/a.yaml,line=6,col=5,title=dinger duplicate-entry::attendee 'Ada' is listed twice (also item 1); remove one
        ::warning file=scrums/a.yaml,line=7,col=1,title=dinger unknown-key::unknown key 'lenght' is kept but not used (did you mean 'length'?)
        checked 1 file: 3 errors, 1 warning

        """)
  }

  /// SARIF 2.1.0 for every corpus case, validated (Python's jsonschema) against the SARIF
  /// schema in Fixtures/; each result matches a problem `check --json` reports.
  @Test(.enabled(if: Prerequisite.met(SchemaValidator.available), "needs python3 with jsonschema"))
  func sarifForTheWholeCorpusIsValid() throws {
    // NB: one Python process validates every case's log (one per case took most of the test).
    let validate = """
      import json, sys, jsonschema
      validator = jsonschema.Draft202012Validator(json.load(open(sys.argv[1])))
      out = {}
      for path in sys.argv[2:]:
          out[path] = [e.message for e in validator.iter_errors(json.load(open(path)))]
      print(json.dumps(out))
      """
    let logs = try TemporaryDirectory("dinger-sarif")
    var outputs: [(name: String, path: String, text: String)] = []
    for name in Self.cases {
      let folder = Self.corpus.appendingPathComponent(name)
      let r = try ProcessRunner.run(dingerBinary, ["check", "--format", "sarif", "."], in: folder)
      let path = logs.path("\(outputs.count).sarif")
      try r.stdout.write(toFile: path, atomically: true, encoding: .utf8)
      outputs.append((name, path, r.stdout))
    }
    let checked = try ProcessRunner.run(
      ProcessRunner.which("python3") ?? "/usr/bin/python3",
      [
        "-c", validate,
        Self.fixtures.appendingPathComponent("sarif-2.1.0-subset.schema.json").path,
      ] + outputs.map(\.path))
    let verdicts =
      (try? JSONSerialization.jsonObject(with: Data(checked.stdout.utf8))) as? [String: [String]]
    #expect(verdicts?.count == outputs.count, "\(checked.stderr)")
    for (name, path, text) in outputs {
      #expect(verdicts?[path] == [], "\(name): \(verdicts?[path] ?? ["not validated"])")
      let folder = Self.corpus.appendingPathComponent(name)
      let log = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
      let run = (log?["runs"] as? [[String: Any]])?.first
      let results = (run?["results"] as? [[String: Any]]) ?? []
      let found = try diagnostics(folder)
      #expect(results.count == found.count, "\(name)")
      let rules =
        (((run?["tool"] as? [String: Any])?["driver"] as? [String: Any])?["rules"]
          as? [[String: Any]]) ?? []
      for (result, d) in zip(results, found) {
        #expect(
          (result["message"] as? [String: Any])?["text"] as? String == d["message"] as? String)
        #expect(result["level"] as? String == d["severity"] as? String)
        let index = result["ruleIndex"] as? Int ?? -1
        #expect(
          rules.indices.contains(index)
            && rules[index]["id"] as? String == result["ruleId"] as? String)
      }
    }
  }
}
