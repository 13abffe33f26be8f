import Foundation
import TestSupport
import Testing

/// One person, one name, across history: `scrum attendee rename` changes the scrum, every
/// meeting and every entry (its file moves) in one commit, a blocker keeps its id so its
/// resolution still holds, and an attendee's `aka:` folds a name from an imported tool into
/// them: stats then list each person once.
@Suite struct PeopleTests {
  static let scrumID = "0b7e2c1a-4f5d-4e6a-9b8c-1d2e3f4a5b6c"

  func team() throws -> Sandbox {
    let box = try Sandbox()
    box.extraEnvironment["DINGER_TEST_NOW"] = "2026-11-28T12:00:00Z"
    box.extraEnvironment["TZ"] = "UTC"
    expectOK(try box.dinger("init"))
    try box.write(
      "scrums/platform.yaml",
      "id: \(Self.scrumID)\ntitle: Platform\ntheme: yellow\nlength: 15\nattendees:\n  - Ada Lovelace\n  - Nia\n"
    )
    try box.write(
      "history/platform/2026-11-02-3f2c0c1e.yaml",
      "id: 3f2c0c1e-1111-4222-8333-944455556666\nscrum: \(Self.scrumID)\ndate: 2026-11-02T09:00:00Z\nlength: 15\nduration: 600\nattendees: [Ada Lovelace, Nia]\nspeakers:\n  - {name: Nia, seconds: 300}\n  - {name: Ada Lovelace, seconds: 300}\n"
    )
    try box.write(
      "standups/platform/2026-11-02-nia.yaml",
      "scrum: \(Self.scrumID)\ndate: '2026-11-02'\nby: Nia\ntoday: Keys\nblockers:\n  - Waiting on the signing key\n  - CI is red\n"
    )
    try box.git("add", "-A")
    try box.git("commit", "-q", "-m", "A team")
    let open = try box.dinger("blockers", "platform", "--json")
    let ids =
      try (JSONSerialization.jsonObject(with: Data(open.stdout.utf8)) as! [String: Any])[
        "blockers"] as! [[String: Any]]
    let key = try #require(ids.first { ($0["text"] as? String) == "Waiting on the signing key" })
    try box.write(
      "standups/platform/2026-11-03-nia.yaml",
      "scrum: \(Self.scrumID)\ndate: '2026-11-03'\nby: Nia\ntoday: Ship\nresolved:\n  - \(key["id"] as! String)\n"
    )
    try box.git("add", "-A")
    try box.git("commit", "-q", "-m", "Nia resolves one")
    return box
  }

  @Test func aRenameChangesHistoryInOneCommitAndKeepsEveryBlocker() throws {
    let box = try team()
    let before = try box.dinger("blockers", "platform").stdout
    #expect(before.contains("CI is red") && !before.contains("signing key"), "\(before)")
    let commits = try box.git("rev-list", "--count", "HEAD")
    let r = try box.dinger("scrum", "attendee", "rename", "platform", "Nia", "Nia Newcomer")
    #expect(r.status == 0, "\(r.stderr)")
    #expect(
      r.stdout == "Rename Nia to Nia Newcomer in Platform and 1 meeting and 2 stand-up entries\n",
      "\(r.stdout)")
    #expect(
      Int(
        try box.git("rev-list", "--count", "HEAD").trimmingCharacters(in: .whitespaces)
          .trimmingCharacters(in: .newlines))
        == Int(commits.trimmingCharacters(in: .whitespacesAndNewlines))! + 1)
    let moved = try box.read("standups/platform/2026-11-02-nia-newcomer.yaml")
    #expect(moved.contains("by: Nia Newcomer") && moved.contains("id: b"), "\(moved)")
    #expect(
      !FileManager.default.fileExists(
        atPath: box.data.appendingPathComponent("standups/platform/2026-11-02-nia.yaml").path))
    let meeting = try box.read("history/platform/2026-11-02-3f2c0c1e.yaml")
    #expect(
      meeting.contains("[Ada Lovelace, Nia Newcomer]") && meeting.contains("name: Nia Newcomer"),
      "\(meeting)")
    // The blockers are as they were: the resolution still finds the one it closed.
    let after = try box.dinger("blockers", "platform").stdout
    #expect(after.contains("CI is red") && !after.contains("signing key"), "\(after)")
    #expect(after.contains("Nia Newcomer"), "\(after)")
    expectOK(try box.dinger("check"))
    let (status, fsck) = try box.gitAgrees()
    let problems = fsck.split(separator: "\n").filter { !$0.hasPrefix("dangling") }
    #expect(status.isEmpty && problems.isEmpty, "\(status)\(fsck)")
    // Bad input: an unknown name, a name taken, nothing to change.
    let unknown = try box.dinger("scrum", "attendee", "rename", "platform", "Zed", "Zoe")
    #expect(unknown.status == 1 && unknown.stderr.contains("'Zed' is not an attendee"))
    let taken = try box.dinger(
      "scrum", "attendee", "rename", "platform", "Nia Newcomer", "ada lovelace")
    #expect(taken.status == 1 && taken.stderr.contains("one person per name"), "\(taken.stderr)")
  }

  /// Names from Geekbot and an old name, kept as the attendee's `aka`: the import finds them,
  /// and stats list each person once (a person split in two missed every meeting, before).
  @Test func anOtherNameFoldsIntoThePerson() throws {
    let box = try team()
    let scrum = try box.read("scrums/platform.yaml").replacingOccurrences(
      of: "  - Nia\n", with: "  - name: Nia Newcomer\n    aka: [Nia, Nia N., nnewcomer]\n")
    try box.write("scrums/platform.yaml", scrum)
    try box.git("commit", "-q", "-am", "Nia's full name, her Geekbot names as aka")
    let file = box.home.url.appendingPathComponent("geekbot.json")
    try #"""
    [{"id": 1, "timestamp": 1795000000, "member": {"realname": "Nia N.", "username": "nnewcomer"}, "questions": [{"question": "What will you do today?", "answer": "Docs"}]}]
    """#.write(to: file, atomically: true, encoding: .utf8)
    let imported = try box.dinger("import", "geekbot", file.path, "--scrum", "platform")
    #expect(
      imported.status == 0 && imported.stdout.contains("Import 1 stand-up entry"),
      "\(imported.stdout)\(imported.stderr)")
    expectOK(try box.dinger("check"))
    let stats = try box.dinger("stats", "platform", "--json")
    expectOK(stats)
    let text = stats.stdout
    let people = try JSONSerialization.jsonObject(with: Data(text.utf8)) as! [String: Any]
    let scrumStats = (people["scrums"] as! [[String: Any]])[0]
    let attendance = (scrumStats["attendance"] as! [String: Any])["people"] as! [[String: Any]]
    #expect(attendance.map { $0["name"] as! String }.sorted() == ["Ada Lovelace", "Nia Newcomer"])
    let standups = scrumStats["standups"] as? [String: Any]
    let participation = (standups?["participation"] as? [[String: Any]]) ?? []
    #expect(participation.count == 2, "\(participation)")
    // An aka that is another attendee's name is refused by check.
    try box.write(
      "scrums/platform.yaml",
      scrum.replacingOccurrences(of: "aka: [Nia, Nia N., nnewcomer]", with: "aka: [Ada Lovelace]"))
    let refused = try box.dinger("check")
    #expect(
      refused.status == 1 && refused.stderr.contains("one person per name"), "\(refused.stderr)")
  }

  /// `--map OLD=NEW` renames while importing: a Geekbot name becomes the attendee it is here.
  @Test func aMapNamesThePersonAtImport() throws {
    let box = try team()
    let file = box.home.url.appendingPathComponent("geekbot.json")
    try #"""
    [{"id": 1, "timestamp": 1795000000, "member": {"realname": "N. Newcomer", "username": "nn"}, "questions": [{"question": "What will you do today?", "answer": "Docs"}]}]
    """#.write(to: file, atomically: true, encoding: .utf8)
    let without = try box.dinger("import", "geekbot", file.path, "--scrum", "platform", "--dry-run")
    #expect(without.stderr.contains("'N. Newcomer' left out: not an attendee"), "\(without.stderr)")
    let with = try box.dinger(
      "import", "geekbot", file.path, "--scrum", "platform", "--map", "n. newcomer=Nia")
    #expect(
      with.status == 0 && with.stdout.contains("Import 1 stand-up entry"),
      "\(with.stdout)\(with.stderr)")
    #expect(
      FileManager.default.fileExists(
        atPath: box.data.appendingPathComponent("standups/platform/2026-11-18-nia.yaml").path))
    let bad = try box.dinger("import", "geekbot", file.path, "--scrum", "platform", "--map", "x")
    #expect(bad.status == 1 && bad.stderr.contains("--map takes OLD=NEW"), "\(bad.stderr)")
  }
}
