import Foundation
import TestSupport
import Testing

/// `dinger export csv`: RFC 4180 tables that Python's csv module reads back into exactly the
/// records dinger holds (titles with commas and quotes, multi-line transcripts, lists one item
/// per line, unknown durations empty).
@Suite struct CSVExportTests {
  static let reader = #"""
    import csv, json, sys
    out = {}
    for name in ['scrums', 'meetings', 'entries']:
        with open(sys.argv[1] + '/' + name + '.csv', newline='', encoding='utf-8-sig') as f:
            out[name] = list(csv.DictReader(f, strict=True))
    print(json.dumps(out))
    """#

  @Test func pythonsCSVReadsBackTheRecords() throws {
    let box = try Sandbox()
    expectOK(try box.dinger("init"))
    expectOK(
      try box.dinger(
        "scrum", "new", #"Ops, "night" shift"#, "--attendee", "Ada", "--attendee", "Zoë",
        "--length", "12", "--at", "22:00", "--days", "weekdays", "--zone", "UTC"))
    let notes = box.home.url.appendingPathComponent("n.txt")
    try "first, line\n\"quoted\"\n\nlast ☕\n".write(to: notes, atomically: true, encoding: .utf8)
    expectOK(
      try box.dinger(
        "meet", "ops-night-shift", "--record", "--date", "2026-11-20T22:00", "--duration", "13:05",
        "--transcript-file", notes.path))
    let env = ["DINGER_TEST_NOW": "2026-11-24T22:30:00Z"]
    expectOK(
      try box.dinger(
        [
          "standup", "ops-night-shift", "--as", "Ada", "--today", "Deploy, then \"rest\"",
          "--blocker",
          "Keys, again",
        ], env: env))
    let out = box.home.url.appendingPathComponent("tables")
    expectOK(try box.dinger("export", "csv", "--out", out.path))
    for name in ["scrums", "meetings", "entries"] {
      let bytes = try Data(contentsOf: out.appendingPathComponent("\(name).csv"))
      // CRLF after every row (RFC 4180).
      #expect(bytes.suffix(2) == Data([13, 10]))
    }
    let py = try ProcessRunner.run(
      ProcessRunner.which("python3") ?? "/usr/bin/python3", ["-c", Self.reader, out.path])
    #expect(py.status == 0, "\(py.stderr)")
    let tables =
      try JSONSerialization.jsonObject(with: Data(py.stdout.utf8)) as! [String: [[String: String]]]
    let scrums = tables["scrums"]!
    #expect(scrums.count == 1)
    #expect(scrums[0]["title"] == #"Ops, "night" shift"#)
    #expect(scrums[0]["attendees"]?.split(separator: "\n") == ["Ada", "Zoë"])
    #expect(scrums[0]["length_minutes"] == "12")
    #expect(scrums[0]["schedule"] == "weekdays 22:00 UTC")
    let meetings = tables["meetings"]!
    #expect(meetings.count == 1)
    #expect(meetings[0]["transcript"] == "first, line\n\"quoted\"\n\nlast ☕\n")
    #expect(meetings[0]["duration_seconds"] == "785")
    #expect(meetings[0]["date"] == "2026-11-20T22:00:00Z")
    #expect(meetings[0]["scrum_id"] == scrums[0]["id"])
    let entries = tables["entries"]!
    #expect(entries.map { $0["kind"]! } == ["answer", "blocker"], "\(entries)")
    #expect(entries[0]["text"] == "Deploy, then \"rest\"" && entries[0]["key"] == "today")
    #expect(entries[1]["text"] == "Keys, again" && entries[1]["by"] == "Ada")
    // One table to the output; a wrong table name said.
    let one = try box.dinger("export", "csv", "--table", "meetings")
    #expect(one.stdout.hasPrefix("\u{FEFF}id,scrum_id,scrum,date,"))
    let bad = try box.dinger("export", "csv", "--table", "people")
    #expect(bad.status == 1 && bad.stderr.contains("scrums, meetings or entries"))
    let none = try box.dinger("export", "csv")
    #expect(none.status == 1 && none.stderr.contains("--out DIR"))
  }

  /// A teammate's formula is text in a spreadsheet: a cell starting with =, +, -, @, a tab or a
  /// CR that is not a number gets a ' (OWASP's rule); a number stays a number; --raw writes
  /// the data as it is, without the byte order mark. dinger's own CSV import reads the guard
  /// back off.
  @Test func aFormulaFromATeammateIsTextInASpreadsheet() throws {
    let box = try Sandbox()
    box.extraEnvironment["DINGER_TEST_NOW"] = "2026-11-24T22:30:00Z"
    expectOK(try box.dinger("init"))
    expectOK(try box.dinger("scrum", "new", "=HYPERLINK(\"http://evil\")", "--attendee", "Ada"))
    expectOK(
      try box.dinger(
        [
          "standup", "--as", "Ada", "--today", "+cmd|' /C calc'!A0", "--yesterday", "@SUM(1+1)",
          "--blocker=-2+3",
        ]))
    let guarded = try box.dinger("export", "csv", "--table", "entries")
    #expect(guarded.stdout.hasPrefix("\u{FEFF}"))
    for cell in ["'+cmd|' /C calc'!A0", "'@SUM(1+1)", "'-2+3"] {
      #expect(guarded.stdout.contains(cell), "\(cell): \(guarded.stdout)")
    }
    let scrums = try box.dinger("export", "csv", "--table", "scrums")
    #expect(scrums.stdout.contains("\"'=HYPERLINK(\"\"http://evil\"\")\""), "\(scrums.stdout)")
    let raw = try box.dinger("export", "csv", "--table", "entries", "--raw")
    #expect(!raw.stdout.hasPrefix("\u{FEFF}") && raw.stdout.contains(",+cmd|"), "\(raw.stdout)")
  }
}
