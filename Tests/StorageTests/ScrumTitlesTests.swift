import Foundation
import Models
import TestSupport
import Testing

@testable import Storage

/// The committed scrums' titles, remembered by blob beside the record cache: the same titles
/// the files give, each blob decoded once, and a damaged memo only costs reading again.
@Suite struct ScrumTitlesTests {
  func repository(_ scrums: [String: String]) throws -> (Sandbox, DataRepository) {
    let (box, repo) = try newDataRepository()
    for (path, text) in scrums { try box.write(path, text) }
    try box.git("add", "-A")
    try box.git("commit", "-qm", "scrums")
    return (box, repo)
  }

  static let scrums = [
    "scrums/design.yaml": "title: '  Design Review '\nlength: 10\nattendees: [Ada]\n",
    "scrums/ops.yaml": "title: \"Ops\\nnight\"\nlength: 10\nattendees: [Ada]\n",
    "scrums/broken.yaml": "title: [\n",
    "scrums/notes.txt": "not a scrum\n",
  ]

  var memoPath: String { ".git/dinger/records-v1/\(ScrumTitles.fileName)" }

  @Test func titlesAreReadOnceAndThenTakenFromTheMemo() throws {
    let (box, repo) = try repository(Self.scrums)
    let head = try repo.head()
    let first = try repo.committedScrumTitles(at: head)
    let names = first.map(\.name)
    let titles = first.map(\.title)
    #expect(names == ["broken.yaml", "design.yaml", "ops.yaml"])
    #expect(titles == [nil, "Design Review", "Ops\nnight"])
    let memo = try box.read(memoPath)
    #expect(memo.split(separator: "\n").count == 3)
    #expect(memo.contains(" =Ops%0Anight\n"), "\(memo)")
    #expect(memo.contains(" -\n"))
    // What the memo says is what is used: a title written into it by hand comes back.
    let design = try box.git("rev-parse", "HEAD:scrums/design.yaml").trimmingCharacters(
      in: .whitespacesAndNewlines)
    try box.write(
      memoPath,
      memo.replacingOccurrences(of: "\(design) =Design Review", with: "\(design) =From Memo"))
    let again = try repo.committedScrumTitles(at: head)
    #expect(again[1].title == "From Memo")
  }

  @Test func aDamagedMemoIsReadAroundAndWrittenAgain() throws {
    let (box, repo) = try repository(Self.scrums)
    try box.write(memoPath, "garbage\nzz not hex at all\n0123 =short\n")
    let read = try repo.committedScrumTitles(at: try repo.head())
    let titles = read.map(\.title)
    #expect(titles == [nil, "Design Review", "Ops\nnight"])
    #expect(!(try box.read(memoPath)).contains("garbage"))
  }

  @Test func escapesRoundTrip() {
    for title in ["plain", "100% done", "two\nlines\r\n", "%0A literally", "日本 チーム"] {
      #expect(ScrumTitles.unescape(ScrumTitles.escape(title)) == title, "\(title)")
    }
    #expect(ScrumTitles.unescape("bad %zz escape") == nil)
  }

  /// `scrum new` under the memo refuses a title another committed scrum has, in any case.
  @Test func aNewScrumsTitleIsComparedWithTheMemosTitles() throws {
    let (box, repo) = try repository(Self.scrums)
    _ = try repo.committedScrumTitles(at: try repo.head())
    let snapshot = repo.snapshot(at: try repo.head())
    let verb = try #require(snapshot.scrumTitles)
    let titles = try verb()
    let lowered = titles.map { $0.title?.lowercased() }
    #expect(lowered.contains("design review"))
    withExtendedLifetime(box) {}
  }
}
