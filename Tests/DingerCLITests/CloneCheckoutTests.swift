import Foundation
import TestSupport
import Testing

/// `dinger clone` writes the working tree and index itself (not libgit2's checkout): the result
/// must be what `git clone` gives, file for file, mode for mode, entry for entry, and a tree
/// git would refuse to check out is refused.
@Suite struct CloneCheckoutTests {
  /// A data repository with an executable, a link, deep and non-ASCII names.
  func source(_ box: Sandbox) throws {
    expectOK(try box.dinger("init"))
    expectOK(try box.dinger("scrum", "new", "Design", "--attendee", "Ada"))
    try box.write("tools/run.sh", "#!/bin/sh\necho hi\n")
    chmod(box.data.appendingPathComponent("tools/run.sh").path, 0o755)
    try box.write("notes/deep/er/still/Zoë's Ünïcode.md", "grüße\n")
    try box.write("notes/b.txt", "b\n")
    try box.write("notes-a.txt", "a\n")
    symlink("../notes/b.txt", box.data.appendingPathComponent("tools/b-link").path)
    try box.git("add", "-A")
    try box.git("commit", "-qm", "files of every kind")
  }

  @Test func aCloneIsWhatGitCloneGives() throws {
    let box = try Sandbox()
    try source(box)
    let ours = box.home.url.appendingPathComponent("ours")
    let theirs = box.home.url.appendingPathComponent("theirs")
    expectOK(try box.dinger("clone", box.data.path, ours.path, in: box.home.url))
    try box.git("clone", "-q", box.data.path, theirs.path, in: box.home.url)
    // The same entries (path, mode, blob), and git sees nothing changed or untracked.
    #expect(try box.git("ls-files", "-s", in: ours) == box.git("ls-files", "-s", in: theirs))
    #expect(try box.git("status", "--porcelain", in: ours) == "")
    #expect(try box.git("diff-files", in: ours) == "", "the index's stat data matches the files")
    let r = try ProcessRunner.run(
      "/usr/bin/diff", ["-r", "--no-dereference", "-x", ".git", ours.path, theirs.path])
    #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
    var st = stat()
    #expect(lstat(ours.appendingPathComponent("tools/b-link").path, &st) == 0)
    #expect(st.st_mode & S_IFMT == S_IFLNK)
    #expect(stat(ours.appendingPathComponent("tools/run.sh").path, &st) == 0)
    #expect(st.st_mode & 0o100 != 0, "executable")
    #expect(try box.dinger("scrum", "list", in: ours).stdout.contains("Design"))
  }

  /// Line-ending attributes need libgit2's filters: the clone still matches git's.
  @Test func filtersFromAttributesAreApplied() throws {
    let box = try Sandbox()
    try source(box)
    try box.write(".gitattributes", "*.yaml merge=dinger diff=dinger\n*.txt text eol=crlf\n")
    try box.git("commit", "-qam", "CRLF for text files")
    let ours = box.home.url.appendingPathComponent("ours")
    let theirs = box.home.url.appendingPathComponent("theirs")
    expectOK(try box.dinger("clone", box.data.path, ours.path, in: box.home.url))
    try box.git("clone", "-q", box.data.path, theirs.path, in: box.home.url)
    let text = try Data(contentsOf: ours.appendingPathComponent("notes/b.txt"))
    #expect(text == Data("b\r\n".utf8))
    #expect(try box.git("status", "--porcelain", in: ours) == "")
    let r = try ProcessRunner.run(
      "/usr/bin/diff", ["-r", "--no-dereference", "-x", ".git", ours.path, theirs.path])
    #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
  }

  /// A tree with a `.GIT` folder (git refuses it: on a case-insensitive disk it is `.git`)
  /// is refused whole: nothing of it is written.
  @Test func aTreeGitRefusesIsRefused() throws {
    let box = try Sandbox()
    try source(box)
    let hook = try box.git(
      ["hash-object", "-w", box.data.appendingPathComponent("notes/b.txt").path])
      .trimmingCharacters(in: .whitespacesAndNewlines)
    // A tree `.GIT/hooks-like` made by hand (git mktree refuses such names).
    func tree(_ entries: [(mode: String, name: String, id: String)]) throws -> String {
      try rawTree(box, entries)
    }
    let inner = try tree([("100644", "config", hook)])
    let root = try box.git("rev-parse", "HEAD^{tree}")
      .trimmingCharacters(in: .whitespacesAndNewlines)
    var entries: [(mode: String, name: String, id: String)] = []
    for line in try box.git("ls-tree", root).split(separator: "\n") {
      let parts = line.split(separator: "\t", maxSplits: 1)
      let meta = parts[0].split(separator: " ")
      entries.append((String(meta[0]), String(parts[1]), String(meta[2])))
    }
    entries.append(("40000", ".GIT", inner))
    let evil = try tree(entries)
    let commit = try box.git("commit-tree", evil, "-p", "HEAD", "-m", "a .GIT folder")
      .trimmingCharacters(in: .whitespacesAndNewlines)
    try box.git("update-ref", "refs/heads/main", commit)
    let ours = box.home.url.appendingPathComponent("ours")
    let r = try box.dinger("clone", box.data.path, ours.path, in: box.home.url)
    #expect(r.status != 0)
    #expect(r.stderr.contains("a path git refuses to check out: .GIT"), "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: ours.appendingPathComponent(".GIT").path))
  }

  /// A tree object written as given (sorted by name, duplicates kept): what git mktree refuses.
  func rawTree(
    _ box: Sandbox, _ entries: [(mode: String, name: String, id: String)], padded: Bool = false
  ) throws -> String {
    var bytes = Data()
    // NB: git's order: a folder sorts as its name with a '/' after it.
    func key(_ e: (mode: String, name: String, id: String)) -> String {
      e.name + (e.mode.hasSuffix("40000") ? "/" : "")
    }
    for e in entries.sorted(by: { key($0) < key($1) }) {
      // NB: ls-tree pads a folder's mode (040000); a tree object holds it unpadded.
      let mode = e.mode.hasPrefix("0") && !padded ? String(e.mode.dropFirst()) : e.mode
      bytes += Data("\(mode) \(e.name)\0".utf8)
      var hex = Substring(e.id)
      while !hex.isEmpty {
        bytes.append(UInt8(hex.prefix(2), radix: 16)!)
        hex = hex.dropFirst(2)
      }
    }
    let file = box.home.url.appendingPathComponent("tree-\(UUID().uuidString)")
    try bytes.write(to: file)
    return try box.git(["hash-object", "-t", "tree", "-w", "--literally", file.path])
      .trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// A name twice in one folder (two files, or a file and a folder): git clones it, writing
  /// one over the other; dinger refused half-way with a raw "File exists" / "Not a directory"
  /// and left the folder. Now it says what and where, and creates nothing.
  @Test(arguments: ["two files", "a file and a folder"])
  func aNameTwiceIsRefusedByName(kind: String) throws {
    let box = try Sandbox()
    try source(box)
    let blob = try box.git(["rev-parse", "HEAD:notes/b.txt"])
      .trimmingCharacters(in: .whitespacesAndNewlines)
    let folder = try box.git(["rev-parse", "HEAD:notes/deep"])
      .trimmingCharacters(in: .whitespacesAndNewlines)
    var entries: [(mode: String, name: String, id: String)] = []
    for line in try box.git("ls-tree", "HEAD:notes").split(separator: "\n") {
      let parts = line.split(separator: "\t", maxSplits: 1)
      let meta = parts[0].split(separator: " ")
      entries.append((String(meta[0]), String(parts[1]), String(meta[2])))
    }
    entries.append(kind == "two files" ? ("100644", "b.txt", blob) : ("40000", "b.txt", folder))
    let notes = try rawTree(box, entries)
    var root: [(mode: String, name: String, id: String)] = []
    for line in try box.git("ls-tree", "HEAD").split(separator: "\n") {
      let parts = line.split(separator: "\t", maxSplits: 1)
      let meta = parts[0].split(separator: " ")
      root.append(
        (String(meta[0]), String(parts[1]), parts[1] == "notes" ? notes : String(meta[2])))
    }
    let commit = try box.git("commit-tree", try rawTree(box, root), "-p", "HEAD", "-m", "twice")
      .trimmingCharacters(in: .whitespacesAndNewlines)
    try box.git("update-ref", "refs/heads/main", commit)
    let ours = box.home.url.appendingPathComponent("ours")
    let r = try box.dinger("clone", box.data.path, ours.path, in: box.home.url)
    #expect(r.status == 1)
    #expect(
      r.stderr.contains("two entries named 'b.txt' (duplicateEntries) at 'notes'"), "\(r.stderr)")
    #expect(r.stderr.contains("nothing was created"), "\(r.stderr)")
    #expect(!r.stderr.contains("File exists") && !r.stderr.contains("Not a directory"))
    #expect(!FileManager.default.fileExists(atPath: ours.path))
    let left = try FileManager.default.contentsOfDirectory(atPath: box.home.url.path)
    #expect(!left.contains { $0.contains(".dinger-clone-") }, "\(left)")
    // git clones it (one entry written over the other).
    let git = try ProcessRunner.run(
      "/usr/bin/git", ["clone", "-q", box.data.path, box.home.path("theirs")], in: box.home.url,
      environment: box.environment)
    #expect(FileManager.default.fileExists(atPath: box.home.path("theirs/notes")), "\(git.stderr)")
  }

  /// A folder whose mode is written zero-padded (`040000`, which git fsck only warns about)
  /// is a folder to git: dinger read it as a file and wrote the tree's bytes into one.
  @Test func aZeroPaddedFolderModeIsAFolderAsInGit() throws {
    let box = try Sandbox()
    try source(box)
    var root: [(mode: String, name: String, id: String)] = []
    for line in try box.git("ls-tree", "HEAD").split(separator: "\n") {
      let parts = line.split(separator: "\t", maxSplits: 1)
      let meta = parts[0].split(separator: " ")
      root.append((String(meta[0]), String(parts[1]), String(meta[2])))
    }
    let commit = try box.git(
      "commit-tree", try rawTree(box, root, padded: true), "-p", "HEAD", "-m", "padded"
    )
    .trimmingCharacters(in: .whitespacesAndNewlines)
    try box.git("update-ref", "refs/heads/main", commit)
    let ours = box.home.url.appendingPathComponent("ours")
    let theirs = box.home.url.appendingPathComponent("theirs")
    expectOK(try box.dinger("clone", box.data.path, ours.path, in: box.home.url))
    try box.git("clone", "-q", box.data.path, theirs.path, in: box.home.url)
    #expect(
      try String(contentsOf: ours.appendingPathComponent("notes/b.txt"), encoding: .utf8) == "b\n")
    let r = try ProcessRunner.run(
      "/usr/bin/diff", ["-r", "--no-dereference", "-x", ".git", ours.path, theirs.path])
    #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
  }

  /// A shallow repository (made with `--depth`) is refused by name, on a path and file://,
  /// for clone and sync: a clone of one had commits whose parents were missing, and `log`,
  /// `sync` and `undo` then failed with "object not found".
  @Test func aShallowRepositoryIsRefusedByName() throws {
    let box = try Sandbox()
    try source(box)
    let shallow = box.home.path("shallow.git")
    try box.git("clone", "-q", "--bare", "--depth", "1", "file://" + box.data.path, shallow)
    for url in [shallow, "file://" + shallow] {
      let target = box.home.path("c")
      let r = try box.dinger("clone", url, target, in: box.home.url)
      #expect(r.status == 1, "\(r.stdout)")
      #expect(r.stderr.contains("is shallow (made with --depth"), "\(r.stderr)")
      #expect(r.stderr.contains("git fetch --unshallow"), "\(r.stderr)")
      #expect(!FileManager.default.fileExists(atPath: target))
    }
    // A sync from one says the same, and changes nothing.
    expectOK(try box.dinger("remote", "add", "shallow", shallow))
    let head = try box.git("rev-parse", "HEAD")
    let r = try box.dinger("sync", "--remote", "shallow")
    #expect(r.status == 1)
    #expect(r.stderr.contains("is shallow (made with --depth"), "\(r.stderr)")
    #expect(try box.git("rev-parse", "HEAD") == head)
  }

  /// The user's own attributes file (`core.attributesFile`) applies to a clone, as in git.
  @Test func theUsersAttributesFileAppliesAsInGit() throws {
    let box = try Sandbox()
    try source(box)
    try box.home.write("my-attributes", "*.txt text eol=crlf\n")
    try box.git("config", "--global", "core.attributesFile", box.home.path("my-attributes"))
    let ours = box.home.url.appendingPathComponent("ours")
    let theirs = box.home.url.appendingPathComponent("theirs")
    expectOK(try box.dinger("clone", box.data.path, ours.path, in: box.home.url))
    try box.git("clone", "-q", box.data.path, theirs.path, in: box.home.url)
    #expect(
      try Data(contentsOf: theirs.appendingPathComponent("notes/b.txt")) == Data("b\r\n".utf8))
    #expect(try Data(contentsOf: ours.appendingPathComponent("notes/b.txt")) == Data("b\r\n".utf8))
    #expect(try box.git("status", "--porcelain", in: ours) == "")
  }

  /// A clone killed before it was done (Ctrl-C, a kill, a power cut) leaves nothing that
  /// blocks the retry: it is made in a hidden folder and renamed into place when whole; the
  /// retry removes the leftover. (git removes its folder on Ctrl-C but not after a kill.)
  @Test func aKilledCloneLeavesNothingThatBlocksTheRetry() throws {
    let box = try Sandbox()
    try source(box)
    let ours = box.home.url.appendingPathComponent("ours")
    let killed = try box.dinger(
      ["clone", box.data.path, ours.path], in: box.home.url,
      env: ["DINGER_TEST_STOP_AT": "clone-fetched"])
    #expect(killed.status == 137, "\(killed.stderr)")
    #expect(!FileManager.default.fileExists(atPath: ours.path))
    let retry = try box.dinger("clone", box.data.path, ours.path, in: box.home.url)
    #expect(retry.status == 0, "\(retry.stderr)")
    #expect(try box.dinger("scrum", "list", in: ours).stdout.contains("Design"))
    let left = try FileManager.default.contentsOfDirectory(atPath: box.home.url.path)
    #expect(!left.contains { $0.contains(".dinger-clone-") }, "\(left)")
  }
}
