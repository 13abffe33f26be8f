import Foundation
import TestSupport
import Testing

/// A data repository with one scrum, Shared, whose attendee is Owner.
func sharedScrumRepository() throws -> Sandbox {
  let box = try Sandbox()
  #expect(try box.dinger("init").status == 0)
  #expect(try box.dinger("scrum", "new", "Shared", "--attendee", "Owner").status == 0)
  return box
}

/// `dinger` writes killed at chosen instants and at random ones: the next command succeeds and
/// repairs what the kill left, `git status` is clean after it, `git fsck` finds no damage, and
/// every write that exited 0 is in HEAD.
@Suite struct CrashTests {
  func initialized() throws -> Sandbox { try sharedScrumRepository() }

  /// Clean status and a sound object store.
  func expectSound(
    _ box: Sandbox, _ context: String, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let status = try box.git("status", "--porcelain")
    #expect(status == "", "\(context): \(status)", sourceLocation: sourceLocation)
    #expect(
      try box.git("fsck", "--full", "--no-dangling") == "", "\(context)",
      sourceLocation: sourceLocation)
    let temporaries =
      (try? FileManager.default.contentsOfDirectory(atPath: box.data.path + "/.git/dinger"))?
      .filter { $0.hasPrefix("index-lock-") } ?? []
    #expect(
      temporaries.isEmpty, "\(context): \(temporaries) left behind", sourceLocation: sourceLocation)
    for lock in [".git/index.lock", ".git/refs/heads/main.lock"] {
      #expect(
        !FileManager.default.fileExists(atPath: box.data.appendingPathComponent(lock).path),
        "\(context): \(lock) left behind", sourceLocation: sourceLocation)
    }
  }

  /// A kill in each window between the steps of a write. Before the branch moved, nothing is
  /// committed and the locks are cleared; after it, the next command finishes the working tree
  /// and index, and says so.
  @Test(arguments: [
    // NB: the files and the index are written before the branch moves (as git commit leaves
    // only the index rename after it), so a kill there commits nothing.
    // NB: "file-half" stops halfway through the first file: a temporary file beside a file
    // being replaced, or the start of a new one, made in place.
    ("index-announced", false), ("index-locked", false), ("objects", false),
    ("file-half", false), ("files", false), ("index-written", false),
    ("index-published", false), ("ref", true),
  ])
  func killedBetweenSteps(point: String, committed: Bool) throws {
    let box = try initialized()
    let killed = try box.dinger(
      ["scrum", "attendee", "add", "shared", "Killed"], env: ["DINGER_TEST_STOP_AT": point])
    #expect(killed.status == 137, "\(killed.stderr)")
    let next = try box.dinger("scrum", "attendee", "add", "shared", "Next")
    #expect(next.status == 0, "\(next.stderr)")
    #expect(
      next.stderr.contains("finished dinger's interrupted change") == committed, "\(next.stderr)")
    try expectSound(box, point)
    // A new scrum too: its file exists only in HEAD after a kill past the branch move.
    let killedNew = try box.dinger(
      ["scrum", "new", "Fresh", "--attendee", "A"], env: ["DINGER_TEST_STOP_AT": point])
    #expect(killedNew.status == 137)
    #expect(try box.dinger("scrum", "list").status == 0)
    try expectSound(box, point + ", new scrum")
    let scrum = try box.read("scrums/shared.yaml")
    #expect(scrum.contains("- Next\n"))
    #expect(scrum.contains("- Killed\n") == committed, "\(scrum)")
    #expect(
      FileManager.default.fileExists(atPath: box.data.path + "/scrums/fresh.yaml") == committed)
    #expect(try box.git("show", "HEAD:scrums/shared.yaml") == scrum)
    // And what was repaired reads back the same through dinger.
    let show = try box.dinger("scrum", "show", "shared")
    #expect(show.stdout.contains("Killed") == committed)
  }

  /// A command killed while it finishes an earlier kill's write is finished by the next one.
  @Test func aKillDuringTheRepairIsRepairedNext() throws {
    let box = try initialized()
    let env = ["DINGER_TEST_STOP_AT": "files"]
    // Killed after its branch moved, before the index was in place.
    #expect(
      try box.dinger(
        ["scrum", "attendee", "add", "shared", "One"], env: ["DINGER_TEST_STOP_AT": "ref"]
      ).status == 137)
    // This one dies repairing the first (the same stop point), before its own change.
    #expect(try box.dinger(["scrum", "attendee", "add", "shared", "Two"], env: env).status == 137)
    let next = try box.dinger("scrum", "list")
    #expect(next.status == 0 && next.stderr.contains("finished dinger's interrupted change"))
    try expectSound(box, "kill during repair")
    let scrum = try box.read("scrums/shared.yaml")
    #expect(scrum.contains("- One\n") && !scrum.contains("- Two\n"))
  }

  /// A repair killed halfway through a new file it was putting back (the file a kill past the
  /// branch move had left, removed meanwhile) leaves a start of it; the next repair takes that
  /// start for its own and finishes the file.
  @Test func aNewFileLeftHalfByARepairIsFinishedNext() throws {
    let box = try initialized()
    #expect(
      try box.dinger(
        ["scrum", "new", "Fresh", "--attendee", "A"], env: ["DINGER_TEST_STOP_AT": "ref"]
      ).status == 137)
    let path = box.data.path + "/scrums/fresh.yaml"
    try FileManager.default.removeItem(atPath: path)
    #expect(
      try box.dinger(["scrum", "list"], env: ["DINGER_TEST_STOP_AT": "file-half"]).status == 137)
    let committed = try box.git("show", "HEAD:scrums/fresh.yaml")
    let half = try box.read("scrums/fresh.yaml")
    #expect(!half.isEmpty && half.count < committed.count && committed.hasPrefix(half))
    let next = try box.dinger("scrum", "list")
    #expect(next.status == 0 && next.stderr.contains("finished dinger's interrupted change"))
    #expect(try box.read("scrums/fresh.yaml") == committed)
    try expectSound(box, "new file left half by a repair")
  }

  /// A read command repairs too: `scrum show` after a kill past the branch move shows the new
  /// value, as `log` does.
  @Test func aReadAfterAKillShowsWhatWasCommitted() throws {
    let box = try initialized()
    let killed = try box.dinger(
      ["scrum", "edit", "shared", "--length", "42"], env: ["DINGER_TEST_STOP_AT": "ref"])
    #expect(killed.status == 137)
    let show = try box.dinger("scrum", "show", "shared")
    #expect(show.status == 0)
    #expect(show.stdout.contains("42"), "\(show.stdout)")
    try expectSound(box, "read after kill")
  }

  /// Kills at random instants of a loop of writes: every write that exited 0 is in HEAD, and
  /// the next command after each kill succeeds and leaves the repository clean.
  @Test func randomKillsLoseNothingAcknowledged() throws {
    let box = try initialized()
    let kills = Int(ProcessInfo.processInfo.environment["DINGER_TEST_TORTURE_KILLS"] ?? "") ?? 100
    var acknowledged: [String] = []
    var killedCount = 0
    var instants: [UInt32] = []
    defer { print("write kill instants (µs): \(instants)") }
    for n in 0..<kills {
      let name = "R\(n)"
      let after = UInt32.random(in: 0...40_000)
      instants.append(after)
      let status = try ProcessRunner.runKilled(
        dingerBinary, ["scrum", "attendee", "add", "shared", name], in: box.data,
        environment: box.environment, after: after)
      if status == 0 { acknowledged.append(name) } else { killedCount += 1 }
      #expect(status == 0 || status == 137, "exit \(status)")
      let next = try box.dinger("scrum", "list")
      #expect(next.status == 0, "after kill \(n): \(next.stderr)")
      try expectSound(box, "after kill \(n)")
    }
    let scrum = try box.git("show", "HEAD:scrums/shared.yaml")
    let lost = acknowledged.filter { !scrum.contains("- \($0)\n") }
    #expect(lost.isEmpty, "acknowledged and lost: \(lost)")
    #expect(killedCount > 0)
    #expect(try box.read("scrums/shared.yaml") == scrum)
  }
}

/// git's lock files held by someone else, or left by a crashed process that was not dinger.
@Suite struct LockTests {
  func initialized() throws -> Sandbox { try sharedScrumRepository() }

  /// A lock of unknown owner: after waiting, an error that names the file, its age and the
  /// command that removes it; nothing is committed, and the lock is left alone.
  @Test(arguments: [".git/index.lock", ".git/refs/heads/main.lock"])
  func aForeignLockIsExplained(lock: String) throws {
    let box = try initialized()
    let head = try box.head()
    try box.write(lock, "")
    let r = try box.dinger(
      ["scrum", "attendee", "add", "shared", "Bob"], env: ["DINGER_LOCK_TIMEOUT": "0.3"])
    #expect(r.status == 1)
    let path = box.data.appendingPathComponent(lock).path
    #expect(r.stderr.contains("\(path) exists (made "), "\(r.stderr)")
    #expect(r.stderr.contains(" s ago)"), "\(r.stderr)")
    #expect(r.stderr.contains("rm -f '\(path)'"), "\(r.stderr)")
    #expect(try box.head() == head)
    #expect(FileManager.default.fileExists(atPath: path))
    #expect(!(try box.read("scrums/shared.yaml")).contains("Bob"))
    // Once it is gone, the same command works.
    try FileManager.default.removeItem(atPath: path)
    #expect(try box.dinger("scrum", "attendee", "add", "shared", "Bob").status == 0)
    #expect(try box.git("status", "--porcelain") == "")
  }

  /// A lock a running git gives up soon is waited for, not reported.
  @Test func aBriefLockIsWaitedFor() throws {
    let box = try initialized()
    let path = box.data.appendingPathComponent(".git/index.lock").path
    try box.write(".git/index.lock", "")
    let remover = Thread {
      usleep(400_000)
      unlink(path)
    }
    remover.start()
    let r = try box.dinger("scrum", "attendee", "add", "shared", "Bob")
    #expect(r.status == 0, "\(r.stderr)")
    #expect(try box.read("scrums/shared.yaml").contains("- Bob\n"))
    #expect(try box.git("status", "--porcelain") == "")
  }

  /// A journal in dinger's own lock file that is damaged (cut short, garbage) is no journal:
  /// the next command goes ahead; one naming an index.lock that is not the one there now
  /// leaves that lock alone.
  @Test func aDamagedJournalIsIgnored() throws {
    let box = try initialized()
    try box.write(".git/dinger/write.lock", "dinger-write 1\nstep mov")
    var r = try box.dinger("scrum", "attendee", "add", "shared", "Bob")
    #expect(r.status == 0, "\(r.stderr)")
    try box.write(".git/dinger/write.lock", "\u{1}\u{2}garbage\n")
    r = try box.dinger("scrum", "attendee", "add", "shared", "Eve")
    #expect(r.status == 0, "\(r.stderr)")
    try box.write(
      ".git/dinger/write.lock", "dinger-write 1\nstep locked\npid 1\nindex-lock 1:2\nend\n")
    try box.write(".git/index.lock", "")
    r = try box.dinger(
      ["scrum", "attendee", "add", "shared", "Zed"], env: ["DINGER_LOCK_TIMEOUT": "0.2"])
    #expect(r.status == 1)
    #expect(FileManager.default.fileExists(atPath: box.data.path + "/.git/index.lock"))
    #expect(try box.git("status", "--porcelain") == "")
  }
}

/// A repair that cannot finish never blocks the repository for good: it says how to clear it.
@Suite struct RepairCommandTests {
  @Test func aRepairThatCannotFinishIsExplainedAndCanBeGivenUp() throws {
    let box = try sharedScrumRepository()
    let killed = try box.dinger(
      ["scrum", "attendee", "add", "shared", "Killed"], env: ["DINGER_TEST_STOP_AT": "ref"])
    #expect(killed.status == 137)
    // The index is damaged meanwhile: the repair cannot check it.
    try Data("not an index".utf8).write(to: box.data.appendingPathComponent(".git/index"))
    let blocked = try box.dinger("scrum", "attendee", "add", "shared", "Next")
    #expect(blocked.status == 1)
    #expect(blocked.stderr.contains("'dinger repair'"), "\(blocked.stderr)")
    let tried = try box.dinger("repair")
    #expect(tried.status == 1)
    #expect(tried.stderr.contains("dinger repair --abandon"), "\(tried.stderr)")
    let gaveUp = try box.dinger("repair", "--abandon")
    #expect(gaveUp.status == 0, "\(gaveUp.stderr)")
    #expect(gaveUp.stdout.hasPrefix("gave up dinger's interrupted change"), "\(gaveUp.stdout)")
    #expect(!FileManager.default.fileExists(atPath: box.data.path + "/.git/index.lock"))
    // git's own fix for the index, then dinger writes again.
    try FileManager.default.removeItem(at: box.data.appendingPathComponent(".git/index"))
    try box.git("reset", "-q")
    try box.git("checkout", "--", ".")
    let next = try box.dinger("scrum", "attendee", "add", "shared", "Next")
    #expect(next.status == 0, "\(next.stderr)")
    #expect(
      try box.dinger("repair").stdout == "nothing to repair: no dinger write was interrupted\n")
    #expect(try box.git("status", "--porcelain") == "")
  }
}

/// A ref lock that a dinger killed mid-sync left (`refs/remotes/origin/main.lock`) is dinger's
/// to clear: the next sync finds the claim that dinger wrote before it took the lock, sees its
/// process gone, removes the lock, says so, and moves the tracking branch. A lock no dinger
/// claimed is another program's: named, left in place.
@Suite struct DingersOwnLocksTests {
  func team() throws -> (Sandbox, String) {
    let box = try Sandbox()
    let remote = box.home.path("remote.git")
    _ = try box.git(["init", "-q", "--bare", "-b", "main", remote], in: box.home.url)
    expectOK(try box.dinger("init"))
    expectOK(try box.dinger("scrum", "new", "Design", "--attendee", "Ada"))
    expectOK(try box.dinger("remote", "add", "origin", remote))
    expectOK(try box.dinger("sync"))
    // A teammate pushes.
    let mate = box.home.path("mate")
    _ = try box.git(["clone", "-q", remote, mate], in: box.home.url)
    try "x\n".write(toFile: mate + "/notes.txt", atomically: true, encoding: .utf8)
    _ = try box.git(["add", "notes.txt"], in: URL(fileURLWithPath: mate))
    _ = try box.git(["commit", "-qm", "notes"], in: URL(fileURLWithPath: mate))
    _ = try box.git(["push", "-q", "origin", "main"], in: URL(fileURLWithPath: mate))
    return (box, remote)
  }

  @Test func aLockADeadDingerLeftIsRemovedByTheNextSync() throws {
    let (box, _) = try team()
    // A dinger that is gone: a process that has ended.
    let gone = try ProcessRunner.start("/bin/true", [])
    var status: Int32 = 0
    _ = waitpid(gone, &status, 0)
    let claims = box.data.appendingPathComponent(".git/dinger/ref-claims")
    try FileManager.default.createDirectory(at: claims, withIntermediateDirectories: true)
    try "refs/remotes/origin/main".write(
      to: claims.appendingPathComponent(String(gone)), atomically: true, encoding: .utf8)
    let lock = box.data.appendingPathComponent(".git/refs/remotes/origin/main.lock")
    try "".write(to: lock, atomically: true, encoding: .utf8)
    let r = try box.dinger("sync")
    #expect(r.status == 0, "\(r.stderr)")
    #expect(
      r.stderr.contains(
        "removed refs/remotes/origin/main.lock, which a dinger that was stopped midway (pid \(gone)) left behind"
      ),
      "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: lock.path))
    #expect(
      try box.git("rev-parse", "origin/main") == box.git("rev-parse", "HEAD"),
      "the tracking branch moved")
    #expect(try box.git("status", "-sb").contains("## main...origin/main\n"))
    #expect((try? FileManager.default.contentsOfDirectory(atPath: claims.path))?.isEmpty ?? true)
  }

  /// Kills at random instants of `dinger sync` while a teammate keeps pushing: after each, the
  /// next sync succeeds and no lock of dinger's survives it anywhere in `.git` (ref locks,
  /// `index.lock`, the ref claims). `make test` runs 10 kills, `make torture` 150
  /// (`DINGER_TEST_SYNC_KILLS`).
  @Test func killsDuringSyncLeaveNoLockOfDingers() throws {
    let (box, remote) = try team()
    let kills = Int(ProcessInfo.processInfo.environment["DINGER_TEST_SYNC_KILLS"] ?? "") ?? 10
    let mate = URL(fileURLWithPath: box.home.path("mate"))
    var killed = 0
    var instants: [UInt32] = []
    defer { print("sync kill instants (µs): \(instants)") }
    for n in 0..<kills {
      _ = try box.git(["pull", "-q", "--no-rebase", "--no-edit", "origin", "main"], in: mate)
      try "\(n)\n".write(
        to: mate.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
      _ = try box.git(["commit", "-qam", "notes \(n)"], in: mate)
      _ = try box.git(["push", "-q", "origin", "main"], in: mate)
      expectOK(try box.dinger("scrum", "attendee", "add", "design", "P\(n)"))
      let after = UInt32.random(in: 0...60_000)
      instants.append(after)
      let status = try ProcessRunner.runKilled(
        dingerBinary, ["sync"], in: box.data, environment: box.environment, after: after)
      #expect(status == 0 || status == 137, "exit \(status)")
      if status == 137 { killed += 1 }
      let next = try box.dinger("sync")
      #expect(next.status == 0, "after kill \(n) at \(after) µs: \(next.stderr)")
      let git = box.data.appendingPathComponent(".git").path
      let locks =
        FileManager.default.enumerator(atPath: git)?.compactMap { $0 as? String }
        .filter { $0.hasSuffix(".lock") && !$0.hasPrefix("dinger/") } ?? []
      #expect(locks.isEmpty, "after kill \(n) at \(after) µs, the next sync left \(locks)")
      let claims =
        (try? FileManager.default.contentsOfDirectory(atPath: git + "/dinger/ref-claims")) ?? []
      #expect(claims.isEmpty, "claims left: \(claims)")
      let (tracking, head) = (
        try box.git("rev-parse", "origin/main"), try box.git("rev-parse", "HEAD")
      )
      let remoteMain = try box.git(["rev-parse", "main"], in: URL(fileURLWithPath: remote))
      let graph = try box.git("log", "--oneline", "--graph", "--all", "-6")
      #expect(
        tracking == head,
        "after kill \(n) at \(after) µs: \(next.stdout)\(next.stderr) origin/main \(tracking) HEAD \(head) remote \(remoteMain)\(graph)"
      )
    }
    _ = remote
    #expect(killed > 0 || kills < 5, "no sync was killed")
  }

  @Test func anotherProgramsLockIsOnlyNamed() throws {
    let (box, _) = try team()
    let lock = box.data.appendingPathComponent(".git/refs/remotes/origin/main.lock")
    try "".write(to: lock, atomically: true, encoding: .utf8)
    let r = try box.dinger("sync")
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stderr.contains("refs/remotes/origin/main is locked"), "\(r.stderr)")
    #expect(FileManager.default.fileExists(atPath: lock.path))
  }
}

/// Ctrl-C while dinger writes a file whole (its temporary file made, not yet renamed) leaves no
/// `.NAME.PID.RAND.tmp` behind: the interrupt removes it, then ends dinger as SIGINT does.
@Suite struct InterruptedWriteTests {
  @Test func anInterruptLeavesNoTemporaryFile() throws {
    let box = try Sandbox()
    expectOK(try box.dinger("init"))
    expectOK(
      try box.dinger(
        "scrum", "new", "Platform", "--attendee", "Ada", "--at", "09:30", "--days", "weekdays",
        "--zone", "UTC"))
    let r = try box.dinger(
      ["remind"],
      env: ["DINGER_TEST_NOW": "2026-11-24T09:22:00Z", "DINGER_TEST_SIGNAL_AT": "atomic-write"])
    #expect(r.status == 128 + SIGINT, "ended by \(r.status), not by the interrupt")
    let left =
      FileManager.default.enumerator(atPath: box.data.path)?.compactMap { $0 as? String }
      .filter { $0.hasSuffix(".tmp") } ?? []
    #expect(left.isEmpty, "left behind: \(left)")
  }
}
