import Foundation
import TestSupport
import Testing

/// The window plain git leaves (docs/storage.md, "A racing git commit's stale index"): a
/// `git commit` that read the index before a dinger write and takes `index.lock` after it
/// writes back the old index, though its own commit then fails. Played exactly: a stand-in
/// named `git`, run as `git commit` in the working tree, does what git's `prepare_index`
/// does (read the index without the lock; once the branch has moved and the lock is free,
/// take it and rename the stale copy over the index). dinger sees it running, waits for it
/// to end, and puts its entry back; git's next real commit keeps the file.
@Suite struct StaleIndexTests {
  static let standIn = #"""
    import os, sys, time
    root, out = sys.argv[2], sys.argv[3]
    git = os.path.join(root, ".git")
    stale = open(os.path.join(git, "index"), "rb").read()
    head = open(os.path.join(git, "refs/heads/main")).read()
    open(out, "w").write("read\n")
    deadline = time.time() + 20
    while open(os.path.join(git, "refs/heads/main")).read() == head and time.time() < deadline:
        time.sleep(0.001)
    while time.time() < deadline:
        try:
            fd = os.open(os.path.join(git, "index.lock"), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            break
        except FileExistsError:
            time.sleep(0.001)
    os.write(fd, stale)
    os.close(fd)
    os.rename(os.path.join(git, "index.lock"), os.path.join(git, "index"))
    open(out, "a").write("wrote\n")
    """#

  @Test func aStaleIndexWrittenBesideAWriteIsPutBack() throws {
    let box = try Sandbox()
    expectOK(try box.dinger("init"))
    // `git` is the program's name as /proc shows it; `commit` one of its words.
    let bin = box.home.url.appendingPathComponent("bin")
    try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      atPath: bin.appendingPathComponent("git").path, withDestinationPath: "/usr/bin/python3")
    try box.home.write("standin.py", Self.standIn)
    let log = box.home.url.appendingPathComponent("standin.log").path
    let script = try String(contentsOfFile: box.home.path("standin.py"), encoding: .utf8)
    // NB: through a shell that moves into the working tree and then becomes the stand-in.
    let pid = try ProcessRunner.start(
      "/bin/sh",
      [
        "-c", "cd \"$1\" && exec \"$2\" -c \"$3\" commit \"$1\" \"$4\"", "sh", box.data.path,
        bin.appendingPathComponent("git").path, script, log,
      ])
    defer { ProcessRunner.stop(pid) }
    for _ in 0..<2000 where ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").isEmpty {
      usleep(5_000)
    }
    let r = try box.dinger("scrum", "new", "Retro", "--attendee", "Ada")
    expectOK(r)
    #expect(
      try String(contentsOfFile: log, encoding: .utf8).contains("wrote"),
      "the stand-in wrote its stale index")
    #expect(r.stderr.contains("put back its entry (scrums/retro.yaml)"), "\(r.stderr)")
    #expect(try box.git("ls-files", "scrums").contains("scrums/retro.yaml"))
    #expect(try box.git("status", "--porcelain") == "")
    // git's next commit keeps the file.
    try box.write("notes.txt", "n\n")
    try box.git("add", "notes.txt")
    try box.git("commit", "-qm", "notes")
    #expect(try box.git("ls-tree", "-r", "--name-only", "HEAD").contains("scrums/retro.yaml"))
  }
}
