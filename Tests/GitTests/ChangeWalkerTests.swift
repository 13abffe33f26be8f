import Foundation
import TestSupport
import Testing

@testable import Git

@Suite struct ChangeWalkerTests {
  /// The walker finds exactly the files `git diff-tree` finds, commit by commit, for additions,
  /// removals, edits deep and shallow, a file turning into a folder and back, and names that
  /// sort differently as files and as folders (`a.b`, `a/`, `a0`); with the objects loose
  /// (read through libgit2) and packed (read from the pack by ObjectReader).
  @Test(arguments: [false, true]) func agreesWithGitDiffTree(packed: Bool) throws {
    let box = try Sandbox()
    try FileManager.default.createDirectory(at: box.data, withIntermediateDirectories: true)
    try box.git("init", "-q", "-b", "main")
    func commit(_ message: String, _ change: () throws -> Void) throws {
      try change()
      try box.git("add", "-A")
      try box.git("commit", "-q", "--allow-empty", "-m", message)
    }
    func remove(_ path: String) throws {
      try FileManager.default.removeItem(at: box.data.appendingPathComponent(path))
    }
    try commit("root") {
      for name in ["a.b", "a/x.yaml", "a0", "history/t1/m1.yaml", "scrums/t1.yaml"] {
        try box.write(name, "\(name)\n")
      }
    }
    try commit("deep edit") { try box.write("history/t1/m1.yaml", "changed\n") }
    try commit("add beside") {
      try box.write("history/t2/m2.yaml", "new\n")
      try box.write("history/t1/m3.yaml", "new\n")
    }
    try commit("remove a folder") { try remove("history/t2") }
    try commit("file becomes folder") {
      try remove("a0")
      try box.write("a0/inner.yaml", "inner\n")
    }
    try commit("folder becomes file") {
      try remove("a")
      try box.write("a", "plain\n")
    }
    try commit("nothing") {}
    try commit("several at once") {
      try box.write("a.b", "edited\n")
      try remove("scrums/t1.yaml")
      try box.write("z/y/x.yaml", "deep\n")
    }
    if packed { try box.git("repack", "-a", "-d", "-f", "-q", "--window=50") }
    let repo = try Repository.open(box.data)
    let log = try box.git("rev-list", "--reverse", "main").split(separator: "\n").map(String.init)
    #expect(log.count == 8)
    let walker = ChangeWalker(repo)
    for (n, hex) in log.enumerated() {
      let info = try repo.commitInfo(ObjectID(hex: hex)!)
      let ours = try walker.changes(in: info)
      let raw = try box.git("diff-tree", "-r", "--root", "--no-renames", "--no-commit-id", hex)
      // ":old-mode new-mode old-id new-id status\tpath"
      let theirs = raw.split(separator: "\n").map { line -> ChangedFile in
        let parts = line.split(separator: "\t")
        let fields = parts[0].split(separator: " ")
        func id(_ s: Substring) -> ObjectID? {
          s.allSatisfy { $0 == "0" } ? nil : ObjectID(hex: String(s))
        }
        return ChangedFile(path: String(parts[1]), old: id(fields[2]), new: id(fields[3]))
      }
      #expect(ours == theirs.sorted { $0.path < $1.path }, "commit \(n + 1)")
      // A fresh walker (no trees kept) agrees with the one that walked the history.
      #expect(try repo.changedFiles(info.id) == ours)
    }
    #expect((walker.reader.fallbacks == 0) == packed)
  }

  /// Objects that are not what they claim (written with `git hash-object --literally`) are a
  /// GitError naming the problem, not a crash: a tree cut short, a commit whose tree is a blob,
  /// a commit without a tree line.
  @Test func damagedObjectsAreErrors() throws {
    let box = try Sandbox()
    try FileManager.default.createDirectory(at: box.data, withIntermediateDirectories: true)
    try box.git("init", "-q", "-b", "main")
    func literally(_ type: String, _ content: String) throws -> ObjectID {
      try box.write("object.raw", content)
      let hex = try box.git("hash-object", "-t", type, "--literally", "-w", "object.raw")
      return try #require(ObjectID(hex: hex.trimmingCharacters(in: .whitespacesAndNewlines)))
    }
    let blob = try literally("blob", "data\n")
    let cutShort = try literally("tree", "100644 name-without-id")
    let signature = "author A <a@b> 0 +0000\ncommitter A <a@b> 0 +0000\n\nm\n"
    let commits = [
      try literally("commit", "tree \(cutShort.hex)\n" + signature),
      try literally("commit", "tree \(blob.hex)\n" + signature),
      try literally("commit", signature),
    ]
    let repo = try Repository.open(box.data)
    let expected = ["a tree entry is cut short", "is not a tree", "names no tree"]
    for (commit, message) in zip(commits, expected) {
      let info = Repository.CommitInfo(
        id: commit, parents: [], message: "m",
        author: Signature(name: "A", email: "a@b", date: Date(), offsetMinutes: 0))
      #expect {
        try ChangeWalker(repo).changes(in: info)
      } throws: { error in
        (error as? GitError)?.message.contains(message) == true
      }
    }
  }
}
