/// A key as a terminal delivers it: one byte, a whole escape sequence, or a lone Esc.
public enum Key: Equatable, Sendable {
  /// An ordinary byte (a letter, Enter = 13, Ctrl-C = 3).
  case byte(UInt8)
  /// Esc on its own (nothing followed it within the pause `KeyDecoder` is told about).
  case escape
  /// A whole escape sequence (arrow keys `ESC [ D`, `ESC O A`, function keys, Alt+key): never
  /// read as Esc followed by letters.
  case sequence([UInt8])

  /// The key as one byte for single-key commands: Esc is 27; a sequence (an arrow key) is
  /// nil, a key that does nothing.
  public var command: UInt8? {
    switch self {
    case .byte(let b): return b
    case .escape: return 27
    case .sequence: return nil
    }
  }
}

/// Turns the bytes a terminal sends into keys. Arrow keys arrive as `ESC [ D`; read byte by
/// byte, that was Esc (end the meeting?) then `D` (discard): one keystroke threw a meeting
/// away. Sequences (CSI, SS3, Alt+key) come out whole; a lone Esc only when `pause()` says
/// nothing followed it.
public struct KeyDecoder: Sendable {
  private var pending: [UInt8] = []

  public init() {}

  /// True while an escape sequence has begun and not ended (the reader should wait briefly
  /// for the rest, then call `pause()`).
  public var isPending: Bool { !pending.isEmpty }

  /// The keys `byte` completes.
  public mutating func feed(_ byte: UInt8) -> [Key] {
    guard !pending.isEmpty else {
      if byte == 27 {
        pending = [27]
        return []
      }
      return [.byte(byte)]
    }
    pending.append(byte)
    if pending.count == 2 {
      switch byte {
      case UInt8(ascii: "["), UInt8(ascii: "O"): return []
      case 27:
        // Esc Esc: the first was a lone Esc.
        pending = [27]
        return [.escape]
      default: return [take()]  // Alt+key
      }
    }
    // CSI ends with a byte in @...~; SS3 is one byte after 'O'; bounded either way.
    if pending[1] == UInt8(ascii: "O") || (0x40...0x7E).contains(byte) || pending.count >= 16 {
      return [take()]
    }
    return []
  }

  /// Nothing more arrived for a moment: a pending Esc was a lone Esc (a cut sequence is
  /// dropped as one).
  public mutating func pause() -> [Key] {
    guard !pending.isEmpty else { return [] }
    if pending == [27] {
      pending = []
      return [.escape]
    }
    return [take()]
  }

  private mutating func take() -> Key {
    defer { pending = [] }
    return .sequence(pending)
  }
}
