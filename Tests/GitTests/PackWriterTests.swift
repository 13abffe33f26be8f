import Foundation
import TestSupport
import Testing

@testable import Git

/// Packs written by reusing the local packs' entries, read back by git's own `index-pack`.
@Suite struct PackWriterTests {
  func history(_ commits: Int) throws -> Sandbox {
    let box = try Sandbox()
    try FileManager.default.createDirectory(at: box.data, withIntermediateDirectories: true)
    try box.git("init", "-q", "-b", "main")
    for i in 0..<commits {
      let lines = (0..<(200 + i)).map { $0 == i ? "line \($0) changed in \(i)" : "line \($0)" }
      try box.write("big/list.txt", lines.joined(separator: "\n") + "\n")
      try box.write("history/t\(i % 3)/m\(i).yaml", "id: \(i)\nduration: \(i * 7)\n")
      try box.git("add", "-A")
      try box.git("commit", "-q", "-m", "commit \(i)")
    }
    try box.git("gc", "-q", "--aggressive")
    return box
  }

  /// Writes the pack of `objects`, indexes it with git in a new bare repository, and returns
  /// that repository and `git verify-pack -v`'s lines.
  func roundTrip(_ box: Sandbox, _ objects: [ObjectID]) throws -> (URL, String) {
    var pack: [UInt8] = []
    try PackWriter(try Repository.open(box.data)).write(objects) { pack += $0 }
    let file = box.home.url.appendingPathComponent("out.pack")
    try Data(pack).write(to: file)
    let target = box.home.url.appendingPathComponent("target.git")
    try box.git("init", "-q", "--bare", target.path)
    let indexed = try ProcessRunner.run(
      "/usr/bin/git", ["index-pack", "-o", target.path + "/objects/pack/pack-out.idx", file.path],
      in: target, environment: box.environment)
    #expect(indexed.status == 0, "git index-pack refused the pack: \(indexed.stderr)")
    try FileManager.default.copyItem(
      atPath: file.path, toPath: target.path + "/objects/pack/pack-out.pack")
    let verify = try box.git("verify-pack", "-v", target.path + "/objects/pack/pack-out.idx")
    return (target, verify)
  }

  func ids(_ box: Sandbox, _ range: String) throws -> [ObjectID] {
    try box.git("rev-list", "--objects", range).split(separator: "\n").map {
      ObjectID(hex: String($0.prefix(40)))!
    }
  }

  /// Every object of the history: git reads the same objects back, and the deltas git made
  /// are kept (the pack is no bigger than git's own, give or take the reference-delta ids).
  @Test func aWholeHistoryKeepsItsDeltas() throws {
    let box = try history(40)
    let objects = try ids(box, "main")
    let (target, verify) = try roundTrip(box, objects)
    let deltas = verify.split(separator: "\n").filter { $0.split(separator: " ").count >= 7 }
    #expect(deltas.count > 20, "deltas were not reused: \(verify.prefix(2000))")
    let original = try box.git("cat-file", "--batch-all-objects", "--batch-check")
    let copied = try box.git(
      "--git-dir", target.path, "cat-file", "--batch-all-objects", "--batch-check")
    #expect(copied == original)
    let fsck = try ProcessRunner.run(
      "/usr/bin/git", ["--git-dir", target.path, "fsck", "--strict", "--no-dangling"],
      environment: box.environment)
    #expect(fsck.status == 0 && fsck.stdout.isEmpty, "\(fsck.stdout) \(fsck.stderr)")
  }

  /// Only the last commits' objects: deltas whose base is not sent are written whole, so the
  /// pack stands on its own (git's index-pack refuses a missing base without --fix-thin).
  @Test func aPartOfTheHistoryStandsOnItsOwn() throws {
    let box = try history(40)
    let objects = try ids(box, "main~5..main")
    let (target, _) = try roundTrip(box, objects)
    for id in objects {
      #expect(
        try box.git("--git-dir", target.path, "cat-file", "-p", id.hex)
          == box.git("cat-file", "-p", id.hex))
    }
  }

  /// Loose objects (never packed) are packed whole.
  @Test func looseObjectsAreDeflated() throws {
    let box = try history(3)
    try box.write("new.txt", "fresh\n")
    try box.git("add", "-A")
    try box.git("commit", "-q", "-m", "loose")
    let objects = try ids(box, "main~1..main")
    let (target, _) = try roundTrip(box, objects)
    let blob = try box.git("rev-parse", "main:new.txt").trimmingCharacters(
      in: .whitespacesAndNewlines)
    #expect(try box.git("--git-dir", target.path, "cat-file", "-p", blob) == "fresh\n")
    for id in objects {
      #expect(
        try box.git("--git-dir", target.path, "cat-file", "-p", id.hex)
          == box.git("cat-file", "-p", id.hex))
    }
  }
}
