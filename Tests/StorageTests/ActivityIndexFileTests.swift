import Foundation
import Models
import Testing

@testable import Storage

/// The activity index read from its end: `log -n N` reads N lines, and gets exactly the last N
/// entries a full read would give, for every filter.
@Suite struct ActivityIndexFileTests {
  static func index(_ count: Int) -> ActivityIndex.IndexFile {
    var file = ActivityIndex.IndexFile(bytes: [])
    let entries = (0..<count).map { i in
      ActivityEntry(
        commit: String(repeating: "a", count: 40), time: 1_700_000_000 + i, author: "A\tB",
        subject: "S \\ \(i)",
        path: i % 3 == 0 ? "history/design/x\(i).yaml" : "scrums/s\(i % 5).yaml",
        record: i % 2 == 0 ? "r\(i % 7)" : nil, scrum: i % 3 == 0 ? "design-id" : nil, change: "M",
        summary: "line\none", email: "a@example.com", title: i % 4 == 0 ? nil : "T\(i)")
    }
    file.append(entries, head: String(repeating: "b", count: 40))
    return ActivityIndex.IndexFile(bytes: file.bytes)
  }

  @Test func theNewestAreTheLastOfAFullRead() throws {
    let file = Self.index(200)
    for filter in [
      ActivityFilter.all, .record(prefix: "r3"),
      .scrum(id: "design-id", path: "scrums/design.yaml"),
    ] {
      let all = try #require(file.entries(matching: filter))
      for n in [1, 2, 7, 20, 199, 500] {
        #expect(file.entries(matching: filter, newest: n) == Array(all.suffix(n)), "\(filter) \(n)")
      }
    }
    #expect(file.entries(matching: .all)?.first?.author == "A\tB")
    #expect(file.entries(matching: .all)?.first?.summary == "line\none")
    // A damaged last line is noticed from the end too (the index is then rebuilt).
    var broken = file.bytes
    broken.removeLast(30)
    broken += Array("\n".utf8)
    #expect(ActivityIndex.IndexFile(bytes: broken).entries(matching: .all, newest: 5) == nil)
  }

  /// The end of the file read alone gives what the whole file gives.
  @Test func theEndOfTheFileAloneGivesTheNewest() throws {
    for count in [3, 5000] {
      let file = Self.index(count)
      let url = FileManager.default.temporaryDirectory.appendingPathComponent(
        "activity-\(UUID().uuidString).tsv")
      defer { try? FileManager.default.removeItem(at: url) }
      try Data(file.bytes).write(to: url)
      for n in [1, 20, 100] {
        let tail = try #require(ActivityIndex.IndexFile.tail(of: url.path, lines: n))
        #expect(tail.index.head == file.head)
        #expect(tail.whole == (count == 3))
        let want = Array(try #require(file.entries(matching: .all)).suffix(n))
        #expect(tail.index.entries(matching: .all, newest: n) == want, "\(count) \(n)")
      }
    }
  }
}
