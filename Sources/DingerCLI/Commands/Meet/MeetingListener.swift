import Base
import Components
import FoundationEssentials
import Glibc
import Models
import Providers

/// A timed meeting's transcription, as the timer sees it: starts the transcriber (or notes why
/// it can't), tells it each speaker change, and makes the meeting's turns at the end. Never
/// stops the meeting: whatever goes wrong ends in a note for the meeting's notes.
final class MeetingListener: @unchecked Sendable {
  private let lock = Lock()
  private let live: LiveTranscription?
  /// Why there is no transcription (it could not start, or it stopped), and when it stopped.
  private var off: String?
  private var stoppedAt: Int?
  private var everHeard = false
  /// Each turn: the speaker and the meeting second it began.
  private var turns: [(speaker: String, start: Int)]
  private var current = 0

  /// Starts the transcriber when asked; `first` speaks first.
  init(transcribe: Bool, names: [String], first: String, team: TeamModel.Prepared? = nil) {
    turns = [(first, 0)]
    guard transcribe else {
      live = nil
      return
    }
    do {
      live = try LiveTranscription.start(names: names, team: team)
    } catch {
      live = nil
      off = "\(error)"
    }
  }

  /// Whether there is transcription to show at all.
  var isOn: Bool { live != nil || off != nil }

  /// Why transcription could not start (before the screen takes the terminal), if it could not.
  var startFailure: String? { live == nil ? lock.withLock { off } : nil }

  /// Notes a speaker change (true when `timer` has moved on since the last call).
  @discardableResult
  func follow(_ timer: MeetingTimer) -> Bool {
    let changed: Bool = lock.withLock {
      guard timer.current != current else { return false }
      current = timer.current
      turns.append((timer.speakers[timer.current], timer.elapsed))
      return true
    }
    if changed { live?.turn(timer.speakers[timer.current]) }
    return changed
  }

  /// The screen's transcription line.
  func status(_ timer: MeetingTimer) -> MeetingScreen.Listening? {
    guard isOn else { return nil }
    if let live, let failure = live.failure {
      lock.withLock {
        if stoppedAt == nil {
          stoppedAt = timer.elapsed
          off = failure
        }
      }
      return .off("stopped: " + failure)
    }
    if let live {
      let level = live.level
      let heard = lock.withLock {
        if level >= 5 { everHeard = true }
        return everHeard
      }
      if let since = live.lostSince { return .behind(level, since: Int(since)) }
      return .level(level, heard: heard)
    }
    return .off(lock.withLock { off } ?? "")
  }

  /// Stops transcription without waiting for the rest (a discarded meeting).
  func cancel() { live?.cancel() }

  /// Ends transcription: the meeting's turns (empty without transcription) and a note for
  /// the meeting's notes when something went wrong.
  func finish(elapsed: Int) -> (turns: [TranscriptTurn], note: String?) {
    guard isOn else { return ([], nil) }
    guard let live else {
      return ([], "Not transcribed: \(lock.withLock { off } ?? "the transcriber did not start").")
    }
    let result = live.finish()
    return lock.withLock {
      let made = turns.enumerated().map { i, turn in
        TranscriptTurn(speaker: turn.speaker, start: turn.start, text: result.heard[i] ?? "")
      }
      var notes: [String] = []
      if !result.lost.isEmpty { notes.append(LostAudioNote.text(result.lost, elapsed: elapsed)) }
      if let failure = off ?? result.failure {
        let at = MeetingScreen.clock(stoppedAt ?? elapsed)
        notes.append(
          "Transcription stopped at \(at): \(failure). The text heard before that is kept.")
      }
      return (made, notes.isEmpty ? nil : notes.joined(separator: "\n"))
    }
  }
}
