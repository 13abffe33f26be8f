import Providers
import Testing

@testable import Providers

/// The quick look at a scrum file's `title:` line that spares decoding files that cannot hold
/// a title: it may say "maybe" too often, never "no" wrongly.
@Suite struct TitleScanTests {
  @Test(arguments: [
    ("title: Design Review\n", "design review", true),
    ("title: Design\n", "design review", false),
    ("title: Ops # the ops stand-up\n", "ops", true),
    ("title: C#Sharp\n", "c#sharp", true),
    ("title: \"Design Review\"\n", "design review", true),
    ("title: \"Des\\u0069gn\"\n", "design", true),
    ("title: Design\n  Review\n", "design review", true),
    ("title: >\n  Design Review\n", "design review", true),
    ("title: &t Design\n", "design", true),
    ("title: Café\n", "café", true),
    ("id: x\nlength: 5\n", "design", true),
  ])
  func neverSaysNoWhenTheTitleMatches(_ text: String, _ key: String, _ expected: Bool) {
    #expect(ScrumProvider.mayHaveTitle(key, Array(text.utf8)) == expected)
  }
}
