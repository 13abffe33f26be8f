import Foundation
import Testing

@testable import Models

/// The apps' file formats read and written exactly: Swift's `Duration` as `[high, low]` with a
/// low word past 2^63 and 2^53, colours to themes, theme spellings, CSV fields.
@Suite struct InterchangeModelTests {
  func duration(_ json: String) throws -> AppFiles.AttoDuration {
    try JSONDecoder().decode(AppFiles.AttoDuration.self, from: Data(json.utf8))
  }

  @Test func durationsAreExactIntegers() throws {
    // The values Swift's own Duration writes (seed-formats.md).
    #expect(AppFiles.AttoDuration(seconds: 60) == .init(high: 3, low: 4_659_767_778_871_345_152))
    #expect(AppFiles.AttoDuration(seconds: 300) == .init(high: 16, low: 4_852_094_820_647_174_144))
    #expect(
      AppFiles.AttoDuration(seconds: 1_800) == .init(high: 97, low: 10_665_824_850_173_493_248))
    // Around 2^63 and 2^64 of the low word.
    #expect(try duration("[0, 9223372036854775807]").seconds == 9)
    #expect(try duration("[0, 9223372036854775808]").seconds == 9)
    #expect(try duration("[0, 18446744073709551615]").seconds == 18)
    #expect(try duration("[1, 0]").seconds == 18)
    #expect(try duration("[1, 553255926290448384]").seconds == 19)
    #expect(try duration("[16, 4852094820647174144]").seconds == 300)
    // One attosecond past is still exact (a Double would lose it).
    #expect(
      try duration("[16, 4852094820647174145]").attoseconds
        == Int128(300) * 1_000_000_000_000_000_000 + 1)
    #expect(try duration("[-1, 18446744073709551615]").attoseconds == -1)
    // Round trip through the encoder.
    let d = AppFiles.AttoDuration(high: 97, low: UInt64.max)
    let back = try duration(String(decoding: try JSONEncoder().encode(d), as: UTF8.self))
    #expect(back == d)
    #expect(throws: (any Error).self) { try duration("[1, 2, 3]") }
    #expect(throws: (any Error).self) { try duration("[0, -1]") }
    #expect(throws: (any Error).self) { try duration("[0, 18446744073709551616]") }
  }

  /// Names repeated many times get the first free `(n)`, as a search from 2 would give; ids
  /// repeated across scrums are refused (the batch keeps indexes, so this stays linear).
  @Test func repeatsGetTheFirstFreeNumberAndRepeatedIdsAreRefused() {
    var batch = ImportBatch(source: .scrumdinger)
    let meetingID = UUID()
    func add(_ title: String, id: UUID = UUID(), names: [String] = ["Ada"], meeting: UUID? = nil) {
      let meetings =
        meeting.map {
          [
            (
              id: $0.uuidString,
              meeting: Meeting(
                id: $0, scrum: id, date: Date(timeIntervalSince1970: 0), length: 10, duration: 60,
                attendees: ["Ada"])
            )
          ]
        } ?? []
      batch.add(
        id: id.uuidString, title: title, names: names, length: 10, theme: nil, meetings: meetings)
    }
    let first = UUID()
    add("Ops", id: first, names: ["Ada", "ada", "ADA", "Ada (3)", "Ada"], meeting: meetingID)
    add("ops")
    add("OPS")
    add("Ops (3)")
    add("Ops", meeting: meetingID)
    add("Again", id: first)
    add("Nobody", names: [])
    add("Ops")
    #expect(
      batch.items.map(\.scrum.title) == [
        "Ops", "ops (2)", "OPS (3)", "Ops (3) (2)", "Ops (4)", "Ops (5)",
      ])
    // A name listed again, in any case, is the same person: one attendee.
    #expect(batch.items[0].scrum.attendees.map(\.name) == ["Ada", "Ada (3)"])
    #expect(
      batch.notes.filter {
        $0.contains("'ada' is listed twice") || $0.contains("'ADA' is listed twice")
          || $0.contains("'Ada' is listed twice")
      }.count == 3)
    #expect(batch.items[4].meetings.isEmpty)
    #expect(batch.notes.contains { $0.contains("refused: another scrum in the file has its id") })
    #expect(batch.notes.contains { $0.contains("a second meeting with the id") })
  }

  @Test func themesInEitherSpellingAndColoursToTheNearest() {
    #expect(AppFiles.theme("orange") == .orange)
    #expect(AppFiles.theme("appOrange") == .orange)
    #expect(AppFiles.theme("appIndigo") == .indigo)
    #expect(AppFiles.theme("appSky") == nil)
    #expect(AppFiles.theme("Orange") == nil)
    for theme in Theme.allCases {
      let (r, g, b) = theme.rgb
      #expect(AppFiles.Color(red: r, green: g, blue: b, alpha: 1).nearestTheme == theme)
    }
    #expect(AppFiles.Color(red: 0.98, green: 0.55, blue: 0.27, alpha: 1).nearestTheme == .orange)
  }

  @Test func csvFieldsAreQuotedOnlyWhenTheyMustBe() {
    #expect(CSVTables.field("plain") == "plain")
    #expect(CSVTables.field("a,b") == "\"a,b\"")
    #expect(CSVTables.field("say \"hi\"") == "\"say \"\"hi\"\"\"")
    #expect(CSVTables.field("two\nlines") == "\"two\nlines\"")
    #expect(CSVTables.field("cr\r") == "\"cr\r\"")
    #expect(CSVTables.isoDate(Date(timeIntervalSince1970: 1_795_000_000)) == "2026-11-18T11:06:40Z")
  }

  /// OWASP's guard: a formula becomes text, a number stays a number, and dinger's CSV import
  /// reads a guarded cell back as it was.
  @Test func aGuardedCellIsTextAndReadsBack() throws {
    for (cell, shown) in [
      ("=1+1", "'=1+1"), ("+cmd|x", "'+cmd|x"), ("-x", "'-x"), ("@SUM(A1)", "'@SUM(A1)"),
      ("\tx", "'\tx"), ("\rx", "'\rx"), ("-12.5", "-12.5"), ("+3", "+3"), ("plain", "plain"),
      ("", ""),
    ] {
      #expect(CSVTables.guarded(cell) == shown, "\(cell)")
      #expect(CSVTables.unguarded(CSVTables.guarded(cell)) == cell, "\(cell)")
    }
    let csv = Array("\u{FEFF}text,definition\r\n'=hola,'@hello\r\n".utf8)
    let (words, _) = try LibraryCSV.words(csv)
    #expect(words.first?.text == "=hola" && words.first?.meanings.first?.definition == "@hello")
  }
}
