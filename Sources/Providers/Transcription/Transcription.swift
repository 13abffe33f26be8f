import Base
import FoundationEssentials
import Glibc
import Models
import Processes
import Speech

/// Speech to text through `dinger-transcribe`: a live meeting heard from the default source,
/// or a recording made elsewhere. Text comes back by turn (a turn is one speaker's time).
public enum Transcription {
  /// What a transcription gave: the text of each turn (by the turn's number), what the helper
  /// noted, and what went wrong (nil when it finished).
  public struct Result: Sendable {
    public var heard: [Int: String] = [:]
    public var notes: [String] = []
    public var failure: String?
    /// Audio the transcriber dropped (it fell behind): where each span began in the recording
    /// and how long it was (0 while it goes on).
    public var lost: [(start: Double, seconds: Double)] = []

    /// Records a `lost` message: a span begins, or the one that began at `start` ends.
    mutating func lose(start: Double, seconds: Double) {
      if let i = lost.lastIndex(where: { $0.start == start }) {
        lost[i].seconds = seconds
      } else {
        lost.append((start, seconds))
      }
    }
  }

  /// Transcribes a WAV recording, with `turns` (names and start seconds in the recording).
  public static func recording(
    _ path: String, turns: [(name: String, start: Double)], names: [String],
    team: TeamModel.Prepared? = nil
  ) throws -> Result {
    let list = try TranscriberHelper.list(words: names, turns: turns)
    defer { unlink(list) }
    let (process, input, output, tail) = try TranscriberHelper.start(
      ["file", path, "--list", list] + teamArguments(team))
    input.close()
    var reader = MessageReader(output)
    var result = Result()
    var done = false
    while let message = reader.next() {
      switch message {
      case .heard(let turn, let text):
        result.heard[turn, default: ""].append(separator(result.heard[turn]) + text)
      case .note(let text): result.notes.append(text)
      case .error(let text): result.failure = text
      case .done: done = true
      default: break
      }
    }
    let ending = TranscriberHelper.ending(process)
    if !done, result.failure == nil {
      result.failure = ending + (tail.text.isEmpty ? "" : ": " + tail.text)
    }
    return result
  }

  static func separator(_ existing: String?) -> String { existing?.isEmpty == false ? " " : "" }

  /// The helper's arguments for the team's model.
  static func teamArguments(_ team: TeamModel.Prepared?) -> [String] {
    guard let team else { return [] }
    return ["--team-lm", team.path, "--team-weight", String(team.weight)]
  }

  /// How long a WAV recording is, in whole seconds (rounded), from its header; nil when the
  /// file can't be read or is not 16-bit PCM WAV.
  public static func length(ofRecording path: String) -> Int? {
    (try? recordingLength(path)).map { Int($0.rounded()) }
  }

  /// How long a recording is, in seconds, from its header; throws what is wrong with it (a
  /// folder, a pipe, not 16-bit PCM WAV, cut short), without waiting on a pipe.
  public static func recordingLength(_ path: String) throws(RecordingProblem) -> Double {
    do {
      return try WAVReader(path: path).header.seconds
    } catch {
      throw RecordingProblem(description: error.description)
    }
  }

  /// What is wrong with a recording.
  public struct RecordingProblem: Error, CustomStringConvertible {
    public var description: String
  }
}

/// A meeting being transcribed as it happens. Start it before the timer, tell it each speaker
/// change, and finish it when the meeting ends. It never stops the meeting: a helper that
/// cannot start or that dies leaves `failure` set, and what was heard until then is kept.
public final class LiveTranscription: Sendable {
  private struct State {
    var result = Transcription.Result()
    var latestLevel = 0
    var isReady = false
    var isDone = false
    /// The helper's output has ended and the helper has been reaped.
    var ended = false
  }
  private let state = Monitor(State())
  private let process: ChildProcess
  private let input: FileDescriptor
  private let tail: StderrTail

  private init(
    process: ChildProcess, input: FileDescriptor, output: FileDescriptor, tail: StderrTail
  ) {
    (self.process, self.input, self.tail) = (process, input, tail)
    Threads.start { [unowned self] in self.read(output) }
  }

  /// Starts the helper listening, teaching it `names`; waits until it hears (or says why it
  /// can't). Throws what is missing, in words a person can act on.
  public static func start(
    names: [String], team: TeamModel.Prepared? = nil, timeout: Double = 30
  ) throws -> LiveTranscription {
    let list = try TranscriberHelper.list(words: names)
    // NB: the helper reads the list before it says it is ready (or fails).
    defer { unlink(list) }
    let (process, input, output, tail) = try TranscriberHelper.start(
      ["listen", "--list", list] + Transcription.teamArguments(team))
    let live = LiveTranscription(process: process, input: input, output: output, tail: tail)
    let (ready, failure) = live.state.wait(seconds: timeout, until: { $0.isReady || $0.ended }) {
      state, _ in (state.isReady, state.result.failure)
    }
    if !ready {
      live.stop()
      throw TranscriberHelper.Missing(
        description: failure ?? "the transcriber did not start within \(Int(timeout)) s")
    }
    return live
  }

  /// The sound level now, 0-100.
  public var level: Int { state.withLock { $0.latestLevel } }
  /// Why transcription stopped, once it has.
  public var failure: String? { state.withLock { $0.result.failure } }
  /// Where (seconds since listening began) the first audio was dropped, if any was.
  public var lostSince: Double? { state.withLock { $0.result.lost.first?.start } }

  /// Says a new speaker has the floor from now.
  public func turn(_ name: String) { send(.turn(name)) }

  /// Ends listening and waits (at most `timeout` seconds) for the text still being decoded.
  public func finish(timeout: Double = 60) -> Transcription.Result {
    send(.end)
    let ended = state.wait(seconds: timeout, until: { $0.ended }) { _, ended in ended }
    if !ended {
      stop()
      state.withLock { state in
        if state.result.failure == nil {
          state.result.failure =
            "the transcriber took longer than \(Int(timeout)) s to finish; the text after that is lost"
        }
      }
    }
    return state.withLock { $0.result }
  }

  /// Stops the helper at once, keeping nothing more.
  public func cancel() { stop() }

  private func send(_ message: TranscriberMessage) {
    // NB: a helper that died makes this write fail (EPIPE, SIGPIPE is ignored); the reader
    // thread has noted the failure.
    try? input.write(contentsOf: Data(message.line.utf8))
  }

  private func stop() {
    input.close()
    // NB: SIGKILL, not Process.terminate's SIGTERM: nothing more is wanted from it, and a child
    // started from a runtime thread inherits that thread's blocked SIGTERM (the helper now
    // unblocks it first thing, but a stuck one must still go).
    process.kill(SIGKILL)
  }

  private func read(_ output: FileDescriptor) {
    var reader = MessageReader(output)
    // DINGER_TEST_TRANSCRIBE_LOG: each message dinger took from the helper, a line each, so a
    // test waits for what it needs (a turn's text) instead of sleeping.
    let log = ProcessInfo.processInfo.environment["DINGER_TEST_TRANSCRIBE_LOG"].map {
      open($0, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
    }
    defer { if let log, log >= 0 { close(log) } }
    while let message = reader.next() {
      if let log, log >= 0 {
        var line = message.line
        line.withUTF8 { _ = Glibc.write(log, $0.baseAddress, $0.count) }
      }
      state.change { state in
        switch message {
        case .ready: state.isReady = true
        case .level(let n): state.latestLevel = n
        case .heard(let turn, let text):
          state.result.heard[turn, default: ""].append(
            Transcription.separator(state.result.heard[turn]) + text)
        case .note(let text): state.result.notes.append(text)
        case .lost(let start, let seconds): state.result.lose(start: start, seconds: seconds)
        case .error(let text): state.result.failure = text
        case .done: state.isDone = true
        default: break
        }
      }
    }
    let ending = TranscriberHelper.ending(process)
    let stderr = tail.text
    state.change { state in
      if !state.isDone && state.result.failure == nil {
        state.result.failure = ending + (stderr.isEmpty ? "" : ": " + stderr)
      }
      state.ended = true
    }
  }
}

/// The ding at a speaker change: through the sound server by the helper, the terminal bell
/// where that fails (no sound server, no helper).
public enum Chime {
  /// Plays the ding without waiting; `fallback` runs (on another thread) when it can't be heard.
  public static func play(
    environment: [String: String] = ProcessInfo.processInfo.environment,
    fallback: @escaping @Sendable () -> Void
  ) {
    Threads.start {
      guard
        let (process, input, _, _) = try? TranscriberHelper.start(
          ["ding"], environment: environment)
      else {
        return fallback()
      }
      input.close()
      if !process.wait().succeeded { fallback() }
    }
  }
}
