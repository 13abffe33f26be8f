import Foundation
import TestSupport
import Testing

/// What a push sends: the objects the remote lacks, not what it already has through another
/// parent of a merge.
@Suite struct PushContentsTests {
  /// The objects a bare repository holds, loose and packed (a pack may hold some twice).
  func objectCount(_ team: Team) throws -> Int {
    let lines = try team.box.git("count-objects", "-v", in: team.remote).split(separator: "\n")
    func value(_ key: String) -> Int {
      lines.first { $0.hasPrefix(key + ": ") }.flatMap { Int($0.dropFirst(key.count + 2)) } ?? 0
    }
    return value("count") + value("in-pack")
  }

  /// Linus pushes 150 meetings with plain git while Ada records one: her sync merges and
  /// pushes her commit, the merge and their trees. Compared with its first parent alone, the
  /// merge sent Linus's 150 files back (the remote kept them as a second pack).
  @Test func aMergeSendsNothingTheRemoteHasThroughItsOtherParent() throws {
    let team = try Team(dingers: ["ada"], plain: ["linus"])
    let scrum = try team.read("linus", "scrums/design-review.yaml")
    for day in 0..<150 {
      try team.write(
        "linus", "history/design-review/2026-06-\(String(format: "%03d", day))-linus.yaml",
        "scrum: \(Sandbox.id(in: scrum))\ndate: 2026-06-01T09:00:00Z\nlength: 10\nduration: \(day + 60)\nattendees: [Linus]\n"
      )
    }
    try team.git("linus", "add", "-A")
    try team.git("linus", "commit", "-qm", "150 meetings")
    try team.git("linus", "push", "-q", "origin", "main")
    expectOK(
      try team.run(
        "ada", "meet", "design-review", "--record", "--date", "2026-11-20T09:00:00Z", "--duration",
        "9m"))
    let before = try objectCount(team)
    let sync = try team.run("ada", "sync")
    expectOK(sync)
    #expect(sync.stdout.contains("150 files taken"), "\(sync.stdout)")
    // Ada's commit, her meeting and the three folders on its path (five); the merge and
    // its three folders (four).
    let sent = try objectCount(team) - before
    #expect(sent == 9)
    #expect(try team.box.git("fsck", "--strict", in: team.remote).isEmpty)
    try team.git("linus", "pull", "-q", "--no-edit", "origin", "main")
    try team.expectConverged()
  }
}
