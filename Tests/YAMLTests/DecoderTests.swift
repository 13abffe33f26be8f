import Foundation
import Testing

@testable import YAML

private struct Sample: Codable, Equatable {
  var name: String
  var count: Int
  var ratio: Double?
  var flag: Bool?
  var tags: [String]?
  var when: Date?
  var id: UUID?
}

@Suite struct DecoderTests {
  func decode<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
    try YAMLDecoder().decode(type, from: SourceText(text))
  }

  @Test func stringFieldsReadTheTextNotTheYAML11Meaning() throws {
    let s = try decode(
      Sample.self, "name: no\ncount: 3\ntags: [on, 1.0, 2026-01-01, null, ~, 0x1F, yes]\n")
    #expect(s.name == "no")
    #expect(s.tags == ["on", "1.0", "2026-01-01", "null", "~", "0x1F", "yes"])
  }

  @Test func typedScalarsFollowTheCoreSchema() throws {
    let s = try decode(
      Sample.self,
      "name: x\ncount: 0x1F\nratio: 1e3\nflag: True\nwhen: 2026-11-21T09:00:00Z\nid: 6A4F0C1E-3B7D-4E2A-9C1F-0D2B5E8A7C11\n"
    )
    #expect(s.count == 31)
    #expect(s.ratio == 1000)
    #expect(s.flag == true)
    #expect(s.when == Date(timeIntervalSince1970: 1_795_251_600))
    #expect(s.id?.uuidString.lowercased() == "6a4f0c1e-3b7d-4e2a-9c1f-0d2b5e8a7c11")
  }

  @Test func nullAndMissingOptionalsAreNil() throws {
    let s = try decode(Sample.self, "name: x\ncount: 1\nratio: ~\nflag:\n")
    #expect(s.ratio == nil)
    #expect(s.flag == nil)
    #expect(s.tags == nil)
  }

  @Test func wrongTypeSaysWhatWasExpectedAndFoundAndWhere() {
    let error = #expect(throws: YAMLError.self) { try decode(Sample.self, "name: x\ncount: ten\n") }
    #expect(error?.message == "'count' must be a whole number, found \"ten\"")
    #expect(error?.location == Location(line: 2, column: 8, offset: 15))
    #expect(error?.path == "count")
  }

  @Test func quotedNumbersAreTextNotNumbers() {
    let error = #expect(throws: YAMLError.self) {
      try decode(Sample.self, "name: x\ncount: '10'\n")
    }
    #expect(error?.message == "'count' must be a whole number, found \"10\"")
  }

  @Test func yaml11BooleansAreNotBooleans() {
    let error = #expect(throws: YAMLError.self) {
      try decode(Sample.self, "name: x\ncount: 1\nflag: yes\n")
    }
    #expect(error?.message == "'flag' must be true or false, found \"yes\"")
  }

  @Test func listItemErrorsNameTheItemAndPath() {
    let error = #expect(throws: YAMLError.self) {
      try decode(Sample.self, "name: x\ncount: 1\ntags:\n  - a\n  - [b]\n")
    }
    #expect(error?.message == "item 2 of 'tags' must be text, found a list")
    #expect(error?.path == "tags[1]")
    #expect(error?.location.line == 5)
    #expect(error?.location.column == 5)
  }

  @Test func missingKeyPointsAtTheMapping() {
    let error = #expect(throws: YAMLError.self) { try decode(Sample.self, "\n\nname: x\n") }
    #expect(error?.message == "missing required key 'count'")
    #expect(error?.location.line == 3)
  }

  @Test func mappingWhereAListIsExpected() {
    let error = #expect(throws: YAMLError.self) {
      try decode(Sample.self, "name: x\ncount: 1\ntags: {a: b}\n")
    }
    #expect(error?.message == "'tags' must be a list, found a mapping")
  }

  @Test func badDatesAndIdsAreExplained() {
    let date = #expect(throws: YAMLError.self) {
      try decode(Sample.self, "name: x\ncount: 1\nwhen: 2026-02-31\n")
    }
    #expect(
      date?.message
        == "'when' must be a date and time like 2026-11-21T09:00:00Z, found \"2026-02-31\"")
    let id = #expect(throws: YAMLError.self) {
      try decode(Sample.self, "name: x\ncount: 1\nid: 1234\n")
    }
    #expect(
      id?.message == "'id' must be an id like 6a4f0c1e-3b7d-4e2a-9c1f-0d2b5e8a7c11, found \"1234\"")
  }

  @Test func decodingErrorsFromCustomTypesAreLocatedByPath() throws {
    struct Strict: Decodable {
      init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        let inner = try c.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey(stringValue: "a"))
        throw DecodingError.dataCorruptedError(
          forKey: AnyKey(stringValue: "b"), in: inner, debugDescription: "b is wrong")
      }
    }
    let root = try #require(try YAMLParser.parse("x: 1\na:\n  b: 2\n"))
    do {
      _ = try YAMLDecoder().decode(Strict.self, from: root)
      Issue.record("expected an error")
    } catch let error as YAMLError {
      #expect(error.message == "b is wrong")
      #expect(error.location.line == 3)
      #expect(error.path == "a.b")
    }
  }

  @Test(arguments: [
    ("2026-11-21T09:00:00Z", 1_795_251_600.0), ("2026-11-21", 1_795_219_200.0),
    ("2026-11-21T10:00:00+01:00", 1_795_251_600.0), ("2026-11-21 09:00:00.5Z", 1_795_251_600.5),
    ("1969-12-31T23:59:59Z", -1.0),
  ])
  func isoDatesParse(text: String, seconds: Double) throws {
    let date = try #require(ISODate.parse(text))
    #expect(date.timeIntervalSince1970 == seconds)
  }

  @Test func isoDatesFormatAndRoundTrip() {
    let date = Date(timeIntervalSince1970: 1_795_251_600)
    #expect(ISODate.format(date) == "2026-11-21T09:00:00Z")
    #expect(ISODate.format(Date(timeIntervalSince1970: 1.25)) == "1970-01-01T00:00:01.250Z")
    #expect(ISODate.parse(ISODate.format(date)) == date)
  }
}

/// Explicit tags say what a scalar is: `!!str 5` is text, `!!int 5` a number.
@Suite struct TagTests {
  struct Numbers: Decodable, Equatable {
    var n: Int
    var d: Double?
    var b: Bool?
  }

  @Test func aStringTagIsNotANumber() throws {
    #expect(throws: (any Error).self) {
      try YAMLDecoder().decode(Numbers.self, from: SourceText("n: !!str 5\n"))
    }
    #expect(throws: (any Error).self) {
      try YAMLDecoder().decode(Numbers.self, from: SourceText("n: 5\nd: !!str 1.5\n"))
    }
    #expect(throws: (any Error).self) {
      try YAMLDecoder().decode(Numbers.self, from: SourceText("n: 5\nb: !!str true\n"))
    }
    #expect(throws: (any Error).self) {
      try YAMLDecoder().decode(Numbers.self, from: SourceText("n: !custom 5\n"))
    }
  }

  @Test func theMatchingTagIsANumber() throws {
    #expect(
      try YAMLDecoder().decode(
        Numbers.self, from: SourceText("n: !!int 5\nd: !!float 1.5\nb: !!bool true\n"))
        == Numbers(n: 5, d: 1.5, b: true))
    #expect(
      try YAMLDecoder().decode(Numbers.self, from: SourceText("n: 5\nd: !!int 2\n"))
        == Numbers(n: 5, d: 2))
  }
}
