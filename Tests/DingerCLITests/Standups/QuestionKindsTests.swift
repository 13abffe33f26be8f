import Foundation
import TestSupport
import Testing

/// Question kinds: a `mood` (1 to 5, then a word) and a `choice` (listed options), answered
/// from the flags, the editor and chat alike, checked on write and by `check`; the digest gives
/// the team's average mood and never a person's.
@Suite struct QuestionKindsTests {
  static let scrum = """
    id: 0b7e2c1a-4f5d-4e6a-9b8c-1d2e3f4a5b6c
    title: Platform
    length: 15
    attendees: [Ada, Grace]
    standup:
      questions:
        - yesterday
        - today
        - {key: mood, ask: How do you feel today?, kind: mood}
        - {key: focus, ask: Where is your focus?, kind: choice, options: [build, review, support]}

    """

  @Test func moodsAndChoicesAreCheckedAndTheDigestKeepsMoodsPrivate() throws {
    let box = try Sandbox()
    box.extraEnvironment["DINGER_TEST_NOW"] = "2026-11-24T12:00:00Z"
    expectOK(try box.dinger("init"))
    try box.write("scrums/platform.yaml", Self.scrum)
    try box.git("add", "-A")
    try box.git("commit", "-qm", "Platform")
    expectOK(try box.dinger("check"))
    expectOK(
      try box.dinger(
        "standup", "platform", "--as", "Ada", "--today", "ship", "--answer", "mood=4 rested",
        "--answer", "focus=Build"))
    expectOK(
      try box.dinger("standup", "platform", "--as", "Grace", "--today", "pay", "--answer", "mood=3")
    )
    let head = try box.head()
    for (answer, message) in [
      ("mood=great", "'mood' is a mood: 1 (low) to 5 (great)"),
      ("mood=7", "'mood' is a mood"), ("focus=sleep", "'focus' is one of: build, review, support"),
    ] {
      let r = try box.dinger("standup", "platform", "--as", "Ada", "--answer", answer)
      #expect(r.status == 1 && r.stderr.contains(message), "\(answer): \(r.stderr)")
    }
    #expect(try box.head() == head)
    let digest = try box.dinger("digest", "--since", "2026-11-24")
    #expect(
      digest.stdout.contains("Mood: 3.5 of 5 (the team's average of 2 answers)"), "\(digest.stdout)"
    )
    #expect(
      !digest.stdout.contains("rested") && !digest.stdout.contains("mood:"), "\(digest.stdout)")
    let json = try box.dinger("digest", "--since", "2026-11-24", "--format", "json")
    #expect(
      json.stdout.contains("\"mood\" : 3.5") && !json.stdout.contains("rested"), "\(json.stdout)")
    // A teammate's hand-written answer that is no mood: check warns, with the place.
    try box.write(
      "standups/platform/2026-11-23-grace.yaml",
      "scrum: 0b7e2c1a-4f5d-4e6a-9b8c-1d2e3f4a5b6c\ndate: 2026-11-23\nby: Grace\ntoday: x\nmood: meh\n"
    )
    try box.git("add", "-A")
    try box.git("commit", "-qm", "by hand")
    let check = try box.dinger("check")
    #expect(
      check.stderr.contains("2026-11-23-grace.yaml:5:7: warning: 'mood' is a mood"),
      "\(check.stderr)")
  }

  @Test func aChoiceWithoutOptionsOrAnUnknownKindIsAnError() throws {
    let box = try Sandbox()
    expectOK(try box.dinger("init"))
    try box.write(
      "scrums/bad.yaml",
      "title: Bad\nlength: 5\nattendees: [Ada]\nstandup:\n  questions:\n    - {key: a, kind: choice}\n    - {key: b, kind: stars}\n"
    )
    let check = try box.dinger("check")
    #expect(check.status == 1)
    #expect(check.stderr.contains("a choice question lists its options"), "\(check.stderr)")
    #expect(check.stderr.contains("'stars' is not a kind of question"), "\(check.stderr)")
  }
}
