import Foundation
import TestSupport
import Testing

/// `undo` of adding a scrum that has meetings since (a teammate's, brought by a sync) is
/// refused, as `scrum rm` is: it left a meeting of no scrum (found by the team simulation,
/// seed 2005).
@Suite struct UndoOrphanTests {
  @Test func undoNeverLeavesAMeetingWithoutItsScrum() throws {
    let box = try Sandbox()
    #expect(try box.dinger("init").status == 0)
    #expect(try box.dinger("scrum", "new", "Design", "--attendee", "Ada").status == 0)
    let grace = ["GIT_AUTHOR_NAME": "Grace", "GIT_AUTHOR_EMAIL": "grace@example.com"]
    let meet = try box.dinger(
      ["meet", "design", "--record", "--date", "2026-11-20T09:00:00Z", "--duration", "9m"],
      env: grace)
    #expect(meet.status == 0, "\(meet.stderr)")
    let head = try box.head()
    let r = try box.dinger("undo")
    #expect(r.status == 1, "\(r.stdout)")
    #expect(
      r.stderr.contains(
        "can't undo 'Add scrum Design': it would remove scrums/design.yaml, and 1 meeting recorded for it since"
      ), "\(r.stderr)")
    #expect(try box.head() == head)
    #expect(try box.dinger("check").status == 0)
  }
}

/// A write that gave up waiting for git's index.lock leaves no journal naming a lock it never
/// took (the journal's cleanup was set only once the lock was taken).
@Suite struct LockWaitJournalTests {
  @Test func aWriteThatNeverGotTheIndexLockLeavesNoJournal() throws {
    let box = try Sandbox()
    #expect(try box.dinger("init").status == 0)
    #expect(try box.dinger("scrum", "new", "Design", "--attendee", "Ada").status == 0)
    let lock = box.data.appendingPathComponent(".git/index.lock").path
    #expect(FileManager.default.createFile(atPath: lock, contents: Data()))
    let head = try box.head()
    let r = try box.dinger(
      ["scrum", "edit", "design", "--length", "9"], env: ["DINGER_LOCK_TIMEOUT": "0.3"])
    #expect(r.status == 1)
    #expect(r.stderr.contains("index.lock exists"), "\(r.stderr)")
    let journal = box.data.appendingPathComponent(".git/dinger/write.lock").path
    let size = (try? FileManager.default.attributesOfItem(atPath: journal)[.size] as? Int) ?? 0
    #expect(size == 0, "a journal was left")
    try FileManager.default.removeItem(atPath: lock)
    #expect(try box.head() == head)
    let next = try box.dinger("scrum", "edit", "design", "--length", "9")
    #expect(next.status == 0, "\(next.stderr)")
    #expect(!next.stderr.contains("interrupted"), "\(next.stderr)")
  }
}

/// A link placed at the record cache's folder (or at .git/dinger) never sends dinger's writes
/// outside the repository: the cache and the activity index are simply not used, and a write
/// (whose lock and journal live there) refuses, naming the link.
@Suite struct CacheLinkTests {
  @Test(arguments: [".git/dinger/records-v1", ".git/dinger"])
  func aLinkedCacheFolderIsNotWrittenThrough(link: String) throws {
    let box = try Sandbox()
    #expect(try box.dinger("init").status == 0)
    #expect(try box.dinger("scrum", "new", "Design", "--attendee", "Ada").status == 0)
    let outside = box.home.url.appendingPathComponent("outside")
    try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
    let path = box.data.appendingPathComponent(link)
    try? FileManager.default.removeItem(at: path)
    try FileManager.default.createSymbolicLink(at: path, withDestinationURL: outside)
    // NB: files changed within the last two seconds are not cached (git's racy-file rule).
    Thread.sleep(forTimeInterval: 2.5)
    for args in [["scrum", "list"], ["check"], ["history"], ["log"], ["log", "design"]] {
      let r = try box.dinger(args)
      #expect(r.status == 0, "\(args): \(r.stderr)")
    }
    // A write refuses, naming the link, and changes nothing (its lock and journal would go
    // through the link); with only the cache's folder linked it goes on.
    let write = try box.dinger("scrum", "edit", "design", "--length", "9")
    if link == ".git/dinger" {
      #expect(write.status != 0)
      #expect(
        write.stderr.contains("\(path.path) is a link") && write.stderr.contains("rm '"),
        "\(write.stderr)")
      #expect(try box.git("status", "--porcelain") == "")
      #expect(try box.git("log", "--oneline").split(separator: "\n").count == 2)
    } else {
      #expect(write.status == 0, "\(write.stderr)")
    }
    let written = try FileManager.default.subpathsOfDirectory(atPath: outside.path)
    #expect(written.isEmpty, "\(written)")
  }
}
