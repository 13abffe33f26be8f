import Base
import Components
import FoundationEssentials
import Glibc
import Models
import Providers
import Synchronization

/// A timed meeting's transcription, as the timer sees it: starts the transcriber (or notes why
/// it can't), tells it each speaker change, and makes the meeting's turns at the end. Never
/// stops the meeting: whatever goes wrong ends in a note for the meeting's notes.
final class MeetingListener: Sendable {
  private struct State {
    /// Why there is no transcription (it could not start, or it stopped), and when it stopped.
    var off: String?
    var stoppedAt: Int?
    var everHeard = false
    /// Each turn: the speaker and the meeting second it began.
    var turns: [(speaker: String, start: Int)]
    var current = 0
  }
  private let state: Mutex<State>
  private let live: LiveTranscription?

  /// Starts the transcriber when asked; `first` speaks first.
  init(transcribe: Bool, names: [String], first: String, team: TeamModel.Prepared? = nil) {
    var initial = State(turns: [(first, 0)])
    if transcribe {
      do {
        live = try LiveTranscription.start(names: names, team: team)
      } catch {
        live = nil
        initial.off = "\(error)"
      }
    } else {
      live = nil
    }
    state = Mutex(initial)
  }

  /// Whether there is transcription to show at all.
  var isOn: Bool { live != nil || state.withLock { $0.off != nil } }

  /// Why transcription could not start (before the screen takes the terminal), if it could not.
  var startFailure: String? { live == nil ? state.withLock { $0.off } : nil }

  /// Notes a speaker change (true when `timer` has moved on since the last call).
  @discardableResult
  func follow(_ timer: MeetingTimer) -> Bool {
    let changed: Bool = state.withLock { state in
      guard timer.current != state.current else { return false }
      state.current = timer.current
      state.turns.append((timer.speakers[timer.current], timer.elapsed))
      return true
    }
    if changed { live?.turn(timer.speakers[timer.current]) }
    return changed
  }

  /// The screen's transcription line.
  func status(_ timer: MeetingTimer) -> MeetingScreen.Listening? {
    guard isOn else { return nil }
    if let live, let failure = live.failure {
      state.withLock { state in
        if state.stoppedAt == nil {
          state.stoppedAt = timer.elapsed
          state.off = failure
        }
      }
      return .off("stopped: " + failure)
    }
    if let live {
      let level = live.level
      let heard = state.withLock { state in
        if level >= 5 { state.everHeard = true }
        return state.everHeard
      }
      if let since = live.lostSince { return .behind(level, since: Int(since)) }
      return .level(level, heard: heard)
    }
    return .off(state.withLock { $0.off } ?? "")
  }

  /// Stops transcription without waiting for the rest (a discarded meeting).
  func cancel() { live?.cancel() }

  /// Ends transcription: the meeting's turns (empty without transcription) and a note for
  /// the meeting's notes when something went wrong.
  func finish(elapsed: Int) -> (turns: [TranscriptTurn], note: String?) {
    guard isOn else { return ([], nil) }
    guard let live else {
      return (
        [], "Not transcribed: \(state.withLock { $0.off } ?? "the transcriber did not start")."
      )
    }
    let result = live.finish()
    return state.withLock { state in
      let made = state.turns.enumerated().map { i, turn in
        TranscriptTurn(speaker: turn.speaker, start: turn.start, text: result.heard[i] ?? "")
      }
      var notes: [String] = []
      if !result.lost.isEmpty { notes.append(LostAudioNote.text(result.lost, elapsed: elapsed)) }
      if let failure = state.off ?? result.failure {
        let at = MeetingScreen.clock(state.stoppedAt ?? elapsed)
        notes.append(
          "Transcription stopped at \(at): \(failure). The text heard before that is kept.")
      }
      return (made, notes.isEmpty ? nil : notes.joined(separator: "\n"))
    }
  }
}
