import Base

/// The lines `dinger` and its helper `dinger-transcribe` exchange over pipes, one message a
/// line, UTF-8. Free text is the last field of its line, with line breaks and other control
/// characters turned into spaces (a name or a heard word can never start a second message).
///
/// From the helper: `ready`, `level N` (0-100, about ten a second while listening),
/// `heard TURN TEXT` (TURN counts from 0 in the order turns began), `note TEXT`,
/// `lost START SECONDS` (audio from START seconds into the recording was dropped, not
/// transcribed: SECONDS 0 when it begins, the whole span when it ends),
/// `error TEXT` (then it exits), `done` (all heard; it exits).
/// To the helper (while listening): `turn NAME` (NAME speaks from now), `end`.
public enum TranscriberMessage: Equatable, Sendable {
  case ready
  case level(Int)
  case heard(turn: Int, text: String)
  case note(String)
  case lost(start: Double, seconds: Double)
  case error(String)
  case done
  case turn(String)
  case end

  /// The message as one line, newline included.
  public var line: String {
    switch self {
    case .ready: "ready\n"
    case .level(let n): "level \(n)\n"
    case .heard(let turn, let text): "heard \(turn) \(Self.flat(text))\n"
    case .note(let text): "note \(Self.flat(text))\n"
    case .lost(let start, let seconds):
      "lost \(String(cFormat: "%.1f", start)) \(String(cFormat: "%.1f", seconds))\n"
    case .error(let text): "error \(Self.flat(text))\n"
    case .done: "done\n"
    case .turn(let name): "turn \(Self.flat(name))\n"
    case .end: "end\n"
    }
  }

  /// Reads one line (without its newline); nil for anything else.
  public init?(line: Substring) {
    let word = line.prefix { $0 != " " }
    let rest = line.count > word.count ? String(line.dropFirst(word.count + 1)) : ""
    switch word {
    case "ready": self = .ready
    case "level":
      guard let n = Int(rest), (0...100).contains(n) else { return nil }
      self = .level(n)
    case "heard":
      let number = rest.prefix { $0 != " " }
      guard let turn = Int(number), turn >= 0 else { return nil }
      self = .heard(turn: turn, text: String(rest.dropFirst(number.count + 1)))
    case "note": self = .note(rest)
    case "lost":
      let parts = rest.split(separator: " ")
      guard parts.count == 2, let start = Double(parts[0]), let seconds = Double(parts[1]),
        start.isFinite, seconds.isFinite, start >= 0, seconds >= 0
      else { return nil }
      self = .lost(start: start, seconds: seconds)
    case "error": self = .error(rest)
    case "done": self = .done
    case "turn": self = .turn(rest)
    case "end": self = .end
    default: return nil
    }
  }

  /// Text on one line: control characters (line breaks included) as spaces.
  static func flat(_ text: String) -> String {
    String(
      text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : Character($0) })
  }
}
