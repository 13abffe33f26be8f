import Foundation
import TestSupport
import Testing

/// `dinger check` run as a user runs it: the built binary, real files, stdout, stderr, exit code.
@Suite struct CheckCommandTests {
  /// A data directory made from Templates/ like `make demo` makes it.
  func sampleRepo() throws -> TemporaryDirectory {
    let dir = try TemporaryDirectory()
    for folder in ["scaffold", "samples"] {
      let source = packageRoot.appendingPathComponent("Templates/\(folder)")
      let walker = FileManager.default.enumerator(atPath: source.path)
      while let item = walker?.nextObject() as? String {
        var isDir: ObjCBool = false
        let full = source.appendingPathComponent(item).path
        if FileManager.default.fileExists(atPath: full, isDirectory: &isDir), !isDir.boolValue {
          try dir.write(item, bytes: Array(try Data(contentsOf: URL(fileURLWithPath: full))))
        }
      }
    }
    return dir
  }

  func dinger(_ args: [String], in dir: TemporaryDirectory, env: [String: String] = [:]) throws
    -> ProcessResult
  {
    try ProcessRunner.run(dingerBinary, args, in: dir.url, environment: env)
  }

  @Test func templatesCheckClean() throws {
    let repo = try sampleRepo()
    let result = try dinger(["check"], in: repo)
    #expect(result.status == 0)
    #expect(result.stdout == "checked 6 files: no problems\n")
    #expect(result.stderr == "")
  }

  @Test func errorsGoToStderrWithSourceLineAndCaretAndExitOne() throws {
    let repo = try sampleRepo()
    let before = try repo.read("scrums/design.yaml")
    try repo.write(
      "scrums/design.yaml", before.replacingOccurrences(of: "length: 10", with: "length: ten"))
    let result = try dinger(["check"], in: repo)
    #expect(result.status == 1)
    #expect(
      result.stderr == """
        scrums/design.yaml:4:9: error: 'length' must be a whole number, found "ten"
        length: ten
                ^

        """)
    #expect(result.stdout == "checked 6 files: 1 error\n")
    // Checking never changes a file.
    #expect(
      try repo.read("scrums/design.yaml")
        == before.replacingOccurrences(of: "length: 10", with: "length: ten"))
  }

  @Test func warningsAloneExitZero() throws {
    let repo = try sampleRepo()
    try repo.write("scrums/x.yaml", "title: X\nlength: 5\nattendees: [Ada]\nlenght: 7\n")
    let result = try dinger(["check"], in: repo)
    #expect(result.status == 0)
    #expect(
      result.stderr.hasPrefix(
        "scrums/x.yaml:4:1: warning: unknown key 'lenght' is kept but not used (did you mean 'length'?)\n"
      ))
    #expect(result.stdout == "checked 7 files: 1 warning\n")
  }

  @Test func jsonOutputListsEveryDiagnostic() throws {
    let repo = try sampleRepo()
    try repo.write("scrums/x.yaml", "title: X\ntheme: pnik\nlength: 0\nattendees: [Ada]\n")
    let result = try dinger(["check", "--json"], in: repo)
    #expect(result.status == 1)
    #expect(result.stderr == "")
    struct Report: Decodable {
      struct D: Decodable {
        var severity: String
        var file: String
        var line: Int?
        var column: Int?
        var path: String
        var message: String
      }
      var files: Int
      var errors: Int
      var warnings: Int
      var diagnostics: [D]
    }
    let report = try JSONDecoder().decode(Report.self, from: Data(result.stdout.utf8))
    #expect(report.files == 7)
    #expect(report.errors == 2)
    #expect(report.diagnostics.map(\.path) == ["theme", "length"])
    #expect(report.diagnostics.map(\.line) == [2, 3])
  }

  @Test func aSingleFileIsCheckedAgainstTheRest() throws {
    let repo = try sampleRepo()
    let result = try dinger(["check", "history/design/2026-11-20-3f2c0a1b.yaml"], in: repo)
    #expect(result.status == 0)
    #expect(result.stdout == "checked 1 file: no problems\n")
  }

  @Test func pathsFromElsewhereArePrefixed() throws {
    let repo = try sampleRepo()
    try repo.write("libraries/bad.yaml", "name: X\nlanguage: Spanish\n")
    let other = try TemporaryDirectory()
    let result = try dinger(["check", repo.path()], in: other)
    #expect(result.status == 1)
    #expect(
      result.stderr.hasPrefix(
        "\(repo.url.standardizedFileURL.path)/libraries/bad.yaml:2:11: error:"))
  }

  @Test func repoOptionAndEnvironmentChooseTheDataDirectory() throws {
    let repo = try sampleRepo()
    let elsewhere = try TemporaryDirectory()
    #expect(try dinger(["check", "--repo", repo.path()], in: elsewhere).status == 0)
    #expect(try dinger(["check"], in: elsewhere, env: ["DINGER_REPO": repo.path()]).status == 0)
  }

  @Test func noDataDirectoryIsAClearError() throws {
    let empty = try TemporaryDirectory()
    let result = try dinger(["check"], in: empty)
    #expect(result.status == 1)
    #expect(
      result.stderr
        == "error: no data repository here: run inside one (a directory with .dinger/), pass --repo PATH, or set DINGER_REPO\n"
    )
    let missing = try dinger(["check", "--repo", "/nonexistent/x"], in: empty)
    #expect(missing.status == 1)
    #expect(missing.stderr == "error: --repo '/nonexistent/x' is not a directory\n")
  }

  @Test func unknownPathsAndNonRecordFilesAreErrors() throws {
    let repo = try sampleRepo()
    let gone = try dinger(["check", "nope.yaml"], in: repo)
    #expect(gone.status == 1)
    #expect(gone.stderr == "error: 'nope.yaml' does not exist\n")
    let notRecord = try dinger(["check", "README.md"], in: repo)
    #expect(notRecord.status == 1)
    #expect(notRecord.stderr.hasPrefix("error: can't tell what kind of record 'README.md' is"))
  }

  @Test func usageErrorsExitSixtyFour() throws {
    let repo = try sampleRepo()
    let result = try dinger(["check", "--bogus"], in: repo)
    #expect(result.status == 64)
    #expect(result.stderr.contains("--bogus"))
  }

  @Test func helpShowsExamples() throws {
    let repo = try sampleRepo()
    let result = try dinger(["check", "--help"], in: repo)
    #expect(result.status == 0)
    #expect(result.stdout.contains("Examples:"))
    #expect(result.stdout.contains("dinger check --json"))
  }

  @Test func noColourWithoutATerminal() throws {
    let repo = try sampleRepo()
    try repo.write("scrums/x.yaml", "title: X\nlength: 0\nattendees: [Ada]\n")
    let result = try dinger(["check"], in: repo, env: ["NO_COLOR": ""])
    #expect(!result.stderr.contains("\u{1B}["))
  }
}

/// Conflict records are checked like records: `resolve` writes by what they say.
@Suite struct ConflictRecordCheckTests {
  @Test func aRealRecordPassesAndADamagedOneIsReported() throws {
    let box = try Sandbox()
    #expect(try box.dinger("init").status == 0)
    // A real conflict record, made by the merge driver.
    let base = "id: 6a4f0c1e-0000-4000-8000-000000000001\ntitle: X\nlength: 5\nattendees: [A]\n"
    try box.write("scrums/x.yaml", base)
    try box.home.write("o", base)
    try box.home.write("a", base.replacingOccurrences(of: "length: 5", with: "length: 6"))
    try box.home.write("b", base.replacingOccurrences(of: "length: 5", with: "length: 7"))
    let merged = try box.dinger(
      "merge-driver", box.home.path("o"), box.home.path("a"), box.home.path("b"), "scrums/x.yaml")
    #expect(merged.status == 1, "\(merged.stderr)")
    try box.write("scrums/x.yaml", try box.home.read("a"))
    var r = try box.dinger("check")
    #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
    // Damaged: garbage, and one that would make resolve write outside the records.
    try box.write(".dinger/conflicts/00000000.yaml", "hello: world\n")
    try box.write(
      ".dinger/conflicts/11111111.yaml",
      "id: 6a4f0c1e-0000-4000-8000-000000000002\nfile: ../../etc/x.yaml\npath: [length]\nkind: edit\nkept: 1\nother: 2\nkept_from: {side: ours}\nother_from: {side: theirs}\nrecorded: 2026-11-21T09:00:00Z\n"
    )
    r = try box.dinger("check")
    #expect(r.status == 1)
    let out = r.stdout + r.stderr
    #expect(out.contains(".dinger/conflicts/00000000.yaml: error: 'id' must be an id"), "\(out)")
    #expect(
      out.contains(".dinger/conflicts/11111111.yaml: error: 'file' must name a record file"),
      "\(out)")
    #expect(!out.contains("11111111.yaml: error: 'id'"), "\(out)")
  }
}
