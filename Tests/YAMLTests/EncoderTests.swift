import Foundation
import TestSupport
import Testing

@testable import YAML

private struct Person: Codable, Equatable {
  var name: String
  var seconds: Int
}

private struct Doc: Codable, Equatable {
  var title: String
  var length: Int
  var people: [String]
  var speakers: [Person]
  var notes: String?
  var nested: [[String]]
}

@Suite struct EncoderTests {
  @Test func canonicalBlockOutput() throws {
    let doc = Doc(
      title: "Design Review", length: 10, people: ["Ada", "no"],
      speakers: [Person(name: "Ada", seconds: 301)], notes: "line one\nline two\n",
      nested: [["a", "b"], []])
    let text = try YAMLEncoder().encode(doc)
    #expect(
      text == """
        title: Design Review
        length: 10
        people:
          - Ada
          - 'no'
        speakers:
          - name: Ada
            seconds: 301
        notes: |
          line one
          line two
        nested:
          -
            - a
            - b
          - []

        """)
  }

  @Test func flowPathsWriteShortCollectionsOnOneLine() throws {
    let doc = Doc(
      title: "T", length: 1, people: ["Ada Lovelace", "Grace Hopper"],
      speakers: [Person(name: "Ada", seconds: 1), Person(name: "a, b", seconds: 2)], notes: nil,
      nested: [])
    let text = try YAMLEncoder(flowPaths: ["people", "speakers[]"]).encode(doc)
    #expect(
      text == """
        title: T
        length: 1
        people: [Ada Lovelace, Grace Hopper]
        speakers:
          - {name: Ada, seconds: 1}
          - {name: 'a, b', seconds: 2}
        nested: []

        """)
  }

  @Test func longFlowCollectionsFallBackToBlock() throws {
    let names = (1...12).map { "Person Number \($0)" }
    let doc = Doc(title: "T", length: 1, people: names, speakers: [], notes: nil, nested: [])
    let text = try YAMLEncoder(flowPaths: ["people"]).encode(doc)
    #expect(text.contains("people:\n  - Person Number 1\n"))
  }

  @Test(arguments: [
    ("plain", "plain"), ("no", "'no'"), ("", "''"), ("a: b", "'a: b'"), ("a #b", "'a #b'"),
    (" lead", "' lead'"), ("O'Brien", "O'Brien"), ("'q'", "'''q'''"), ("- x", "'- x'"),
    ("tab\tx", "'tab\tx'"), ("bell\u{7}", "\"bell\\x07\""), ("cr\r", "\"cr\\r\""),
    ("emoji 🎉", "emoji 🎉"), ("2026-01-01", "'2026-01-01'"), ("1e3", "'1e3'"),
    ("nel\u{85}", "\"nel\\N\""), ("bom\u{FEFF}", "\"bom\\uFEFF\""),
  ])
  func scalarQuoting(input: String, expected: String) {
    #expect(YAMLEncoder.scalarText(input) == expected)
  }

  @Test func literalBlockChomping() throws {
    struct T: Codable { var a: String }
    #expect(try YAMLEncoder().encode(T(a: "x\ny")) == "a: |-\n  x\n  y\n")
    #expect(try YAMLEncoder().encode(T(a: "x\ny\n")) == "a: |\n  x\n  y\n")
    #expect(try YAMLEncoder().encode(T(a: "x\n\n")) == "a: |+\n  x\n\n")
    #expect(try YAMLEncoder().encode(T(a: "x\n\ny")) == "a: |-\n  x\n\n  y\n")
    #expect(try YAMLEncoder().encode(T(a: " x\ny")) == "a: \" x\\ny\"\n")
  }

  @Test func outputIsDeterministic() throws {
    let doc = Doc(title: "x", length: 1, people: ["a"], speakers: [], notes: "n\n", nested: [])
    #expect(try YAMLEncoder().encode(doc) == YAMLEncoder().encode(doc))
  }

  /// Every generated document reads back identically with our parser and with PyYAML.
  @Test func hostileStringsRoundTripThroughBothParsers() throws {
    var rng = SeededGenerator(seed: 20261121)
    var docs: [Doc] = []
    for _ in 0..<300 {
      let people = (0..<Int.random(in: 0...4, using: &rng)).map { _ in
        HostileStrings.random(using: &rng)
      }
      let speakers = (0..<Int.random(in: 0...3, using: &rng)).map { _ in
        Person(
          name: HostileStrings.random(using: &rng), seconds: Int.random(in: -5...999, using: &rng))
      }
      docs.append(
        Doc(
          title: HostileStrings.random(using: &rng), length: Int.random(in: 1...600, using: &rng),
          people: people, speakers: speakers,
          notes: Bool.random(using: &rng) ? HostileStrings.random(using: &rng) : nil,
          nested: [people]))
    }
    // Each string alone as well, so a failure names the string.
    for piece in HostileStrings.pieces {
      docs.append(
        Doc(
          title: piece, length: 1, people: [piece], speakers: [Person(name: piece, seconds: 1)],
          notes: piece, nested: [[piece]]))
    }
    var texts: [String] = []
    for (flow, doc) in docs.enumerated().map({ ($0.offset % 2 == 0, $0.element) }) {
      let encoder = YAMLEncoder(flowPaths: flow ? ["people", "speakers[]", "nested[]"] : [])
      let text = try encoder.encode(doc)
      let back = try YAMLDecoder().decode(Doc.self, from: SourceText(text))
      #expect(back == doc, "our parser read back something else from:\n\(text)")
      texts.append(text)
    }
    guard PyYAML.isAvailable else {
      Issue.record("python3 with PyYAML is needed for the independent-parser check (make deps)")
      return
    }
    let loaded = try PyYAML.load(texts)
    for (doc, (text, json)) in zip(docs, zip(texts, loaded)) {
      let seen = try? JSONDecoder().decode(Doc.self, from: Data(json.utf8))
      #expect(seen == doc, "PyYAML read \(json) from:\n\(text)")
    }
  }
}

/// The in-place editor's list matching: exact for the usual edits, valid and near-linear for
/// any other.
@Suite struct ListMatchingTests {
  func isCommonSubsequence(_ pairs: [(Int, Int)], _ a: [String], _ b: [String]) -> Bool {
    zip(pairs, pairs.dropFirst()).allSatisfy { $0.0 < $1.0 && $0.1 < $1.1 }
      && pairs.allSatisfy { a[$0.0] == b[$0.1] }
  }

  @Test func endsAreMatchedAndTheMiddleIsExact() {
    let a = (0..<100_000).map { "p\($0)" }
    var b = a
    b.insert("new", at: 50_000)
    b.remove(at: 10)
    let pairs = InPlaceEditor.matching(a, b)
    #expect(pairs.count == a.count - 1)
    #expect(isCommonSubsequence(pairs, a, b))
  }

  @Test func aLargeShuffledMiddleStillGivesAValidMatch() {
    var rng = SystemRandomNumberGenerator()
    let a = (0..<5_000).map { "p\($0 % 300)" }
    let b = a.shuffled(using: &rng)
    let pairs = InPlaceEditor.matching(a, b)
    #expect(isCommonSubsequence(pairs, a, b))
    #expect(!pairs.isEmpty)
  }

  @Test(arguments: 0..<20)
  func smallListsGetTheLongestMatch(seed: Int) {
    var rng = SystemRandomNumberGenerator()
    let a = (0..<Int.random(in: 0...12, using: &rng)).map { _ in
      ["x", "y", "z"].randomElement(using: &rng)!
    }
    let b = (0..<Int.random(in: 0...12, using: &rng)).map { _ in
      ["x", "y", "z"].randomElement(using: &rng)!
    }
    // The length by the textbook table.
    var t = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
    for i in stride(from: a.count - 1, through: 0, by: -1) {
      for j in stride(from: b.count - 1, through: 0, by: -1) {
        t[i][j] = a[i] == b[j] ? t[i + 1][j + 1] + 1 : max(t[i + 1][j], t[i][j + 1])
      }
    }
    let pairs = InPlaceEditor.matching(a, b)
    #expect(pairs.count == t[0][0], "\(a) \(b)")
    #expect(isCommonSubsequence(pairs, a, b))
  }
}
