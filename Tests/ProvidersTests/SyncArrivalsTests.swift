import Foundation
import Git
import Storage
import TestSupport
import Testing

@testable import Providers

/// The check of what a sync brought, started while the sync's write is under way: the write's
/// files are judged as its bytes and its removals as gone, whatever the disk holds meanwhile.
@Suite struct SyncArrivalsTests {
  func repository() throws -> (Sandbox, DataRepository) {
    let box = try Sandbox()
    try FileManager.default.createDirectory(at: box.data, withIntermediateDirectories: true)
    try box.git("init", "-q", "-b", "main")
    try box.git("config", "user.name", "Ada Lovelace")
    try box.git("config", "user.email", "ada@example.com")
    return (box, try DataRepository.initialize(at: box.data))
  }

  let someCommit = ObjectID(hex: String(repeating: "ab", count: 20))!

  @Test func aPlannedWritesBytesAreJudgedNotTheFileOnDisk() throws {
    let (box, repo) = try repository()
    try box.write("scrums/design.yaml", "title: Design\nlength: 5\nattendees: [Ada]\n")
    let planned = PlannedWrite(
      commit: someCommit,
      files: [("scrums/design.yaml", Array("title: Design\nlength: [5\n".utf8))], removals: [])
    let lines = SyncProvider.brokenArrivals(
      repo, paths: ["scrums/design.yaml"], planned: planned)
    #expect(lines.first?.hasPrefix("scrums/design.yaml:") == true, "\(lines)")
    #expect(lines.last?.contains("a file has errors since this sync") == true, "\(lines)")
    // Without the plan the file on disk is read, and it is fine.
    #expect(SyncProvider.brokenArrivals(repo, paths: ["scrums/design.yaml"]).isEmpty)
  }

  /// A teammate renamed a scrum: the old file, still on disk while the write goes on, is not
  /// taken for a second scrum with the same title.
  @Test func aPlannedWritesRemovalsAreGoneAlready() throws {
    let (box, repo) = try repository()
    let scrum = "title: Design\nlength: 5\nattendees: [Ada]\n"
    try box.write("scrums/design.yaml", scrum)
    let planned = PlannedWrite(
      commit: someCommit, files: [("scrums/design-review.yaml", Array(scrum.utf8))],
      removals: ["scrums/design.yaml"])
    #expect(
      SyncProvider.brokenArrivals(
        repo, paths: ["scrums/design-review.yaml"], planned: planned
      ).isEmpty)
    // The same files with the removal not known: two scrums named "Design".
    try box.write("scrums/design-review.yaml", scrum)
    let both = SyncProvider.brokenArrivals(repo, paths: ["scrums/design-review.yaml"])
    #expect(both.first?.contains("has this title too") == true, "\(both)")
  }
}
