import Foundation
import TestSupport
import Testing

/// A teammate turns a folder into a file, or a file into a folder. `dinger sync` (by
/// fast-forward or by merge) brings the change in, or stops before HEAD moves with a message;
/// HEAD and the working tree never disagree afterwards.
@Suite struct PathKindSyncTests {
  /// Ada's plain-git commit that swaps a path's kind, pushed to the remote.
  func swap(_ team: Team, toFile: Bool) throws {
    let path = "notes/design"
    let url = team.dir("ada").appendingPathComponent(path)
    try team.git("ada", "rm", "-rq", "--ignore-unmatch", path)
    try? FileManager.default.removeItem(at: url)
    if toFile {
      try team.write("ada", path, "now a file\n")
    } else {
      try team.write("ada", path + "/a.txt", "now a folder\n")
    }
    try team.git("ada", "add", "-A")
    try team.git("ada", "commit", "-qm", toFile ? "folder to file" : "file to folder")
    try team.git("ada", "push", "-q", "origin", "main")
  }

  /// Ada commits `notes/design/` as a folder with plain git and pushes; Grace syncs it.
  func shareAFolder(_ team: Team) throws {
    try team.write("ada", "notes/design/a.txt", "a folder\n")
    try team.git("ada", "add", "-A")
    try team.git("ada", "commit", "-qm", "a folder")
    try team.git("ada", "push", "-q", "origin", "main")
    expectOK(try team.run("grace", "sync"))
  }

  func expectSameAsHead(
    _ team: Team, _ name: String, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    #expect(try team.git(name, "status", "--porcelain") == "", sourceLocation: sourceLocation)
    #expect(
      !(try team.git(name, "ls-files", "--others", "--exclude-standard")).contains("dinger-tmp"),
      sourceLocation: sourceLocation)
  }

  @Test(arguments: [false, true])
  func fileAndFolderSwapsArriveByFastForwardAndMerge(withLocalChange: Bool) throws {
    let team = try Team(dingers: ["ada", "grace"])
    try shareAFolder(team)
    for toFile in [true, false, true] {
      try swap(team, toFile: toFile)
      if withLocalChange {
        expectOK(
          try team.run(
            "grace", "scrum", "attendee", "add", "design-review",
            "G\(toFile)\(Int.random(in: 0..<1_000_000))"))
      }
      let r = try team.run("grace", "sync")
      #expect(r.status == 0, "\(r.stderr)")
      try expectSameAsHead(team, "grace")
      var isDir: ObjCBool = false
      let url = team.dir("grace").appendingPathComponent("notes/design")
      #expect(FileManager.default.fileExists(atPath: url.path, isDirectory: &isDir))
      #expect(isDir.boolValue == !toFile)
      // Later commands work on the result.
      expectOK(try team.run("grace", "meet", "design-review", "--record", "--duration", "5m"))
      try expectSameAsHead(team, "grace")
      expectOK(try team.run("grace", "sync"))
      expectOK(try team.run("ada", "sync"))
      try expectSameAsHead(team, "ada")
    }
  }

  /// An untracked file in the folder the remote turns into a file: the sync stops before HEAD
  /// moves, names the folder, and changes nothing.
  @Test func anUntrackedFileInTheWayStopsTheSyncFirst() throws {
    let team = try Team(dingers: ["ada", "grace"])
    try shareAFolder(team)
    try team.write("grace", "notes/design/mine.txt", "not committed\n")
    try swap(team, toFile: true)
    let head = try team.git("grace", "rev-parse", "HEAD")
    let r = try team.run("grace", "sync")
    #expect(r.status == 1)
    #expect(
      r.stderr.contains("notes/design is a folder where dinger expects a file"), "\(r.stderr)")
    #expect(try team.git("grace", "rev-parse", "HEAD") == head)
    #expect(try team.read("grace", "notes/design/mine.txt") == "not committed\n")
    #expect(try team.git("grace", "status", "--porcelain") == "?? notes/design/mine.txt\n")
  }
}
