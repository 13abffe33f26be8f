import Foundation
import Models
import Testing

@testable import Providers

/// The log's filters over given entries, and undo on both backends.
@Suite struct LogAndUndoProviderTests {
  func entry(_ n: Int, path: String, record: String? = nil, scrum: String? = nil, time: Int)
    -> ActivityEntry
  {
    ActivityEntry(
      commit: String(repeating: "\(n)", count: 40), time: time, author: "Ada",
      subject: "change \(n)",
      path: path, record: record, scrum: scrum, change: "M", summary: "s\(n)")
  }

  @Test func theLogFiltersNewestFirst() throws {
    let scrumID = "0f6d1a52-4c0e-4b8e-9a57-2d1f3c8b7e01"
    let entries = [
      entry(1, path: "scrums/design.yaml", record: scrumID, time: 100),
      entry(
        2, path: "history/design/m.yaml", record: "aaaa0000-0000-4000-8000-000000000000",
        scrum: scrumID, time: 200),
      entry(3, path: "scrums/ops.yaml", record: "bbbb0000-0000-4000-8000-000000000000", time: 300),
      entry(
        4, path: "history/elsewhere/m.yaml", record: "cccc0000-0000-4000-8000-000000000000",
        scrum: scrumID, time: 400),
    ]
    let log = LogProvider.inMemory(entries)
    #expect(try log.log().map(\.summary) == ["s4", "s3", "s2", "s1"])
    let design = StoredScrum(
      path: "scrums/design.yaml",
      scrum: Scrum(
        id: UUID(uuidString: scrumID), title: "Design", length: 5,
        attendees: [Attendee(name: "Ada")]))
    // A scrum's own changes and its meetings, wherever they are filed (matched by id).
    #expect(try log.log(scrum: design).map(\.summary) == ["s4", "s2", "s1"])
    #expect(try log.log(record: "bbbb").map(\.summary) == ["s3"])
    #expect(try log.log(limit: 2).map(\.summary) == ["s4", "s3"])
    #expect(try log.log(since: Date(timeIntervalSince1970: 250)).map(\.summary) == ["s4", "s3"])
  }

  @Test(arguments: Backend.allCases) func undoRestoresWhatTheLastChangeTouched(
    _ backend: Backend
  ) throws {
    let (scrums, store) = try backend.world([:])
    _ = try scrums.add(Scrum(title: "Design", length: 5, attendees: [Attendee(name: "Ada")]))
    let before = store.text("scrums/design.yaml")
    _ = try scrums.update(try scrums.find("design")) { $0.length = 20 }
    #expect(store.text("scrums/design.yaml")?.contains("length: 20") == true)
    let undo = store.undoing
    let undone = try undo.undo()
    #expect(undone.subject == "Undo \"Design: length 5 -> 20 min\"")
    #expect(store.text("scrums/design.yaml") == before)
    // A second undo steps further back; redo walks forward again; a new change ends redo.
    _ = try undo.undo()
    #expect(store.text("scrums/design.yaml") == nil)
    #expect(try undo.redo().subject == "Redo \"Add scrum Design\"")
    #expect(store.text("scrums/design.yaml") == before)
    #expect(try undo.redo().subject.hasPrefix("Redo \"Design: length"))
    #expect(store.text("scrums/design.yaml")?.contains("length: 20") == true)
    #expect(throws: (any Error).self) { try undo.redo() }
  }
}
