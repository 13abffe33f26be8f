import Foundation
import Models
import Storage
import Testing
import YAML

/// The minimal forms people write by hand decode, and what dinger does not know is kept.
@Suite struct HandWrittenTests {
  @Test func designDocScrumDecodesWithoutAnId() throws {
    let text = """
      title: Design Review
      theme: yellow              # one of the 16 Scrumdinger themes
      length: 10                 # planned minutes, 1...600
      attendees:                 # at least one; plain names are enough
        - Ada Lovelace
        - Grace Hopper

      """
    let scrum = try YAMLDecoder().decode(Scrum.self, from: SourceText(text))
    #expect(scrum.id == nil)
    #expect(scrum.title == "Design Review")
    #expect(scrum.theme == .yellow)
    #expect(scrum.attendees.map(\.name) == ["Ada Lovelace", "Grace Hopper"])
  }

  @Test func attendeesMayBeMappingsAndKeepTheirExtraKeys() throws {
    let text = "title: X\nlength: 5\nattendees:\n  - Ada\n  - name: Grace\n    role: lead\n"
    let scrum = try YAMLDecoder().decode(Scrum.self, from: SourceText(text))
    #expect(scrum.attendees[1].name == "Grace")
    #expect(scrum.attendees[1].unknown.keys == ["role"])
    let written = try RecordCodec.encode(.scrum(scrum))
    #expect(
      written == "title: X\nlength: 5\nattendees:\n  - Ada\n  - name: Grace\n    role: lead\n")
  }

  @Test func unknownKeysRoundTripAndAreReported() throws {
    let text =
      "title: X\nlength: 5\nattendees: [Ada]\nowner: Bob\nlenght: 7\nmeta:\n  tags: [a, 1, true]\n"
    let file = RecordCodec.decode(Array(text.utf8), path: "scrums/x.yaml", kind: .scrum)
    guard case .scrum(let scrum) = file.record else {
      Issue.record("did not decode: \(file.diagnostics)")
      return
    }
    #expect(scrum.unknown.keys == ["owner", "lenght", "meta"])
    #expect(
      file.diagnostics.map(\.message) == [
        "unknown key 'owner' is kept but not used",
        "unknown key 'lenght' is kept but not used (did you mean 'length'?)",
        "unknown key 'meta' is kept but not used",
      ])
    #expect(file.diagnostics.allSatisfy { $0.severity == .warning })
    let written = try RecordCodec.encode(.scrum(scrum))
    #expect(
      written
        == "title: X\nlength: 5\nattendees:\n  - Ada\nowner: Bob\nlenght: 7\nmeta:\n  tags:\n    - a\n    - 1\n    - true\n"
    )
  }

  @Test func yaml11LookalikesStayText() throws {
    let text = "title: no\nlength: 5\nattendees: [on, off, yes, 'null', 2026-01-01, 1.0]\n"
    let scrum = try YAMLDecoder().decode(Scrum.self, from: SourceText(text))
    #expect(scrum.title == "no")
    #expect(scrum.attendees.map(\.name) == ["on", "off", "yes", "null", "2026-01-01", "1.0"])
    let written = try RecordCodec.encode(.scrum(scrum))
    #expect(written.contains("title: 'no'\n"))
    #expect(written.contains("  - '2026-01-01'\n"))
  }
}
