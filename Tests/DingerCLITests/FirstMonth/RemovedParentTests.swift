import Foundation
import TestSupport
import Testing

/// A meeting recorded for a scrum a teammate removed meanwhile keeps its scrum: the removal is a
/// conflict to settle, never a meeting of no scrum (found by the team simulation).
@Suite struct RemovedParentTests {
  @Test(arguments: [false, true]) func aMeetingKeepsTheScrumARemovalTookAway(removerFirst: Bool)
    throws
  {
    let team = try Team(dingers: ["ada", "grace"])
    try team.syncAll()
    try expectOK(
      team.run(
        "ada", "meet", "design-review", "--record", "--date", "2026-11-20T09:00:00Z",
        "--duration", "9m"))
    try expectOK(team.run("grace", "scrum", "rm", "design-review"))
    for name in removerFirst ? ["grace", "ada"] : ["ada", "grace"] {
      _ = try team.run(name, "sync")
    }
    try team.syncAll()
    try team.expectConverged()
    for name in ["ada", "grace"] {
      let check = try team.run(name, "check")
      #expect(check.status == 0, "\(name): \(check.stderr)")
      #expect(try team.git(name, "ls-files", "scrums").contains("scrums/design-review.yaml"))
      #expect(try team.run(name, "history", "design-review").stdout.contains("2026-11-20"))
      let listing = try team.run(name, "conflicts").stdout
      #expect(listing.contains("scrums/design-review.yaml"), "\(listing)")
      #expect(listing.contains("deleted on one side"), "\(listing)")
    }
  }
}

/// Settling a removal against an edit by taking the removal takes the scrum's meetings along, as
/// `scrum rm --with-history` does: no meeting is left naming a scrum that is gone (found by the
/// team simulation, seed 1007).
@Suite struct ResolveRemovalTests {
  /// A teammate's `git mv` of the scrum file leaves its meetings in the folder of the old name:
  /// taking the removal finds them there too (seed 9403 left them naming a scrum that was gone).
  @Test func takingTheRemovalTakesMeetingsFromEveryFolder() throws {
    let team = try Team(dingers: ["ada", "grace"], plain: ["linus"])
    try expectOK(
      team.run(
        "ada", "meet", "design-review", "--record", "--date", "2026-11-20T09:00:00Z",
        "--duration", "9m"))
    try team.git("linus", "mv", "scrums/design-review.yaml", "scrums/dr.yaml")
    try team.git("linus", "commit", "-qm", "moved by hand")
    try team.git("linus", "push", "-q", "origin", "main")
    try expectOK(team.run("grace", "sync"))
    try expectOK(team.run("grace", "scrum", "rm", "dr"))
    try expectOK(team.run("grace", "sync"))
    // Ada's meeting keeps its scrum; the removal is a conflict.
    _ = try team.run("ada", "sync")
    try team.git("linus", "pull", "-q", "--no-edit", "--no-rebase", "origin", "main")
    let scrum = try #require(
      team.git("linus", "ls-files", "scrums").split(separator: "\n").first.map(String.init))
    try team.git("linus", "mv", scrum, "scrums/dr2.yaml")
    try team.git("linus", "commit", "-qm", "moved again by hand")
    try team.git("linus", "push", "-q", "origin", "main")
    try expectOK(team.run("ada", "sync"))
    let meetings = try team.git("ada", "ls-files", "history").split(separator: "\n")
    #expect(!meetings.isEmpty && !meetings.contains { $0.hasPrefix("history/dr2/") }, "\(meetings)")
    let listing = try #require(
      JSONSerialization.jsonObject(with: Data(team.run("ada", "conflicts", "--json").stdout.utf8))
        as? [String: Any])
    let removal = try #require(
      (listing["conflicts"] as? [[String: Any]])?.first { $0["kind"] as? String == "delete" },
      "\(listing)")
    let id = try #require(removal["id"] as? String)
    try expectOK(team.run("ada", "resolve", String(id.prefix(8)), "--theirs"))
    let files = try team.git("ada", "ls-files", "scrums", "history").split(separator: "\n")
    #expect(files.isEmpty, "\(files)")
    let check = try team.run("ada", "check")
    #expect(check.status == 0, "\(check.stderr)")
  }

  @Test func takingTheRemovalTakesTheMeetingsAlong() throws {
    let team = try Team(dingers: ["ada", "grace"])
    try team.syncAll()
    try expectOK(team.run("grace", "scrum", "rm", "design-review", "--with-history"))
    try expectOK(team.run("ada", "scrum", "edit", "design-review", "--length", "25"))
    try expectOK(
      team.run(
        "ada", "meet", "design-review", "--record", "--date", "2026-11-20T09:00:00Z",
        "--duration", "9m"))
    try expectOK(team.run("grace", "sync"))
    _ = try team.run("ada", "sync")
    let listing = try team.run("ada", "conflicts", "--json").stdout
    let id = try #require(
      listing.components(separatedBy: "\"id\" : \"").dropFirst().first?.prefix(8), "\(listing)")
    try expectOK(team.run("ada", "resolve", String(id), "--theirs"))
    let files = try team.git("ada", "ls-files").split(separator: "\n").map(String.init)
    #expect(!files.contains("scrums/design-review.yaml"), "\(files)")
    #expect(!files.contains { $0.hasPrefix("history/design-review/") }, "\(files)")
    #expect(try team.git("ada", "log", "-1", "--format=%s").contains("(and its 1 meeting)"))
    let check = try team.run("ada", "check")
    #expect(check.status == 0, "\(check.stderr)")
  }
}

/// A rename with a meeting recorded under the new name, against a removal: the renamed scrum
/// stays once (the removal's side must not bring the old file back for the meeting's sake;
/// found by the team simulation, seed 2001).
@Suite struct RenameMeetingRemovalTests {
  @Test func theRenamedScrumStaysOnce() throws {
    let team = try Team(dingers: ["ada", "grace"])
    try team.syncAll()
    try expectOK(team.run("grace", "scrum", "rename", "design-review", "s4"))
    try expectOK(
      team.run(
        "grace", "meet", "s4", "--record", "--date", "2026-11-20T09:00:00Z", "--duration", "9m"))
    try expectOK(team.run("ada", "scrum", "rm", "design-review"))
    try expectOK(team.run("grace", "sync"))
    _ = try team.run("ada", "sync")
    try team.syncAll()
    try team.expectConverged()
    let scrums = try team.git("ada", "ls-files", "scrums")
    #expect(scrums == "scrums/s4.yaml\n", "\(scrums)")
    #expect(try team.run("ada", "check").status == 0)
    #expect(try team.run("ada", "conflicts").stdout.contains("deleted on one side"))
  }
}

/// Two teammates make a scrum of one title at once: two records at one path. Both are kept
/// (the one shared first keeps the path; the other goes to the next free name, with its
/// meetings), never merged into one with an id lost; check and the sync say the title is
/// shared.
@Suite struct TwinScrumTests {
  @Test func twoScrumsOfOneTitleMadeAtOnceAreBothKept() throws {
    let team = try Team(dingers: ["ada", "grace"])
    try team.syncAll()
    try expectOK(team.run("ada", "scrum", "new", "Retro", "--attendee", "Ada"))
    try expectOK(
      team.run(
        "ada", "meet", "retro", "--record", "--date", "2026-11-21T09:00:00Z", "--duration", "7m"))
    try expectOK(team.run("grace", "scrum", "new", "Retro", "--attendee", "Grace"))
    try expectOK(
      team.run(
        "grace", "meet", "retro", "--record", "--date", "2026-11-20T09:00:00Z", "--duration", "9m"))
    let graceID = Sandbox.id(in: try team.read("grace", "scrums/retro.yaml"))
    let adaID = Sandbox.id(in: try team.read("ada", "scrums/retro.yaml"))
    try expectOK(team.run("grace", "sync"))
    let sync = try team.run("ada", "sync")
    #expect(sync.stderr.contains("has this title too"), "\(sync.stderr)")
    try team.syncAll()
    try team.expectConverged()
    let files = try team.git("ada", "ls-files").split(separator: "\n").map(String.init)
    #expect(files.contains("scrums/retro.yaml") && files.contains("scrums/retro-2.yaml"))
    // Grace's was shared first: it keeps retro.yaml; Ada's moves, with its meeting.
    #expect(Sandbox.id(in: try team.read("ada", "scrums/retro.yaml")) == graceID)
    #expect(Sandbox.id(in: try team.read("ada", "scrums/retro-2.yaml")) == adaID)
    #expect(files.contains { $0.hasPrefix("history/retro-2/") }, "\(files)")
    #expect(files.contains { $0.hasPrefix("history/retro/") }, "\(files)")
    let ours = try team.run("ada", "history", "retro-2").stdout
    #expect(ours.contains("2026-11-21") && !ours.contains("2026-11-20"), "\(ours)")
    #expect(try team.run("ada", "history", "retro").stdout.contains("2026-11-20"))
    let check = try team.run("ada", "check")
    #expect(check.stderr.contains("has this title too"), "\(check.stderr)")
  }
}
