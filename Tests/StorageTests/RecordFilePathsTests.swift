import Foundation
import Models
import TestSupport
import Testing

@testable import Storage

/// The listing `check` starts from: every record file and what can't be read as one, the
/// same whether the history's folders are listed on this thread or on every core.
@Suite struct RecordFilePathsTests {
  @Test func listingOnEveryCoreFindsWhatOneThreadFinds() throws {
    let dir = try TemporaryDirectory()
    try dir.write(".dinger/config.yaml", "{}\n")
    try dir.write("scrums/b.yaml", "title: B\n")
    try dir.write("scrums/a.yaml", "title: A\n")
    try dir.write("scrums/old.yml", "title: Old\n")
    try dir.write("scrums/notes.txt", "not a record\n")
    for scrum in ["zeta", "alpha", "équipe", "mid-1", "mid"] {
      for day in [12, 3, 27] {
        try dir.write("history/\(scrum)/2026-02-\(day)-00000001.yaml", "duration: 1\n")
      }
    }
    try dir.write("history/mid/deeper/2026-02-01-00000001.yaml", "duration: 1\n")
    try FileManager.default.createSymbolicLink(
      atPath: dir.path("history/alpha/2026-03-01-00000001.yaml"), withDestinationPath: "/etc/passwd"
    )
    // A name that is not UTF-8, made through the bytes.
    var raw = Array(dir.path("history/zeta/bad-").utf8) + [0xFF] + Array(".yaml".utf8) + [0]
    let fd = creat(&raw, 0o644)
    #expect(fd >= 0)
    close(fd)

    let directory = DataDirectory(root: URL(fileURLWithPath: dir.path()))
    let alone = directory.recordFilePaths(parallelFrom: .max)
    let inRuns = directory.recordFilePaths(parallelFrom: 1)
    #expect(inRuns.paths == alone.paths)
    #expect(inRuns.problems.map(\.file).sorted() == alone.problems.map(\.file).sorted())
    // Each folder's files in order and the folders in order: the paths come sorted.
    #expect(alone.paths == alone.paths.sorted())
    #expect(alone.paths.count == 1 + 3 + 15 + 1)
    #expect(alone.paths.contains("scrums/old.yml") && !alone.paths.contains("scrums/notes.txt"))
    #expect(alone.paths.contains("history/mid/deeper/2026-02-01-00000001.yaml"))
    #expect(alone.problems.contains { $0.file == "history/alpha/2026-03-01-00000001.yaml" })
    #expect(
      alone.problems.contains { $0.file == "history/zeta/bad-\\xff.yaml" },
      "\(alone.problems.map(\.file))")
  }
}
