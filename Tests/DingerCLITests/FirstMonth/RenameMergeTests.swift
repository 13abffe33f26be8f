import Foundation
import TestSupport
import Testing

/// A record is its id wherever its file lives: renames merge with a teammate's edits, and two
/// files never hold one id after a sync.
@Suite struct RenameMergeTests {
  /// Ada records a meeting and everyone syncs; then Ada renames the scrum to design and Grace
  /// to review, and Ada syncs first.
  func renameOnBothSidesAfterAMeeting(_ team: Team) throws {
    try expectOK(
      team.run(
        "ada", "meet", "design-review", "--record", "--date", "2026-11-20T09:00:00Z", "--duration",
        "9m"))
    try team.syncAll()
    try expectOK(team.run("ada", "scrum", "rename", "design-review", "design"))
    try expectOK(team.run("grace", "scrum", "rename", "design-review", "review"))
    try expectOK(team.run("ada", "sync"))
  }

  /// The paths of scrum files holding each id, in a member's clone.
  func scrumFilesByID(_ team: Team, _ name: String) throws -> [String: [String]] {
    var out: [String: [String]] = [:]
    for path in try team.git(name, "ls-files", "scrums").split(separator: "\n") {
      let id = String(Sandbox.id(in: try team.read(name, String(path))))
      out[id, default: []].append(String(path))
    }
    return out
  }

  /// The id of the first conflict `conflicts --json` lists in a member's clone.
  func conflictID(_ team: Team, _ name: String) throws -> String {
    let json = try team.run(name, "conflicts", "--json").stdout
    return try #require(
      json.split(separator: "\"").drop { $0 != "id" }.dropFirst(2).first.map(String.init),
      "\(json)")
  }

  func expectOneFilePerID(_ team: Team, sourceLocation: SourceLocation = #_sourceLocation) throws {
    for name in team.members.keys.sorted() {
      for (id, paths) in try scrumFilesByID(team, name) {
        #expect(paths.count == 1, "\(name): \(id) in \(paths)", sourceLocation: sourceLocation)
      }
      let check = try team.run(name, "check")
      #expect(check.status == 0, "\(name): \(check.stderr)", sourceLocation: sourceLocation)
    }
  }

  /// One side renames (dinger's rename, or `git mv` by a plain-git teammate); the other edits the
  /// length, adds an attendee and records a meeting. Both orders of sync.
  @Test(arguments: [false, true], ["dinger", "git mv"])
  func aRenameMergesWithAnEdit(renamerSyncsFirst: Bool, how: String) throws {
    let team = try Team(dingers: ["ada", "grace"])
    try team.syncAll()
    if how == "dinger" {
      try expectOK(team.run("ada", "scrum", "rename", "design-review", "design"))
    } else {
      try team.git("ada", "mv", "scrums/design-review.yaml", "scrums/design.yaml")
      try team.git("ada", "commit", "-qm", "rename by hand")
    }
    try expectOK(team.run("grace", "scrum", "edit", "design-review", "--length", "25"))
    try expectOK(team.run("grace", "scrum", "attendee", "add", "design-review", "Linus"))
    try expectOK(
      team.run(
        "grace", "meet", "design-review", "--record", "--date", "2026-11-20T09:00:00Z",
        "--duration", "9m"))
    for name in renamerSyncsFirst ? ["ada", "grace"] : ["grace", "ada"] {
      try expectOK(team.run(name, "sync"))
    }
    try team.syncAll()
    try team.expectConverged()
    try expectOneFilePerID(team)
    for name in ["ada", "grace"] {
      let files = try team.git(name, "ls-files").split(separator: "\n").map(String.init)
      #expect(files.contains("scrums/design.yaml") && !files.contains("scrums/design-review.yaml"))
      let scrum = try team.read(name, "scrums/design.yaml")
      #expect(scrum.contains("length: 25"), "\(scrum)")
      #expect(scrum.contains("- Linus"), "\(scrum)")
      if how == "dinger" {
        // The meeting recorded under the old folder moved with the scrum.
        #expect(!files.contains { $0.hasPrefix("history/design-review/") }, "\(files)")
        #expect(files.contains { $0.hasPrefix("history/design/") }, "\(files)")
      }
      #expect(try team.run(name, "history", "design").stdout.contains("2026-11-20"))
      #expect(try team.run(name, "conflicts").stdout == "no conflicts\n")
    }
  }

  /// Rename against rename: one file, at the path of whoever synced last, and a conflict that
  /// names both; `--theirs` moves it (with its meetings) to the other path.
  @Test func aRenameAgainstARenameIsAConflictResolveSettles() throws {
    let team = try Team(dingers: ["ada", "grace"])
    try renameOnBothSidesAfterAMeeting(team)
    let r = try team.run("grace", "sync")
    #expect(r.status == 1 && r.stderr.contains("conflict"), "\(r.stdout)\(r.stderr)")
    try team.syncAll()
    try team.expectConverged()
    try expectOneFilePerID(team)
    let files = try team.git("ada", "ls-files").split(separator: "\n").map(String.init)
    #expect(files.contains("scrums/review.yaml") && !files.contains("scrums/design.yaml"))
    let listing = try team.run("ada", "conflicts").stdout
    #expect(listing.contains("scrums/review.yaml"), "\(listing)")
    #expect(listing.contains("moved to a different place on each side"), "\(listing)")
    #expect(listing.contains("other: scrums/design.yaml"), "\(listing)")
    let id = try conflictID(team, "ada")
    try expectOK(team.run("ada", "resolve", String(id.prefix(8)), "--theirs"))
    let after = try team.git("ada", "ls-files").split(separator: "\n").map(String.init)
    #expect(after.contains("scrums/design.yaml") && !after.contains("scrums/review.yaml"))
    #expect(after.contains { $0.hasPrefix("history/design/") }, "\(after)")
    #expect(!after.contains { $0.hasPrefix("history/review/") }, "\(after)")
    #expect(try team.run("ada", "check").status == 0)
  }

  /// A conflict settled after its record moved (dinger's rename, or a teammate's `git mv`):
  /// `--theirs` edits the file where the record is now, never writes a second file with its id
  /// at the old path (found by the team simulation, seeds 9101 and 9102).
  @Test(arguments: ["dinger", "git mv", "git mv, then broken"])
  func aConflictIsSettledWhereItsRecordMoved(how: String) throws {
    let team = try Team(dingers: ["ada", "grace"])
    try team.syncAll()
    try expectOK(team.run("ada", "scrum", "edit", "design-review", "--length", "25"))
    try expectOK(team.run("grace", "scrum", "edit", "design-review", "--length", "40"))
    try expectOK(team.run("ada", "sync"))
    _ = try team.run("grace", "sync")
    let id = try conflictID(team, "grace")
    if how == "dinger" {
      try expectOK(team.run("grace", "scrum", "rename", "design-review", "design"))
    } else {
      try team.git("grace", "mv", "scrums/design-review.yaml", "scrums/design.yaml")
      try team.git("grace", "commit", "-qm", "rename by hand")
    }
    let kept = try team.read("grace", "scrums/design.yaml")
    let theirs = kept.contains("length: 25") ? "40" : "25"
    if how.hasSuffix("broken") {
      // The moved file is not YAML any more: resolve says so, and writes nothing at the old
      // path (its id is still on its `id:` line).
      try team.write("grace", "scrums/design.yaml", kept + "attendees: [\n")
      try team.git("grace", "commit", "-qam", "broken by hand")
      let r = try team.run("grace", "resolve", String(id.prefix(8)), "--theirs")
      #expect(r.status == 1 && r.stderr.contains("scrums/design.yaml"), "\(r.stderr)")
      let files = try team.git("grace", "ls-files", "scrums").split(separator: "\n")
      #expect(!files.contains("scrums/design-review.yaml"), "\(files)")
      return
    }
    try expectOK(team.run("grace", "resolve", String(id.prefix(8)), "--theirs"))
    let files = try team.git("grace", "ls-files", "scrums").split(separator: "\n").map(String.init)
    #expect(!files.contains("scrums/design-review.yaml"), "\(files)")
    #expect(try team.read("grace", "scrums/design.yaml").contains("length: \(theirs)"))
    try expectOneFilePerID(team)
  }

  /// A whole-record conflict recorded while ours was broken past reading its id (its `id:`
  /// line indented): the conflict names no record, yet `--theirs` after a rename writes where the
  /// record's id lives now, taken from the value it writes (seed 9102 left two files, one id).
  @Test func aConflictThatNamesNoRecordIsSettledWhereTheValuesIDLives() throws {
    let team = try Team(dingers: ["ada", "grace"])
    try team.syncAll()
    let fine = try team.read("ada", "scrums/design-review.yaml")
    try team.write(
      "ada", "scrums/design-review.yaml", fine.replacingOccurrences(of: "\nid:", with: "\n  id:"))
    try team.git("ada", "commit", "-qam", "broken by hand")
    try expectOK(team.run("grace", "scrum", "edit", "design-review", "--length", "40"))
    try expectOK(team.run("grace", "sync"))
    _ = try team.run("ada", "sync")
    let json = try team.run("ada", "conflicts", "--json").stdout
    #expect(json.contains("\"record\" : null") || json.contains("\"record\":null"), "\(json)")
    let id = try #require(
      json.split(separator: "\"").drop { $0 != "id" }.dropFirst(2).first.map(String.init),
      "\(json)")
    try team.write("ada", "scrums/design-review.yaml", fine)
    try team.git("ada", "commit", "-qam", "mended by hand")
    try expectOK(team.run("ada", "scrum", "rename", "design-review", "design"))
    try expectOK(team.run("ada", "resolve", String(id.prefix(8)), "--theirs"))
    let files = try team.git("ada", "ls-files", "scrums").split(separator: "\n").map(String.init)
    #expect(files == ["scrums/design.yaml"], "\(files)")
    #expect(try team.read("ada", "scrums/design.yaml").contains("length: 40"))
    try expectOneFilePerID(team)
  }

  /// A plain-git teammate's modify/delete: git cannot see that the record he edits moved (his
  /// copy differs too much), he keeps his file, and his clone holds the record twice. A dinger
  /// sync that brings the pair keeps one file and his whole version as a conflict on it (seed
  /// 9301: sync spread two files with one id to every clone).
  /// `adaEditedMeanwhile`: her sync merges (else it fast-forwards, and the fold is a commit of
  /// its own).
  @Test(arguments: [false, true]) func aSecondCopyOfARecordFromPlainGitIsFoldedIntoAConflict(
    adaEditedMeanwhile: Bool
  ) throws {
    let team = try Team(dingers: ["ada"], plain: ["linus"])
    try team.git("linus", "mv", "scrums/design-review.yaml", "scrums/review.yaml")
    let notes = (1...30).map { "# note \($0) about the review" }.joined(separator: "\n")
    try team.write(
      "linus", "scrums/review.yaml", try team.read("linus", "scrums/review.yaml") + notes + "\n")
    try team.git("linus", "commit", "-qam", "moved by hand")
    try team.git("linus", "push", "-q", "origin", "main")
    try expectOK(team.run("ada", "scrum", "rename", "design-review", "design"))
    // Rename against rename: ours kept, a conflict recorded (status 1 says so).
    #expect(try team.run("ada", "sync").stderr.contains("conflict"))
    // Ada tidies his notes away: her file is now too unlike his for git to pair them.
    let tidy = try team.read("ada", "scrums/design.yaml").split(separator: "\n")
      .filter { !$0.hasPrefix("# note") }.joined(separator: "\n")
    try team.write("ada", "scrums/design.yaml", tidy + "\n")
    try team.git("ada", "commit", "-qam", "notes tidied")
    try expectOK(team.run("ada", "sync"))
    let moved = try team.read("linus", "scrums/review.yaml")
    try team.write(
      "linus", "scrums/review.yaml",
      moved.replacingOccurrences(of: "length: 10", with: "length: 33"))
    try team.git("linus", "commit", "-qam", "longer")
    let pull = try team.gitResult("linus", "pull", "--no-edit", "--no-rebase", "origin", "main")
    #expect(
      pull.status != 0 && (pull.stdout + pull.stderr).contains("modify/delete"), "\(pull.stdout)")
    try team.git("linus", "add", "-A")
    try team.git("linus", "commit", "-q", "--no-edit")
    try team.git("linus", "push", "-q", "origin", "main")
    // His clone holds the record twice: git's doing.
    #expect(try scrumFilesByID(team, "linus").values.contains { $0.count == 2 })
    if adaEditedMeanwhile {
      try expectOK(team.run("ada", "scrum", "edit", "design", "--theme", "poppy"))
    }
    let r = try team.run("ada", "sync")
    #expect(r.status == 1 && r.stderr.contains("conflict"), "\(r.stderr)")
    let files = try team.git("ada", "ls-files", "scrums").split(separator: "\n").map(String.init)
    #expect(files == ["scrums/design.yaml"], "\(files)")
    let json = try team.run("ada", "conflicts", "--json").stdout
    #expect(json.contains("length: 33") && json.contains("scrums/design.yaml"), "\(json)")
    let listing = try #require(
      JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    let conflicts = (listing["conflicts"] as? [[String: Any]]) ?? []
    let his = try #require(
      conflicts.first { ($0["other"] as? String)?.contains("length: 33") == true }, "\(json)")
    let id = try #require(his["id"] as? String)
    try expectOK(team.run("ada", "resolve", String(id.prefix(8)), "--theirs"))
    #expect(try team.read("ada", "scrums/design.yaml").contains("length: 33"))
    try expectOK(team.run("ada", "sync"))
    try team.git("linus", "pull", "-q", "--no-edit", "--no-rebase", "origin", "main")
    try expectOneFilePerID(team)
  }

  /// A scrum moved by `git mv` leaves its entries in the old folder; a later rename takes them
  /// to the new one. Against a removal with its history, each entry is followed by its file
  /// name and the scrum it names: it stays with the scrum, and the removal is a conflict on it
  /// too (seed 9300: it came back with no conflict naming it).
  @Test func entriesLeftBehindByAGitMvFollowTheirScrumAgainstARemoval() throws {
    let team = try Team(dingers: ["ada", "grace"], plain: ["linus"])
    try expectOK(
      team.run(
        "grace", "standup", "design-review", "--as", "Grace", "--today", "x", "--date",
        "2026-11-26"))
    try team.syncAll()
    try team.git("linus", "pull", "-q", "--no-edit", "--no-rebase", "origin", "main")
    try team.git("linus", "mv", "scrums/design-review.yaml", "scrums/dr.yaml")
    try team.git("linus", "commit", "-qm", "moved by hand")
    try team.git("linus", "push", "-q", "origin", "main")
    try team.syncAll()
    try expectOK(team.run("ada", "scrum", "rename", "dr", "s9"))
    let entries = try team.git("ada", "ls-files", "standups").split(separator: "\n")
    #expect(entries == ["standups/s9/2026-11-26-grace.yaml"], "\(entries)")
    try expectOK(team.run("grace", "scrum", "rm", "dr", "--with-history"))
    try expectOK(team.run("ada", "sync"))
    _ = try team.run("grace", "sync")
    let files = try team.git("grace", "ls-files", "standups").split(separator: "\n")
    #expect(files == ["standups/s9/2026-11-26-grace.yaml"], "\(files)")
    let json = try team.run("grace", "conflicts", "--json").stdout
    #expect(json.contains("\"standups/s9/2026-11-26-grace.yaml\""), "\(json)")
  }

  /// Rename against rename with written stand-up entries: an entry has no id, so it follows its
  /// scrum's folder by its file name: one copy, in the kept folder, and `--theirs` moves it with
  /// the meetings (it was left in both folders: found by the team simulation, seed 9102).
  @Test func entriesFollowTheirScrumThroughARenameAgainstARename() throws {
    let team = try Team(dingers: ["ada", "grace"])
    try expectOK(
      team.run(
        "ada", "standup", "design-review", "--as", "Ada", "--today", "x", "--date", "2026-11-26"))
    try renameOnBothSidesAfterAMeeting(team)
    _ = try team.run("grace", "sync")
    try team.syncAll()
    try team.expectConverged()
    let files = try team.git("ada", "ls-files", "standups", "history").split(separator: "\n")
      .map(String.init)
    #expect(
      files.filter { $0.hasPrefix("standups/") } == ["standups/review/2026-11-26-ada.yaml"],
      "\(files)")
    let id = try conflictID(team, "ada")
    try expectOK(team.run("ada", "resolve", String(id.prefix(8)), "--theirs"))
    let after = try team.git("ada", "ls-files", "standups", "history").split(separator: "\n")
      .map(String.init)
    #expect(
      after.filter { $0.hasPrefix("standups/") } == ["standups/design/2026-11-26-ada.yaml"],
      "\(after)")
    #expect(after.contains { $0.hasPrefix("history/design/") }, "\(after)")
    #expect(
      try team.run("ada", "standup", "show", "design", "--date", "2026-11-26").stdout.contains(
        "today: x"))
  }

  /// Rename against delete: the renamed file stays, and the delete is a conflict record (it
  /// was lost silently).
  @Test(arguments: [false, true]) func aRenameAgainstADeleteIsAConflict(deleterSyncsFirst: Bool)
    throws
  {
    let team = try Team(dingers: ["ada", "grace"])
    try team.syncAll()
    try expectOK(team.run("ada", "scrum", "rename", "design-review", "design"))
    try expectOK(team.run("grace", "scrum", "rm", "design-review"))
    for name in deleterSyncsFirst ? ["grace", "ada"] : ["ada", "grace"] {
      _ = try team.run(name, "sync")
    }
    try team.syncAll()
    try team.expectConverged()
    try expectOneFilePerID(team)
    #expect(
      try team.git("ada", "ls-files", "scrums").contains("scrums/design.yaml"),
      "the renamed scrum stays")
    let listing = try team.run("grace", "conflicts").stdout
    #expect(listing.contains("scrums/design.yaml"), "\(listing)")
    #expect(listing.contains("deleted on one side"), "\(listing)")
  }
}
