import Base
import FoundationEssentials
import Glibc
import Models

/// `dinger library list`: one line a library.
public struct LibraryListView {
  /// A row: slug, library, and how many words could not be read.
  public var rows: [(slug: String, library: Library, broken: Int)]

  /// Creates a view.
  public init(rows: [(slug: String, library: Library, broken: Int)]) { self.rows = rows }

  /// The text.
  public func render() -> String {
    guard !rows.isEmpty else {
      return "no libraries yet; add one with 'dinger library new NAME --language CODE'\n"
    }
    let nameWidth = min(40, rows.map(\.library.name.count).max() ?? 0)
    let slugWidth = min(30, rows.map(\.slug.count).max() ?? 0)
    return rows.map { slug, library, broken in
      var line =
        library.name.padded(to: nameWidth) + "  "
        + library.language.padded(to: 6) + " "
        + Style.plural(library.words.count, "word").padded(to: 11)
        + " " + slug.padded(to: slugWidth)
      if broken > 0 { line += "  (\(Style.plural(broken, "broken word")); run 'dinger check')" }
      return line.trimmingTrailingSpaces() + "\n"
    }.joined()
  }
}

/// A word with its meanings, as `word show` and `library show` print it.
public struct WordView {
  /// The word.
  public var word: Word
  /// Bold headings.
  public var color: Bool

  /// Creates a view.
  public init(word: Word, color: Bool) {
    self.word = word
    self.color = color
  }

  /// The text: the word and phonetic, then numbered meanings with examples.
  public func render(indent: String = "") -> String {
    var out = indent + Style.bold(word.text, color: color)
    if let phonetic = word.phonetic { out += "  " + phonetic }
    out += "\n"
    for (i, m) in word.meanings.enumerated() {
      out +=
        indent + "  \(i + 1). " + (m.partOfSpeech.map { "(\($0)) " } ?? "") + m.definition + "\n"
      if let example = m.example { out += indent + "     \"\(example)\"\n" }
    }
    if word.meanings.isEmpty { out += indent + "  (no definition yet)\n" }
    return out
  }
}

/// `dinger word list`: one line a word, its first definition.
public struct WordListView {
  /// Each library's name and its words, in order.
  public var listing: [(library: String, rows: WordRows)]
  /// Show the library column.
  public var showLibrary: Bool

  /// Creates a view of packed rows.
  public init(listing: [(library: String, rows: WordRows)], showLibrary: Bool) {
    self.listing = listing
    self.showLibrary = showLibrary
  }

  /// Creates a view of each library's words.
  public init(groups: [(library: String, words: [Word])], showLibrary: Bool) {
    self.init(listing: groups.map { ($0.library, WordRows($0.words)) }, showLibrary: showLibrary)
  }

  /// Creates a view of rows (each word with its library's name).
  public init(rows: [(library: String, word: Word)], showLibrary: Bool) {
    self.init(groups: rows.map { ($0.library, [$0.word]) }, showLibrary: showLibrary)
  }

  /// The text.
  public func render() -> String { String(decoding: renderBytes(), as: UTF8.self) }

  /// The text as UTF-8 bytes.
  public func renderBytes() -> [UInt8] {
    var out: [UInt8] = []
    render { out.append(contentsOf: $0) }
    return out
  }

  /// The text as UTF-8, handed to `emit` a piece at a time (what a large list is written as:
  /// 50,000 lines go out through one 64 KB buffer, never a 3 MB one whose pages are all new).
  public func render(_ emit: (UnsafeRawBufferPointer) -> Void) {
    var textWidth = 0
    var libraryWidth = 0
    for group in listing {
      libraryWidth = max(libraryWidth, Self.width(group.library))
      group.rows.bytes.withUnsafeBufferPointer { bytes in
        for row in group.rows.rows where textWidth < 30 {
          textWidth = max(textWidth, Self.width(UnsafeBufferPointer(rebasing: bytes[row.text])))
        }
      }
    }
    (textWidth, libraryWidth) = (min(30, textWidth), min(30, libraryWidth))
    // The lines are written straight into the buffer by copies (no Foundation padding, no
    // Characters); each line's most (text and padding, the library column, the definition,
    // " (+N)", the newline) is made room for before it is written.
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    var used = 0
    for group in listing {
      let column = showLibrary ? libraryWidth + group.library.utf8.count + 2 : 0
      group.rows.bytes.withUnsafeBufferPointer { bytes in
        /// Writes the line of `row` into `into`; returns its length.
        func line(_ row: WordRows.Row, into: UnsafeMutableBufferPointer<UInt8>) -> Int {
          var out = ByteWriter(into: into)
          let text = UnsafeBufferPointer(rebasing: bytes[row.text])
          out.append(text)
          out.spaces(textWidth - Self.width(text))
          out.spaces(2)
          if showLibrary {
            out.pad(group.library, to: libraryWidth)
            out.spaces(2)
          }
          if let definition = row.definition {
            out.joiningLines(UnsafeBufferPointer(rebasing: bytes[definition]))
            if row.meanings > 1 {
              out.bytes(0x20, 0x28, 0x2B)  // " (+"
              out.number(row.meanings - 1)
              out.byte(0x29)  // ")"
            }
          }
          out.trimSpaces(after: 0)
          out.byte(10)
          return out.count
        }
        for row in group.rows.rows {
          let most = row.text.count + textWidth + 2 + column + (row.definition?.count ?? 0) + 24
          if used + most > buffer.count {
            buffer.withUnsafeBytes { emit(UnsafeRawBufferPointer(rebasing: $0[..<used])) }
            used = 0
          }
          guard most <= buffer.count else {
            // A line longer than the buffer: a piece of its own.
            var own = [UInt8](repeating: 0, count: most)
            let n = own.withUnsafeMutableBufferPointer { line(row, into: $0) }
            own.withUnsafeBytes { emit(UnsafeRawBufferPointer(rebasing: $0[..<n])) }
            continue
          }
          used += buffer.withUnsafeMutableBufferPointer {
            line(row, into: UnsafeMutableBufferPointer(rebasing: $0[used...]))
          }
        }
      }
    }
    buffer.withUnsafeBytes { emit(UnsafeRawBufferPointer(rebasing: $0[..<used])) }
  }

  /// Columns UTF-8 text takes: its characters (bytes when it is all ASCII, the common case).
  static func width(_ utf8: UnsafeBufferPointer<UInt8>) -> Int {
    for b in utf8 where b >= 0x80 { return String(decoding: utf8, as: UTF8.self).count }
    return utf8.count
  }

  /// Columns a name takes: its characters (bytes when it is all ASCII, the common case).
  static func width(_ s: String) -> Int {
    for b in s.utf8 where b >= 0x80 { return s.count }
    return s.utf8.count
  }
}

/// The quiz screen: the word, the four choices, the countdown, the score so far.
public struct QuizScreen {
  /// The quiz.
  public var state: QuizState
  /// The library's name.
  public var title: String
  /// The terminal's width.
  public var width: Int
  /// Colours on.
  public var color: Bool
  /// What happened to the last question ("right", "wrong: it meant ...").
  public var feedback: String?

  /// Creates a screen.
  public init(state: QuizState, title: String, width: Int, color: Bool, feedback: String? = nil) {
    (self.state, self.title, self.width, self.color, self.feedback) = (
      state, title, max(20, width), color, feedback
    )
  }

  /// The lines, each at most `width` columns (before colour codes).
  public func lines() -> [String] {
    var out = [Style.bold(String(" Quiz: \(title) ".prefix(width)), color: color), ""]
    guard !state.isFinished else {
      out.append("Done: \(state.score)/\(state.questions.count)")
      return out
    }
    let q = state.questions[state.current]
    out.append("Question \(state.current + 1) of \(state.questions.count)   score \(state.score)")
    let bar = max(1, width - 12)
    let filled = min(bar, max(0, bar * state.remaining / max(1, state.seconds)))
    out.append(
      "[" + String(repeating: "#", count: filled) + String(repeating: " ", count: bar - filled)
        + "] \(state.remaining) s")
    out.append("")
    out.append("What does " + Style.bold(q.word, color: color) + " mean?")
    out.append("")
    for (i, choice) in q.choices.enumerated() {
      out.append(
        String("  \(i + 1)  \(choice.replacingText("\n", with: " "))".prefix(width)))
    }
    out.append("")
    if let feedback { out.append(String(feedback.prefix(width))) }
    out.append("keys: 1-\(q.choices.count) answer   q quit (nothing is saved)")
    return out
  }
}

extension QuizScreen {
  /// The whole screen, drawn from the top left.
  public func render() -> String {
    "\u{1B}[H"
      + lines().map { Printable.escaped($0, keepColors: true) + "\u{1B}[K" }.joined(
        separator: "\r\n") + "\u{1B}[J"
  }
}

/// The end of a quiz and `quiz --stats`.
public enum QuizReport {
  /// Score and per-word results.
  public static func result(_ state: QuizState, color: Bool) -> String {
    var out = "Score: \(state.score)/\(state.questions.count)\n"
    for (answer, question) in zip(state.answers, state.questions) {
      let mark = answer.correct ? "right" : "wrong"
      out += "  \(mark)  \(answer.word)"
      if !answer.correct { out += " — \(question.choices[question.answer])" }
      out += "\n"
    }
    return out
  }

  /// Scores over time per library: one bar a quiz (percent right), newest last.
  public static func stats(_ libraries: [(name: String, results: [QuizResult])]) -> String {
    guard libraries.contains(where: { !$0.results.isEmpty }) else {
      return "no quizzes yet; take one with 'dinger quiz --library NAME'\n"
    }
    var out = ""
    for (name, results) in libraries where !results.isEmpty {
      let total = results.reduce(0) { $0 + $1.questions.count }
      let right = results.reduce(0) { $0 + $1.score }
      out +=
        "\(name): \(results.count) quiz\(results.count == 1 ? "" : "zes"), \(right)/\(total) right overall\n"
      for r in results.suffix(20) {
        // NB: a hand-edited result may claim more right answers than questions.
        let percent = r.questions.isEmpty ? 0 : min(100, max(0, 100 * r.score / r.questions.count))
        let day = String(r.date.ISO8601Format().prefix(10))
        out +=
          "  \(day)  " + String(repeating: "█", count: percent / 5)
          + String(repeating: "·", count: 20 - percent / 5) + "  \(r.score)/\(r.questions.count)\n"
      }
    }
    return out
  }
}

/// Writes a listing into memory set aside for it (the caller bounds its size): copies, not
/// element-by-element appends.
struct ByteWriter {
  private let buffer: UnsafeMutableBufferPointer<UInt8>
  private(set) var count = 0

  init(into buffer: UnsafeMutableBufferPointer<UInt8>) { self.buffer = buffer }

  private func room(_ n: Int) {
    precondition(count + n <= buffer.count, "a listing's line outgrew its bound")
  }

  mutating func byte(_ b: UInt8) {
    room(1)
    buffer[count] = b
    count += 1
  }

  /// Three bytes (no String for a constant of each line).
  mutating func bytes(_ a: UInt8, _ b: UInt8, _ c: UInt8) {
    room(3)
    (buffer[count], buffer[count + 1], buffer[count + 2]) = (a, b, c)
    count += 3
  }

  mutating func spaces(_ n: Int) {
    guard n > 0 else { return }
    room(n)
    // NB: a column's padding is short: a loop, not a call to memset per line.
    for k in count..<(count + n) { buffer[k] = 0x20 }
    count += n
  }

  mutating func append(_ s: String) {
    var s = s
    s.withUTF8 { append($0) }
  }

  mutating func append(_ utf8: UnsafeBufferPointer<UInt8>) {
    guard let base = utf8.baseAddress, !utf8.isEmpty else { return }
    room(utf8.count)
    (buffer.baseAddress! + count).initialize(from: base, count: utf8.count)
    count += utf8.count
  }

  /// A number's decimal digits (no String made for each of 50,000 lines).
  mutating func number(_ n: Int) {
    guard n >= 10 || n < 0 else { return byte(0x30 + UInt8(n)) }
    append(String(n))
  }

  /// `s`, then spaces up to `width` columns.
  mutating func pad(_ s: String, to width: Int) {
    append(s)
    spaces(width - WordListView.width(s))
  }

  /// The lines of UTF-8 text joined by one space (empty lines dropped).
  mutating func joiningLines(_ utf8: UnsafeBufferPointer<UInt8>) {
    guard let base = utf8.baseAddress else { return }
    if memchr(base, 10, utf8.count) == nil { return append(utf8) }
    let from = count
    var newline = false
    for b in utf8 {
      if b == 10 {
        newline = true
        continue
      }
      if newline && count > from { byte(0x20) }
      newline = false
      byte(b)
    }
  }

  /// Drops spaces at the end, back to `start`.
  mutating func trimSpaces(after start: Int) {
    while count > start && buffer[count - 1] == 0x20 { count -= 1 }
  }
}
