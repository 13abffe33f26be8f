import Foundation
import TestSupport
import Testing

/// Written stand-ups between teammates: each writes their own file, so entries written on the
/// same days merge in any order of syncing, by dinger and by plain git alike.
@Suite struct StandupTeamTests {
  static let orders = [
    ["ada", "grace", "linus"], ["ada", "linus", "grace"], ["grace", "ada", "linus"],
    ["grace", "linus", "ada"], ["linus", "ada", "grace"], ["linus", "grace", "ada"],
  ]

  /// Linus, on plain git, writes his entry by hand and pulls and pushes as git users do.
  func linusWrites(_ team: Team, date: String, today: String) throws {
    let id = try team.read("ada", "scrums/design-review.yaml").split(separator: "\n")
      .first { $0.hasPrefix("id: ") }!.dropFirst(4)
    try team.write(
      "linus", "standups/design-review/\(date)-linus.yaml",
      "scrum: \(id)\ndate: \(date)\nby: Linus\ntoday: \(today)\n")
    try team.git("linus", "add", "-A")
    try team.git("linus", "commit", "-qm", "Linus's stand-up for \(date)")
  }

  func linusSyncs(_ team: Team) throws {
    let pull = try team.gitResult("linus", "pull", "-q", "--no-edit", "origin", "main")
    #expect(pull.status == 0, "\(pull.stderr)")
    let push = try team.gitResult("linus", "push", "-q", "origin", "HEAD:main")
    #expect(push.status == 0, "\(push.stderr)")
  }

  @Test func entriesOfOneDayMergeInEveryOrderOfSyncing() throws {
    let team = try Team(dingers: ["ada", "grace"], plain: ["linus"])
    try expectOK(team.run("ada", "scrum", "attendee", "add", "design-review", "Linus"))
    try expectOK(team.run("ada", "sync"))
    try linusSyncs(team)
    try expectOK(team.run("grace", "sync"))
    var written: [String] = []
    for (k, order) in Self.orders.enumerated() {
      let date = "2026-11-\(10 + k)"
      let env = ["DINGER_TEST_NOW": "\(date)T12:00:00Z"]
      for name in ["ada", "grace"] {
        let r = try team.box.dinger(
          [
            "standup", "design-review", "--today", "\(name) on \(date)", "--blocker",
            "\(name)'s blocker \(k)",
          ],
          in: team.dir(name), env: env)
        expectOK(r)
        written.append("standups/design-review/\(date)-\(name).yaml")
      }
      try linusWrites(team, date: date, today: "linus on \(date)")
      written.append("standups/design-review/\(date)-linus.yaml")
      for name in order {
        if name == "linus" {
          try linusSyncs(team)
        } else {
          let r = try team.run(name, "sync")
          #expect(r.status == 0, "order \(order), \(name): \(r.stderr)")
        }
      }
      // Everyone once more, to take what came after them.
      for name in order {
        if name == "linus" { try linusSyncs(team) } else { expectOK(try team.run(name, "sync")) }
      }
    }
    try expectOK(team.run("ada", "sync"))
    try expectOK(team.run("grace", "sync"))
    try linusSyncs(team)
    try expectOK(team.run("ada", "sync"))
    try team.expectConverged()
    // No conflict anywhere; every entry everywhere, each its own commit in the log.
    for name in ["ada", "grace", "linus"] {
      let files = Set(
        try team.git(name, "ls-files", "standups").split(separator: "\n").map(String.init))
      #expect(Set(written).isSubset(of: files), "\(name): \(Set(written).subtracting(files))")
      #expect(try team.git(name, "ls-files", ".dinger/conflicts") == "")
    }
    let log = try team.git("ada", "log", "--format=%s")
    for (k, _) in Self.orders.enumerated() {
      let date = "2026-11-\(10 + k)"
      #expect(log.contains("Design Review: stand-up of Ada for \(date)"))
      #expect(log.contains("Design Review: stand-up of Grace for \(date)"))
      #expect(log.contains("Linus's stand-up for \(date)"))
    }
    let show = try team.box.dinger(
      ["standup", "show", "design-review", "--date", "2026-11-15", "--json"], in: team.dir("grace"))
    #expect(show.stdout.contains("\"status\" : \"written\""))
    #expect(!show.stdout.contains("\"status\" : \"missing\""), "\(show.stdout)")
    let blockers = try team.box.dinger(
      ["blockers", "design-review", "--json"], in: team.dir("linus"))
    #expect(blockers.stdout.components(separatedBy: "\"open\" : true").count - 1 == 12)
  }

  @Test func aBlockerResolvedByTwoAtOnceMergesCleanly() throws {
    let team = try Team(dingers: ["ada", "grace"])
    let env = ["DINGER_TEST_NOW": "2026-11-23T09:00:00Z"]
    try expectOK(
      team.box.dinger(
        ["standup", "--today", "Release", "--blocker", "Waiting on the signing key"],
        in: team.dir("ada"), env: env))
    try expectOK(team.run("ada", "sync"))
    try expectOK(team.run("grace", "sync"))
    let listed = try team.box.dinger(["blockers", "--json"], in: team.dir("grace"), env: env)
    let id = try #require(
      listed.stdout.split(separator: "\"").first { $0.count == 9 && $0.hasPrefix("b") })
    let later = ["DINGER_TEST_NOW": "2026-11-25T09:00:00Z"]
    for name in ["ada", "grace"] {
      try expectOK(
        team.box.dinger(
          ["blocker", "resolve", String(id), "--note", "\(name) fixed it"], in: team.dir(name),
          env: later))
    }
    try team.syncAll()
    try team.expectConverged()
    #expect(try team.git("ada", "ls-files", ".dinger/conflicts") == "")
    let all = try team.box.dinger(["blockers", "--all", "--json"], in: team.dir("ada"), env: later)
    #expect(all.stdout.contains("\"open\" : false"), "\(all.stdout)")
    #expect(all.stdout.components(separatedBy: "\"kind\" : \"resolved\"").count - 1 == 2)
    // Nobody can resolve it again; the refusal says by whom it was.
    let again = try team.box.dinger(
      ["blocker", "resolve", String(id)], in: team.dir("ada"), env: later)
    #expect(again.status == 1 && again.stderr.contains("was resolved by"), "\(again.stderr)")
    // It was open for 2 working days (Monday to Wednesday).
    #expect(all.stdout.contains("\"ageWorkingDays\" : 2"), "\(all.stdout)")
  }
}

/// A rename beside a teammate's new entry: the entry stays the scrum's, wherever the merge
/// files it (seed 2001 of the simulation lost a blocker to every view: the entry was read only
/// from the scrum's folder by name).
@Suite struct StandupRenameTests {
  @Test func anEntryWrittenBesideARenameStaysTheScrums() throws {
    let team = try Team(dingers: ["ada", "grace"])
    let env = ["DINGER_TEST_NOW": "2026-11-23T09:00:00Z"]
    try expectOK(team.run("ada", "scrum", "rename", "design-review", "design"))
    try expectOK(
      team.box.dinger(
        ["standup", "design-review", "--today", "x", "--blocker", "the key"], in: team.dir("grace"),
        env: env))
    try expectOK(team.run("ada", "sync"))
    try expectOK(team.run("grace", "sync"))
    try expectOK(team.run("ada", "sync"))
    // NB: one tree everywhere (a merge may leave a dangling tree behind, git's ordinary
    // garbage, so fsck is not asked for silence here).
    #expect(
      try team.git("ada", "rev-parse", "HEAD^{tree}")
        == team.git("grace", "rev-parse", "HEAD^{tree}"))
    for name in ["ada", "grace"] {
      #expect(try team.git(name, "status", "--porcelain") == "")
      #expect(try team.gitResult(name, "fsck", "--full", "--no-dangling").stdout == "")
      let blockers = try team.box.dinger(
        ["blockers", "design", "--json"], in: team.dir(name), env: env)
      #expect(blockers.stdout.contains("\"text\" : \"the key\""), "\(name): \(blockers.stdout)")
      let show = try team.box.dinger(
        ["standup", "show", "design", "--date", "2026-11-23"], in: team.dir(name), env: env)
      #expect(show.stdout.contains("1 of 2 written"), "\(name): \(show.stdout)")
    }
  }
}
