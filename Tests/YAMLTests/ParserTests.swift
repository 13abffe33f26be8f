import Foundation
import Testing

@testable import YAML

@Suite struct ParserTests {
  /// The bytes a node's range covers.
  func text(_ source: String, _ node: Node) -> String {
    String(decoding: Array(source.utf8)[node.range.bytes], as: UTF8.self)
  }

  @Test func scalarRangesAreExactByteOffsets() throws {
    let source = "title: Design Review\nlength: 10\n"
    let root = try #require(try YAMLParser.parse(source))
    let title = try #require(root["title"])
    #expect(title.range.start == Location(line: 1, column: 8, offset: 7))
    #expect(title.range.end == Location(line: 1, column: 21, offset: 20))
    #expect(text(source, title) == "Design Review")
    #expect(text(source, try #require(root["length"])) == "10")
  }

  @Test func multiByteCharactersBeforeAValueAreCountedInBytes() throws {
    let source = "# café ☕️ 🎉\nname: Ünïcode\nlanguage: es\n"
    let root = try #require(try YAMLParser.parse(source))
    let name = try #require(root["name"])
    #expect(text(source, name) == "Ünïcode")
    #expect(name.range.start.line == 2)
    #expect(name.range.start.column == 7)
    let language = try #require(root["language"])
    #expect(text(source, language) == "es")
    #expect(language.range.start.offset == Array(source.utf8).count - 3)
  }

  @Test func markCursorWalksBackwardsForCollectionEnds() throws {
    let source = "a: [ü, ß, 漢]\nb: {x: é}\nc: 日本\n"
    let root = try #require(try YAMLParser.parse(source))
    let a = try #require(root["a"])
    #expect(text(source, a) == "[ü, ß, 漢]")
    #expect(a.items?.map { text(source, $0) } == ["ü", "ß", "漢"])
    #expect(text(source, try #require(root["b"])) == "{x: é}")
    #expect(text(source, try #require(root["c"])) == "日本")
  }

  @Test func crlfFilesParseAndKeepExactOffsets() throws {
    let source = "title: Design\r\nattendees:\r\n  - Ada\r\n  - Grace\r\n"
    let root = try #require(try YAMLParser.parse(source))
    #expect(root["title"]?.scalarText == "Design")
    let items = try #require(root["attendees"]?.items)
    #expect(items.map { text(source, $0) } == ["Ada", "Grace"])
    #expect(items[1].range.start.line == 4)
  }

  @Test func byteOrderMarkIsAcceptedAndCounted() throws {
    let source = "\u{FEFF}title: X\n"
    let root = try #require(try YAMLParser.parse(source))
    let title = try #require(root["title"])
    #expect(title.scalarText == "X")
    #expect(title.range.start.offset == 10)
    #expect(text(source, title) == "X")
  }

  @Test(arguments: [
    ("a: plain", ScalarStyle.plain), ("a: 'single'", .singleQuoted),
    ("a: \"double\"", .doubleQuoted), ("a: |\n  lit\n", .literal), ("a: >\n  fold\n", .folded),
  ])
  func scalarStyles(source: String, style: ScalarStyle) throws {
    let root = try #require(try YAMLParser.parse(source))
    guard case .scalar(_, let found) = root["a"]?.value else {
      Issue.record("not a scalar")
      return
    }
    #expect(found == style)
  }

  @Test func collectionStylesAndLiteralRange() throws {
    let source = "flow: [a, b]\nblock:\n  - a\ntext: |\n  one\n  two\nafter: x\n"
    let root = try #require(try YAMLParser.parse(source))
    guard case .sequence(_, .flow) = root["flow"]?.value else {
      Issue.record("flow")
      return
    }
    guard case .sequence(_, .block) = root["block"]?.value else {
      Issue.record("block")
      return
    }
    let literal = try #require(root["text"])
    #expect(literal.scalarText == "one\ntwo\n")
    #expect(text(source, literal) == "|\n  one\n  two\n")
  }

  @Test func duplicateKeysAreErrorsNamingTheFirst() throws {
    let error = #expect(throws: YAMLError.self) {
      try YAMLParser.parse("title: A\nlength: 5\ntitle: B\n")
    }
    #expect(error?.message == "duplicate key 'title'; it is already set on line 1")
    #expect(error?.location.line == 3)
    #expect(error?.location.column == 1)
  }

  @Test func duplicateKeysInLargeMappingsUseTheIndex() throws {
    var source = ""
    for i in 0..<20 { source += "k\(i): \(i)\n" }
    source += "k13: again\n"
    let error = #expect(throws: YAMLError.self) { try YAMLParser.parse(source) }
    #expect(error?.message == "duplicate key 'k13'; it is already set on line 14")
  }

  @Test func aliasesResolveToCopies() throws {
    let root = try #require(try YAMLParser.parse("a: &x [1, 2]\nb: *x\n"))
    #expect(root["b"]?.items?.compactMap(\.scalarText) == ["1", "2"])
  }

  @Test func unknownAliasIsAnError() {
    let error = #expect(throws: YAMLError.self) { try YAMLParser.parse("a: *nope\n") }
    #expect(error?.message == "unknown alias '*nope'; define it first with '&nope'")
  }

  @Test func billionLaughsFailsFastWithBoundedWork() throws {
    var source = "a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
    for i in 1...9 {
      let refs = Array(repeating: "*a\(i - 1)", count: 10).joined(separator: ", ")
      source += "a\(i): &a\(i) [\(refs)]\n"
    }
    let started = Date()
    let error = #expect(throws: YAMLError.self) { try YAMLParser.parse(source) }
    #expect(error?.kind == .limit)
    #expect(error?.message.contains("alias") == true)
    // Not a timing assertion on speed, a sanity bound: unbounded expansion would take hours.
    #expect(Date().timeIntervalSince(started) < 10)
  }

  @Test func deepNestingHitsTheDepthLimit() {
    let source = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
    let error = #expect(throws: YAMLError.self) { try YAMLParser.parse(source) }
    #expect(error?.kind == .limit)
    #expect(error?.message == "nesting is deeper than 64 levels")
    #expect(error?.location.column == 65)
  }

  @Test func oversizedFilesAreRefusedBeforeParsing() {
    let limits = YAMLLimits(maxBytes: 100)
    let error = #expect(throws: YAMLError.self) {
      try YAMLParser.parse(SourceText(String(repeating: "a: b\n", count: 30)), limits: limits)
    }
    #expect(error?.message == "file is 150 bytes, more than the limit of 100 bytes")
  }

  @Test func aSecondDocumentIsAnError() {
    let error = #expect(throws: YAMLError.self) { try YAMLParser.parse("a: 1\n---\nb: 2\n") }
    #expect(error?.location.line == 2)
  }

  @Test func emptyAndCommentOnlyFilesHaveNoDocument() throws {
    #expect(try YAMLParser.parse("") == nil)
    #expect(try YAMLParser.parse("# nothing here\n") == nil)
  }

  @Test func invalidUTF8IsLocated() {
    let error = #expect(throws: YAMLError.self) {
      try YAMLParser.parse(SourceText([UInt8]("title: ok\nname: ".utf8) + [0xC3, 0x28] + [10]))
    }
    #expect(error?.location.line == 2)
    #expect(error?.message.hasPrefix("the file is not valid UTF-8") == true)
  }

  @Test func tabIndentationGetsAPlainMessage() {
    let error = #expect(throws: YAMLError.self) { try YAMLParser.parse("a:\n\t- b\n") }
    #expect(error?.message == "tabs can't indent YAML; use spaces")
    #expect(error?.location.line == 2)
  }

  @Test func rawEventCountMatchesStructure() {
    // stream, document, mapping start, 2 scalars, mapping end, document end, stream end
    #expect(YAMLParser.countEvents(Array("a: b\n".utf8)) == 8)
  }

  @Test func sourceTextLinesAndLocations() {
    let text = SourceText("one\r\ntwo ü x\nthree")
    #expect(text.line(containing: 0) == "one")
    #expect(text.line(containing: 6) == "two ü x")
    let location = text.location(ofByte: 13)
    #expect(location.line == 2)
    #expect(location.column == 8)
  }
}

/// Spec-invalid YAML that libyaml lets through is an error naming the real problem
/// (yaml-test-suite SU5Z, X4QW, QB6E); the valid forms beside them still parse.
@Suite struct SpecCheckTests {
  @Test(arguments: [
    ("key: \"value\"# invalid comment\n", "a comment needs a space before '#'", 1, 13),
    ("key: 'value'#x\n", "a comment needs a space before '#'", 1, 13),
    ("block: ># comment\n  scalar\n", "a comment needs a space before '#'", 1, 9),
    ("block: |-2#c\n    x\n", "a comment needs a space before '#'", 1, 11),
    ("quoted: \"a\nb\nc\"\n", "must be indented more than its key", 2, 1),
    ("list:\n  - \"a\n  b\"\n", "must be indented more than its key", 3, 3),
    ("{\"foo\"\n: \"bar\"}\n", "put a key and its ':' on the same line", 2, 1),
  ])
  func invalidFormsAreErrors(text: String, message: String, line: Int, column: Int) {
    let error = #expect(throws: YAMLError.self) { try YAMLParser.parse(text) }
    #expect(error?.message.contains(message) == true, "\(String(describing: error))")
    #expect(
      error?.location.line == line && error?.location.column == column,
      "\(String(describing: error))")
  }

  @Test(arguments: [
    "key: \"value\" # a comment\n", "block: > # comment\n  scalar\n",
    "quoted: \"a\n  b\n\n  c\"\n", "list:\n  - \"a\n    b\"\n", "flow: {a: \"b\nc\"}\n",
    "url: \"http://x/#anchor\"\n",
  ])
  func validFormsParse(text: String) throws {
    #expect(try YAMLParser.parse(text) != nil)
  }
}
