/// The meeting timer's rules, as pure state: no clock, no terminal. `tick()` says a second has
/// passed; the session that owns the clock calls it.
///
/// Time is split between the speakers (the attendees, in order; "Speaker 1" when there are none)
/// so that their shares add up exactly to the planned length: 300 s over 7 people is 43 s for the
/// first six and 42 s for the last, not 42 s each and a meeting that ends at 294 s. When a
/// speaker's share is used up the timer moves on with a ding; `next()` moves on by hand; the end
/// of the last speaker's share finishes the meeting, unless the meeting allows overtime: then
/// the last speaker goes on (one ding marks the planned end) and the time over is shown. Ending early asks for a choice: save and
/// end, discard, or resume (as in Point-Free's SyncUps).
public struct MeetingTimer: Sendable, Equatable {
  /// Where the meeting is.
  public enum Phase: Sendable, Equatable {
    case running
    case paused
    /// "End meeting?" is showing; the clock does not count. `resumePaused` says where
    /// `resume` goes back to.
    case confirmingEnd(resumePaused: Bool)
    /// Over: saved (record it) or discarded.
    case finished(saved: Bool)
  }

  /// The answer to "End meeting?".
  public enum EndChoice: Sendable, Equatable { case saveAndEnd, discard, resume }

  /// What a tick or a key did, for the view to react to (a ding plays a sound).
  public enum Event: Sendable, Equatable {
    case ding
    case finished
  }

  /// Who speaks, in order.
  public let speakers: [String]
  /// Planned seconds per speaker; they add up to `plannedSeconds`.
  public let shares: [Int]
  /// The planned length in seconds.
  public let plannedSeconds: Int
  /// The speaker now (an index into `speakers`).
  public private(set) var current = 0
  /// Seconds the meeting has run (pauses and the end question excluded).
  public private(set) var elapsed = 0
  /// Seconds the current speaker has had.
  public private(set) var speakerElapsed = 0
  /// Actual seconds per speaker.
  public private(set) var spoken: [Int]
  /// Where the meeting is.
  public private(set) var phase: Phase = .running
  /// Dings so far (automatic moves to the next speaker, and the end).
  public private(set) var dings = 0
  /// Whether the last speaker may go on past the planned length.
  public let allowsOvertime: Bool

  /// A timer for a meeting of `minutes` with these attendees; with `overtime` the last
  /// speaker may run over.
  public init(attendees: [String], minutes: Int, overtime: Bool = false) {
    allowsOvertime = overtime
    speakers = attendees.isEmpty ? ["Speaker 1"] : attendees
    plannedSeconds = max(0, minutes) * 60
    shares = Self.shares(total: plannedSeconds, count: speakers.count)
    spoken = Array(repeating: 0, count: speakers.count)
  }

  /// `total` split into `count` whole seconds that add up to `total`: the first `total % count`
  /// speakers get one second more.
  public static func shares(total: Int, count: Int) -> [Int] {
    guard count > 0 else { return [] }
    let base = max(0, total) / count
    let extra = max(0, total) % count
    return (0..<count).map { base + ($0 < extra ? 1 : 0) }
  }

  /// True while the last speaker speaks.
  public var isLastSpeaker: Bool { current == speakers.count - 1 }
  /// Seconds left in the current speaker's share.
  public var speakerRemaining: Int { max(0, shares[current] - speakerElapsed) }
  /// Seconds left of the planned length.
  public var remaining: Int { max(0, plannedSeconds - elapsed) }
  /// Seconds past the planned length (overtime).
  public var over: Int { max(0, elapsed - plannedSeconds) }
  /// Fraction of the planned length used, 0...1.
  public var progress: Double {
    plannedSeconds == 0 ? 1 : min(1, Double(elapsed) / Double(plannedSeconds))
  }
  /// True once the meeting is over, saved or not.
  public var isFinished: Bool { if case .finished = phase { return true } else { return false } }

  /// One second passed. Counts only while running.
  @discardableResult
  public mutating func tick() -> Event? {
    guard phase == .running else { return nil }
    elapsed += 1
    speakerElapsed += 1
    spoken[current] += 1
    if allowsOvertime && isLastSpeaker {
      // The last speaker goes on: one ding when the planned time is up, then the clock runs.
      guard speakerElapsed == shares[current] else { return nil }
      dings += 1
      return .ding
    }
    guard speakerElapsed >= shares[current] else { return nil }
    dings += 1
    return advance()
  }

  /// Moves to the next speaker by hand (no ding); after the last speaker, finishes and saves.
  @discardableResult
  public mutating func next() -> Event? {
    guard phase == .running || phase == .paused else { return nil }
    return advance()
  }

  private mutating func advance() -> Event? {
    // A speaker whose share is 0 s (more speakers than seconds) is passed over.
    repeat {
      if isLastSpeaker {
        phase = .finished(saved: true)
        return .finished
      }
      current += 1
      speakerElapsed = 0
    } while shares[current] == 0
    return .ding
  }

  /// Stops the clock.
  public mutating func pause() { if phase == .running { phase = .paused } }

  /// Starts the clock again.
  public mutating func resume() { if phase == .paused { phase = .running } }

  /// Pauses or resumes.
  public mutating func togglePause() { phase == .paused ? resume() : pause() }

  /// Asks "End meeting?"; the clock stops while the question shows.
  public mutating func requestEnd() {
    switch phase {
    case .running: phase = .confirmingEnd(resumePaused: false)
    case .paused: phase = .confirmingEnd(resumePaused: true)
    default: break
    }
  }

  /// Answers "End meeting?".
  public mutating func confirmEnd(_ choice: EndChoice) {
    guard case .confirmingEnd(let resumePaused) = phase else { return }
    switch choice {
    case .saveAndEnd: phase = .finished(saved: true)
    case .discard: phase = .finished(saved: false)
    case .resume: phase = resumePaused ? .paused : .running
    }
  }

  /// The speakers who spoke, with their actual seconds, in order (those never reached left out).
  public var speakerTimes: [SpeakerTime] {
    zip(speakers, spoken).enumerated().filter { $0.offset <= current || $0.element.1 > 0 }
      .map { SpeakerTime(name: $0.element.0, seconds: $0.element.1) }
  }
}
