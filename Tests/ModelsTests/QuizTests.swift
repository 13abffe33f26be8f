import Clocks
import Foundation
import Models
import TestSupport
import Testing

@Suite struct QuizTests {
  static func words(_ pairs: [(String, String)]) -> [Word] {
    pairs.map { Word(text: $0.0, meanings: [Meaning(definition: $0.1)]) }
  }

  static let spanish = words([
    ("hola", "hello"), ("gato", "cat"), ("perro", "dog"), ("casa", "house"), ("agua", "water"),
    ("libro", "book"), ("sol", "sun"),
  ])

  @Test func choicesNeverRepeatTheAnswerOrEachOther() {
    // Two words share a definition (in other case and spacing): it must never show as a wrong choice.
    let pool = Self.spanish + Self.words([("hola!", "  Hello "), ("adiós", "bye")])
    for seed in 0..<200 {
      var rng = SeededGenerator(seed: UInt64(seed))
      let plan = QuizPlanner.plan(
        words: Self.spanish, pool: pool, history: [], count: 5, using: &rng)
      #expect(plan.count == 5)
      #expect(Set(plan.map(\.word)).count == 5, "no word asked twice")
      for q in plan {
        let right = Self.spanish.first { $0.text == q.word }!.meanings[0].definition
        #expect(q.choices[q.answer] == right)
        #expect(q.choices.count == 4)
        let normalized = q.choices.map { $0.lowercased().trimmingCharacters(in: .whitespaces) }
        #expect(Set(normalized).count == 4, "\(q.choices)")
      }
    }
  }

  @Test func theAnswerMovesAround() {
    var rng = SeededGenerator(seed: 7)
    var positions = Set<Int>()
    for _ in 0..<50 {
      let plan = QuizPlanner.plan(
        words: Self.spanish, pool: Self.spanish, history: [], count: 1, using: &rng)
      positions.insert(plan[0].answer)
    }
    #expect(positions == [0, 1, 2, 3])
  }

  @Test func fewWordsGiveFewerChoicesOrNoQuiz() {
    var rng = SeededGenerator(seed: 1)
    let two = Self.words([("hola", "hello"), ("gato", "cat")])
    let plan = QuizPlanner.plan(words: two, pool: two, history: [], count: 10, using: &rng)
    #expect(plan.count == 2)
    #expect(plan.allSatisfy { $0.choices.count == 2 })
    let one = Self.words([("hola", "hello")])
    #expect(QuizPlanner.plan(words: one, pool: one, history: [], count: 10, using: &rng).isEmpty)
    let undefined = [Word(text: "hola"), Word(text: "gato", meanings: [Meaning(definition: " ")])]
    #expect(QuizPlanner.askable(undefined).isEmpty)
    #expect(QuizPlanner.plan(words: [], pool: [], history: [], count: 3, using: &rng).isEmpty)
  }

  @Test func missedWordsComeUpMoreOften() {
    let history = [
      QuizResult(
        library: UUID(), date: Date(),
        questions: Array(
          repeating: QuizAnswer(word: "Perro", correct: false), count: 9)
          + [QuizAnswer(word: "gato", correct: true), QuizAnswer(word: "sol", correct: false)])
    ]
    #expect(QuizPlanner.weights(for: Self.spanish, history: history) == [1, 1, 5, 1, 1, 1, 2])
    var rng = SeededGenerator(seed: 42)
    var first: [String: Int] = [:]
    for _ in 0..<2_000 {
      let q = QuizPlanner.plan(
        words: Self.spanish, pool: Self.spanish, history: history, count: 1, using: &rng)
      first[q[0].word, default: 0] += 1
    }
    // Weights 5 of 12 and 1 of 12: about 833 and 167 of 2,000.
    #expect((700...950).contains(first["perro"] ?? 0), "\(first)")
    #expect((100...250).contains(first["hola"] ?? 0), "\(first)")
    #expect(
      (first["perro"] ?? 0) > (first["sol"] ?? 0) && (first["sol"] ?? 0) > (first["hola"] ?? 0))
  }

  @Test func answersTimeoutsAndScore() {
    let questions = [
      QuizQuestion(word: "hola", choices: ["cat", "hello"], answer: 1),
      QuizQuestion(word: "gato", choices: ["cat", "dog"], answer: 0),
      QuizQuestion(word: "sol", choices: ["sun", "dog"], answer: 0),
    ]
    var state = QuizState(questions: questions, seconds: 3)
    #expect(state.answer(5) == nil, "a key with no choice does nothing")
    #expect(state.answer(1) == .answered(correct: true))
    #expect(state.tick() == nil)
    #expect(state.remaining == 2)
    #expect(state.answer(1) == .answered(correct: false))
    #expect(state.remaining == 3, "each question gets its full time")
    #expect(state.tick() == nil)
    #expect(state.tick() == nil)
    #expect(state.tick() == .timedOut)
    #expect(state.isFinished)
    #expect(state.tick() == nil)
    #expect(state.answer(0) == nil)
    #expect(state.score == 1)
    #expect(state.answers.map(\.correct) == [true, false, false])
    #expect(QuizState(questions: [], seconds: 0).isFinished)
  }

  @Test func aSessionCountsDownOnATestClock() async {
    let clock = TestClock()
    let events = EventLog()
    let questions = [
      QuizQuestion(word: "hola", choices: ["cat", "hello"], answer: 1),
      QuizQuestion(word: "gato", choices: ["cat", "dog"], answer: 0),
    ]
    let session = QuizSession(QuizState(questions: questions, seconds: 10)) { event, _ in
      events.add(event)
    }
    let task = Task { await session.run(clock: clock) }
    defer { task.cancel() }
    var steps = 0
    while await session.state.remaining > 6 && steps < 100 {
      await clock.advance(by: .seconds(1))
      steps += 1
    }
    #expect(await session.state.remaining == 6)
    #expect(await session.state.current == 0)
    await session.answer(1)
    #expect(await session.state.current == 1)
    // Nobody answers the second question: after its 10 seconds it counts as wrong.
    steps = 0
    var counted: [Int] = []
    while await !session.state.isFinished && steps < 100 {
      await clock.advance(by: .seconds(1))
      steps += 1
      let state = await session.state
      if !state.isFinished && counted.last != state.remaining { counted.append(state.remaining) }
    }
    #expect(await session.state.isFinished)
    // NB: the seconds the session counted, not the advances: on a loaded machine an advance
    // can come before the session sleeps again, and is lost (12 advances for its 10 seconds).
    #expect(Array(counted.drop { $0 == 10 }) == Array((1...9).reversed()), "\(counted)")
    #expect(events.all == [.answered(correct: true), .timedOut])
    #expect(await session.state.score == 1)
  }
}

final class EventLog: @unchecked Sendable {
  private let lock = NSLock()
  private var events: [QuizState.Event] = []
  var all: [QuizState.Event] { lock.withLock { events } }
  func add(_ e: QuizState.Event) { lock.withLock { events.append(e) } }
}
