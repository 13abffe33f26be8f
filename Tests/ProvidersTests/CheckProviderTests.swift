import Foundation
import Models
import Providers
import Storage
import TestSupport
import Testing

/// The same provider, in memory and on disk, gives the same report.
@Suite struct CheckProviderTests {
  static let files = [
    "scrums/design.yaml":
      "id: 0f6d1a52-4c0e-4b8e-9a57-2d1f3c8b7e01\ntitle: Design\nlength: 10\nattendees: [Ada]\n",
    "history/design/2026-11-20-3f2c0a1b.yaml":
      "scrum: 0f6d1a52-4c0e-4b8e-9a57-2d1f3c8b7e01\ndate: 2026-11-20\nlength: 10\nduration: 70\nattendees: [Ada]\n",
    "libraries/spanish.yaml": "name: Spanish\nlanguage: spanish\n",
    ".dinger/config.yaml": "format: 1\n",
    "notes/todo.yaml": "not: a record\n",
  ]

  @Test func inMemoryAndLiveAgree() throws {
    let memory = try CheckProvider.inMemory(files: Self.files).check()
    let dir = try TemporaryDirectory()
    for (path, text) in Self.files { try dir.write(path, text) }
    let live = try CheckProvider.live(directory: DataDirectory(root: dir.url)).check()
    #expect(memory.files == 4)
    #expect(live.files == 4)
    #expect(memory.diagnostics == live.diagnostics)
    #expect(memory.errors == 1)
    #expect(memory.diagnostics.first?.file == "libraries/spanish.yaml")
  }

  /// A scrum that does not even parse (a duplicate key) still owns its meetings: one error,
  /// on the scrum, not one more per meeting.
  @Test(arguments: Backend.allCases) func aBrokenScrumStillOwnsItsMeetings(_ backend: Backend)
    throws
  {
    var files = Self.files
    files["scrums/design.yaml"] =
      "id: 0f6d1a52-4c0e-4b8e-9a57-2d1f3c8b7e01\ntitle: Design\ntitle: Again\nlength: 10\nattendees: [Ada]\n"
    files["libraries/spanish.yaml"] = "name: Spanish\nlanguage: es\n"
    let (checker, folder) = try backend.checker(files)
    defer { withExtendedLifetime(folder) {} }
    let report = try checker.check()
    #expect(report.diagnostics.map(\.file) == ["scrums/design.yaml"], "\(report.diagnostics)")
  }

  /// Ids used twice, and parents, are found by lookup: each duplicate reported once, on the
  /// later file, naming the first.
  @Test(arguments: Backend.allCases) func duplicateIdsAcrossManyFiles(_ backend: Backend) throws {
    var files: [String: String] = [".dinger/config.yaml": "format: 1\n"]
    for i in 0..<300 {
      files["scrums/s\(1000 + i).yaml"] =
        "id: 0f6d1a52-4c0e-4b8e-9a57-\(String(format: "%012d", i % 150))\ntitle: S\(i)\nlength: 10\nattendees: [Ada]\n"
    }
    let (checker, folder) = try backend.checker(files)
    defer { withExtendedLifetime(folder) {} }
    let report = try checker.check()
    #expect(report.errors == 150)
    #expect(report.diagnostics.allSatisfy { $0.message.contains("is also used by scrums/s1") })
    #expect(Set(report.diagnostics.map(\.file)).count == 150)
  }

  @Test func enclosingDataDirectoryIsFoundFromASubfolder() throws {
    let dir = try TemporaryDirectory()
    try dir.write(".dinger/config.yaml", "format: 1\n")
    try dir.write("history/design/x.yaml", "")
    let found = DataDirectory.enclosing(dir.url.appendingPathComponent("history/design"))
    #expect(found?.root.path == dir.url.standardizedFileURL.path)
    let holding = DataDirectory.holding(
      file: dir.url.appendingPathComponent("history/design/x.yaml"))
    #expect(
      holding?.relativePath(dir.url.appendingPathComponent("history/design/x.yaml"))
        == "history/design/x.yaml")
  }

  @Test func recordFilesAreFoundWithoutADingerFolder() throws {
    let dir = try TemporaryDirectory()
    try dir.write("scrums/a.yaml", "x")
    let holding = DataDirectory.holding(file: dir.url.appendingPathComponent("scrums/a.yaml"))
    #expect(holding?.root.path == dir.url.standardizedFileURL.path)
  }

  @Test(arguments: [
    ("scrums/a.yaml", RecordKind?.some(.scrum)), ("history/a/b.yaml", .meeting),
    ("libraries/x.yaml", .library), ("quizzes/x/y.yaml", .quiz), (".dinger/config.yaml", .config),
    ("scrums/a.yml", nil), ("scrums/sub/a.yaml", nil), ("history/a.yaml", nil), ("README.md", nil),
  ])
  func layoutKinds(path: String, kind: RecordKind?) {
    #expect(RecordLayout.kind(ofPath: path) == kind)
  }
}
