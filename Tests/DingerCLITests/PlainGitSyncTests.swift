import Foundation
import TestSupport
import Testing

/// The sync scenarios with one teammate who only uses plain git: hand edits, `git commit`,
/// `git pull` (with dinger's merge driver configured) and `git push`.
@Suite struct PlainGitSyncTests {
  let scrum = "scrums/design-review.yaml"

  func team() throws -> Team { try Team(dingers: ["ada", "grace"], plain: ["linus"]) }

  /// Linus edits by hand and pulls and pushes with git.
  func linusEdits(_ team: Team, _ change: (String) -> String, message: String) throws {
    try team.write("linus", scrum, change(try team.read("linus", scrum)))
    try team.git("linus", "commit", "-qam", message)
  }

  @Test func differentFieldsAndAttendeesMergeThroughTheDriver() throws {
    let team = try team()
    expectOK(try team.run("ada", "scrum", "edit", "design-review", "--length", "15"))
    expectOK(try team.run("ada", "scrum", "attendee", "add", "design-review", "Bob"))
    expectOK(try team.run("ada", "sync"))
    try linusEdits(
      team,
      {
        $0.replacingOccurrences(of: "theme: bubblegum", with: "theme: poppy")
          + "  - Linus\n"
      }, message: "Poppy, and me")
    let pull = try team.gitResult("linus", "pull", "-q", "--no-edit", "origin", "main")
    #expect(pull.status == 0, "\(pull.stderr)")
    try team.git("linus", "push", "-q", "origin", "main")
    try team.syncAll()
    try team.expectConverged()
    let text = try team.read("ada", scrum)
    #expect(text.contains("length: 15\n") && text.contains("theme: poppy\n"), "\(text)")
    #expect(text.contains("  - Bob\n") && text.contains("  - Linus\n"), "\(text)")
  }

  @Test func meetingsAndWordsFromBothSides() throws {
    let team = try team()
    expectOK(try team.run("ada", "library", "new", "Spanish basics", "--language", "es"))
    expectOK(try team.run("ada", "sync"))
    try team.git("linus", "pull", "-q", "--no-edit", "origin", "main")
    expectOK(
      try team.run(
        "ada", "word", "add", "hola", "--library", "spanish-basics", "--definition", "hello"))
    expectOK(
      try team.run(
        "ada", "meet", "design-review", "--record", "--date", "2026-11-20T09:00:00Z", "--duration",
        "9m"))
    expectOK(try team.run("ada", "sync"))
    let library = "libraries/spanish-basics.yaml"
    let text = try team.read("linus", library)
    #expect(!text.contains("words"))
    try team.write(
      "linus", library, text + "words:\n  - text: gato\n    meanings:\n      - definition: cat\n")
    try team.write(
      "linus", "history/design-review/2026-11-21-abcdef12.yaml",
      "scrum: \(Sandbox.id(in: try team.git("linus", "show", "HEAD:\(scrum)")))\ndate: 2026-11-21T09:00:00Z\nlength: 10\nduration: 600\nattendees: [Ada, Grace]\n"
    )
    try team.git("linus", "add", "-A")
    try team.git("linus", "commit", "-qm", "A word and a meeting")
    let pull = try team.gitResult("linus", "pull", "-q", "--no-edit", "origin", "main")
    #expect(pull.status == 0, "\(pull.stderr)")
    try team.git("linus", "push", "-q", "origin", "main")
    try team.syncAll()
    try team.expectConverged()
    let words = try team.run("grace", "word", "list", "--library", "spanish-basics").stdout
    #expect(words.contains("hola") && words.contains("gato"), "\(words)")
    #expect(try team.git("grace", "ls-files", "history").split(separator: "\n").count == 2)
    #expect(try team.run("grace", "check").status == 0)
  }

  @Test func sameFieldConflictStopsGitWithAValidFileAndARecord() throws {
    let team = try team()
    expectOK(try team.run("ada", "scrum", "edit", "design-review", "--length", "15"))
    expectOK(try team.run("ada", "sync"))
    try linusEdits(
      team, { $0.replacingOccurrences(of: "length: 10", with: "length: 30") }, message: "Longer")
    let pull = try team.gitResult("linus", "pull", "--no-edit", "origin", "main")
    #expect(pull.status != 0)
    #expect(
      pull.stderr.contains("length kept 30, the other value (15) is in .dinger/conflicts/"),
      "\(pull.stderr)")
    let text = try team.read("linus", scrum)
    #expect(text.contains("length: 30\n"))
    #expect(!text.contains("<<<<<<<") && !text.contains(">>>>>>>"))
    // Linus finishes the merge the way the message says, and pushes.
    try team.git("linus", "add", "-A")
    try team.git("linus", "commit", "-q", "--no-edit")
    try team.git("linus", "push", "-q", "origin", "main")
    try team.syncAll()
    try team.expectConverged()
    let conflicts = try team.run("grace", "conflicts").stdout
    #expect(conflicts.contains("kept:  30  (Linus <linus@example.com>"), "\(conflicts)")
    #expect(conflicts.contains("other: 15  (Ada <ada@example.com>"), "\(conflicts)")
  }

  /// Seed 31337: Grace and Ada make a scrum titled Infra at once; Linus, who has Grace's, moves
  /// it with `git mv` while Ada's sync keeps both. Git's own merge follows Linus's move by path,
  /// so the record at `infra.yaml` when he pulls must still be Grace's: the one shared first
  /// keeps the path, and Linus's move holds, with every record once.
  @Test func aGitMvBesideTwinScrumsMovesTheRecordItMoved() throws {
    let team = try team()
    expectOK(try team.run("grace", "scrum", "new", "Infra", "--attendee", "Grace"))
    expectOK(try team.run("grace", "sync"))
    let grace = Sandbox.id(in: try team.read("grace", "scrums/infra.yaml"))
    try team.git("linus", "pull", "-q", "--no-edit", "origin", "main")
    expectOK(try team.run("ada", "scrum", "new", "Infra", "--attendee", "Ada"))
    let ada = Sandbox.id(in: try team.read("ada", "scrums/infra.yaml"))
    _ = try team.run("ada", "sync")
    try team.git("linus", "mv", "scrums/infra.yaml", "scrums/infra-m45.yaml")
    try team.git("linus", "commit", "-qm", "Rename scrums/infra.yaml by hand")
    expectOK(try team.run("grace", "sync"))
    expectOK(try team.run("grace", "scrum", "attendee", "add", "infra", "Maya"))
    expectOK(try team.run("grace", "sync"))
    let pull = try team.gitResult("linus", "pull", "-q", "--no-edit", "origin", "main")
    #expect(pull.status == 0, "\(pull.stdout)\(pull.stderr)")
    try team.git("linus", "push", "-q", "origin", "main")
    try team.syncAll()
    try team.expectConverged()
    let files = try team.git("ada", "ls-files", "scrums").split(separator: "\n").map(String.init)
      .filter { $0.hasPrefix("scrums/infra") }
    #expect(files.sorted() == ["scrums/infra-2.yaml", "scrums/infra-m45.yaml"], "\(files)")
    let moved = try team.read("ada", "scrums/infra-m45.yaml")
    #expect(Sandbox.id(in: moved) == grace && moved.contains("  - Maya\n"), "\(moved)")
    #expect(Sandbox.id(in: try team.read("ada", "scrums/infra-2.yaml")) == ada)
    // The one thing left to a person: two scrums share a title, as check says.
    let errors = try team.run("ada", "check").stderr.split(separator: "\n")
      .filter { $0.contains(": error: ") }
    #expect(errors.allSatisfy { $0.contains("has this title too") }, "\(errors)")
  }

  @Test func deleteAgainstEditWithPlainGitKeepsTheEditedFile() throws {
    let team = try team()
    expectOK(try team.run("ada", "scrum", "rm", "design-review"))
    expectOK(try team.run("ada", "sync"))
    try linusEdits(
      team, { $0.replacingOccurrences(of: "length: 10", with: "length: 30") }, message: "Longer")
    let pull = try team.gitResult("linus", "pull", "--no-edit", "origin", "main")
    #expect(pull.status != 0)  // git's own modify/delete conflict; drivers never see deletions
    try team.git("linus", "add", "-A")
    try team.git("linus", "commit", "-q", "--no-edit")
    try team.git("linus", "push", "-q", "origin", "main")
    try team.syncAll()
    try team.expectConverged()
    #expect(try team.read("ada", scrum).contains("length: 30\n"))
  }
}

/// After dinger's first sync a plain-git teammate's habits work: upstream tracking is set, and a
/// bare remote made with `git init --bare` (HEAD=master) clones to what dinger pushed.
@Suite struct FirstSyncGitHabitsTests {
  @Test func remoteAddThenSyncLeavesGitPullPushAndCloneWorking() throws {
    let box = try Sandbox()
    #expect(try box.dinger("init").status == 0)
    #expect(try box.dinger("scrum", "new", "Design", "--attendee", "Ada").status == 0)
    let remote = box.home.path("team.git")
    // NB: no -b: the bare repository's HEAD names master, which nobody will push.
    try box.git(
      ["-c", "init.defaultBranch=master", "init", "-q", "--bare", remote], in: box.home.url)
    #expect(try box.dinger("remote", "add", "origin", remote).status == 0)
    let r = try box.dinger("sync")
    #expect(r.status == 0, "\(r.stderr)")
    #expect(try box.git("config", "branch.main.remote") == "origin\n")
    #expect(try box.git("config", "branch.main.merge") == "refs/heads/main\n")
    #expect(try box.git("--git-dir", remote, "symbolic-ref", "HEAD") == "refs/heads/main\n")
    // Plain git: clone checks out the data; pull and push need no arguments.
    let copy = box.home.url.appendingPathComponent("copy")
    try box.git(["clone", "-q", remote, copy.path], in: box.home.url)
    #expect(FileManager.default.fileExists(atPath: copy.path + "/scrums/design.yaml"))
    try "# note\n".write(
      to: copy.appendingPathComponent("notes.md"), atomically: true, encoding: .utf8)
    try box.git(["add", "notes.md"], in: copy)
    try box.git(["commit", "-qm", "A note"], in: copy)
    try box.git(["push", "-q"], in: copy)
    try box.git("pull", "-q")
    #expect(FileManager.default.fileExists(atPath: box.data.path + "/notes.md"))
    #expect(try box.dinger("scrum", "attendee", "add", "design", "Bob").status == 0)
    try box.git("push", "-q")
    try box.git(["pull", "-q"], in: copy)
    #expect(
      try String(contentsOf: copy.appendingPathComponent("scrums/design.yaml"), encoding: .utf8)
        .contains("- Bob"))
  }

  @Test func aChosenUpstreamIsLeftAlone() throws {
    let box = try Sandbox()
    #expect(try box.dinger("init").status == 0)
    let remote = box.home.path("team.git")
    try box.git(["init", "-q", "--bare", "-b", "main", remote], in: box.home.url)
    #expect(try box.dinger("remote", "add", "origin", remote).status == 0)
    try box.git("config", "branch.main.remote", "elsewhere")
    try box.git("config", "branch.main.merge", "refs/heads/other")
    #expect(try box.dinger("sync").status == 0)
    #expect(try box.git("config", "branch.main.remote") == "elsewhere\n")
    #expect(try box.git("config", "branch.main.merge") == "refs/heads/other\n")
  }
}

/// Another team's remote (a history with no commit in common) is refused, as git refuses it.
@Suite struct UnrelatedHistoriesTests {
  @Test func unrelatedHistoriesAreRefusedUnlessAskedFor() throws {
    let box = try Sandbox()
    let remote = box.home.path("team.git")
    try box.git(["init", "-q", "--bare", "-b", "main", remote], in: box.home.url)
    let other = box.home.url.appendingPathComponent("other")
    // NB: another author: two inits in the same second by one person make the same commit.
    let eve = ["GIT_AUTHOR_NAME": "Eve", "GIT_AUTHOR_EMAIL": "eve@other.example"]
    #expect(try box.dinger(["init", other.path], in: box.home.url, env: eve).status == 0)
    #expect(try box.dinger(["scrum", "new", "Theirs", "--attendee", "Eve"], in: other).status == 0)
    #expect(try box.dinger(["remote", "add", "origin", remote], in: other).status == 0)
    #expect(try box.dinger(["sync"], in: other).status == 0)
    #expect(try box.dinger("init").status == 0)
    #expect(try box.dinger("scrum", "new", "Ours", "--attendee", "Ada").status == 0)
    #expect(try box.dinger("remote", "add", "origin", remote).status == 0)
    let head = try box.head()
    let r = try box.dinger("sync")
    #expect(r.status == 1)
    #expect(r.stderr.contains("refusing to merge unrelated histories"), "\(r.stderr)")
    #expect(r.stderr.contains("--allow-unrelated-histories"))
    #expect(try box.head() == head)
    #expect(
      try box.git(["--git-dir", remote, "log", "--format=%s", "-1"], in: box.home.url).contains(
        "Theirs"))
    let merged = try box.dinger("sync", "--allow-unrelated-histories")
    #expect(merged.status == 0, "\(merged.stderr)")
    #expect(FileManager.default.fileExists(atPath: box.data.path + "/scrums/theirs.yaml"))
  }
}

/// The team's data on another branch of the remote is said, not silently doubled.
@Suite struct OtherBranchTests {
  @Test func aRemoteWhoseDataIsOnAnotherBranchIsNamed() throws {
    let box = try Sandbox()
    let remote = box.home.path("team.git")
    try box.git(["init", "-q", "--bare", "-b", "master", remote], in: box.home.url)
    let other = box.home.url.appendingPathComponent("other")
    try box.git(["clone", "-q", remote, other.path], in: box.home.url)
    try "x\n".write(to: other.appendingPathComponent("notes.md"), atomically: true, encoding: .utf8)
    try box.git(["add", "notes.md"], in: other)
    try box.git(["commit", "-qm", "on master"], in: other)
    try box.git(["push", "-q", "origin", "master"], in: other)
    #expect(try box.dinger("init").status == 0)
    #expect(try box.dinger("remote", "add", "origin", remote).status == 0)
    let r = try box.dinger("sync")
    #expect(
      r.stderr.contains("warning: origin has no branch 'main' but has 'master'"), "\(r.stderr)")
  }
}

/// A teammate's executable bit and symbolic links arrive as what they are, in the work tree,
/// the index and merge commits: `git status` stays clean and `git ls-tree` keeps their modes.
@Suite struct FileModesTests {
  func linusAddsAScriptAndALink(_ team: Team) throws {
    try team.write("linus", "tools/run.sh", "#!/bin/sh\necho hi\n")
    chmod(team.dir("linus").path + "/tools/run.sh", 0o755)
    try FileManager.default.createSymbolicLink(
      atPath: team.dir("linus").path + "/latest", withDestinationPath: "scrums/design-review.yaml")
    try team.git("linus", "add", ".")
    try team.git("linus", "commit", "-qm", "a script and a link")
    try team.git("linus", "push", "-q", "origin", "main")
  }

  func expectModes(_ team: Team, _ name: String) throws {
    let tree = try team.git(name, "ls-tree", "-r", "HEAD")
    #expect(tree.contains("100755 blob") && tree.contains("\ttools/run.sh"), "\(tree)")
    #expect(tree.contains("120000 blob") && tree.contains("\tlatest"), "\(tree)")
    #expect(try team.git(name, "status", "--porcelain") == "")
    let dir = team.dir(name).path
    #expect(access(dir + "/tools/run.sh", X_OK) == 0)
    #expect(
      (try? FileManager.default.destinationOfSymbolicLink(atPath: dir + "/latest"))
        == "scrums/design-review.yaml")
  }

  @Test func aFastForwardKeepsModesAndLinks() throws {
    let team = try Team(dingers: ["ada"], plain: ["linus"])
    try linusAddsAScriptAndALink(team)
    let r = try team.run("ada", "sync")
    #expect(r.status == 0, "\(r.stderr)")
    try expectModes(team, "ada")
  }

  @Test func aMergeKeepsModesAndLinksAndAModeOnlyChange() throws {
    let team = try Team(dingers: ["ada"], plain: ["linus"])
    try team.write("linus", "tools/check.sh", "#!/bin/sh\n")
    try team.git("linus", "add", ".")
    try team.git("linus", "commit", "-qm", "a plain script")
    try team.git("linus", "push", "-q", "origin", "main")
    #expect(try team.run("ada", "sync").status == 0)
    expectOK(try team.run("ada", "scrum", "attendee", "add", "design-review", "Zoe"))
    try linusAddsAScriptAndALink(team)
    chmod(team.dir("linus").path + "/tools/check.sh", 0o755)
    try team.git("linus", "commit", "-qam", "check.sh runs")
    try team.git("linus", "push", "-q", "origin", "main")
    let r = try team.run("ada", "sync")
    #expect(r.status == 0, "\(r.stderr)")
    try expectModes(team, "ada")
    #expect(try team.git("ada", "ls-tree", "HEAD", "tools/check.sh").hasPrefix("100755"))
    #expect(
      try team.git("ada", "rev-list", "--parents", "-1", "HEAD").split(separator: " ").count == 3)
    // And back at Linus's: plain git pulls the merge without a mode change.
    try team.git("linus", "pull", "-q", "--no-rebase", "origin", "main")
    #expect(try team.git("linus", "status", "--porcelain") == "")
  }
}
