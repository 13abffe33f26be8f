import Foundation
import Models
import Storage
import Testing
import YAML

/// In-place edits: text before, a change, the exact text after; the result decodes to the
/// changed record (the editor checks that itself and would fall back otherwise).
@Suite struct InPlaceEditTests {
  struct Case: CustomStringConvertible, Sendable {
    var name: String
    var before: String
    var change: @Sendable (inout AnyRecordBox) -> Void
    var after: String
    var kind: RecordKind = .scrum
    var description: String { name }
  }

  /// A record of any kind, mutable in a test's change closure.
  struct AnyRecordBox: Sendable {
    var scrum: Scrum?
    var meeting: Meeting?
    var library: Library?
    var config: RepoConfig?
  }

  static let id = "0f6d1a52-4c0e-4b8e-9a57-2d1f3c8b7e01"

  static func scrum(
    _ before: String, _ name: String, _ after: String,
    _ change: @escaping @Sendable (inout Scrum) -> Void
  ) -> Case {
    Case(name: name, before: before, change: { change(&$0.scrum!) }, after: after)
  }
  static func meeting(
    _ before: String, _ name: String, _ after: String,
    _ change: @escaping @Sendable (inout Meeting) -> Void
  ) -> Case {
    Case(name: name, before: before, change: { change(&$0.meeting!) }, after: after, kind: .meeting)
  }
  static func library(
    _ before: String, _ name: String, _ after: String,
    _ change: @escaping @Sendable (inout Library) -> Void
  ) -> Case {
    Case(name: name, before: before, change: { change(&$0.library!) }, after: after, kind: .library)
  }

  static let base =
    "id: \(id)\ntitle: Design\ntheme: yellow\nlength: 10\nattendees:\n  - Ada\n  - Grace\n"

  static let cases: [Case] = [
    scrum(base, "plain scalar", base.replacingOccurrences(of: "length: 10", with: "length: 15")) {
      $0.length = 15
    },
    scrum(
      "# Bob is on leave until March\n" + base, "comment above the file",
      "# Bob is on leave until March\n"
        + base.replacingOccurrences(of: "length: 10", with: "length: 15")
    ) { $0.length = 15 },
    scrum(
      base.replacingOccurrences(of: "length: 10", with: "length: 10   # minutes"),
      "inline comment after the value",
      base.replacingOccurrences(of: "length: 10", with: "length: 15   # minutes")
    ) { $0.length = 15 },
    scrum(
      base, "title plain",
      base.replacingOccurrences(of: "title: Design", with: "title: Design Sync")
    ) { $0.title = "Design Sync" },
    scrum(
      base.replacingOccurrences(of: "title: Design", with: "title: 'Design'"), "single quotes kept",
      base.replacingOccurrences(of: "title: Design", with: "title: 'Design Sync'")
    ) { $0.title = "Design Sync" },
    scrum(
      base.replacingOccurrences(of: "title: Design", with: "title: \"Design\""),
      "double quotes kept",
      base.replacingOccurrences(of: "title: Design", with: "title: \"Design \\\"Sync\\\"\"")
    ) { $0.title = "Design \"Sync\"" },
    scrum(
      base, "plain becomes quoted when it must",
      base.replacingOccurrences(of: "title: Design", with: "title: 'no'")
    ) { $0.title = "no" },
    scrum(
      base.replacingOccurrences(of: "title: Design", with: "title: 'Design'"),
      "single quotes become double when they must",
      base.replacingOccurrences(of: "title: Design", with: "title: \"Two\\nlines\"")
    ) { $0.title = "Two\nlines" },
    scrum(base, "theme", base.replacingOccurrences(of: "yellow", with: "sky")) { $0.theme = .sky },
    scrum(base, "add attendee at the end", base + "  - Bob\n") {
      $0.attendees.append(Attendee(name: "Bob"))
    },
    scrum(
      base.replacingOccurrences(of: "  - Grace\n", with: "  # our lead\n  - Grace   # lead\n"),
      "add after an item with comments",
      base.replacingOccurrences(
        of: "  - Grace\n", with: "  # our lead\n  - Grace   # lead\n  - Bob\n")
    ) { $0.attendees.append(Attendee(name: "Bob")) },
    scrum(
      base.replacingOccurrences(of: "  - Ada\n", with: "  # Ada joins on Mondays\n  - Ada\n"),
      "remove an item and its comment",
      base.replacingOccurrences(of: "  - Ada\n", with: "")
    ) { $0.attendees.removeFirst() },
    scrum(base, "remove the last item", base.replacingOccurrences(of: "  - Grace\n", with: "")) {
      $0.attendees.removeLast()
    },
    scrum(
      base + "  - Bob\n", "remove a middle item",
      base.replacingOccurrences(of: "  - Grace\n", with: "  - Bob\n")
    ) { $0.attendees.remove(at: 1) },
    scrum(base, "rename an item", base.replacingOccurrences(of: "Grace", with: "Grace Hopper")) {
      $0.attendees[1].name = "Grace Hopper"
    },
    scrum(
      base, "reorder items",
      base.replacingOccurrences(of: "  - Ada\n  - Grace\n", with: "  - Grace\n  - Ada\n")
    ) { $0.attendees.reverse() },
    scrum(
      base.replacingOccurrences(
        of: "attendees:\n  - Ada\n  - Grace\n", with: "attendees: [Ada, Grace]\n"),
      "flow list grows",
      base.replacingOccurrences(
        of: "attendees:\n  - Ada\n  - Grace\n", with: "attendees: [Ada, Grace, Bob]\n")
    ) { $0.attendees.append(Attendee(name: "Bob")) },
    scrum(
      base.replacingOccurrences(
        of: "attendees:\n  - Ada\n  - Grace\n", with: "attendees: [Ada, Grace]  # all\n"),
      "flow list shrinks, comment stays",
      base.replacingOccurrences(
        of: "attendees:\n  - Ada\n  - Grace\n", with: "attendees: [Grace]  # all\n")
    ) { $0.attendees.removeFirst() },
    scrum(
      base.replacingOccurrences(of: "\n", with: "\r\n"), "CRLF file, changed value",
      base.replacingOccurrences(of: "length: 10", with: "length: 15").replacingOccurrences(
        of: "\n", with: "\r\n")
    ) { $0.length = 15 },
    scrum(
      base.replacingOccurrences(of: "\n", with: "\r\n"), "CRLF file, added item",
      (base + "  - Bob\n").replacingOccurrences(of: "\n", with: "\r\n")
    ) { $0.attendees.append(Attendee(name: "Bob")) },
    scrum(
      base.replacingOccurrences(of: "title: Design", with: "title: Café ☕ 設計"),
      "multi-byte characters before the edit",
      base.replacingOccurrences(of: "title: Design", with: "title: Café ☕ 設計").replacingOccurrences(
        of: "length: 10", with: "length: 15")
    ) { $0.length = 15 },
    scrum(
      "---\n" + base, "leading document marker",
      "---\n" + base.replacingOccurrences(of: "length: 10", with: "length: 15")
    ) { $0.length = 15 },
    scrum(base + "...\n", "trailing document end, added item", base + "  - Bob\n...\n") {
      $0.attendees.append(Attendee(name: "Bob"))
    },
    scrum(
      "attendees:\n  - Ada\nlength: 10\ntitle: Design\nid: \(id)\ntheme: yellow\n",
      "keys in another order",
      "attendees:\n  - Ada\nlength: 20\ntitle: Design\nid: \(id)\ntheme: yellow\n"
    ) { $0.length = 20 },
    scrum(
      "# hand-written\ntitle: Design\nlength: 10\nattendees:\n  - Ada\n",
      "an id for a hand-written file",
      "# hand-written\nid: \(id)\ntitle: Design\nlength: 10\nattendees:\n  - Ada\n"
    ) { $0.id = UUID(uuidString: id) },
    scrum(
      "title: Design\nlength: 10\nattendees:\n  - Ada\n", "a missing key goes before its successor",
      "title: Design\ntheme: sky\nlength: 10\nattendees:\n  - Ada\n"
    ) { $0.theme = .sky },
    scrum(
      base.replacingOccurrences(of: "theme: yellow\n", with: "# the colour\ntheme: yellow\n"),
      "a removed key takes its comment",
      base.replacingOccurrences(of: "theme: yellow\n", with: "")
    ) { $0.theme = nil },
    scrum(
      base.replacingOccurrences(of: "length: 10\n", with: "\nlength: 10\n\n"), "blank lines stay",
      base.replacingOccurrences(of: "length: 10\n", with: "\nlength: 15\n\n")
    ) { $0.length = 15 },
    scrum(
      base + "# end of file\n", "comment after the last line", base + "  - Bob\n# end of file\n"
    ) { $0.attendees.append(Attendee(name: "Bob")) },
    scrum(
      "title: >\n  Design\nlength: 10\nattendees:\n  - Ada\n", "folded scalar untouched",
      "title: >\n  Design\nlength: 11\nattendees:\n  - Ada\n"
    ) { $0.length = 11 },
    scrum(
      base.replacingOccurrences(of: "  - Grace\n", with: "  - {name: Grace, role: lead}\n"),
      "attendee mapping kept",
      base.replacingOccurrences(of: "  - Grace\n", with: "  - {name: Grace, role: lead}\n  - Bob\n")
    ) { $0.attendees.append(Attendee(name: "Bob")) },
    scrum(
      base.replacingOccurrences(
        of: "attendees:\n  - Ada\n  - Grace\n", with: "attendees:\n- Ada\n- Grace\n"),
      "unindented list keeps its style",
      base.replacingOccurrences(
        of: "attendees:\n  - Ada\n  - Grace\n", with: "attendees:\n- Ada\n- Grace\n- Bob\n")
    ) { $0.attendees.append(Attendee(name: "Bob")) },
    scrum(
      base.replacingOccurrences(of: "title: Design", with: "\"title\": Design"), "quoted key",
      base.replacingOccurrences(of: "title: Design", with: "\"title\": Retro")
    ) { $0.title = "Retro" },
    scrum(
      base + "owner: Bob   # who runs it\n", "unknown keys stay as written",
      base.replacingOccurrences(of: "length: 10", with: "length: 5")
        + "owner: Bob   # who runs it\n"
    ) { $0.length = 5 },
    scrum(
      base.replacingOccurrences(of: "length: 10", with: "length: 0x0A"),
      "an equal number keeps its spelling",
      base.replacingOccurrences(of: "length: 10", with: "length: 0x0A").replacingOccurrences(
        of: "Design", with: "X")
    ) { $0.title = "X" },
    meeting(
      "scrum: \(id)\ndate: 2026-11-20T09:00:00Z\nlength: 10\nduration: 600\nattendees: [Ada, Grace]\nspeakers:\n  - {name: Ada, seconds: 300}\n  - {name: Grace, seconds: 290}\ntranscript: |\n  notes\n  more\n",
      "flow mapping item changes, literal block untouched",
      "scrum: \(id)\ndate: 2026-11-20T09:00:00Z\nlength: 10\nduration: 610\nattendees: [Ada, Grace]\nspeakers:\n  - {name: Ada, seconds: 300}\n  - {name: Grace, seconds: 310}\ntranscript: |\n  notes\n  more\n"
    ) {
      $0.duration = 610
      $0.speakers[1].seconds = 310
    },
    meeting(
      "scrum: \(id)\ndate: 2026-11-20\nlength: 10\nduration: 600\nattendees: [Ada]\n",
      "an equal date keeps its spelling",
      "scrum: \(id)\ndate: 2026-11-20\nlength: 10\nduration: 601\nattendees: [Ada]\n"
    ) { $0.duration = 601 },
    meeting(
      "scrum: \(id)\ndate: 2026-11-20\nlength: 10\nduration: 600\nattendees: [Ada]\nspeakers:\n  # first\n  - {name: Ada, seconds: 3}\nnext: 1\n",
      "a removed list key goes with its items and comments",
      "scrum: \(id)\ndate: 2026-11-20\nlength: 10\nduration: 600\nattendees: [Ada]\nnext: 1\n"
    ) { $0.speakers = [] },
    library(
      "name: Spanish\nlanguage: es\nwords:\n  - text: hola   # hi\n    meanings:\n      - definition: hello\n",
      "a word added with its siblings' indentation",
      "name: Spanish\nlanguage: es\nwords:\n  - text: hola   # hi\n    meanings:\n      - definition: hello\n  - text: adiós\n    meanings:\n      - definition: goodbye\n"
    ) {
      $0.words.append(Word(text: "adiós", meanings: [Meaning(definition: "goodbye")]))
    },
    library(
      "name: Spanish\nlanguage: es\nwords:\n    - text: hola\n    # old word\n    - text: ayer\n      phonetic: /aˈʝer/\n    - text: mañana\n",
      "a multi-line item removed with its comment, four-space indent",
      "name: Spanish\nlanguage: es\nwords:\n    - text: hola\n    - text: mañana\n"
    ) { $0.words.remove(at: 1) },
    library(
      "name: Spanish\nlanguage: es\nwords:\n  - text: hola\n    meanings:\n      - definition: hello   # informal\n        example: ¡Hola!\n",
      "a deep scalar",
      "name: Spanish\nlanguage: es\nwords:\n  - text: hola\n    meanings:\n      - definition: hi   # informal\n        example: ¡Hola!\n"
    ) {
      $0.words[0].meanings[0].definition = "hi"
    },
    library(
      "name: Spanish\nlanguage: es\nwords:\n  - text: hola\n    meanings:\n      - definition: hello\n  - text: sí\n",
      "a meaning added to an existing word",
      "name: Spanish\nlanguage: es\nwords:\n  - text: hola\n    meanings:\n      - definition: hello\n      - partOfSpeech: interjection\n        definition: hi\n  - text: sí\n"
    ) {
      $0.words[0].meanings.append(Meaning(partOfSpeech: "interjection", definition: "hi"))
    },
    library(
      "name: Spanish\nlanguage: es\nwords: []   # none yet\n", "an empty list becomes non-empty",
      "name: Spanish\nlanguage: es\nwords: [{text: hola}]   # none yet\n"
    ) { $0.words.append(Word(text: "hola")) },
    library(
      "name: Spanish\nlanguage: es\n", "a list key added at the end",
      "name: Spanish\nlanguage: es\nwords:\n  - text: hola\n"
    ) { $0.words.append(Word(text: "hola")) },
  ]

  @Test(arguments: InPlaceEditTests.cases)
  func editsExactly(_ c: Case) throws {
    let source = SourceText(c.before)
    let decoder = YAMLDecoder()
    var box = AnyRecordBox()
    let result: InPlaceEditor.Result
    let flow = RecordLayout.flowPaths(for: c.kind)
    switch c.kind {
    case .scrum:
      box.scrum = try decoder.decode(Scrum.self, from: source)
      c.change(&box)
      result = try InPlaceEditor.update(source, to: box.scrum!, flowPaths: flow)
      #expect(try decoder.decode(Scrum.self, from: SourceText(result.text)) == box.scrum)
    case .meeting:
      box.meeting = try decoder.decode(Meeting.self, from: source)
      c.change(&box)
      result = try InPlaceEditor.update(source, to: box.meeting!, flowPaths: flow)
      #expect(try decoder.decode(Meeting.self, from: SourceText(result.text)) == box.meeting)
    default:
      box.library = try decoder.decode(Library.self, from: source)
      c.change(&box)
      result = try InPlaceEditor.update(source, to: box.library!, flowPaths: flow)
      #expect(try decoder.decode(Library.self, from: SourceText(result.text)) == box.library)
    }
    #expect(!result.fellBack, "fell back to canonical:\n\(result.text)")
    #expect(result.text == c.after)
  }

  @Test func atLeastFortyCases() { #expect(Self.cases.count >= 40) }

  @Test func aLiteralBlockChangeFallsBackToCanonical() throws {
    let text =
      "scrum: \(Self.id)\ndate: 2026-11-20T09:00:00Z\nlength: 10\nduration: 600\nattendees: [Ada]  # x\ntranscript: |\n  notes\n"
    var meeting = try YAMLDecoder().decode(Meeting.self, from: SourceText(text))
    meeting.transcript = "other notes\nand more\n"
    let result = try InPlaceEditor.update(
      SourceText(text), to: meeting, flowPaths: RecordLayout.flowPaths(for: .meeting))
    #expect(result.fellBack)
    #expect(result.text == (try RecordCodec.encode(.meeting(meeting))))
  }
}
