import Foundation
import Models
import Storage
import Testing

/// Blockers followed across days; working days; participation with absences.
@Suite struct StandupModelTests {
  static let scrum = UUID(uuidString: "6a4f0c1e-0000-4000-8000-000000000001")!

  func entry(
    _ date: String, _ by: String, blockers: [BlockerMention] = [], resolved: [String] = [],
    today: String? = "work"
  ) -> StandupEntry {
    StandupEntry(
      scrum: Self.scrum, date: date, by: by,
      answers: today.map { [.init(key: "today", text: $0)] } ?? [], blockers: blockers,
      resolved: resolved.map { BlockerResolution(id: $0) })
  }

  @Test func aBlockerIsOpenUntilSomeoneResolvesItAndKeepsItsHistory() {
    let opened = entry("2026-11-23", "Ada", blockers: [BlockerMention(text: "Waiting on the key")])
    let id = opened.id(of: opened.blockers[0])
    #expect(BlockerID.isValid(id))
    let carried = entry("2026-11-24", "Ada", blockers: [BlockerMention(id: id, text: "")])
    let resolved = entry("2026-11-25", "Grace", resolved: [id])
    var all = Blockers.follow([resolved, carried, opened])  // any order
    #expect(all.count == 1)
    #expect(
      all[0].owner == "Ada" && all[0].opened == "2026-11-23" && all[0].text == "Waiting on the key")
    #expect(all[0].history.map(\.kind) == [.opened, .mentioned, .resolved])
    #expect(all[0].resolution?.by == "Grace" && !all[0].isOpen)
    // Before the resolution it is open.
    all = Blockers.follow([opened, carried])
    #expect(all[0].isOpen)
  }

  @Test func twoResolutionsAtOnceAreBothKeptAndTheFirstCounts() {
    let opened = entry("2026-11-23", "Ada", blockers: [BlockerMention(text: "CI is red")])
    let id = opened.id(of: opened.blockers[0])
    let b = Blockers.follow([
      opened, entry("2026-11-24", "Grace", resolved: [id]),
      entry("2026-11-24", "Bo", resolved: [id]),
    ])[0]
    #expect(b.history.filter { $0.kind == .resolved }.map(\.by).sorted() == ["Bo", "Grace"])
    #expect(b.resolution?.by == "Bo")
  }

  @Test func aBlockerListedAgainAfterItsResolutionIsOpenAgain() {
    let opened = entry("2026-11-23", "Ada", blockers: [BlockerMention(text: "Flaky test")])
    let id = opened.id(of: opened.blockers[0])
    let b = Blockers.follow([
      opened, entry("2026-11-24", "Ada", resolved: [id]),
      entry("2026-11-26", "Ada", blockers: [BlockerMention(id: id, text: "Flaky again")]),
    ])[0]
    #expect(b.isOpen && b.text == "Flaky again")
  }

  @Test func aResolutionOfAnUnknownIdIsReported() {
    var unknown: [String] = []
    _ = Blockers.follow([entry("2026-11-24", "Ada", resolved: ["b12345678"])]) { _, r in
      unknown.append(r.id)
    }
    #expect(unknown == ["b12345678"])
  }

  @Test func workingDaysSkipTheWeekend() {
    let friday = CivilDate("2026-11-27")!
    #expect(
      Blockers.workingDays(
        from: friday, to: CivilDate("2026-11-30")!,
        days: [.monday, .tuesday, .wednesday, .thursday, .friday]) == 1)
    #expect(Blockers.workingDays(from: friday, to: friday, days: []) == 0)
    #expect(
      Blockers.workingDays(
        from: friday, to: friday.adding(days: 21),
        days: [.monday, .tuesday, .wednesday, .thursday, .friday]) == 15)
  }

  @Test func participationLeavesOutDaysAwayAndDaysNotExpected() {
    var ada = Attendee(name: "Ada")
    ada.away = [Absence(from: "2026-11-25", until: "2026-11-26", note: "conference")]
    let scrum = Scrum(
      id: Self.scrum, title: "Platform", length: 10, attendees: [ada, Attendee(name: "Bo")])
    let entries = [
      entry("2026-11-23", "Ada"), entry("2026-11-24", "ada"), entry("2026-11-27", "Ada"),
      entry("2026-11-23", "Bo"), entry("2026-11-28", "Bo"),  // a Saturday: not expected
      entry("2026-11-24", "Bo", today: nil),  // only resolutions: not written
    ]
    let p = Participation.of(
      scrum, entries: entries, from: CivilDate("2026-11-23")!, to: CivilDate("2026-11-29")!)
    #expect(p.map(\.person) == ["Ada", "Bo"])
    #expect(p[0].expected == 3 && p[0].written == 3)
    #expect(p[1].expected == 5 && p[1].written == 1)
  }

  @Test func theFileNameIsTheDayAndTheWritersName() {
    #expect(
      StandupFiles.path(scrumSlug: "platform", date: "2026-11-27", by: " Ada  Lovelace ")
        == "standups/platform/2026-11-27-ada-lovelace.yaml")
    #expect(StandupFiles.slug("Zoë O'Brien") == "zoë-o-brien")
    #expect(StandupFiles.slug("!!!") == "someone")
  }
}

/// Keys a teammate adds that dinger does not know are kept through a decode and a canonical
/// write (nothing a user wrote is dropped), in absences, questions, blockers and resolutions.
@Suite struct StandupUnknownKeysTests {
  @Test func unknownKeysSurviveACanonicalWrite() throws {
    let scrum = """
      id: 6a4f0c1e-0000-4000-8000-000000000001
      title: Platform
      length: 10
      attendees:
        - name: Bo
          away:
            - {from: 2026-12-21, until: 2026-12-24, reason: surgery}
      standup:
        questions:
          - {key: done, ask: Done?, hint: one line}
        cadence: daily

      """
    let file = RecordCodec.decode(Array(scrum.utf8), path: "scrums/platform.yaml", kind: .scrum)
    let record = try #require(file.record)
    let written = try RecordCodec.encode(record)
    for kept in ["reason: surgery", "hint: one line", "cadence: daily"] {
      #expect(written.contains(kept), "\(kept) dropped:\n\(written)")
    }
    let entry = """
      scrum: 6a4f0c1e-0000-4000-8000-000000000001
      date: 2026-11-25
      by: Bo
      today: x
      blockers:
        - {text: the key, severity: high}
      resolved:
        - {id: b12345678, ticket: OPS-1}

      """
    let e = RecordCodec.decode(
      Array(entry.utf8), path: "standups/platform/2026-11-25-bo.yaml", kind: .standup)
    let again = try RecordCodec.encode(try #require(e.record))
    for kept in ["severity: high", "ticket: OPS-1"] {
      #expect(again.contains(kept), "\(kept) dropped:\n\(again)")
    }
  }
}
