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

/// LibreOffice itself opens dinger's CSV tables (headless, `soffice --convert-to fods`, the flat
/// XML a test can read): no formula from a teammate runs, even with "Evaluate formulas" on,
/// and every name in another script is intact. The filter options are those LibreOffice's
/// import dialog sets for these files: the character set it detects from the byte order mark
/// (UTF-8), comma-separated, "Evaluate formulas" both ways. (Without the dialog, headless with
/// no options, LibreOffice 7.4 reads any CSV as Latin-1 whatever its mark; docs/import-export.md
/// says so.) The unguarded `--raw` export is opened too: its formula does run, so the check
/// can see one.
@Suite(
  .enabled(
    if: FileManager.default.isExecutableFile(atPath: "/usr/bin/soffice"),
    "needs LibreOffice (make deps installs libreoffice-calc-nogui)"))
struct LibreOfficeCSVTests {
  /// The flat ODS LibreOffice makes of `csv`, with formulas evaluated or not.
  static func open(_ csv: URL, evaluate: Bool, in box: Sandbox) throws -> String {
    let out = box.home.url.appendingPathComponent("lo-\(evaluate)-\(UUID().uuidString.prefix(8))")
    let profile = box.home.url.appendingPathComponent("lo-profile").absoluteString
    let r = try ProcessRunner.run(
      "/usr/bin/soffice",
      [
        "-env:UserInstallation=\(profile)", "--headless",
        "--infilter=CSV:44,34,76,1,,0,false,true,false,false,false,-1,\(evaluate)",
        "--convert-to", "fods", "--outdir", out.path, csv.path,
      ], environment: box.environment, timeout: 120)
    #expect(r.status == 0, "soffice: \(r.stderr)")
    let name = csv.deletingPathExtension().lastPathComponent + ".fods"
    return try String(contentsOf: out.appendingPathComponent(name), encoding: .utf8)
  }

  /// The cells' texts, in order, XML entities decoded.
  static func texts(_ fods: String) -> [String] {
    var out: [String] = []
    // NB: the body only (the page styles hold a header and a footer).
    var rest = fods.range(of: "<office:body>").map { fods[$0.upperBound...] } ?? Substring(fods)
    while let start = rest.range(of: "<text:p>"),
      let end = rest[start.upperBound...].range(of: "</text:p>")
    {
      out.append(
        String(rest[start.upperBound..<end.lowerBound]).replacingOccurrences(
          of: "&quot;", with: "\""
        )
        .replacingOccurrences(of: "&apos;", with: "'").replacingOccurrences(of: "&lt;", with: "<")
        .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&"))
      rest = rest[end.upperBound...]
    }
    return out
  }

  @Test func aFormulaNeverRunsAndEveryNameIsIntact() throws {
    let box = try Sandbox()
    box.extraEnvironment["DINGER_TEST_NOW"] = "2026-11-24T10:00:00Z"
    expectOK(try box.dinger("init"))
    expectOK(
      try box.dinger(
        "scrum", "new", "=HYPERLINK(\"http://evil\",\"click\")", "--attendee", "Zoë Ñúñez",
        "--attendee", "周杰", "--attendee", "Анна", "--length", "15"))
    expectOK(
      try box.dinger(
        [
          "standup", "--as", "Zoë Ñúñez", "--today", "+cmd|' /C calc'!A0", "--yesterday",
          "@SUM(1+1)", "--blocker=-2+3",
        ]))
    let guarded = box.home.url.appendingPathComponent("guarded")
    let raw = box.home.url.appendingPathComponent("raw")
    expectOK(try box.dinger("export", "csv", "--out", guarded.path))
    expectOK(try box.dinger("export", "csv", "--raw", "--out", raw.path))
    for evaluate in [true, false] {
      let scrums = try Self.open(
        guarded.appendingPathComponent("scrums.csv"), evaluate: evaluate, in: box)
      #expect(!scrums.contains("table:formula"), "a formula ran (evaluate \(evaluate))")
      let cells = Self.texts(scrums)
      #expect(cells.first == "id", "the byte order mark is a character: \(cells.prefix(2))")
      #expect(cells.contains("'=HYPERLINK(\"http://evil\",\"click\")"), "\(cells)")
      // NB: a list is one item per line of its cell, a paragraph each.
      let people = cells.joined(separator: "\n")
      #expect(
        people.contains("Zoë Ñúñez") && people.contains("周杰") && people.contains("Анна"), "\(cells)"
      )
      #expect(
        scrums.contains("office:value-type=\"float\" office:value=\"15\""), "a number is a number")
      let entries = try Self.open(
        guarded.appendingPathComponent("entries.csv"), evaluate: evaluate, in: box)
      #expect(!entries.contains("table:formula"), "a formula ran in entries (evaluate \(evaluate))")
      let answers = Self.texts(entries)
      for cell in ["'+cmd|' /C calc'!A0", "'@SUM(1+1)", "'-2+3", "Zoë Ñúñez"] {
        #expect(answers.contains { $0.contains(cell) }, "\(cell): \(answers)")
      }
    }
    // The check sees a formula when there is one: the unguarded table's runs.
    let unguarded = try Self.open(raw.appendingPathComponent("scrums.csv"), evaluate: true, in: box)
    #expect(unguarded.contains("table:formula"))
  }
}
