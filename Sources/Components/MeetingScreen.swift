import Models

/// The meeting timer's screen: a pure function from the timer's state and the terminal's size
/// to the text that fills it.
public struct MeetingScreen {
  /// The timer.
  public var timer: MeetingTimer
  /// The scrum's title and theme.
  public var title: String, theme: Theme
  /// The terminal's size.
  public var width: Int, height: Int
  /// Colours on.
  public var color: Bool
  /// Show the keys.
  public var showHelp: Bool
  /// Transcription: listening (with the sound level, so a muted microphone shows at once) or
  /// off and why; nil when not asked for.
  public var listening: Listening?
  /// What each speaker wrote in today's written stand-up and their open blockers, by name:
  /// shown under the speaker while they speak (as Jira's stand-up shows the board).
  public var written: [String: [String]] = [:]

  /// What the transcription line shows.
  public enum Listening: Sendable, Equatable {
    /// The sound level now, and whether any sound was heard since the meeting began (the
    /// muted-microphone hint is for a silence from the start, not for a pause).
    case level(Int, heard: Bool = true)
    /// Listening, but the transcriber fell behind and dropped audio from `since` (meeting
    /// seconds): said at once, so the team knows to repeat or to note it.
    case behind(Int, since: Int)
    case off(String)
  }

  /// Creates a screen.
  public init(
    timer: MeetingTimer, title: String, theme: Theme, width: Int, height: Int, color: Bool,
    showHelp: Bool = false, listening: Listening? = nil, written: [String: [String]] = [:]
  ) {
    (self.timer, self.title, self.theme, self.width, self.height, self.color, self.showHelp) =
      (timer, title, theme, max(20, width), max(8, height), color, showHelp)
    self.listening = listening
    self.written = written
  }

  /// The transcription line: a dot, the word, and a ten-step meter.
  public static func listeningLine(_ listening: Listening) -> String {
    switch listening {
    case .level(let level, let heard):
      let steps = max(0, min(10, (level + 5) / 10))
      return " ● Listening  " + String(repeating: "▮", count: steps)
        + String(repeating: "▯", count: 10 - steps)
        + (level < 5 && !heard ? "  (no sound: is the microphone muted?)" : "")
    case .behind(let level, let since):
      let steps = max(0, min(10, (level + 5) / 10))
      return " ● Listening  " + String(repeating: "▮", count: steps)
        + String(repeating: "▯", count: 10 - steps)
        + "  (fell behind: audio from \(clock(since)) not transcribed)"
    case .off(let why):
      return " Transcription off: " + why
    }
  }

  /// `m:ss`.
  public static func clock(_ seconds: Int) -> String {
    "\(seconds / 60):" + (seconds % 60 < 10 ? "0" : "") + "\(seconds % 60)"
  }

  /// The lines, at most `height`, each at most `width` columns (before colour codes).
  public func lines() -> [String] {
    var out: [String] = []
    let heading = " \(title) ".padded(to: width)
    out.append(color ? Style.themed(heading, theme) : String(heading.prefix(width)))
    out.append("")
    out.append(
      fit(
        " Elapsed \(Self.clock(timer.elapsed))    "
          + (timer.over > 0
            ? "OVER by \(Self.clock(timer.over))" : "Remaining \(Self.clock(timer.remaining))")))
    let barWidth = width - 4
    let progress = timer.progress.isFinite ? min(1, max(0, timer.progress)) : 0
    let filled = max(0, Int(progress * Double(max(0, barWidth))))
    out.append(
      " [" + String(repeating: "█", count: filled)
        + String(repeating: "░", count: max(0, barWidth - filled)) + "]")
    out.append("")
    let name = timer.speakers[timer.current]
    let position =
      timer.isLastSpeaker
      ? "Last speaker" : "Speaker \(timer.current + 1) of \(timer.speakers.count)"
    let left =
      timer.over > 0 && timer.isLastSpeaker
      ? "+\(Self.clock(timer.over)) over (n or q to end)"
      : "\(Self.clock(timer.speakerRemaining)) left"
    out.append(fit(" \(position): \(name)    \(left)"))
    // NB: at most four lines of it, so the keys stay on a small terminal.
    for line in (written[name] ?? []).prefix(max(0, min(4, height - 12))) {
      out.append(fit("   " + line))
    }
    let done = (0..<timer.current).map { "\(timer.speakers[$0]) (\(Self.clock(timer.spoken[$0])))" }
    if !done.isEmpty { out.append(fit(" Done: " + done.joined(separator: ", "))) }
    if let listening { out.append(fit(Self.listeningLine(listening))) }
    out.append("")
    switch timer.phase {
    case .paused: out.append(fit(" PAUSED: press p to go on"))
    case .confirmingEnd:
      // NB: every choice stays on a narrow terminal (at 40 columns "resume" was cut off).
      let choices = [
        " End meeting?  s save and end · d discard · r resume",
        " End? s save · d discard · r resume",
        " s save · d discard · r resume",
      ]
      out.append(fit(choices.first { $0.count <= width } ?? choices[choices.count - 1]))
    case .finished(let saved):
      out.append(fit(saved ? " Meeting over: saving" : " Meeting discarded"))
    case .running: break
    }
    if showHelp {
      // NB: one key column, so every description starts in the same column.
      out += [
        ("space, n", "next speaker"), ("p", "pause / resume"), ("q, esc", "end the meeting"),
        ("?", "hide this help"),
      ].map { fit(" " + $0.0.padded(to: 10) + $0.1) }
    }
    while out.count < height - 1 { out.append("") }
    out = Array(out.prefix(height - 1))
    out.append(fit(" space/n next · p pause · q end · ? help"))
    return out
  }

  /// The whole screen as one write: home, each line cleared to its end.
  public func render() -> String {
    "\u{1B}[H"
      + lines().map { Printable.escaped($0, keepColors: true) + "\u{1B}[K" }.joined(
        separator: "\r\n")
  }

  private func fit(_ s: String) -> String { String(s.prefix(width)) }
}
