/// The notes prompt after a meeting as a small line editor: ← → Home End move, Backspace and
/// Delete erase, Ctrl-W a word, Ctrl-U to the start, Ctrl-K to the end; Enter starts a new
/// line, one empty line is a paragraph break, two end the notes, Ctrl-D ends them at once;
/// Enter alone before anything is typed skips them. Keys in, text and screen updates out: no
/// terminal here (the command feeds it keys from raw mode).
public struct NotesEditor: Sendable {
  /// What a key did.
  public enum Outcome: Equatable, Sendable {
    case editing
    /// The notes are complete (`text`).
    case done
    /// Ctrl-C.
    case interrupted
  }

  /// Finished lines.
  public private(set) var lines: [String] = []
  /// The line being typed.
  public private(set) var line: [Character] = []
  /// The cursor's place in `line`.
  public private(set) var cursor = 0
  private var pendingUTF8: [UInt8] = []
  /// What to write to the terminal for the last key (redraws of the current line, newlines).
  public private(set) var output = ""

  /// The prompt shown before each line.
  public static let prompt = "> "

  public init() {}

  /// The notes: lines joined, trailing empty lines dropped; nil when nothing was written.
  public var text: String? {
    var all = lines
    if !line.isEmpty { all.append(String(line)) }
    while let last = all.last, last.allSatisfy(\.isWhitespace) { all.removeLast() }
    return all.isEmpty ? nil : all.joined(separator: "\n") + "\n"
  }

  /// Applies a key; `width` is the terminal's, for the redraw.
  public mutating func apply(_ key: Key, width: Int = 80) -> Outcome {
    output = ""
    switch key {
    case .byte(let b):
      return applyByte(b, width: width)
    case .escape:
      return .editing
    case .sequence(let s):
      switch s {
      case [27, 91, 68], [27, 79, 68]: cursor = max(0, cursor - 1)
      case [27, 91, 67], [27, 79, 67]: cursor = min(line.count, cursor + 1)
      case [27, 91, 72], [27, 79, 72], [27, 91, 49, 126], [27, 91, 55, 126]: cursor = 0
      case [27, 91, 70], [27, 79, 70], [27, 91, 52, 126], [27, 91, 56, 126]: cursor = line.count
      case [27, 91, 51, 126]:
        if cursor < line.count { line.remove(at: cursor) }
      default: return .editing
      }
      redraw(width: width)
      return .editing
    }
  }

  private mutating func applyByte(_ b: UInt8, width: Int) -> Outcome {
    switch b {
    case 3:
      output = "^C\r\n"
      return .interrupted
    case 4:
      output = "\r\n"
      return .done
    case 13, 10:
      if lines.isEmpty && line.isEmpty {
        output = "\r\n"
        return .done
      }
      if line.isEmpty, lines.last?.isEmpty == true {
        output = "\r\n"
        return .done
      }
      lines.append(String(line))
      line = []
      cursor = 0
      output = "\r\n" + Self.prompt
      return .editing
    case 127, 8:
      if cursor > 0 {
        line.remove(at: cursor - 1)
        cursor -= 1
      }
    case 1: cursor = 0
    case 5: cursor = line.count
    case 2: cursor = max(0, cursor - 1)
    case 6: cursor = min(line.count, cursor + 1)
    case 11: line.removeSubrange(cursor...)
    case 21:
      line.removeSubrange(..<cursor)
      cursor = 0
    case 23:
      var start = cursor
      while start > 0, line[start - 1].isWhitespace { start -= 1 }
      while start > 0, !line[start - 1].isWhitespace { start -= 1 }
      line.removeSubrange(start..<cursor)
      cursor = start
    case 9: insert(" ")
    case 0..<32: return .editing
    default:
      pendingUTF8.append(b)
      // NB: a character's bytes come one by one; it is inserted once complete.
      if let c = String(validating: pendingUTF8, as: UTF8.self) {
        pendingUTF8 = []
        for ch in c { insert(ch) }
      } else if pendingUTF8.count >= 4 {
        pendingUTF8 = []
      } else {
        return .editing
      }
    }
    redraw(width: width)
    return .editing
  }

  private mutating func insert(_ c: Character) {
    line.insert(c, at: cursor)
    cursor += 1
  }

  /// The current line again: the part that fits the width around the cursor, then the cursor
  /// put back in its place. Control characters never reach the terminal.
  private mutating func redraw(width: Int) {
    let room = max(8, width - Self.prompt.count - 1)
    let start = cursor > room ? cursor - room : 0
    let shown = line[start..<min(line.count, start + room)].map { c -> Character in
      // NB: C0, DEL and C1 (0x80-0x9F: a lone CSI) are controls; the output goes out as is.
      c.unicodeScalars.allSatisfy({ $0.value >= 32 && !(127..<160).contains($0.value) }) ? c : "?"
    }
    output = "\r\u{1B}[K" + Self.prompt + String(shown)
    let back = shown.count - (cursor - start)
    if back > 0 { output += "\u{1B}[\(back)D" }
  }
}
