import Git
import Testing

/// Git's line merge (libgit2's `git_merge_file`) as the record merge uses it: clean merges give
/// the text, touching or clashing changes give nil, and empty or oversized sides are safe.
@Suite struct TextMergeTests {
  func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }

  @Test func apartChangesMergeAndTouchingOnesDoNot() throws {
    let base = "a: 1\nb: 2\nc: 3\nd: 4\n"
    let ours = base.replacingOccurrences(of: "a: 1", with: "a: 10")
    let theirs = base.replacingOccurrences(of: "d: 4", with: "d: 40  # theirs")
    let merged = try #require(
      TextMerge.clean(base: bytes(base), ours: bytes(ours), theirs: bytes(theirs)))
    #expect(String(decoding: merged, as: UTF8.self) == "a: 10\nb: 2\nc: 3\nd: 40  # theirs\n")
    let touching = base.replacingOccurrences(of: "b: 2", with: "b: 20")
    #expect(TextMerge.clean(base: bytes(base), ours: bytes(ours), theirs: bytes(touching)) == nil)
    let clash = base.replacingOccurrences(of: "a: 1", with: "a: 11")
    #expect(TextMerge.clean(base: bytes(base), ours: bytes(ours), theirs: bytes(clash)) == nil)
  }

  @Test func emptyAndOversizedSidesAreSafe() {
    let one = bytes("a: 1\n")
    _ = TextMerge.clean(base: [], ours: [], theirs: one)
    _ = TextMerge.clean(base: [], ours: one, theirs: [])
    #expect(TextMerge.clean(base: [], ours: [], theirs: []) ?? [] == [])
    let big = [UInt8](repeating: UInt8(ascii: "a"), count: TextMerge.limit + 1)
    #expect(TextMerge.clean(base: one, ours: big, theirs: one) == nil)
  }
}
