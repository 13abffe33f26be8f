import Testing

@testable import YAML

/// Comments found from the parser's node ranges, not a hand scan.
@Suite struct CommentsTests {
  func has(_ text: String) -> Bool { YAMLComments.exist(in: Array(text.utf8)) }

  @Test func commentsAreFoundWhereverTheyAre() {
    #expect(has("# top\ntitle: x\n"))
    #expect(has("title: Ada's team # note\n"), "an apostrophe in a plain scalar is no quote")
    #expect(has("title: 'quoted' # note\n"))
    #expect(has("title: \"q # not\" # yes\n"))
    #expect(has("attendees: [Ada, Grace] # in flow\n"))
    #expect(has("attendees:\n  - Ada  # first\n"))
    #expect(has("transcript: |\n  line\n# after the block\n"))
  }

  @Test func hashesThatAreNotCommentsAreNot() {
    #expect(!has("title: x\n"))
    #expect(!has("title: C#\n"), "no blank before the #")
    #expect(!has("title: 'a # b'\n"))
    #expect(!has("title: \"a # b\"\n"))
    #expect(!has("transcript: |\n  # a heading in the notes\n  more\n"), "inside a block scalar")
    #expect(has("title: Ada's #1 team\n"), "YAML reads ' #' in a plain value as a comment")
    #expect(!has("url: http://x/#frag\n"))
  }
}
