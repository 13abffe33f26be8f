import Base
import FoundationEssentials
import Glibc
import Models
import Synchronization

/// What the quiz's feedback line says, in the quiz's terms (the frontend words it).
public enum QuizFeedback: Sendable, Equatable {
  case none
  case right(word: String)
  case wrong(word: String, meaning: String, timedOut: Bool)
  /// "Leave without saving?" after the first q with answers in.
  case askingToLeave
}

/// What an input does in a quiz.
public enum QuizControl: Sendable, Equatable {
  case answer(Int)
  case askToQuit
  case quit
  case stay
}

/// The quiz's side facing people: inputs in, the question and feedback out.
public protocol QuizFrontend: Sendable {
  associatedtype Input: Sendable
  func inputs(stop: @escaping @Sendable () -> Bool) -> AsyncStream<Input>
  /// What `input` does, with `answered` questions answered and "leave?" `asking` or not.
  func control(_ input: Input, answered: Int, asking: Bool) -> QuizControl?
  func show(_ state: QuizState, feedback: QuizFeedback)
  /// A wrong answer or time running out.
  func bell()
  func close()
}

/// Runs a vocabulary quiz on an injected clock and records the result as one commit, as
/// `MeetingRunner` runs a meeting: `dinger quiz` gives it the terminal, tests a script.
public struct QuizRunner: Sendable {
  public let library: StoredLibrary
  public let libraries: LibraryProvider

  /// A runner.
  public init(library: StoredLibrary, libraries: LibraryProvider) {
    self.library = library
    self.libraries = libraries
  }

  /// How it ended.
  public enum Outcome: Sendable, Equatable {
    /// Left early: nothing recorded.
    case leftEarly
    /// Every question asked; the result recorded.
    case recorded(QuizState, path: String, subject: String)
  }

  /// Runs `state` from `started`, a question's second on `clock`.
  public func run<F: QuizFrontend, C: Clock>(
    _ state: QuizState, frontend: F, clock: C, started: Date,
    refresh: Duration = .milliseconds(200)
  ) async throws -> Outcome where C.Duration == Duration {
    let over = Mutex(false)
    let feedback = Mutex(QuizFeedback.none)
    let session = QuizSession(state) { event, state in
      let asked = state.questions[state.current - 1]
      switch event {
      case .answered(correct: true): feedback.withLock { $0 = .right(word: asked.word) }
      case .answered(correct: false), .timedOut:
        frontend.bell()
        feedback.withLock {
          $0 = .wrong(
            word: asked.word, meaning: asked.choices[asked.answer], timedOut: event == .timedOut)
        }
      }
      if state.isFinished { over.withLock { $0 = true } }
    }
    let ticking = Task { await session.run(clock: clock) }
    let drawing = Task {
      while !Task.isCancelled {
        let now = await session.state
        frontend.show(now, feedback: feedback.withLock { $0 })
        if now.isFinished { over.withLock { $0 = true } }
        do { try await clock.sleep(for: refresh) } catch { return }
      }
    }
    var quit = false
    var asking = false
    for await input in frontend.inputs(stop: { over.withLock { $0 } }) {
      let answered = await session.state.current
      guard let control = frontend.control(input, answered: answered, asking: asking) else {
        continue
      }
      switch control {
      case .answer(let choice): await session.answer(choice)
      case .askToQuit:
        asking = true
        feedback.withLock { $0 = .askingToLeave }
      case .quit: quit = true
      case .stay:
        asking = false
        feedback.withLock { $0 = .none }
      }
      if quit { break }
      frontend.show(await session.state, feedback: feedback.withLock { $0 })
    }
    ticking.cancel()
    drawing.cancel()
    _ = await ticking.value
    _ = await drawing.value
    frontend.close()
    let final = await session.state
    guard !quit, final.isFinished else { return .leftEarly }
    let result = QuizResult(
      library: library.library.id ?? UUID(), date: started, seconds: final.seconds,
      questions: final.answers)
    let (path, subject) = try libraries.record(result, on: try libraries.find(library.slug))
    return .recorded(final, path: path, subject: subject)
  }
}
