import Models

/// What a key does on the meeting screen: the rules, apart from the terminal, so that they are
/// tested with scripted key bytes (split escape sequences, a lone Esc) without one.
public enum MeetingKeys {
  /// What the meeting does.
  public enum Action: Equatable, Sendable {
    case next, togglePause, requestEnd, toggleHelp
    case answer(MeetingTimer.EndChoice)
  }

  /// The action of `key` in the timer's state; nil for a key that does nothing (arrow keys).
  public static func action(_ key: Key, in timer: MeetingTimer) -> Action? {
    guard let byte = key.command else { return nil }
    if case .confirmingEnd = timer.phase {
      switch byte {
      case UInt8(ascii: "s"), UInt8(ascii: "S"), 13: return .answer(.saveAndEnd)
      case UInt8(ascii: "d"), UInt8(ascii: "D"): return .answer(.discard)
      case UInt8(ascii: "r"), UInt8(ascii: "R"), 27, UInt8(ascii: "q"): return .answer(.resume)
      default: return nil
      }
    }
    switch byte {
    // NB: past the last speaker is the end of the meeting: asked first, like q.
    case UInt8(ascii: " "), UInt8(ascii: "n"): return timer.isLastSpeaker ? .requestEnd : .next
    case UInt8(ascii: "p"): return .togglePause
    case UInt8(ascii: "q"), 27, 3: return .requestEnd
    case UInt8(ascii: "?"): return .toggleHelp
    default: return nil
    }
  }

  /// Applies an action to the timer (help is the screen's, not the timer's).
  @discardableResult
  public static func apply(_ action: Action, to timer: inout MeetingTimer) -> MeetingTimer.Event? {
    switch action {
    case .next: return timer.next()
    case .togglePause: timer.togglePause()
    case .requestEnd: timer.requestEnd()
    case .answer(let choice): timer.confirmEnd(choice)
    case .toggleHelp: break
    }
    return nil
  }
}

/// What a key does on the quiz screen. Leaving a quiz with answers in it asks first: the first
/// q (or Esc, or Ctrl-C) asks, a second one leaves without saving, any other key goes on.
public enum QuizKeys {
  public enum Action: Equatable, Sendable {
    case answer(Int)
    case askToQuit
    case quit
    case stay
  }

  /// The action of `key`; `answered` is how many questions have answers, `asking` whether
  /// "leave without saving?" is showing.
  public static func action(_ key: Key, answered: Int, asking: Bool) -> Action? {
    guard let byte = key.command else { return nil }
    let leave = byte == UInt8(ascii: "q") || byte == 27 || byte == 3
    if asking { return leave ? .quit : .stay }
    if leave { return answered == 0 ? .quit : .askToQuit }
    if (UInt8(ascii: "1")...UInt8(ascii: "9")).contains(byte) {
      return .answer(Int(byte - UInt8(ascii: "1")))
    }
    return nil
  }

  /// The question while leaving is asked.
  public static let leaveQuestion =
    "leave the quiz? your answers are not saved: q leaves, any other key goes on"
}

/// Feeds scripted bytes through a `KeyDecoder` as a terminal would deliver them; `nil` in the
/// script is a pause (nothing arrives for a moment).
public enum ScriptedKeys {
  public static func keys(_ script: [UInt8?]) -> [Key] {
    var decoder = KeyDecoder()
    var out: [Key] = []
    for item in script {
      if let byte = item { out += decoder.feed(byte) } else { out += decoder.pause() }
    }
    return out + decoder.pause()
  }
}
