import Foundation
import Storage
import TestSupport
import Testing
import YAML

@testable import Sync

/// The three-way record merge on real record files: what combines, what conflicts, what is kept.
@Suite struct RecordMergerTests {
  let path = "scrums/design.yaml"
  let base = """
    id: 6a4f0c1e-0000-4000-8000-000000000001
    title: Design Review   # the weekly one
    theme: yellow
    length: 10
    attendees:
      - Ada
      - Grace

    """

  func merge(_ ours: String, _ theirs: String, base: String? = nil, path: String? = nil)
    -> RecordMerger.Result
  {
    RecordMerger.merge(
      base: Array((base ?? self.base).utf8), ours: Array(ours.utf8),
      theirs: Array(theirs.utf8), path: path ?? self.path)
  }

  func text(_ r: RecordMerger.Result) -> String { String(decoding: r.bytes, as: UTF8.self) }

  @Test func differentFieldsCombineAndOursLayoutStays() {
    let ours = base.replacingOccurrences(of: "length: 10", with: "length: 15")
    let theirs = base.replacingOccurrences(of: "theme: yellow", with: "theme: poppy")
    let r = merge(ours, theirs)
    #expect(r.conflicts.isEmpty)
    #expect(
      text(r)
        == base.replacingOccurrences(of: "length: 10", with: "length: 15")
        .replacingOccurrences(of: "theme: yellow", with: "theme: poppy"))
    #expect(r.recordID == "6a4f0c1e-0000-4000-8000-000000000001")
  }

  /// git pairs files by likeness, so a teammate's rename beside a new file can give one path a
  /// different record on each side: the path keeps the record the other side put there, and
  /// the one that was there goes whole into the conflict under its own id, so resolve finds it
  /// where it lives now (seed 9202 left two files with one id).
  @Test(arguments: [false, true]) func anotherRecordAtThePathIsKeptAndTheOldOneRecorded(
    oursBroken: Bool
  ) throws {
    let other = """
      id: 6a4f0c1e-0000-4000-8000-0000000000b2
      title: Design
      length: 30

      """
    var ours = base.replacingOccurrences(of: "length: 10", with: "length: 62")
    if oursBroken { ours += "attendees: [\n" }
    let r = merge(ours, other)
    #expect(text(r) == other)
    let conflict = try #require(r.conflicts.first)
    #expect(
      r.conflicts.count == 1 && conflict.keptSide == .theirs && conflict.path.segments.isEmpty)
    #expect(r.recordID == "6a4f0c1e-0000-4000-8000-000000000001")
    let recorded = try #require(conflict.other)
    let recordedText = recorded.scalarText ?? NodeWriter.text(recorded)
    #expect(recordedText.contains("62"), "\(recordedText)")
    // The other way round: ours put the new record there, theirs edited the old one.
    let mirrored = merge(other, ours)
    #expect(text(mirrored) == other)
    #expect(mirrored.recordID == "6a4f0c1e-0000-4000-8000-000000000001")
    #expect(mirrored.conflicts.first?.keptSide == .ours)
  }

  /// A teammate's comments are theirs to keep: when git's line merge is clean and reads as the
  /// merged value, both sides' comments stay (ours' text with theirs' values dropped theirs').
  @Test func commentsEitherSideAddedStay() {
    let ours = base.replacingOccurrences(of: "length: 10", with: "length: 15")
    let theirs =
      base.replacingOccurrences(of: "# the weekly one", with: "# the weekly one, Tuesdays")
      + "# Grace chairs in December\n"
    let r = merge(ours, theirs)
    #expect(r.conflicts.isEmpty)
    #expect(
      text(r)
        == base.replacingOccurrences(of: "length: 10", with: "length: 15")
        .replacingOccurrences(of: "# the weekly one", with: "# the weekly one, Tuesdays")
        + "# Grace chairs in December\n", "\(text(r))")
    // Lines both sides changed differently are merged by value; ours' text stays.
    let clash = base.replacingOccurrences(of: "length: 10", with: "length: 20  # longer")
    let value = merge(ours, clash)
    #expect(value.conflicts.count == 1 && text(value) == ours)
  }

  @Test func oneSidedChangesTakeThatSide() {
    let theirs = base.replacingOccurrences(of: "  - Grace\n", with: "  - Grace\n  - Linus\n")
    #expect(text(merge(base, theirs)) == theirs)
    #expect(text(merge(theirs, base)) == theirs)
  }

  @Test func attendeesAddedAndRemovedOnBothSides() {
    let ours = base.replacingOccurrences(of: "  - Grace\n", with: "  - Grace\n  - Bob\n")
    let theirs = base.replacingOccurrences(of: "  - Ada\n", with: "").replacingOccurrences(
      of: "  - Grace\n", with: "  - Grace\n  - Carol\n")
    let r = merge(ours, theirs)
    #expect(r.conflicts.isEmpty)
    #expect(text(r).hasSuffix("attendees:\n  - Grace\n  - Bob\n  - Carol\n"), "\(text(r))")
  }

  @Test func namesMatchWhateverTheCaseOrUnicodeForm() {
    let nfc = "Jos\u{E9}"
    let nfd = "Jose\u{301}"
    let ours = base.replacingOccurrences(of: "  - Grace\n", with: "  - Grace\n  - \(nfc)\n")
    let theirs = base.replacingOccurrences(of: "  - Grace\n", with: "  - grace\n  - \(nfd)\n")
    let r = merge(ours, theirs)
    // Both added the same person: one entry. Theirs' case change of Grace is a real edit of that
    // item against the ancestor, and ours did not touch it, so theirs' spelling wins.
    #expect(text(r).hasSuffix("attendees:\n  - Ada\n  - grace\n  - \(nfc)\n"), "\(text(r))")
  }

  @Test func sameFieldDifferentValuesKeepsOursAndRecordsTheirs() throws {
    let ours = base.replacingOccurrences(of: "length: 10", with: "length: 15")
    let theirs = base.replacingOccurrences(of: "length: 10", with: "length: 20")
    let r = merge(ours, theirs)
    #expect(text(r) == ours)
    let c = try #require(r.conflicts.first)
    #expect(r.conflicts.count == 1)
    #expect(c.path.description == "length")
    #expect(c.kind == .edit && c.keptSide == .ours)
    #expect(c.kept?.scalarText == "15" && c.other?.scalarText == "20")
  }

  let library = """
    id: 7b000000-0000-4000-8000-000000000002
    name: Spanish basics
    language: es
    words:
      - text: hola
        phonetic: /ola/
        meanings:
          - definition: hello
      - text: gato
        meanings:
          - definition: cat

    """

  @Test func wordsMergeByTextAndMeaningsByValue() {
    let path = "libraries/spanish-basics.yaml"
    let ours =
      library.replacingOccurrences(of: "phonetic: /ola/", with: "phonetic: /ˈola/")
      + "  - text: perro\n    meanings:\n      - definition: dog\n"
    let theirs =
      library.replacingOccurrences(
        of: "      - definition: hello\n",
        with: "      - definition: hello\n      - definition: hi\n")
      + "  - text: Perro\n    meanings:\n      - definition: hound\n"
    let r = merge(ours, theirs, base: library, path: path)
    #expect(r.conflicts.map(\.path.description) == ["words[perro].text"])
    let out = text(r)
    #expect(out.contains("phonetic: /ˈola/"))
    #expect(out.contains("- definition: hello\n      - definition: hi\n"), "\(out)")
    #expect(out.contains("- definition: dog\n      - definition: hound\n"), "\(out)")
    let decoded = RecordCodec.decode(r.bytes, path: path, kind: .library)
    #expect(decoded.record != nil, "\(decoded.diagnostics)")
  }

  @Test func deleteAgainstEditKeepsTheEditedWord() throws {
    let path = "libraries/spanish-basics.yaml"
    let ours = library.replacingOccurrences(
      of: "  - text: gato\n    meanings:\n      - definition: cat\n", with: "")
    let theirs = library.replacingOccurrences(of: "definition: cat", with: "definition: a cat")
    let r = merge(ours, theirs, base: library, path: path)
    #expect(text(r).contains("definition: a cat"))
    let c = try #require(r.conflicts.first)
    #expect(c.kind == .delete && c.keptSide == .theirs && c.other == nil)
    #expect(c.path.description == "words[gato]")
  }

  @Test func unknownKeysAndCommentsSurvive() {
    let ours = base.replacingOccurrences(of: "length: 10", with: "length: 10\nroom: B12  # ask Ada")
    let theirs = base.replacingOccurrences(of: "theme: yellow", with: "theme: teal")
    let out = text(merge(ours, theirs))
    #expect(out.contains("room: B12  # ask Ada\n"))
    #expect(out.contains("title: Design Review   # the weekly one\n"))
    #expect(out.contains("theme: teal\n"))
  }

  @Test func addedOnBothSidesWithoutAnAncestor() throws {
    let ours = base.replacingOccurrences(of: "length: 10", with: "length: 15")
    let r = RecordMerger.merge(
      base: nil, ours: Array(ours.utf8), theirs: Array(base.utf8), path: path)
    #expect(r.conflicts.map(\.path.description) == ["length"])
    #expect(text(r) == ours)
  }

  @Test func aSideThatIsNotYAMLKeepsOursWholeAndRecordsTheOther() throws {
    let theirs = "title: [unclosed\n"
    let r = merge(base, theirs)
    #expect(text(r) == base)
    let c = try #require(r.conflicts.first)
    #expect(c.path.segments.isEmpty)
    #expect(c.other?.scalarText == theirs)
  }

  @Test func aMergeThatWouldBeInvalidKeepsOursWhole() throws {
    // Each side alone is a valid scrum; merged, nobody would be left to attend.
    let ours = base.replacingOccurrences(of: "  - Ada\n", with: "")
    let theirs = base.replacingOccurrences(of: "  - Grace\n", with: "")
    let r = merge(ours, theirs)
    #expect(text(r) == ours)
    let c = try #require(r.conflicts.first)
    #expect(c.path.segments.isEmpty && c.kind == .edit)
    #expect(c.other?["attendees"]?.items?.compactMap(\.scalarText) == ["Ada"])
  }

  @Test func fieldPathsRoundTripThroughTheirStoredForm() {
    let path = FieldPath([.key("words"), .item("text:hola"), .key("meanings")])
    #expect(FieldPath(stored: path.stored) == path)
    #expect(path.description == "words[hola].meanings")
  }

  /// Random edits to a list on both sides: every item neither side removed is there once,
  /// every item either side added is there once, nothing removed comes back.
  @Test(arguments: 0..<200) func listMergeKeepsEveryoneIsAdditionsAndRemovals(seed: Int) {
    var rng = SeededGenerator(seed: UInt64(seed))
    let start = (0..<Int.random(in: 1...6, using: &rng)).map { "p\($0)" }
    func edit(_ list: [String], _ tag: String) -> (
      list: [String], removed: Set<String>, added: [String]
    ) {
      var out = list
      var removed: Set<String> = []
      for item in list where Int.random(in: 0..<4, using: &rng) == 0 && out.count > 1 {
        out.removeAll { $0 == item }
        removed.insert(item)
      }
      var added: [String] = []
      for i in 0..<Int.random(in: 0...3, using: &rng) {
        let name = "\(tag)\(i)"
        out.insert(name, at: Int.random(in: 0...out.count, using: &rng))
        added.append(name)
      }
      return (out, removed, added)
    }
    let o = edit(start, "o")
    let t = edit(start, "t")
    func doc(_ names: [String]) -> String {
      "id: 6a4f0c1e-0000-4000-8000-000000000001\ntitle: T\ntheme: yellow\nlength: 10\nattendees:\n"
        + names.map { "  - \($0)\n" }.joined()
    }
    let r = RecordMerger.merge(
      base: Array(doc(start).utf8), ours: Array(doc(o.list).utf8), theirs: Array(doc(t.list).utf8),
      path: path)
    let merged =
      (try? YAMLParser.parse(String(decoding: r.bytes, as: UTF8.self)))?["attendees"]?
      .items?.compactMap(\.scalarText) ?? []
    let expected = Set(start).subtracting(o.removed).subtracting(t.removed).union(o.added).union(
      t.added)
    if expected.isEmpty {
      // Both sides removed everyone left: the schema needs one attendee, so ours is kept whole.
      #expect(!r.conflicts.isEmpty)
      return
    }
    #expect(Set(merged) == expected, "seed \(seed): \(merged)")
    #expect(merged.count == expected.count)
    #expect(r.conflicts.isEmpty)
    // Ours' relative order is kept.
    let oursOrder = o.list.filter(expected.contains)
    #expect(merged.filter(oursOrder.contains) == oursOrder)
  }
}

/// A conflict record's path reads back as written, item segments included.
@Suite struct ConflictRecordPathTests {
  @Test func itemSegmentsSurviveTheRoundTrip() throws {
    let base =
      "id: 6a4f0c1e-0000-4000-8000-000000000002\nname: S\nlanguage: es\nwords:\n  - text: hola\n    phonetic: /a/\n    meanings:\n      - definition: hello\n"
    let result = RecordMerger.merge(
      base: Array(base.utf8),
      ours: Array(base.replacingOccurrences(of: "/a/", with: "/b/").utf8),
      theirs: Array(base.replacingOccurrences(of: "/a/", with: "/c/").utf8),
      path: "libraries/s.yaml")
    let conflict = try #require(result.conflicts.first)
    let origin = ConflictRecord.Origin(side: .ours, author: "A", commit: "")
    let record = ConflictRecord(
      file: "libraries/s.yaml", record: result.recordID, conflict: conflict, keptFrom: origin,
      otherFrom: ConflictRecord.Origin(side: .theirs, author: "B", commit: ""))
    #expect(record.text.contains("- '[text:hola]'\n"), "\(record.text)")
    let back = try #require(ConflictRecord(text: record.text))
    #expect(back.path == conflict.path)
    #expect(ConflictRecord.problems(record.text).isEmpty)
    // Records written before the quoting read the same.
    let old = record.text.replacingOccurrences(of: "- '[text:hola]'", with: "- [text:hola]")
    #expect(try #require(ConflictRecord(text: old)).path == conflict.path)
  }
}
