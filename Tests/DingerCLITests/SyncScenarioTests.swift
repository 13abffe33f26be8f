import Foundation
import TestSupport
import Testing

/// DESIGN.md's sync scenarios with real repositories: a bare remote and three dinger clones.
/// After everyone syncs, every tree is the same, git is happy, no file has conflict markers,
/// and every value anyone wrote is in the data or in a conflict record.
@Suite struct SyncScenarioTests {
  let scrum = "scrums/design-review.yaml"

  @Test func differentFieldsOfOneScrumBothLand() throws {
    let team = try Team()
    expectOK(try team.run("ada", "scrum", "edit", "design-review", "--length", "15"))
    expectOK(try team.run("grace", "scrum", "edit", "design-review", "--theme", "poppy"))
    expectOK(try team.run("linus", "scrum", "edit", "design-review", "--title", "Design Sync"))
    try team.syncAll()
    try team.expectConverged()
    let text = try team.read("ada", scrum)
    #expect(text.contains("length: 15\n"))
    #expect(text.contains("theme: poppy\n"))
    #expect(text.contains("title: Design Sync\n"))
    #expect(try team.run("ada", "conflicts").stdout == "no conflicts\n")
    // Everyone's log tells each change by its author, merged in or not; merges add no lines.
    for name in ["ada", "grace", "linus"] {
      let log = try team.run(name, "log", "design-review").stdout
      #expect(log.contains("Ada") && log.contains("length 10 -> 15 min"), "\(name): \(log)")
      #expect(log.contains("Grace") && log.contains("theme bubblegum -> poppy"), "\(name): \(log)")
      #expect(log.contains("Linus"), "\(name): \(log)")
      #expect(!log.contains("Merge"), "\(name): \(log)")
    }
  }

  @Test func attendeesAddedOnBothAreAllKept() throws {
    let team = try Team()
    expectOK(try team.run("ada", "scrum", "attendee", "add", "design-review", "Bob"))
    expectOK(try team.run("grace", "scrum", "attendee", "add", "design-review", "Carol"))
    expectOK(try team.run("linus", "scrum", "attendee", "rm", "design-review", "Grace"))
    try team.syncAll()
    try team.expectConverged()
    let text = try team.read("linus", scrum)
    // Linus synced last: his order (Grace gone), then the others' additions in sync order.
    #expect(text.hasSuffix("attendees:\n  - Ada\n  - Carol\n  - Bob\n"), "\(text)")
  }

  @Test func meetingsRecordedOnBothAreAllKept() throws {
    let team = try Team()
    expectOK(
      try team.run(
        "ada", "meet", "design-review", "--record", "--date", "2026-11-20T09:00:00Z", "--duration",
        "9m"))
    expectOK(
      try team.run(
        "grace", "meet", "design-review", "--record", "--date", "2026-11-21T09:00:00Z",
        "--duration", "11m"))
    try team.syncAll()
    try team.expectConverged()
    let history = try team.run("linus", "history", "design-review", "--json")
    #expect(history.stdout.components(separatedBy: "\"duration\"").count == 3, "\(history.stdout)")
    #expect(try team.git("linus", "ls-files", "history").split(separator: "\n").count == 2)
  }

  @Test func wordsAddedToOneLibraryOnBothAreMerged() throws {
    let team = try Team()
    expectOK(try team.run("ada", "library", "new", "Spanish basics", "--language", "es"))
    try team.syncAll()
    expectOK(
      try team.run(
        "ada", "word", "add", "hola", "--library", "spanish-basics", "--definition", "hello"))
    expectOK(
      try team.run(
        "grace", "word", "add", "adiós", "--library", "spanish-basics", "--definition", "goodbye"))
    expectOK(
      try team.run(
        "linus", "word", "add", "Hola", "--library", "spanish-basics", "--definition", "hi"))
    try team.syncAll()
    try team.expectConverged()
    let words = try team.run("grace", "word", "list", "--library", "spanish-basics", "--json")
      .stdout
    #expect(words.contains("adiós"))
    let hola = try team.run("grace", "word", "show", "hola", "--library", "spanish-basics").stdout
    #expect(hola.contains("hello") && hola.contains("hi"), "\(hola)")
    let check = try team.run("grace", "check")
    #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
  }

  @Test func deleteAgainstEditKeepsTheEditAndRecordsIt() throws {
    let team = try Team()
    expectOK(try team.run("ada", "scrum", "rm", "design-review"))
    expectOK(try team.run("grace", "scrum", "edit", "design-review", "--length", "25"))
    try team.syncAll()
    try team.expectConverged()
    #expect(try team.read("ada", scrum).contains("length: 25\n"))
    let conflicts = try team.run("linus", "conflicts", "--json").stdout
    #expect(conflicts.contains("\"kind\" : \"delete\""), "\(conflicts)")
    #expect(conflicts.contains("\"file\" : \"\(scrum)\""))
    // The reminder shows on other commands.
    #expect(try team.run("ada", "scrum", "list").stderr.contains("1 unresolved sync conflict"))
  }

  @Test func sameFieldDifferentValuesKeepsOneAndRecordsTheOther() throws {
    let team = try Team()
    expectOK(try team.run("ada", "scrum", "edit", "design-review", "--length", "15"))
    let adaCommit = try team.git("ada", "rev-parse", "--short=7", "HEAD")
      .trimmingCharacters(in: .whitespacesAndNewlines)
    expectOK(try team.run("grace", "scrum", "edit", "design-review", "--length", "20"))
    expectOK(try team.run("ada", "sync"))
    let merge = try team.run("grace", "sync")
    // A sync that recorded a conflict did its work and says a person must decide: exit 1.
    #expect(merge.status == 1, "\(merge.stderr)")
    #expect(
      merge.stderr.contains("error: the sync finished, but a conflict is saved"), "\(merge.stderr)")
    #expect(merge.stdout.contains("1 conflict recorded"), "\(merge.stdout)")
    try team.syncAll()
    try team.expectConverged()
    // Grace synced second: her value stays, Ada's is recorded with Ada's name and commit.
    #expect(try team.read("linus", scrum).contains("length: 20\n"))
    let listed = try team.run("linus", "conflicts").stdout
    #expect(listed.contains("\(scrum)  length"), "\(listed)")
    #expect(listed.contains("kept:  20  (Grace <grace@example.com>"), "\(listed)")
    #expect(listed.contains("other: 15  (Ada <ada@example.com>"), "\(listed)")
    #expect(listed.contains(adaCommit), "\(listed) \(adaCommit)")

    // Settle it: take Ada's value, as a commit that syncs like any other.
    let id = String(listed.prefix(8))
    let resolved = try team.run("linus", "resolve", id, "--theirs")
    expectOK(resolved)
    #expect(try team.read("linus", scrum).contains("length: 15\n"))
    #expect(
      try team.git("linus", "log", "-1", "--format=%s").hasPrefix(
        "Resolve conflict in \(scrum) length: set 15"))
    try team.syncAll()
    try team.expectConverged()
    #expect(try team.run("ada", "conflicts").stdout == "no conflicts\n")
    #expect(try team.read("ada", scrum).contains("length: 15\n"))
  }

  @Test func resolveRefusesBadInputAndLeavesEverything() throws {
    let team = try Team()
    expectOK(try team.run("ada", "scrum", "edit", "design-review", "--length", "15"))
    expectOK(try team.run("grace", "scrum", "edit", "design-review", "--length", "20"))
    try team.syncAll()
    let head = try team.git("ada", "rev-parse", "HEAD")
    let id = String(try team.run("ada", "conflicts").stdout.prefix(8))
    var r = try team.run("ada", "resolve", id, "--value", "9999")
    #expect(r.status == 1)
    #expect(r.stderr.contains("would make \(scrum) invalid"), "\(r.stderr)")
    r = try team.run("ada", "resolve", id, "--value", "[unclosed")
    #expect(r.status == 1)
    #expect(r.stderr.contains("is not a YAML value"), "\(r.stderr)")
    r = try team.run("ada", "resolve", "zzzz", "--ours")
    #expect(r.status == 1)
    #expect(r.stderr.contains("no conflict has an id starting with 'zzzz'"))
    r = try team.run("ada", "resolve", id, "--ours", "--theirs")
    #expect(r.status == 64)
    #expect(try team.git("ada", "rev-parse", "HEAD") == head)
    r = try team.run("ada", "resolve", id, "--value", "30")
    expectOK(r)
    #expect(try team.read("ada", scrum).contains("length: 30\n"))
    #expect(try team.run("ada", "conflicts").stdout == "no conflicts\n")
  }

  @Test func aHistoryThatReturnsToAnOlderTreePushesCompletely() throws {
    // An undo makes a tree equal to an older one; the first push to an empty remote must
    // still send every object (found by `make demo`: the clone then missed a tree).
    let box = try Sandbox()
    expectOK(try box.dinger("init"))
    expectOK(try box.dinger("scrum", "new", "Design", "--attendee", "Ada"))
    expectOK(try box.dinger("scrum", "new", "Web", "--attendee", "Grace"))
    expectOK(try box.dinger("scrum", "rm", "web"))
    expectOK(try box.dinger("undo"))
    let remote = box.home.url.appendingPathComponent("team.git")
    try box.git("init", "-q", "--bare", "-b", "main", remote.path)
    expectOK(try box.dinger("remote", "add", "origin", remote.path))
    expectOK(try box.dinger("sync"))
    #expect(try box.git("fsck", "--full", in: remote) == "")
    let clone = box.home.url.appendingPathComponent("copy")
    expectOK(try box.dinger("clone", remote.path, clone.path, in: box.home.url))
    #expect(
      try box.git("rev-parse", "HEAD^{tree}", in: clone) == box.git("rev-parse", "HEAD^{tree}"))
    #expect(try box.dinger("scrum", "list", in: clone).stdout.contains("Web"))
  }

  @Test func cloneAndSetupGit() throws {
    let box = try Sandbox()
    // A repository that is not a dinger data repository: cloned, but said so.
    let plain = box.home.url.appendingPathComponent("plain")
    try box.git("init", "-q", "-b", "main", plain.path, in: box.home.url)
    try "hi\n".write(
      to: plain.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
    try box.git("add", "-A", in: plain)
    try box.git("commit", "-qm", "notes", in: plain)
    var r = try box.dinger("clone", plain.path, "copy", in: box.home.url)
    #expect(r.status == 1)
    #expect(r.stderr.contains("it is not a dinger data repository"), "\(r.stderr)")
    r = try box.dinger(
      "clone", box.home.url.appendingPathComponent("gone.git").path, in: box.home.url)
    #expect(r.status == 1)
    #expect(r.stderr.contains("there is no repository at"), "\(r.stderr)")
    #expect(
      !FileManager.default.fileExists(atPath: box.home.url.appendingPathComponent("gone").path))

    // A data repository cloned with plain git: setup-git configures the driver.
    expectOK(try box.dinger("init"))
    try box.write(".gitattributes", "")
    try box.git("commit", "-qam", "No attributes")
    let clone = box.home.url.appendingPathComponent("theirs")
    try box.git("clone", "-q", box.data.path, clone.path, in: box.home.url)
    r = try box.dinger("setup-git", in: clone)
    expectOK(r)
    #expect(r.stdout.contains("set merge.dinger.driver") && r.stdout.contains(".gitattributes"))
    #expect(
      try box.git("config", "merge.dinger.driver", in: clone).contains("merge-driver %O %A %B %P"))
    #expect(
      try box.git("log", "-1", "--format=%s", in: clone)
        == "Use dinger's record merge and diff for YAML files\n")
    #expect(try box.dinger("setup-git", in: clone).stdout == "already set up\n")
  }

  @Test func syncErrorsSayWhatToDo() throws {
    let box = try Sandbox()
    expectOK(try box.dinger("init"))
    var r = try box.dinger("sync")
    #expect(r.status == 1)
    #expect(r.stderr.contains("no remote; add one with 'dinger remote add origin URL'"))
    expectOK(
      try box.dinger(
        "remote", "add", "origin", box.home.url.appendingPathComponent("gone.git").path))
    let head = try box.head()
    r = try box.dinger("sync")
    #expect(r.status == 1)
    #expect(r.stderr.contains("fetch from origin"), "\(r.stderr)")
    #expect(r.stderr.contains("does not exist") && r.stderr.contains("dinger remote list"))
    #expect(try box.head() == head)
    r = try box.dinger("remote", "add", "origin", "/elsewhere")
    #expect(r.status == 1 && r.stderr.contains("already exists"))
    #expect(
      try box.dinger("remote", "list").stdout.hasPrefix("origin  \(box.home.url.path)/gone.git"))
    expectOK(try box.dinger("remote", "rm", "origin"))
    #expect(try box.dinger("remote", "rm", "origin").stderr.contains("no remote named 'origin'"))
  }

  @Test func uncommittedEditsStopTheSyncBeforeAnythingIsWritten() throws {
    let team = try Team()
    expectOK(try team.run("ada", "scrum", "edit", "design-review", "--length", "15"))
    expectOK(try team.run("ada", "sync"))
    let mine = try team.read("grace", scrum).replacingOccurrences(
      of: "length: 10", with: "length: 12")
    try team.write("grace", scrum, mine)
    let head = try team.git("grace", "rev-parse", "HEAD")
    let r = try team.run("grace", "sync")
    #expect(r.status == 1)
    #expect(r.stderr.contains("\(scrum) has changes that are not committed"), "\(r.stderr)")
    #expect(try team.read("grace", scrum) == mine)
    #expect(try team.git("grace", "rev-parse", "HEAD") == head)
  }

  @Test func dryRunChangesNothing() throws {
    let team = try Team()
    expectOK(try team.run("ada", "scrum", "edit", "design-review", "--length", "15"))
    expectOK(try team.run("ada", "sync"))
    expectOK(try team.run("grace", "scrum", "edit", "design-review", "--theme", "poppy"))
    let head = try team.git("grace", "rev-parse", "HEAD")
    let r = try team.run("grace", "sync", "--dry-run")
    expectOK(r)
    #expect(r.stdout.contains("would merge origin/main"), "\(r.stdout)")
    #expect(try team.git("grace", "rev-parse", "HEAD") == head)
    #expect(!(try team.read("grace", scrum).contains("length: 15")))
  }
}

/// `undo` means "my last change": a teammate's change that a sync brought, and the merge, stay.
@Suite struct UndoIsYoursTests {
  @Test func undoPassesOverTeammatesAndMergesAndSaysSo() throws {
    let team = try Team()
    expectOK(try team.run("ada", "scrum", "attendee", "add", "design-review", "Zoe"))
    expectOK(try team.run("grace", "library", "new", "Spanish basics", "--language", "es"))
    try team.syncAll()
    // Ada's clone now holds Grace's change (and a merge); Ada's newest own change is Zoe.
    let r = try team.run("ada", "undo")
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout == "Undo \"Design Review: add attendee Zoe\"\n", "\(r.stdout)")
    #expect(r.stderr.contains("note: undid your change "), "\(r.stderr)")
    #expect(r.stderr.contains("by Grace"), "\(r.stderr)")
    #expect(try !team.read("ada", "scrums/design-review.yaml").contains("Zoe"))
    #expect(try team.git("ada", "ls-files", "libraries").contains("spanish-basics.yaml"))
  }

  @Test func undoRefusesWhenATeammateChangedTheSameFileAndNamesThem() throws {
    let team = try Team()
    expectOK(try team.run("ada", "scrum", "attendee", "add", "design-review", "Zoe"))
    try team.syncAll()
    expectOK(try team.run("grace", "scrum", "edit", "design-review", "--length", "45"))
    try team.syncAll()
    let head = try team.git("ada", "rev-parse", "HEAD")
    let r = try team.run("ada", "undo")
    #expect(r.status == 1)
    #expect(r.stderr.contains("was changed again later in "), "\(r.stderr)")
    #expect(r.stderr.contains("by Grace"), "\(r.stderr)")
    #expect(try team.git("ada", "rev-parse", "HEAD") == head)
  }
}
