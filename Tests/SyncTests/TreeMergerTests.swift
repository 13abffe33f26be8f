import Foundation
import Git
import Storage
import TestSupport
import Testing

@testable import Sync

/// The merge planner on whole trees: what it commits for changes on both sides at different
/// paths is exactly the tree git's own merge makes.
@Suite struct TreeMergerTests {
  /// One side's change to a file: new text, removed, made executable, or both of the first
  /// and last.
  enum Edit: CaseIterable { case text, remove, executable, textAndExecutable }

  /// A repository with `count` plain files on `main`, then seeded edits on a branch `theirs`
  /// and on `main`, mostly at different paths; some paths edited on both sides with changes
  /// git combines (one side's text, the other side's mode).
  func history(seed: UInt64, count: Int) throws -> (Sandbox, DataRepository) {
    var random = SeededGenerator(seed: seed)
    let box = try Sandbox()
    try FileManager.default.createDirectory(at: box.data, withIntermediateDirectories: true)
    try box.git("init", "-q", "-b", "main")
    let repository = try DataRepository.initialize(at: box.data)
    let paths = (0..<count).map { "notes/\($0 % 7)/n\($0).txt" }
    for path in paths { try box.write(path, "\(path) at first\n") }
    try box.git("add", "-A")
    try box.git("commit", "-q", "-m", "base")
    func edit(_ path: String, _ how: Edit, _ side: String) throws {
      let file = box.data.appendingPathComponent(path)
      switch how {
      case .text: try box.write(path, "\(path) by \(side)\n")
      case .remove: try box.git("rm", "-q", path)
      case .executable:
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: file.path)
      case .textAndExecutable:
        try edit(path, .text, side)
        try edit(path, .executable, side)
      }
    }
    let shuffled = paths.shuffled(using: &random)
    let (theirsOnly, oursOnly) = (shuffled[..<(count / 2)], shuffled[(count / 2)..<(count * 3 / 4)])
    let both = shuffled[(count * 3 / 4)...]
    try box.git("checkout", "-q", "-b", "theirs")
    for path in theirsOnly { try edit(path, Edit.allCases.randomElement(using: &random)!, "them") }
    for path in both { try edit(path, .text, "them") }
    for i in 0..<Int.random(in: 0...5, using: &random) {
      try box.write("added/t\(i).txt", "t\(i)\n")
    }
    try box.git("add", "-A")
    try box.git("commit", "-q", "-m", "theirs")
    try box.git("checkout", "-q", "main")
    for path in oursOnly { try edit(path, Edit.allCases.randomElement(using: &random)!, "us") }
    for path in both { try edit(path, .executable, "us") }
    for i in 0..<Int.random(in: 0...5, using: &random) {
      try box.write("added/o\(i).txt", "o\(i)\n")
    }
    try box.git("add", "-A")
    try box.git("commit", "-q", "--allow-empty", "-m", "ours")
    return (box, repository)
  }

  @Test(arguments: 0..<12) func aMergeCommitsTheTreeGitsMergeMakes(seed: UInt64) throws {
    let (box, repository) = try history(seed: seed, count: 40 + Int(seed) * 10)
    func id(_ name: String) throws -> ObjectID {
      try #require(ObjectID(hex: try box.git("rev-parse", name).trimmingCharacters(in: .newlines)))
    }
    let (ours, theirs) = (try id("main"), try id("theirs"))
    let git = repository.gitRepository
    let plan = try TreeMerger(git).plan(
      base: try git.mergeBase(ours, theirs), ours: ours, theirs: theirs, subject: "Merge")
    #expect(plan.conflicts.isEmpty)
    try repository.commit(plan.change)
    let expected = try box.git("merge-tree", "--write-tree", ours.hex, theirs.hex)
    #expect(try box.git("rev-parse", "HEAD^{tree}") == expected)
    #expect(try box.git("rev-parse", "HEAD^1", "HEAD^2") == "\(ours.hex)\n\(theirs.hex)\n")
    #expect(try box.git("status", "--porcelain") == "")
  }
}
