import Clocks
import Foundation
import Models
import Providers
import Synchronization
import Testing

/// The meeting loop without a terminal: a scripted frontend and a test clock drive
/// `MeetingRunner`, and what it records is read back from the store.
@Suite struct MeetingRunnerTests {
  /// What the script sends.
  enum Input: Sendable { case next, pause, end, save, discard, help }

  /// A frontend whose inputs a test pushes, and which remembers what it showed and rang.
  final class Script: MeetingFrontend, Sendable {
    private let queue = Mutex<[Input]>([])
    private let state = Mutex((dings: 0, frames: 0, helpShown: false, closed: false, changes: 0))

    func push(_ input: Input) { queue.withLock { $0.append(input) } }
    var dings: Int { state.withLock { $0.dings } }
    var helpShown: Bool { state.withLock { $0.helpShown } }
    var closed: Bool { state.withLock { $0.closed } }

    func inputs(stop: @escaping @Sendable () -> Bool) -> AsyncStream<Input> {
      AsyncStream { continuation in
        let task = Task {
          while !stop() && !Task.isCancelled {
            let next = self.queue.withLock { q -> Input? in q.isEmpty ? nil : q.removeFirst() }
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

    func control(_ input: Input, _ timer: MeetingTimer) -> MeetingControl? {
      switch input {
      case .next: return .timer { $0.next() }
      case .pause:
        return .timer {
          $0.togglePause(); return nil
        }
      case .end:
        return .timer {
          $0.requestEnd(); return nil
        }
      case .save:
        return .timer {
          $0.confirmEnd(.saveAndEnd); return nil
        }
      case .discard:
        return .timer {
          $0.confirmEnd(.discard); return nil
        }
      case .help: return .toggleHelp
      }
    }

    func show(_ timer: MeetingTimer, help: Bool) {
      state.withLock {
        $0.frames += 1
        if help { $0.helpShown = true }
      }
    }
    func ding() { state.withLock { $0.dings += 1 } }
    func speakerChanged(_ timer: MeetingTimer) { state.withLock { $0.changes += 1 } }
    func close() { state.withLock { $0.closed = true } }
  }

  let store = InMemoryStore(files: [
    "scrums/design.yaml":
      "id: 0f6d1a52-4c0e-4b8e-9a57-2d1f3c8b7e01\ntitle: Design\nlength: 1\nattendees: [Ada, Bob]\n"
  ])

  func runner() throws -> MeetingRunner {
    MeetingRunner(
      scrum: try ScrumProvider.inMemory(store).find("design"), meetings: .inMemory(store))
  }

  /// Waits (real time, briefly) until `condition` holds: the runner's tasks run concurrently.
  func eventually(_ condition: () async -> Bool) async {
    for _ in 0..<2000 {
      if await condition() { return }
      try? await Task.sleep(for: .milliseconds(1))
    }
  }

  @Test func aSavedMeetingIsRecordedWithItsSpeakersAndNotes() async throws {
    let clock = TestClock()
    let script = Script()
    let started = Date(timeIntervalSince1970: 1_795_000_000)
    let timer = MeetingTimer(attendees: ["Ada", "Bob"], minutes: 1)
    let run = Task {
      try await runner().run(
        timer, frontend: script, clock: clock, started: started, dingOnChange: true
      ) { ended in MeetingRunner.WrapUp(transcript: "ended at \(ended.elapsed) s\n") }
    }
    for _ in 0..<12 { await clock.advance(by: .seconds(1)) }
    script.push(.help)
    script.push(.next)
    await eventually { script.dings >= 1 }
    for _ in 0..<5 { await clock.advance(by: .seconds(1)) }
    script.push(.end)
    script.push(.save)
    let outcome = try await run.value
    guard case .recorded(let saved, let subject) = outcome else {
      Issue.record("not recorded: \(outcome)")
      return
    }
    #expect(subject.hasPrefix("Record meeting of Design"))
    #expect(saved.meeting.date == started)
    #expect(saved.meeting.speakers.map(\.name) == ["Ada", "Bob"])
    let ada = saved.meeting.speakers[0].seconds
    #expect((10...13).contains(ada), "Ada spoke \(ada) s")
    let duration = try #require(saved.meeting.duration)
    #expect(duration >= ada + 4)
    #expect(saved.meeting.transcript == "ended at \(duration) s\n")
    #expect(store.text(saved.path)?.contains("scrum: 0f6d1a52") == true)
    #expect(script.helpShown && script.closed)
  }

  @Test func aDiscardedMeetingRecordsNothing() async throws {
    let clock = TestClock()
    let script = Script()
    let run = Task {
      try await runner().run(
        MeetingTimer(attendees: ["Ada", "Bob"], minutes: 1), frontend: script, clock: clock,
        started: Date()
      ) { _ in
        Issue.record("a discarded meeting was wrapped up")
        return MeetingRunner.WrapUp()
      }
    }
    await clock.advance(by: .seconds(3))
    script.push(.end)
    script.push(.discard)
    #expect(try await run.value == .discarded)
    #expect(store.changes.isEmpty)
    #expect(script.closed)
  }

  /// Nobody presses anything: the speakers' shares run out on the clock, each with a ding, and
  /// the meeting ends by itself and is saved.
  @Test func theClockEndsAMeetingNobodyTouches() async throws {
    let clock = TestClock()
    let script = Script()
    let run = Task {
      try await runner().run(
        MeetingTimer(attendees: ["Ada", "Bob"], minutes: 1), frontend: script, clock: clock,
        started: Date()
      ) { _ in MeetingRunner.WrapUp() }
    }
    for _ in 0..<70 { await clock.advance(by: .seconds(1)) }
    guard case .recorded(let saved, _) = try await run.value else {
      Issue.record("the meeting did not end on its own")
      return
    }
    #expect(saved.meeting.duration == 60)
    #expect(saved.meeting.speakers.map(\.seconds) == [30, 30])
    #expect(script.dings >= 2)
  }
}
