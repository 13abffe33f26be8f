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
      var bytes = Data()
      for e in entries.sorted(by: { $0.name < $1.name }) {
        bytes += Data("\(e.mode) \(e.name)\0".utf8)
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
}
