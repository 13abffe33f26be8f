import Base
import FoundationEssentials
import Glibc
import Models
import Synchronization

/// What a timed meeting does to the timer for one input: change it, or show or hide the help.
public enum MeetingControl: Sendable {
  case timer(@Sendable (inout MeetingTimer) -> MeetingTimer.Event?)
  case toggleHelp
}

/// The meeting's side facing people: where inputs come from and where the timer is shown. The
/// terminal is one (keys, the full-screen view, the bell); a test's script is another.
public protocol MeetingFrontend: Sendable {
  associatedtype Input: Sendable
  /// Inputs until `stop()` says the meeting is over (or the inputs end).
  func inputs(stop: @escaping @Sendable () -> Bool) -> AsyncStream<Input>
  /// What `input` does with the timer as it is; nil: nothing.
  func control(_ input: Input, _ timer: MeetingTimer) -> MeetingControl?
  /// Shows the timer (and the help, when asked for).
  func show(_ timer: MeetingTimer, help: Bool)
  /// A speaker's time is up, or the meeting's (the timer's own events), or a change by hand
  /// with `dingOnChange`.
  func ding()
  /// The speaker changed (a transcriber follows).
  func speakerChanged(_ timer: MeetingTimer)
  /// The timer's screen is done: give the terminal back, drop keys typed meanwhile.
  func close()
}

/// Runs a timed meeting and records it: the timer ticking on an injected clock, inputs applied
/// as they come, the view refreshed, then the wrap-up (notes, transcript) and one commit.
/// `dinger meet` runs it with the terminal and the real clock; tests with a script and a test
/// clock.
public struct MeetingRunner: Sendable {
  /// The scrum met, and where meetings are recorded.
  public let scrum: StoredScrum
  public let meetings: MeetingProvider

  /// A runner.
  public init(scrum: StoredScrum, meetings: MeetingProvider) {
    self.scrum = scrum
    self.meetings = meetings
  }

  /// How it ended.
  public enum Outcome: Sendable, Equatable {
    /// Ended with "discard": nothing recorded.
    case discarded
    /// Recorded as one commit.
    case recorded(StoredMeeting, subject: String)
  }

  /// What the wrap-up adds to the meeting: notes and transcribed turns.
  public struct WrapUp: Sendable {
    public var transcript: String?
    public var turns: [TranscriptTurn]
    public init(transcript: String? = nil, turns: [TranscriptTurn] = []) {
      self.transcript = transcript
      self.turns = turns
    }
  }

  /// Runs `timer` from `started` (the meeting's date) with `frontend`: ticks once a `second` on
  /// `clock`, refreshes the view every `refresh`. A saved meeting gets `wrapUp`'s notes (its
  /// errors are the caller's to report: the meeting is recorded whatever happens to them).
  public func run<F: MeetingFrontend, C: Clock>(
    _ timer: MeetingTimer, frontend: F, clock: C, started: Date,
    second: Duration = .seconds(1), refresh: Duration = .milliseconds(200),
    dingOnChange: Bool = false, wrapUp: (MeetingTimer) async -> WrapUp
  ) async throws -> Outcome where C.Duration == Duration {
    let over = Flag()
    let help = Flag()
    let session = MeetingSession(timer) { event, _ in
      frontend.ding()
      if event == .finished { over.set() }
    }
    let ticking = Task { await session.run(clock: clock, second: second) }
    let drawing = Task {
      while !Task.isCancelled {
        let now = await session.timer
        frontend.speakerChanged(now)
        frontend.show(now, help: help.isSet)
        if now.isFinished { over.set() }
        do { try await clock.sleep(for: refresh) } catch { return }
      }
    }
    for await input in frontend.inputs(stop: { over.isSet }) {
      let before = await session.timer
      guard let control = frontend.control(input, before) else { continue }
      switch control {
      case .toggleHelp: help.toggle()
      case .timer(let change): await session.update(change)
      }
      let after = await session.timer
      frontend.speakerChanged(after)
      if after.current != before.current && dingOnChange && !after.isFinished { frontend.ding() }
      frontend.show(after, help: help.isSet)
      if after.isFinished { over.set() }
    }
    ticking.cancel()
    drawing.cancel()
    _ = await ticking.value
    _ = await drawing.value
    frontend.close()
    let ended = await session.timer
    guard case .finished(saved: true) = ended.phase else { return .discarded }
    frontend.speakerChanged(ended)
    let extra = await wrapUp(ended)
    let meeting = Meeting(
      scrum: scrum.scrum.id ?? UUID(), date: started, length: scrum.scrum.length,
      // NB: who was expected: the timer's speakers (an attendee away that day was not).
      duration: ended.elapsed, attendees: ended.speakers,
      speakers: ended.speakerTimes, transcript: extra.transcript, turns: extra.turns)
    let (saved, subject) = try meetings.record(meeting, of: scrum)
    return .recorded(saved, subject: subject)
  }

  /// A flag any thread sets.
  final class Flag: Sendable {
    private let value = Mutex(false)
    var isSet: Bool { value.withLock { $0 } }
    func set() { value.withLock { $0 = true } }
    func toggle() { value.withLock { $0.toggle() } }
  }
}
