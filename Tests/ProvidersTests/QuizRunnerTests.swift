import Clocks
import Foundation
import Models
import Providers
import Synchronization
import Testing

/// The quiz loop without a terminal: scripted answers on a test clock.
@Suite struct QuizRunnerTests {
  final class Script: QuizFrontend, Sendable {
    private let queue = Mutex<[QuizControl]>([])
    private let seen = Mutex<(feedback: [QuizFeedback], bells: Int, closed: Bool)>(([], 0, false))

    func push(_ c: QuizControl) { queue.withLock { $0.append(c) } }
    var feedback: [QuizFeedback] { seen.withLock { $0.feedback } }
    var bells: Int { seen.withLock { $0.bells } }

    func inputs(stop: @escaping @Sendable () -> Bool) -> AsyncStream<QuizControl> {
      AsyncStream { continuation in
        let task = Task {
          while !stop() && !Task.isCancelled {
            let next = self.queue.withLock { q -> QuizControl? in q.isEmpty ? nil : q.removeFirst()
            }
            if let next {
              continuation.yield(next)
            } else {
              try? await Task.sleep(for: .milliseconds(1))
            }
          }
          continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
      }
    }
    func control(_ input: QuizControl, answered: Int, asking: Bool) -> QuizControl? { input }
    func show(_ state: QuizState, feedback: QuizFeedback) {
      seen.withLock { if $0.feedback.last != feedback { $0.feedback.append(feedback) } }
    }
    func bell() { seen.withLock { $0.bells += 1 } }
    func close() { seen.withLock { $0.closed = true } }
  }

  let store = InMemoryStore(files: [
    "libraries/spanish.yaml":
      "id: 1f6d1a52-4c0e-4b8e-9a57-2d1f3c8b7e01\nname: Spanish\nlanguage: es\nwords:\n  - {text: agua, meanings: [{definition: water}]}\n  - {text: sol, meanings: [{definition: sun}]}\n"
  ])

  func questions() -> [QuizQuestion] {
    [
      QuizQuestion(word: "agua", choices: ["water", "sun"], answer: 0),
      QuizQuestion(word: "sol", choices: ["water", "sun"], answer: 1),
    ]
  }

  @Test func answersAndATimeoutAreRecorded() async throws {
    let provider = LibraryProvider.inMemory(store)
    let library = try provider.find("spanish")
    let clock = TestClock()
    let script = Script()
    let run = Task {
      try await QuizRunner(library: library, libraries: provider).run(
        QuizState(questions: questions(), seconds: 5), frontend: script, clock: clock,
        started: Date(timeIntervalSince1970: 1_795_000_000))
    }
    script.push(.answer(0))  // agua: right
    for _ in 0..<12 { await clock.advance(by: .seconds(1)) }  // sol: time runs out
    guard case .recorded(let final, let path, let subject) = try await run.value else {
      Issue.record("not recorded")
      return
    }
    #expect(final.score == 1)
    #expect(subject == "Quiz on Spanish: 1/2")
    #expect(store.text(path)?.contains("correct: false") == true)
    #expect(script.feedback.contains(.right(word: "agua")))
    #expect(final.answers.map(\.correct) == [true, false])
    #expect(script.bells == 1)
  }

  @Test func leavingEarlyRecordsNothing() async throws {
    let provider = LibraryProvider.inMemory(store)
    let script = Script()
    let run = Task {
      try await QuizRunner(library: try provider.find("spanish"), libraries: provider).run(
        QuizState(questions: questions(), seconds: 5), frontend: script, clock: TestClock(),
        started: Date())
    }
    script.push(.answer(1))
    script.push(.askToQuit)
    script.push(.quit)
    #expect(try await run.value == .leftEarly)
    #expect(store.changes.isEmpty)
    #expect(script.feedback.contains(.askingToLeave))
  }
}
