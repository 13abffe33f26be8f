import Models
import Testing

@testable import Storage

/// Which record a path holds, read from the path alone (every file of a warm `check` asks).
@Suite struct RecordLayoutTests {
  @Test(arguments: [
    ("scrums/daily.yaml", RecordKind?.some(.scrum), "daily"),
    ("libraries/words.yaml", .library, "words"),
    ("history/daily/2026-11-27-1a2b3c4d.yaml", .meeting, "daily"),
    ("quizzes/words/2026-11-27.yaml", .quiz, "words"),
    ("standups/daily/2026-11-27-ada.yaml", .standup, "daily"),
    (".dinger/config.yaml", .config, ""),
    // Not records: the wrong depth, an empty component, no folder, another extension.
    ("scrums/a/daily.yaml", nil, ""),
    ("scrums//daily.yaml", nil, ""),
    ("history/daily.yaml", nil, ""),
    ("history/daily/x/2026-11-27.yaml", nil, ""),
    ("daily.yaml", nil, ""),
    ("scrums/daily.yml", nil, ""),
    ("notes/daily.yaml", nil, ""),
    ("scrumsx/daily.yaml", nil, ""),
    // Names beyond ASCII are read by their bytes, whole.
    ("scrums/équipe-日本.yaml", .scrum, "équipe-日本"),
    ("history/équipe/2026-11-27-x.yaml", .meeting, "équipe"),
  ])
  func aPathNamesItsKindAndSlug(path: String, kind: RecordKind?, slug: String) {
    #expect(RecordLayout.kind(ofPath: path) == kind, "\(path)")
    #expect(RecordLayout.slug(ofPath: path) == slug, "\(path)")
  }
}
