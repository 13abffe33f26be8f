import Base
import FoundationEssentials
import Glibc

/// One quiz question: a word and candidate meanings, one of them right.
public struct QuizQuestion: Sendable, Equatable {
  /// The word asked.
  public var word: String
  /// The candidate definitions, in the order shown (keys 1-4).
  public var choices: [String]
  /// Index of the right one in `choices`.
  public var answer: Int

  /// Creates a question.
  public init(word: String, choices: [String], answer: Int) {
    (self.word, self.choices, self.answer) = (word, choices, answer)
  }
}

/// Chooses the questions of a quiz.
///
/// The rule for which words come up (kept simple so a person can predict it): each word's
/// weight is 1 plus the number of times it was answered wrong in the library's earlier quizzes,
/// at most 5; words are drawn without repeats, each draw picking a word with probability
/// proportional to its weight. Wrong choices are the first definitions of other words of the
/// same language, never equal (ignoring case and spaces) to the right one or to each other.
public enum QuizPlanner {
  /// A word's weight from earlier results: 1 + times missed, capped at 5.
  public static func weights(for words: [Word], history: [QuizResult]) -> [Int] {
    var missed: [String: Int] = [:]
    for result in history {
      for q in result.questions where !q.correct {
        missed[Word(text: q.word).naturalKey, default: 0] += 1
      }
    }
    return words.map { min(5, 1 + missed[$0.naturalKey, default: 0]) }
  }

  /// The words that can be asked: those with a definition.
  public static func askable(_ words: [Word]) -> [Word] {
    words.filter { $0.meanings.contains { !$0.definition.trimmed.isEmpty } }
  }

  /// Up to `count` questions on `words`, wrong choices drawn from `pool` (words of the same
  /// language, the library's own included). Throws nothing: too few words give fewer questions.
  public static func plan<R: RandomNumberGenerator>(
    words: [Word], pool: [Word], history: [QuizResult], count: Int, using rng: inout R
  ) -> [QuizQuestion] {
    var candidates = askable(words)
    var weights = Self.weights(for: candidates, history: history)
    var chosen: [Word] = []
    while chosen.count < count && !candidates.isEmpty {
      let total = weights.reduce(0, +)
      var pick = Int.random(in: 0..<total, using: &rng)
      var i = 0
      while pick >= weights[i] {
        pick -= weights[i]
        i += 1
      }
      chosen.append(candidates.remove(at: i))
      weights.remove(at: i)
    }
    let definitions = askable(pool).map { ($0.naturalKey, definition(of: $0)) }
    return chosen.compactMap { word in
      let right = definition(of: word)
      var seen: Set<String> = [normalized(right)]
      var wrong: [String] = []
      for (key, text) in definitions.shuffled(using: &rng) where key != word.naturalKey {
        if seen.insert(normalized(text)).inserted { wrong.append(text) }
        if wrong.count == 3 { break }
      }
      guard !wrong.isEmpty else { return nil }
      let answer = Int.random(in: 0...wrong.count, using: &rng)
      var choices = wrong
      choices.insert(right, at: answer)
      return QuizQuestion(word: word.text, choices: choices, answer: answer)
    }
  }

  static func definition(of word: Word) -> String {
    word.meanings.first { !$0.definition.trimmed.isEmpty }!.definition.trimmed
  }

  static func normalized(_ s: String) -> String {
    s.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
  }
}

/// A quiz in progress, as pure state: the current question, its countdown, the answers so far.
/// Running out of time counts as a wrong answer.
public struct QuizState: Sendable, Equatable {
  /// The questions, in order.
  public let questions: [QuizQuestion]
  /// Seconds allowed per question.
  public let seconds: Int
  /// The question being asked (== questions.count when finished).
  public private(set) var current = 0
  /// Seconds left for the current question.
  public private(set) var remaining: Int
  /// What happened to each question asked so far: the choice made (nil when time ran out).
  public private(set) var picks: [Int?] = []

  /// What just happened.
  public enum Event: Sendable, Equatable {
    /// A question was answered (right or wrong).
    case answered(correct: Bool)
    /// Time ran out on a question.
    case timedOut
  }

  /// A quiz of `questions` with `seconds` (at least 1) for each.
  public init(questions: [QuizQuestion], seconds: Int) {
    self.questions = questions
    self.seconds = max(1, seconds)
    remaining = max(1, seconds)
  }

  /// True when every question has been answered or timed out.
  public var isFinished: Bool { current >= questions.count }

  /// Questions answered right.
  public var score: Int {
    zip(picks, questions).filter { $0.0 == $0.1.answer }.count
  }

  /// The results, question by question.
  public var answers: [QuizAnswer] {
    zip(picks, questions).map { QuizAnswer(word: $0.1.word, correct: $0.0 == $0.1.answer) }
  }

  /// One second passes; at zero the question counts as wrong and the next one starts.
  public mutating func tick() -> Event? {
    guard !isFinished else { return nil }
    remaining -= 1
    guard remaining <= 0 else { return nil }
    advance(nil)
    return .timedOut
  }

  /// Answers the current question with choice `index` (0-based); out-of-range choices are ignored.
  public mutating func answer(_ index: Int) -> Event? {
    guard !isFinished, questions[current].choices.indices.contains(index) else { return nil }
    let correct = index == questions[current].answer
    advance(index)
    return .answered(correct: correct)
  }

  private mutating func advance(_ pick: Int?) {
    picks.append(pick)
    current += 1
    remaining = seconds
  }
}

/// Runs a `QuizState` on a clock: one tick a second until the quiz is over. The clock is
/// injected, so tests drive it with a test clock and the terminal with the real one.
public actor QuizSession {
  /// The quiz's current state.
  public private(set) var state: QuizState
  private let onEvent: @Sendable (QuizState.Event, QuizState) -> Void

  /// A session; `onEvent` hears each answer and timeout.
  public init(
    _ state: QuizState,
    onEvent: @escaping @Sendable (QuizState.Event, QuizState) -> Void = { _, _ in }
  ) {
    self.state = state
    self.onEvent = onEvent
  }

  /// Ticks once a second on `clock` until the quiz is over or the task is cancelled.
  public func run<C: Clock>(clock: C) async where C.Duration == Duration {
    while !state.isFinished {
      do { try await clock.sleep(for: .seconds(1)) } catch { return }
      if let event = state.tick() { onEvent(event, state) }
    }
  }

  /// Answers the current question.
  public func answer(_ index: Int) {
    if let event = state.answer(index) { onEvent(event, state) }
  }
}
