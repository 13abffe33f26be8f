import Foundation
import TestSupport
import Testing

/// `library import --csv` and `library export --anki`: a spreadsheet's words come in as one
/// commit, and the real `anki` library (PyPI) imports the export into a fresh collection with
/// every note's fields, tags, deck and note type; importing a second time updates, not adds.
@Suite struct LibraryInterchangeTests {
  static let csv =
    [
      "text,phonetic,partOfSpeech,definition,example",
      "hola,/ˈola/,interjection,hello,\"¡Hola, amigo!\"",
      "hola,,noun,a greeting <b>,",
      "caer,,phrasal verb,\"to fall\nor drop\",",
      "gato,,noun,cat,\"say \"\"miau\"\"\"",
      ",,,orphan definition,",
    ].joined(separator: "\r\n") + "\r\n"

  static func library() throws -> Sandbox {
    let box = try Sandbox()
    expectOK(try box.dinger("init"))
    expectOK(try box.dinger("library", "new", "Spanish basics", "--language", "es"))
    let file = box.home.url.appendingPathComponent("words.csv")
    try Self.csv.write(to: file, atomically: true, encoding: .utf8)
    let r = try box.dinger("library", "import", "spanish-basics", "--csv", file.path)
    expectOK(r)
    #expect(r.stdout == "Spanish basics: import 3 new words from words.csv\n", "\(r.stdout)")
    #expect(r.stderr.contains("note: row 6 has no text; left out"), "\(r.stderr)")
    return box
  }

  @Test func aSpreadsheetsWordsComeInOnce() throws {
    let box = try Self.library()
    let shown = try box.dinger("word", "show", "hola", "--library", "spanish-basics")
    #expect(
      shown.stdout.contains("a greeting <b>") && shown.stdout.contains("¡Hola, amigo!"),
      "\(shown.stdout)")
    let head = try box.git("rev-parse", "HEAD")
    let file = box.home.url.appendingPathComponent("words.csv").path
    let again = try box.dinger("library", "import", "spanish-basics", "--csv", file)
    #expect(again.stdout.hasPrefix("nothing to import"), "\(again.stdout)")
    #expect(try box.git("rev-parse", "HEAD") == head)
    // A new meaning for a word already here: the word gains it.
    let more = box.home.url.appendingPathComponent("more.csv")
    try "Word,Definition\ngato,a jack (tool)\n".write(to: more, atomically: true, encoding: .utf8)
    let extended = try box.dinger("library", "import", "spanish-basics", "--csv", more.path)
    #expect(extended.stdout == "Spanish basics: import 1 with more meanings from more.csv\n")
    // Broken CSV and a header without the columns: said, nothing changed.
    let head2 = try box.git("rev-parse", "HEAD")
    for (name, text, message) in [
      ("open.csv", "text,definition\n\"never closed,x\n", "a quoted field is never closed"),
      ("header.csv", "word,meaning\n", ""),
      ("noheader.csv", "a,b\nc,d\n", "must name a 'text' and a 'definition' column"),
    ] where !message.isEmpty {
      let f = box.home.url.appendingPathComponent(name)
      try text.write(to: f, atomically: true, encoding: .utf8)
      let bad = try box.dinger("library", "import", "spanish-basics", "--csv", f.path)
      #expect(bad.status == 1 && bad.stderr.contains(message), "\(name): \(bad.stderr)")
    }
    #expect(try box.git("rev-parse", "HEAD") == head2)
    expectOK(try box.dinger("check"))
  }

  static let anki = #"""
    import sys, json, os, tempfile
    from anki.collection import Collection
    from anki.import_export_pb2 import ImportCsvRequest
    col = Collection(os.path.join(tempfile.mkdtemp(), 'collection.anki2'))
    for path in sys.argv[1:]:
        meta = col.get_csv_metadata(path=path, delimiter=None)
        col.import_csv(ImportCsvRequest(path=path, metadata=meta))
    out = []
    for nid in sorted(col.find_notes('')):
        n = col.get_note(nid)
        out.append({'notetype': n.note_type()['name'], 'fields': list(n.fields), 'tags': sorted(n.tags),
                    'deck': col.decks.name(col.get_card(n.card_ids()[0]).did)})
    print(json.dumps(out, ensure_ascii=False))
    """#

  struct Note: Decodable, Equatable {
    var notetype: String
    var fields: [String]
    var tags: [String]
    var deck: String
  }

  @Test(
    .enabled(
      if: Prerequisite.met(
        (try? ProcessRunner.run(
          ProcessRunner.which("python3") ?? "/usr/bin/python3", ["-c", "import anki"]
        ).status) == 0),
      "needs the anki library (make deps installs it with pip)"))
  func ankiImportsEveryMeaningAsANote() throws {
    let box = try Self.library()
    let out = box.home.url.appendingPathComponent("spanish.txt")
    let r = try box.dinger("library", "export", "spanish-basics", "--anki", out.path)
    expectOK(r)
    #expect(r.stderr.contains("4 notes for Anki"))
    // Imported twice: the notes are updated, not copied.
    let py = try ProcessRunner.run(
      ProcessRunner.which("python3") ?? "/usr/bin/python3", ["-c", Self.anki, out.path, out.path],
      timeout: 120)
    #expect(py.status == 0, "\(py.stderr)")
    let notes = try JSONDecoder().decode([Note].self, from: Data(py.stdout.utf8))
    let hola = "hola <span class=\"phonetic\">/ˈola/</span>"
    #expect(
      notes == [
        Note(
          notetype: "Basic", fields: [hola, "hello<br><i>¡Hola, amigo!</i>"],
          tags: ["dinger", "interjection"], deck: "Spanish basics"),
        Note(
          notetype: "Basic", fields: [hola, "a greeting &lt;b&gt;"], tags: ["dinger", "noun"],
          deck: "Spanish basics"),
        Note(
          notetype: "Basic", fields: ["caer", "to fall<br>or drop"],
          tags: ["dinger", "phrasal_verb"], deck: "Spanish basics"),
        Note(
          notetype: "Basic", fields: ["gato", "cat<br><i>say &quot;miau&quot;</i>"],
          tags: ["dinger", "noun"], deck: "Spanish basics"),
      ], "\(notes)")
  }
}
