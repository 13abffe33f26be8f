import Models
import Testing

/// A stand-up typed in chat: keys by name or by the question's words, text before the first
/// key for the first question, continuation lines, blockers that say "none", resolutions.
@Suite struct ChatReplyTests {
  let asked = StandupSettings.defaultQuestions

  @Test func aPhoneStyleLineAnswersTheFirstQuestion() {
    let r = ChatReply("Shipped the login page", asked: asked)
    #expect(r.answers == [.init(key: "yesterday", text: "Shipped the login page")])
    #expect(r.blockers.isEmpty && r.resolved.isEmpty)
  }

  @Test func keysQuestionsBlockersAndResolutions() {
    let r = ChatReply(
      """
      what will you do today?: reviews
      and the release notes
      Yesterday: fix: the login
      blocker: the signing key
      Blocker: nope 👍
      resolve: B1F0C2A9D, b00000001
      """, asked: asked)
    #expect(
      r.answers == [
        .init(key: "today", text: "reviews\nand the release notes"),
        .init(key: "yesterday", text: "fix: the login"),
      ])
    #expect(r.blockers == ["the signing key"])
    #expect(r.resolved == ["b1f0c2a9d", "b00000001"])
  }

  @Test func nothingToKeep() {
    #expect(ChatReply("", asked: asked).isEmpty)
    #expect(ChatReply("blocker: none", asked: asked).isEmpty)
  }
}
