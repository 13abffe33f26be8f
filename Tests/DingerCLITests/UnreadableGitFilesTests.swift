import Foundation
import TestSupport
import Testing

/// A git file dinger cannot read stops a write before anything changes, with git's words for
/// it; it never reads as "absent" (an unreadable index taken as empty made the next plain
/// `git commit` delete every other file). Run as an ordinary user: root reads `chmod 000`.
@Suite struct UnreadableGitFilesTests {
  /// A data repository with one scrum, owned by the ordinary user.
  func sandbox() throws -> Sandbox {
    let box = try Sandbox()
    #expect(try box.dinger("init").status == 0)
    #expect(try box.dinger("scrum", "new", "Standup", "--attendee", "Ada").status == 0)
    try OrdinaryUser.prepare(box)
    return box
  }

  /// HEAD and the scrum's text as the ordinary user's git sees them.
  func state(_ box: Sandbox) throws -> String {
    try box.gitAsUser("rev-parse", "HEAD").stdout + box.read("scrums/standup.yaml")
  }

  @Test(arguments: [".git/index", ".git/HEAD", ".git/refs/heads/main"])
  func aWriteStopsWhenAGitFileCannotBeRead(_ file: String) throws {
    let box = try sandbox()
    let path = box.data.appendingPathComponent(file).path
    #expect(FileManager.default.fileExists(atPath: path))
    let before = try state(box)
    #expect(chmod(path, 0) == 0)
    let r = try box.dingerAsUser("scrum", "attendee", "add", "standup", "Zoe")
    #expect(chmod(path, 0o644) == 0)
    #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
    #expect(r.stderr.contains("Permission denied"), "\(r.stderr)")
    #expect(try state(box) == before)
    let status = try box.gitAsUser("status", "--porcelain")
    #expect(status.status == 0 && status.stdout == "", "\(status.stdout)\(status.stderr)")
  }

  @Test func anUnreadableObjectStopsTheWrite() throws {
    let box = try sandbox()
    let blob = try box.gitAsUser("rev-parse", "HEAD:scrums/standup.yaml").stdout
      .trimmingCharacters(in: .whitespacesAndNewlines)
    let object = box.data.appendingPathComponent(
      ".git/objects/\(blob.prefix(2))/\(blob.dropFirst(2))"
    ).path
    let before = try state(box)
    #expect(chmod(object, 0) == 0)
    let r = try box.dingerAsUser("scrum", "attendee", "add", "standup", "Zoe")
    #expect(chmod(object, 0o444) == 0)
    #expect(r.status != 0, "\(r.stdout)\(r.stderr)")
    #expect(
      r.stderr.contains("Permission denied") || r.stderr.contains("object not found"), "\(r.stderr)"
    )
    #expect(try state(box) == before)
  }
}

/// Files that are not regular files never hang a command, and an unreadable record says so.
@Suite struct NotAFileTests {
  @Test func anUnreadableRecordSaysCouldNotRead() throws {
    let box = try Sandbox()
    #expect(try box.dinger("init").status == 0)
    #expect(try box.dinger("scrum", "new", "Standup", "--attendee", "Ada").status == 0)
    try OrdinaryUser.prepare(box)
    let path = box.data.appendingPathComponent("scrums/standup.yaml").path
    #expect(chmod(path, 0) == 0)
    let r = try box.dingerAsUser("check")
    #expect(chmod(path, 0o644) == 0)
    #expect(r.status == 1)
    #expect(
      r.stderr.contains("could not read scrums/standup.yaml: Permission denied"), "\(r.stderr)")
    #expect(!r.stderr.contains("could not write"))
  }

  @Test func fifosAreReportedNeverOpened() throws {
    let box = try Sandbox()
    #expect(try box.dinger("init").status == 0)
    #expect(try box.dinger("scrum", "new", "Standup", "--attendee", "Ada").status == 0)
    try FileManager.default.createDirectory(
      at: box.data.appendingPathComponent("history/standup"), withIntermediateDirectories: true)
    let fifos = ["scrums/pipe.yaml", "history/standup/2026-01-01-aaaaaaaa.yaml"]
    for fifo in fifos { #expect(mkfifo(box.data.appendingPathComponent(fifo).path, 0o644) == 0) }
    // NB: each command would block forever opening a FIFO; ProcessRunner's callers hang then.
    let check = try box.dinger("check")
    #expect(check.status == 1)
    for fifo in fifos {
      #expect(
        check.stderr.contains("\(fifo): error: \(fifo) is not a regular file"), "\(check.stderr)")
    }
    #expect(try box.dinger("scrum", "list").status == 0)
    #expect(try box.dinger("history").status == 0)
    for fifo in fifos { unlink(box.data.appendingPathComponent(fifo).path) }
    // The repository's own settings as a FIFO.
    let config = box.data.appendingPathComponent(".dinger/config.yaml").path
    unlink(config)
    #expect(mkfifo(config, 0o644) == 0)
    #expect(try box.dinger("scrum", "list").status == 0)
    let again = try box.dinger("check")
    #expect(again.stderr.contains(".dinger/config.yaml is not a regular file"), "\(again.stderr)")
  }

  @Test func aHugeSparseRecordIsRefusedByItsSizeNotRead() throws {
    let box = try Sandbox()
    #expect(try box.dinger("init").status == 0)
    #expect(try box.dinger("scrum", "new", "Standup", "--attendee", "Ada").status == 0)
    let path = box.data.appendingPathComponent("scrums/huge.yaml").path
    #expect(FileManager.default.createFile(atPath: path, contents: Data("title: x\n".utf8)))
    // NB: 1 GB that takes no disk: read whole, it took 5 GB of memory.
    #expect(truncate(path, 1 << 30) == 0)
    let started = Date()
    let r = try box.dinger("check")
    #expect(r.status == 1)
    #expect(
      r.stderr.contains("scrums/huge.yaml is 1024 MiB, more than a record file may be (64 MiB)"),
      "\(r.stderr)")
    #expect(Date().timeIntervalSince(started) < 20)
  }
}
