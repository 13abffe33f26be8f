import Foundation
import TestSupport
import Testing

@testable import Git

@Suite struct IndexFileTests {
  @Test(arguments: [
    ("", "da39a3ee5e6b4b0d3255bfef95601890afd80709"),
    ("abc", "a9993e364706816aba3e25717850c26c9cd0d89d"),
    (String(repeating: "a", count: 1000), "291e9a6c66994949b57ba5e650361e98fc36b1ba"),
    (
      "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
      "84983e441c3bd26ebaae4aa1f95129e5e54670f1"
    ),
  ])
  func sha1MatchesKnownDigests(input: String, hex: String) {
    let digest = Array(input.utf8).withUnsafeBytes { SHA1.digest($0) }
    #expect(digest.map { String(format: "%02x", $0) }.joined() == hex)
  }

  @Test func incrementalSHA1EqualsOneShot() {
    let bytes = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
    var sha = SHA1()
    for chunk in stride(from: 0, to: bytes.count, by: 37) {
      bytes[chunk..<min(chunk + 37, bytes.count)].withUnsafeBytes { sha.update($0) }
    }
    #expect(sha.finish() == bytes.withUnsafeBytes { SHA1.digest($0) })
  }

  /// Splicing entries into an index git wrote gives an index git reads as it would its own.
  @Test func splicedIndexReadsBackInGit() throws {
    let box = try Sandbox()
    try FileManager.default.createDirectory(at: box.data, withIntermediateDirectories: true)
    try box.git("init", "-q")
    for name in ["a.txt", "c/d.txt", "z.txt", "b-dir/x.txt"] { try box.write(name, "\(name)\n") }
    try box.git("add", "-A")
    try box.git("commit", "-qm", "base")
    let repo = try Repository.open(box.data)
    try box.write("b.txt", "new\n")
    try box.write("c/d.txt", "changed\n")
    try FileManager.default.removeItem(at: box.data.appendingPathComponent("z.txt"))
    let b = try repo.writeBlob(Array("new\n".utf8))
    let d = try repo.writeBlob(Array("changed\n".utf8))
    let lock = try #require(try IndexLock.tryAcquire(gitDirectory: repo.gitDirectory))
    // While dinger holds the lock, git can neither stage nor commit.
    #expect(throws: (any Error).self) { try box.git("add", "a.txt") }
    try lock.write(
      changed: [(path: "b.txt", blob: b), (path: "c/d.txt", blob: d)], removed: ["z.txt"],
      workdir: box.data)
    try lock.commit()
    #expect(!FileManager.default.fileExists(atPath: IndexLock.path(in: repo.gitDirectory)))
    #expect(try box.git("ls-files") == "a.txt\nb-dir/x.txt\nb.txt\nc/d.txt\n")
    #expect(try box.git("status", "--porcelain") == "A  b.txt\nM  c/d.txt\nD  z.txt\n")
    #expect(try box.git("diff", "--stat") == "")
    #expect(try box.git("ls-files", "-s", "b.txt").hasPrefix("100644 \(b.hex) 0\tb.txt"))
  }

  /// Many entries added, changed and removed at once, among many kept (a catch-up's write),
  /// with names that sort around `/` and `.` in git's byte order: git reads the index back as
  /// exactly the working tree, staged. Seeds are printed to be replayed.
  @Test(arguments: [1, 2, 3] as [UInt64])
  func manyUpdatesSplicedAmongManyEntriesMatchGit(seed: UInt64) throws {
    var rng = SeededGenerator(seed: seed)
    let box = try Sandbox()
    try FileManager.default.createDirectory(at: box.data, withIntermediateDirectories: true)
    try box.git("init", "-q")
    let stems = ["a", "a-b", "a.b", "ab", "a0", "b", "é", "Z", "m/n", "m-n", "m.n", "mn"]
    func randomPath() -> String {
      let depth = Int.random(in: 0...2, using: &rng)
      let parts = (0...depth).map { _ in stems.randomElement(using: &rng)! }
      return parts.joined(separator: "/") + "/f\(Int.random(in: 0..<40, using: &rng)).txt"
    }
    var files = Set<String>()
    for _ in 0..<300 {
      let path = randomPath()
      // NB: a file and a folder of one name can't both be: such a path is left out.
      if files.contains(where: { $0.hasPrefix(path + "/") || path.hasPrefix($0 + "/") }) {
        continue
      }
      files.insert(path)
      try box.write(path, "\(path)\n")
    }
    try box.git("add", "-A")
    try box.git("commit", "-qm", "base")
    let repo = try Repository.open(box.data)
    var changed: [(path: String, blob: ObjectID)] = []
    var removed: [String] = []
    for path in files.sorted() where Bool.random(using: &rng) {
      if Bool.random(using: &rng) {
        try FileManager.default.removeItem(at: box.data.appendingPathComponent(path))
        removed.append(path)
        files.remove(path)
      } else {
        try box.write(path, "changed \(path)\n")
        changed.append((path, try repo.writeBlob(Array("changed \(path)\n".utf8))))
      }
    }
    for _ in 0..<200 {
      let path = randomPath()
      if files.contains(where: {
        $0 == path || $0.hasPrefix(path + "/") || path.hasPrefix($0 + "/")
      })
        || removed.contains(where: {
          $0 == path || $0.hasPrefix(path + "/") || path.hasPrefix($0 + "/")
        })
      {
        continue
      }
      files.insert(path)
      try box.write(path, "new \(path)\n")
      changed.append((path, try repo.writeBlob(Array("new \(path)\n".utf8))))
    }
    let lock = try #require(try IndexLock.tryAcquire(gitDirectory: repo.gitDirectory))
    try lock.write(changed: changed.shuffled(using: &rng), removed: removed, workdir: box.data)
    try lock.commit()
    let listed = try box.git("-c", "core.quotePath=false", "ls-files").split(separator: "\n")
    #expect(listed.map(String.init) == files.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
    // Nothing unstaged: every entry has its file's blob and stat data.
    #expect(
      try box.git("status", "--porcelain", "--untracked-files=all").split(separator: "\n")
        .allSatisfy { $0.first != " " && $0.first != "?" }, "seed \(seed)")
    #expect(try box.git("diff", "--stat") == "", "seed \(seed)")
  }

  /// A version-4 index is edited through libgit2 (on a copy, since the lock is held), with the
  /// same result git would give.
  @Test func unsupportedIndexesGoThroughLibgit2() throws {
    let box = try Sandbox()
    try FileManager.default.createDirectory(at: box.data, withIntermediateDirectories: true)
    try box.git("init", "-q")
    try box.git("config", "index.version", "4")
    try box.write("a.txt", "a\n")
    try box.write("b.txt", "b\n")
    try box.git("add", "a.txt", "b.txt")
    let repo = try Repository.open(box.data)
    guard case .unsupported = IndexFile.load(gitDirectory: repo.gitDirectory) else {
      Issue.record("a version-4 index should be left to libgit2")
      return
    }
    try box.write("c.txt", "c\n")
    let c = try repo.writeBlob(Array("c\n".utf8))
    let lock = try #require(try IndexLock.tryAcquire(gitDirectory: repo.gitDirectory))
    try lock.write(changed: [(path: "c.txt", blob: c)], removed: ["a.txt"], workdir: box.data)
    try lock.commit()
    #expect(try box.git("ls-files") == "b.txt\nc.txt\n")
    #expect(try box.git("diff", "--stat") == "")
    #expect(try box.git("ls-files", "-s", "c.txt").hasPrefix("100644 \(c.hex) 0\tc.txt"))
  }

  /// A damaged index (a count no file could hold, entries cut short) is reported before
  /// anything is allocated for it, naming the fix; the index stays as it was.
  @Test(arguments: ["count", "cut", "header", "bitflip"])
  func damagedIndexesAreErrorsNotCrashes(damage: String) throws {
    let box = try Sandbox()
    try FileManager.default.createDirectory(at: box.data, withIntermediateDirectories: true)
    try box.git("init", "-q")
    try box.write("a.txt", "a\n")
    try box.git("add", "a.txt")
    let repo = try Repository.open(box.data)
    let indexPath = repo.gitDirectory.appendingPathComponent("index")
    var bytes = [UInt8](try Data(contentsOf: indexPath))
    switch damage {
    case "count": bytes.replaceSubrange(8..<12, with: [0xFF, 0xFF, 0xFF, 0xFF])
    case "cut": bytes.replaceSubrange(8..<12, with: [0, 0, 0, 3])
    // NB: one bit of the path, which every length check still accepts: only the checksum tells.
    case "bitflip": bytes[12 + 62] ^= 0x01
    default: bytes[0] = UInt8(ascii: "X")
    }
    try Data(bytes).write(to: indexPath)
    let lock = try #require(try IndexLock.tryAcquire(gitDirectory: repo.gitDirectory))
    defer { lock.release() }
    let error = try #require(throws: GitError.self) { try lock.check() }
    #expect(error.message.contains("is damaged"))
    if damage == "bitflip" { #expect(error.message.contains("checksum"), "\(error.message)") }
    #expect(error.message.contains("rm -f .git/index && git reset"))
    #expect(try Data(contentsOf: indexPath) == Data(bytes))
  }
}
