import Foundation
import Models
import Testing

@Suite struct ValidationTests {
  func scrum(
    title: String = "Design", length: Int = 10, attendees: [String] = ["Ada", "Grace"]
  ) -> Scrum {
    Scrum(title: title, length: length, attendees: attendees.map({ Attendee(name: $0) }))
  }

  @Test func aGoodScrumHasNoIssues() {
    #expect(scrum().validate().isEmpty)
  }

  @Test(arguments: [
    (0, "'length' must be from 1 to 600 minutes, found 0"),
    (601, "'length' must be from 1 to 600 minutes, found 601"),
    (-5, "'length' must be from 1 to 600 minutes, found -5"),
  ])
  func lengthOutOfRange(length: Int, message: String) {
    #expect(scrum(length: length).validate() == [ValidationIssue(at: [.key("length")], message)])
  }

  @Test(arguments: [1, 5, 600])
  func lengthInRange(length: Int) {
    #expect(scrum(length: length).validate().isEmpty)
  }

  @Test func blankTitleAndNoAttendees() {
    let issues = scrum(title: " \n", attendees: []).validate()
    #expect(issues.map(\.path) == [[.key("title")], [.key("attendees")]])
  }

  @Test func attendeeNamesAreUniqueIgnoringCaseAndSpaces() {
    let issues = scrum(attendees: ["Ada", "Grace", " ada "]).validate()
    #expect(
      issues == [
        ValidationIssue(
          at: [.key("attendees"), .index(2)],
          "attendee ' ada ' is listed twice (also item 1); remove one")
      ])
  }

  @Test(arguments: ["es", "en-GB", "zh-Hant", "pt-BR", "haw", "es-419"])
  func wellFormedLanguages(code: String) {
    #expect(LanguageCode.isWellFormed(code))
  }

  @Test(arguments: [
    "", "Spanish", "ES", "e", "es-", "es_ES", "toolong", "en-GB-x-averyveryverylong",
  ])
  func malformedLanguages(code: String) {
    #expect(!LanguageCode.isWellFormed(code))
  }

  @Test func wordsAreIdentifiedByNormalisedCaseInsensitiveText() {
    let composed = Word(text: "Adiós")
    let decomposed = Word(text: "adio\u{301}s ")
    #expect(composed.naturalKey == decomposed.naturalKey)
    let library = Library(name: "Spanish", language: "es", words: [composed, decomposed])
    #expect(library.validate().map(\.path) == [[.key("words"), .index(1), .key("text")]])
  }

  @Test func meetingRules() {
    var meeting = Meeting(
      scrum: UUID(), date: Date(), length: 10, duration: 100, attendees: ["Ada", ""],
      speakers: [SpeakerTime(name: "Ada", seconds: 90), SpeakerTime(name: "Grace", seconds: 20)])
    let issues = meeting.validate()
    #expect(issues.count == 2)
    #expect(issues[0].path == [.key("attendees"), .index(1)])
    #expect(issues[1].severity == .warning)
    #expect(
      issues[1].message == "speakers add up to 110 s, more than the meeting's duration of 100 s")
    meeting.duration = -1
    #expect(meeting.validate().contains { $0.path == [.key("duration")] })
  }

  @Test func configRefusesNewerFormats() {
    #expect(RepoConfig().validate().isEmpty)
    let newer = RepoConfig(format: 2)
    #expect(newer.validate().first?.message.contains("newer than this dinger understands") == true)
  }

  @Test func quizScoreCountsCorrectAnswers() {
    let quiz = QuizResult(
      library: UUID(), date: Date(),
      questions: [
        .init(word: "a", correct: true), .init(word: "b", correct: false),
        .init(word: "c", correct: true),
      ])
    #expect(quiz.score == 2)
    #expect(quiz.validate().isEmpty)
  }

  @Test func themesCarryTheirColoursAndTextContrast() {
    #expect(Theme.allCases.count == 16)
    #expect(Theme.yellow.rgb == (1, 0.875, 0.302))
    #expect(Theme.allCases.filter(\.hasLightText) == [.indigo, .magenta, .navy, .oxblood, .purple])
    #expect(
      Theme.unknownMessage("yelow").hasPrefix("unknown theme 'yelow' (did you mean 'yellow'?)"))
  }

  @Test(arguments: [
    ("titel", ["title", "theme", "length"], "title"), ("lenght", ["length"], "length"),
    ("Theme", ["theme"], "theme"), ("atendees", ["attendees"], "attendees"),
  ])
  func suggestions(input: String, candidates: [String], best: String) {
    #expect(Suggestions.closest(to: input, in: candidates).first == best)
  }

  @Test func noSuggestionForSomethingUnrelated() {
    #expect(Suggestions.closest(to: "owner", in: Scrum.keys).isEmpty)
  }
}
