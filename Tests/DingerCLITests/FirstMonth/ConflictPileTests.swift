import Foundation
import TestSupport
import Testing

/// Two conflicts on one field (two rounds of disagreement): one decision settles both, and the
/// commit says the value that is really kept.
@Suite struct ConflictPileTests {
  @Test func oneDecisionSettlesEveryRecordOfAField() throws {
    let team = try Team(dingers: ["ada", "grace"])
    try team.syncAll()
    for (ada, grace) in [("15", "25"), ("20", "30")] {
      try expectOK(team.run("ada", "scrum", "edit", "design-review", "--length", ada))
      try expectOK(team.run("grace", "scrum", "edit", "design-review", "--length", grace))
      try team.syncAll()
    }
    try team.expectConverged()
    let listing = try team.run("ada", "conflicts", "--json").stdout
    let ids =
      listing.components(separatedBy: "\"id\" : \"").dropFirst().map { $0.prefix(8) }
      + listing.components(separatedBy: "\"id\":\"").dropFirst().map { $0.prefix(8) }
    #expect(ids.count == 2, "\(listing)")
    let value = try team.read("ada", "scrums/design-review.yaml")
      .split(separator: "\n").first { $0.hasPrefix("length: ") }.map(String.init)
    // The older record is the stale one: its kept value is not in the data any more.
    let oldest = try #require(ids.first)
    try expectOK(team.run("ada", "resolve", String(oldest), "--ours"))
    let subject = try team.git("ada", "log", "-1", "--format=%s")
    #expect(subject.hasSuffix("length: keep \(value?.dropFirst(8) ?? "?")\n"), "\(subject)")
    #expect(try team.run("ada", "conflicts").stdout == "no conflicts\n")
    #expect(try team.read("ada", "scrums/design-review.yaml").contains(value ?? "?"))
  }
}
