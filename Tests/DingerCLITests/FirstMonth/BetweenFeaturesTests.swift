import Foundation
import TestSupport
import Testing

/// What a team's first week broke between features, each as it was found (issue: a team's
/// first month never breaks).
@Suite struct BetweenFeaturesTests {
  /// A data repository with a scrum `design` that meets from a day some weeks ahead.
  func futureSchedule() throws -> (Sandbox, String) {
    let box = try Sandbox()
    #expect(try box.dinger("init").status == 0)
    let start = ISO8601DateFormatter.string(
      from: Date().addingTimeInterval(21 * 86_400), timeZone: TimeZone(identifier: "UTC")!,
      formatOptions: [.withFullDate])
    let made = try box.dinger(
      "scrum", "new", "Design", "--attendee", "Ada", "--at", "09:30", "--zone", "Europe/Berlin",
      "--from", start)
    #expect(made.status == 0, "\(made.stderr)")
    return (box, start)
  }

  /// A schedule that starts next week: history, stats and report answer (they trapped: a
  /// range's lower bound above its upper).
  @Test func aScheduleThatStartsInTheFutureBreaksNoReadCommand() throws {
    let (box, start) = try futureSchedule()
    let out = box.home.url.appendingPathComponent("report.html").path
    for args in [
      ["history", "design"], ["stats"], ["stats", "design"], ["report", "--out", out],
      ["stats", "--since", "2020-01-01", "--until", "2020-02-01"], ["agenda"], ["next"],
      ["stats", "--since", start], ["history", "design", "--json"], ["calendar"],
    ] {
      let r = try box.dinger(args)
      #expect(r.status == 0, "dinger \(args.joined(separator: " ")): \(r.status) \(r.stderr)")
    }
  }

  /// check: two scrums with one title, a title with an ESC, and a duplicate id in a file that
  /// has an error of its own, all in the first run.
  @Test func checkFindsEverythingInOneRun() throws {
    let box = try Sandbox()
    #expect(try box.dinger("init").status == 0)
    #expect(try box.dinger("scrum", "new", "Design", "--attendee", "Ada").status == 0)
    let id = Sandbox.id(in: try box.read("scrums/design.yaml"))
    try box.write("scrums/design-copy.yaml", "title: design\nlength: 10\nattendees: [Ada]\n")
    try box.write(
      "scrums/twin.yaml", "id: \(id)\ntitle: Twin\nlength: ten\nattendees: [Ada]\n")
    try box.write("scrums/loud.yaml", "title: \"Loud\\e[31m\"\nlength: 10\nattendees: [Ada]\n")
    let r = try box.dinger("check")
    #expect(r.status == 1)
    #expect(
      r.stderr.contains("error: the scrum scrums/design-copy.yaml has this title too"),
      "\(r.stderr)")
    #expect(
      r.stderr.contains("scrums/twin.yaml:1:5: error: id \(id) is also used by"), "\(r.stderr)")
    #expect(r.stderr.contains("'length' must be a whole number"), "\(r.stderr)")
    #expect(
      r.stderr.contains("warning: 'title' holds the control character U+001B"), "\(r.stderr)")
    // And `scrum new` refuses the same control character.
    let refused = try box.dinger("scrum", "new", "Bell\u{07}", "--attendee", "Ada")
    #expect(refused.status != 0)
    #expect(refused.stderr.contains("U+0007"), "\(refused.stderr)")
  }

  /// The wrong-scrum edit: scrums/platform.yaml breaks, `scrum edit platform` must not edit
  /// scrums/platform-ops.yaml (titled "Platform").
  @Test func anEditNeverLandsInAnotherScrum() throws {
    let box = try Sandbox()
    #expect(try box.dinger("init").status == 0)
    #expect(try box.dinger("scrum", "new", "Platform", "--attendee", "Ada").status == 0)
    #expect(try box.dinger("scrum", "new", "Platform Ops", "--attendee", "Ada").status == 0)
    // The ops scrum takes the title "Platform" (allowed once the first is renamed below).
    var first = try box.read("scrums/platform.yaml")
    first = first.replacingOccurrences(of: "title: Platform\n", with: "title: Platform Old\n")
    try box.write("scrums/platform.yaml", first)
    try box.git("commit", "-qam", "rename title")
    #expect(
      try box.dinger("scrum", "edit", "platform-ops", "--title", "Platform").status == 0)
    // A teammate's bad indentation.
    try box.write(
      "scrums/platform.yaml",
      first.replacingOccurrences(of: "theme:", with: "  theme:"))
    try box.git("commit", "-qam", "broken by hand")
    let head = try box.head()
    let opsBefore = try box.read("scrums/platform-ops.yaml")
    for name in ["platform", "Platform Old"] {
      let r = try box.dinger("scrum", "edit", name, "--length", "20")
      #expect(r.status == 1, "\(name): \(r.stdout)")
      #expect(r.stderr.contains("scrums/platform.yaml, which can't be read"), "\(r.stderr)")
    }
    #expect(try box.head() == head)
    #expect(try box.read("scrums/platform-ops.yaml") == opsBefore)
  }

  /// A title a readable scrum and a broken one both hold names neither: the edit is refused,
  /// naming the broken file (seed 8100 of the simulation edited the readable one).
  @Test func aTitleABrokenScrumSharesIsAmbiguous() throws {
    let box = try Sandbox()
    #expect(try box.dinger("init").status == 0)
    #expect(try box.dinger("scrum", "new", "Mobile", "--attendee", "Ada").status == 0)
    // A teammate's second "Mobile", with bad indentation.
    try box.write(
      "scrums/s14.yaml", "title: Mobile\nlength: 5\n  theme: sky\nattendees: [Ada]\n")
    try box.git("add", "-A")
    try box.git("commit", "-qm", "a broken twin")
    let head = try box.head()
    let r = try box.dinger("scrum", "edit", "Mobile", "--length", "20")
    #expect(r.status == 1)
    #expect(
      r.stderr.contains(
        "more than one scrum is titled 'Mobile', and scrums/s14.yaml can't be read"),
      "\(r.stderr)")
    #expect(try box.head() == head)
    // By its file name the readable one is edited.
    #expect(try box.dinger("scrum", "edit", "mobile", "--length", "20").status == 0)
  }

  /// `report` with no `--out` in the data repository writes report.html there, and a
  /// teammate's `git add -A` must not commit it: it goes into .git/info/exclude.
  @Test func aReportInTheRepositoryStaysOutOfGit() throws {
    let box = try Sandbox()
    #expect(try box.dinger("init").status == 0)
    #expect(try box.dinger("scrum", "new", "Standup", "--attendee", "Ada").status == 0)
    let r = try box.dinger("report")
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains("/report.html added to .git/info/exclude"), "\(r.stdout)")
    #expect(
      FileManager.default.fileExists(atPath: box.data.appendingPathComponent("report.html").path))
    try box.git("add", "-A")
    #expect(try box.git("status", "--porcelain") == "")
    // Once is enough.
    #expect(!(try box.dinger("report").stdout.contains("exclude")))
    #expect(try box.read(".git/info/exclude").components(separatedBy: "/report.html").count == 2)
  }

  /// An unreadable `scrums/` folder is an error, never "no scrums yet" (as an ordinary user:
  /// root reads any folder).
  @Test func anUnreadableFolderIsNeverEmpty() throws {
    let box = try Sandbox()
    #expect(try box.dinger("init").status == 0)
    #expect(try box.dinger("scrum", "new", "Standup", "--attendee", "Ada").status == 0)
    try OrdinaryUser.prepare(box)
    let folder = box.data.appendingPathComponent("scrums").path
    #expect(chmod(folder, 0o300) == 0)
    defer { chmod(folder, 0o755) }
    let list = try box.dingerAsUser("scrum", "list")
    let check = try box.dingerAsUser("check")
    #expect(chmod(folder, 0o755) == 0)
    #expect(!list.stdout.contains("no scrums yet"), "\(list.stdout)")
    #expect(list.stderr.contains("scrums"), "\(list.stderr)")
    #expect(check.status == 1, "\(check.stdout)")
    #expect(check.stderr.contains("scrums: error: can't read this folder"), "\(check.stderr)")
  }
}

/// A sync says when it brings in files that do not read (a plain-git teammate's bad
/// indentation, committed conflict markers), naming each place, instead of "updated 2 files".
@Suite struct BrokenArrivalTests {
  @Test func aSyncNamesTheBrokenFilesItBroughtIn() throws {
    let team = try Team(dingers: ["ada"], plain: ["linus"])
    try team.git("linus", "pull", "-q")
    var text = try team.read("linus", "scrums/design-review.yaml")
    text = text.replacingOccurrences(of: "theme:", with: "  theme:")
    try team.write("linus", "scrums/design-review.yaml", text)
    try Self.pushConflictMarkers(team)
    let r = try team.run("ada", "sync")
    #expect(r.status == 0, "\(r.stderr)")
    #expect(
      r.stderr.contains("warning: scrums/design-review.yaml:4:"), "\(r.stderr)")
    #expect(r.stderr.contains("warning: scrums/retro.yaml:3:"), "\(r.stderr)")
    #expect(r.stderr.contains("2 files have errors since this sync"), "\(r.stderr)")
    // A clean sync says nothing of the kind.
    let again = try team.run("ada", "sync")
    #expect(!again.stderr.contains("brought in"), "\(again.stderr)")
  }

  /// Linus commits a scrum file with conflict markers in it (with what else he changed) and
  /// pushes.
  static func pushConflictMarkers(_ team: Team) throws {
    try team.write(
      "linus", "scrums/retro.yaml",
      "title: Retro\nlength: 10\n<<<<<<< HEAD\nattendees: [Ada]\n=======\nattendees: [Bob]\n>>>>>>> theirs\n"
    )
    try team.git("linus", "add", "-A")
    try team.git("linus", "commit", "-qm", "by hand")
    try team.git("linus", "push", "-q", "origin", "main")
  }

  /// With a commit of her own, the sync merges and pushes: what came in is judged beside the
  /// push, and still said.
  @Test func aMergeThatPushesStillNamesTheBrokenFileItBroughtIn() throws {
    let team = try Team(dingers: ["ada"], plain: ["linus"])
    try team.git("linus", "pull", "-q")
    try Self.pushConflictMarkers(team)
    #expect(try team.run("ada", "scrum", "new", "Ops", "--attendee", "Ada").status == 0)
    let r = try team.run("ada", "sync")
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stderr.contains("warning: scrums/retro.yaml:3:"), "\(r.stderr)")
    #expect(r.stderr.contains("a file has errors since this sync"), "\(r.stderr)")
    // The push went out: linus gets Ada's scrum.
    try team.git("linus", "pull", "-q")
    #expect((try? team.read("linus", "scrums/ops.yaml"))?.contains("title: Ops") == true)
  }
}

/// A `--skip` or `--move` of a day the scrum does not meet is refused with the true reason (on
/// the off week of `every 2w` it warned "not a day the scrum meets (a tuesday)" and committed).
@Suite struct SkipReasonTests {
  @Test func aSkipOnTheOffWeekIsRefusedWithItsReason() throws {
    let box = try Sandbox()
    #expect(try box.dinger("init").status == 0)
    let made = try box.dinger(
      "scrum", "new", "Design", "--attendee", "Ada", "--at", "09:30", "--days", "tue", "--every",
      "2w", "--zone", "UTC", "--from", "2026-12-01")
    #expect(made.status == 0, "\(made.stderr)")
    let head = try box.head()
    let r = try box.dinger("scrum", "edit", "design", "--skip", "2026-12-08")
    #expect(r.status == 1)
    #expect(
      r.stderr.contains(
        "--skip 2026-12-08: the scrum does not meet that day (in a week it does not meet: every 2 weeks from 2026-12-01); nothing changed"
      ), "\(r.stderr)")
    let wrongDay = try box.dinger("scrum", "edit", "design", "--move", "2026-12-16=10:00")
    #expect(wrongDay.stderr.contains("(a wednesday, and it meets tue)"), "\(wrongDay.stderr)")
    #expect(try box.head() == head)
    #expect(try box.dinger("scrum", "edit", "design", "--skip", "2026-12-15").status == 0)
  }
}

/// `stats` gives the day of the last meeting in the viewer's zone, as `history` does (it gave
/// the UTC day).
@Suite struct LocalDayTests {
  @Test func statsAndHistoryAgreeOnTheDay() throws {
    let box = try Sandbox()
    #expect(try box.dinger("init").status == 0)
    #expect(try box.dinger("scrum", "new", "Design", "--attendee", "Ada").status == 0)
    let recorded = try box.dinger(
      "meet", "design", "--record", "--date", "2026-11-20T23:30:00Z", "--duration", "9m")
    #expect(recorded.status == 0, "\(recorded.stderr)")
    let env = ["TZ": "Asia/Kolkata"]
    let history = try box.dinger(["history", "design"], env: env).stdout
    #expect(history.contains("2026-11-21 05:00"), "\(history)")
    let stats = try box.dinger(["stats", "design"], env: env).stdout
    #expect(stats.contains("last 2026-11-21"), "\(stats)")
  }
}

/// `sync --dry-run` refuses where the real sync refuses (it predicted success over an
/// uncommitted hand edit the merge would overwrite).
@Suite struct DryRunTests {
  @Test(arguments: [false, true]) func aDryRunRefusesLikeTheSync(merge: Bool) throws {
    let team = try Team(dingers: ["ada", "grace"])
    try team.syncAll()
    try expectOK(team.run("grace", "scrum", "edit", "design-review", "--length", "25"))
    try expectOK(team.run("grace", "sync"))
    if merge { try expectOK(team.run("ada", "scrum", "new", "Retro", "--attendee", "Ada")) }
    let text = try team.read("ada", "scrums/design-review.yaml")
    try team.write("ada", "scrums/design-review.yaml", text + "# a note not yet committed\n")
    let dry = try team.run("ada", "sync", "--dry-run")
    let real = try team.run("ada", "sync")
    #expect(real.status == 1, "\(real.stdout)")
    #expect(real.stderr.contains("has changes that are not committed"), "\(real.stderr)")
    #expect(dry.status == real.status, "\(dry.stdout)\(dry.stderr)")
    #expect(dry.stderr == real.stderr)
    #expect(try team.read("ada", "scrums/design-review.yaml").hasSuffix("not yet committed\n"))
  }
}

/// A repository the user may read but not write: `log` reads it as git does (it failed on the
/// activity index's lock).
@Suite struct ReadOnlyRepositoryTests {
  @Test func logReadsARepositoryItMayNotWrite() throws {
    let box = try Sandbox()
    #expect(try box.dinger("init").status == 0)
    #expect(try box.dinger("scrum", "new", "Design", "--attendee", "Ada").status == 0)
    #expect(try box.dinger("scrum", "edit", "design", "--length", "15").status == 0)
    try OrdinaryUser.prepare(box)
    #expect(system("chmod -R a-w '\(box.data.path)'") == 0)
    defer { _ = system("chmod -R u+w '\(box.data.path)'") }
    let git = try box.gitAsUser("log", "--oneline")
    #expect(git.status == 0, "\(git.stderr)")
    for args in [["log"], ["log", "-n", "1"], ["log", "design"]] {
      let r = try OrdinaryUser.run(dingerBinary, args, in: box.data, environment: box.environment)
      #expect(r.status == 0, "dinger \(args): \(r.stderr)")
      #expect(r.stdout.contains("length 5 -> 15 min"), "dinger \(args): \(r.stdout)")
    }
    #expect(
      !FileManager.default.fileExists(
        atPath: box.data.appendingPathComponent(".git/dinger/activity-v3.tsv").path))
  }
}

/// git's rules for a repository dinger should not trust or cannot read: another user's
/// repository is refused with git's "dubious ownership" and its fix; an unreadable .git/config
/// stops every command (it was ignored, and writes went on without its settings).
@Suite struct RepositoryTrustTests {
  @Test func anotherUsersRepositoryIsRefusedUntilItIsASafeDirectory() throws {
    let box = try Sandbox()
    #expect(try box.dinger("init").status == 0)
    #expect(try box.dinger("scrum", "new", "Design", "--attendee", "Ada").status == 0)
    try OrdinaryUser.prepare(box)
    // Root runs dinger on the ordinary user's repository, as git would refuse to.
    let gitSays = try ProcessRunner.run(
      "/usr/bin/git", ["status"], in: box.data, environment: box.environment)
    #expect(gitSays.stderr.contains("dubious ownership"), "\(gitSays.stderr)")
    for args in [["scrum", "list"], ["log"], ["scrum", "new", "Retro", "--attendee", "Ada"]] {
      let r = try box.dinger(args)
      #expect(r.status == 1, "\(args): \(r.stdout)")
      #expect(r.stderr.contains("detected dubious ownership"), "\(args): \(r.stderr)")
      #expect(r.stderr.contains("git config --global --add safe.directory"), "\(r.stderr)")
    }
    try box.git(["config", "--global", "--add", "safe.directory", box.data.path], in: box.home.url)
    #expect(try box.dinger("scrum", "list").status == 0)
    #expect(try box.dinger("log").status == 0)
  }

  /// safe.directory as git 2.39 reads it: `*` trusts every directory, an empty value forgets
  /// the values before it; plain git agrees with dinger each time.
  @Test func aStarTrustsEveryDirectoryAndAnEmptyValueForgetsIt() throws {
    let box = try Sandbox()
    #expect(try box.dinger("init").status == 0)
    #expect(try box.dinger("scrum", "new", "Design", "--attendee", "Ada").status == 0)
    try OrdinaryUser.prepare(box)
    guard OrdinaryUser.isRoot else { return }
    try box.git(["config", "--global", "--add", "safe.directory", "*"], in: box.home.url)
    let trusted = try box.dinger("scrum", "list")
    #expect(trusted.status == 0 && trusted.stdout.contains("Design"), "\(trusted.stderr)")
    #expect(try box.dinger("scrum", "new", "Retro", "--attendee", "Ada").status == 0)
    let gitTrusts = try ProcessRunner.run(
      "/usr/bin/git", ["status", "--porcelain"], in: box.data, environment: box.environment)
    #expect(gitTrusts.status == 0 && gitTrusts.stdout.isEmpty, "\(gitTrusts.stderr)")
    try box.git(["config", "--global", "--add", "safe.directory", ""], in: box.home.url)
    let refused = try box.dinger("scrum", "list")
    #expect(refused.status == 1 && refused.stderr.contains("detected dubious ownership"))
    let gitRefuses = try ProcessRunner.run(
      "/usr/bin/git", ["status"], in: box.data, environment: box.environment)
    #expect(gitRefuses.stderr.contains("dubious ownership"), "\(gitRefuses.stderr)")
  }

  /// A bare repository on a shared disk that another user owns: sync refuses it with git's
  /// message and fix (not libgit2's "config value 'safe.directory' was not found"), as
  /// `git fetch` does, and syncs once `safe.directory` names it, or `*`.
  @Test(arguments: ["exact", "*"])
  func aSharedRemoteOfAnotherUserNeedsASafeDirectory(entry: String) throws {
    let box = try Sandbox()
    #expect(try box.dinger("init").status == 0)
    #expect(try box.dinger("scrum", "new", "Design", "--attendee", "Ada").status == 0)
    guard OrdinaryUser.isRoot else { return }
    let shared = box.home.url.appendingPathComponent("shared.git")
    _ = try box.git(["clone", "-q", "--bare", box.data.path, shared.path], in: box.home.url)
    try OrdinaryUser.prepare(box)
    // Only the shared repository is the other user's: the data repository is ours again.
    _ = try ProcessRunner.run("/bin/chown", ["-R", "root:root", box.data.path])
    #expect(try box.dinger("remote", "add", "origin", shared.path).status == 0)
    let refused = try box.dinger("sync")
    #expect(refused.status == 1, "\(refused.stdout)")
    #expect(
      refused.stderr.contains("detected dubious ownership in repository at '\(shared.path)'")
        && refused.stderr.contains("git config --global --add safe.directory '\(shared.path)'"),
      "\(refused.stderr)")
    #expect(!refused.stderr.contains("was not found"), "\(refused.stderr)")
    let git = try ProcessRunner.run(
      "/usr/bin/git", ["fetch", shared.path], in: box.data, environment: box.environment)
    #expect(git.status != 0 && git.stderr.contains("dubious ownership"), "\(git.stderr)")
    try box.git(
      ["config", "--global", "--add", "safe.directory", entry == "*" ? "*" : shared.path],
      in: box.home.url)
    let synced = try box.dinger("sync")
    #expect(synced.status == 0, "\(synced.stderr)")
  }

  @Test func anUnreadableGitConfigStopsEveryCommand() throws {
    let box = try Sandbox()
    #expect(try box.dinger("init").status == 0)
    #expect(try box.dinger("scrum", "new", "Design", "--attendee", "Ada").status == 0)
    try OrdinaryUser.prepare(box)
    let config = box.data.appendingPathComponent(".git/config").path
    #expect(chmod(config, 0) == 0)
    defer { chmod(config, 0o644) }
    let git = try box.gitAsUser("status")
    #expect(git.status != 0 && git.stderr.contains("unable to access"), "\(git.stderr)")
    for args in [["scrum", "list"], ["scrum", "new", "Retro", "--attendee", "Ada"]] {
      let r = try OrdinaryUser.run(dingerBinary, args, in: box.data, environment: box.environment)
      #expect(r.status == 1, "\(args): \(r.stdout)")
      #expect(r.stderr.contains("unable to access '"), "\(args): \(r.stderr)")
      #expect(r.stderr.contains(".git/config': Permission denied"), "\(args): \(r.stderr)")
    }
    #expect(chmod(config, 0o644) == 0)
    #expect(
      !FileManager.default.fileExists(
        atPath: box.data.appendingPathComponent("scrums/retro.yaml").path))
  }
}

/// `GIT_AUTHOR_DATE` and `GIT_COMMITTER_DATE` date dinger's commits as git's (they were
/// ignored); a date git would refuse stops the write.
@Suite struct CommitDateTests {
  @Test(arguments: [
    ("2026-01-02T03:04:05+01:00", "2026-01-02T03:04:05+01:00"),
    ("@1767225600 +0000", "2026-01-01T00:00:00+00:00"),
    ("Fri, 02 Jan 2026 03:04:05 -0800", "2026-01-02T03:04:05-08:00"),
    ("1767225600 +0530", "2026-01-01T05:30:00+05:30"),
  ])
  func theDatesGitTakesAreTaken(given: String, shown: String) throws {
    let box = try Sandbox()
    #expect(try box.dinger("init").status == 0)
    let r = try box.dinger(
      ["scrum", "new", "Design", "--attendee", "Ada"],
      env: ["GIT_AUTHOR_DATE": given, "GIT_COMMITTER_DATE": given])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(try box.git("log", "-1", "--format=%aI %cI") == "\(shown) \(shown)\n")
  }

  @Test func aDateGitRefusesStopsTheWrite() throws {
    let box = try Sandbox()
    #expect(try box.dinger("init").status == 0)
    let head = try box.head()
    let r = try box.dinger(
      ["scrum", "new", "Design", "--attendee", "Ada"], env: ["GIT_AUTHOR_DATE": "next tuesday"])
    #expect(r.status == 1)
    #expect(r.stderr.contains("invalid date format: 'next tuesday'"), "\(r.stderr)")
    #expect(try box.head() == head)
    #expect(try box.git("status", "--porcelain") == "")
  }
}
