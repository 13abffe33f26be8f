import Foundation
import Models
import Storage
import TestSupport
import Testing
import YAML

/// decode(encode(x)) == x for every model, over generated values full of hostile strings; and
/// PyYAML, reading the same bytes, sees the same values.
@Suite struct RoundTripTests {
  static let count = 150

  func roundTrip<T: Codable & Equatable>(
    _ kind: RecordKind, _ make: (inout ModelGenerator) -> T, seed: UInt64
  ) throws {
    var generator = ModelGenerator(seed: seed)
    var values: [T] = []
    var texts: [String] = []
    for _ in 0..<Self.count {
      let value = make(&generator)
      let text = try RecordCodec.encode(value, kind: kind)
      let back = try YAMLDecoder().decode(T.self, from: SourceText(text))
      #expect(back == value, "did not read back the same \(kind) from:\n\(text)")
      #expect(try RecordCodec.encode(back, kind: kind) == text, "encoding is not deterministic")
      values.append(value)
      texts.append(text)
    }
    guard PyYAML.isAvailable else {
      Issue.record("python3 with PyYAML is needed for the independent-parser check (make deps)")
      return
    }
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .custom { d in
      let text = try d.singleValueContainer().decode(String.self)
      guard let date = ISODate.parse(text) else { throw CocoaError(.coderInvalidValue) }
      return date
    }
    // NB: JSONDecoder hands keys over unordered, so both sides are compared as sorted-key JSON.
    let canonical = JSONEncoder()
    canonical.outputFormatting = .sortedKeys
    for (value, (text, json)) in zip(values, zip(texts, try PyYAML.load(texts))) {
      let seen = try? decoder.decode(T.self, from: Data(json.utf8))
      #expect(
        try seen.map(canonical.encode) == canonical.encode(value),
        "PyYAML read \(json) from:\n\(text)")
    }
  }

  @Test func scrums() throws { try roundTrip(.scrum, { $0.scrum() }, seed: 1) }
  @Test func meetings() throws { try roundTrip(.meeting, { $0.meeting() }, seed: 2) }
  @Test func libraries() throws { try roundTrip(.library, { $0.library() }, seed: 3) }
  @Test func quizzes() throws { try roundTrip(.quiz, { $0.quiz() }, seed: 4) }
  @Test func configs() throws { try roundTrip(.config, { $0.config() }, seed: 5) }

  @Test func meetingsUseTheDesignDocStyle() throws {
    let meeting = Meeting(
      id: UUID(uuidString: "3f2c0a1b-6d4e-4a7f-9b3c-5e8d2f1a0c04"),
      scrum: UUID(uuidString: "0f6d1a52-4c0e-4b8e-9a57-2d1f3c8b7e01")!,
      date: ISODate.parse("2026-11-21T09:00:00Z")!, length: 10, duration: 612,
      attendees: ["Ada Lovelace", "Grace Hopper"],
      speakers: [SpeakerTime(name: "Ada Lovelace", seconds: 301)],
      transcript: "free text, optional\n")
    #expect(
      try RecordCodec.encode(.meeting(meeting)) == """
        id: 3f2c0a1b-6d4e-4a7f-9b3c-5e8d2f1a0c04
        scrum: 0f6d1a52-4c0e-4b8e-9a57-2d1f3c8b7e01
        date: 2026-11-21T09:00:00Z
        length: 10
        duration: 612
        attendees: [Ada Lovelace, Grace Hopper]
        speakers:
          - {name: Ada Lovelace, seconds: 301}
        transcript: |
          free text, optional

        """)
  }
}
