import Foundation
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
        library.name.padding(toLength: nameWidth, withPad: " ", startingAt: 0) + "  "
        + library.language.padding(toLength: 6, withPad: " ", startingAt: 0) + " "
        + Style.plural(library.words.count, "word").padding(
          toLength: 11, withPad: " ", startingAt: 0)
        + " " + slug.padding(toLength: slugWidth, withPad: " ", startingAt: 0)
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
  public var groups: [(library: String, words: [Word])]
  /// Show the library column.
  public var showLibrary: Bool

  /// Creates a view.
  public init(groups: [(library: String, words: [Word])], showLibrary: Bool) {
    self.groups = groups
    self.showLibrary = showLibrary
  }

  /// Creates a view of rows (each word with its library's name).
  public init(rows: [(library: String, word: Word)], showLibrary: Bool) {
    self.init(groups: rows.map { ($0.library, [$0.word]) }, showLibrary: showLibrary)
  }

  /// The text.
  public func render() -> String { String(decoding: renderBytes(), as: UTF8.self) }

  /// The text as UTF-8 bytes (what a large list is written as).
  public func renderBytes() -> [UInt8] {
    var textWidth = 0
    var libraryWidth = 0
    for group in groups {
      libraryWidth = max(libraryWidth, Self.width(group.library))
      for word in group.words where textWidth < 30 {
        textWidth = max(textWidth, Self.width(word.text))
      }
    }
    (textWidth, libraryWidth) = (min(30, textWidth), min(30, libraryWidth))
    var out: [UInt8] = []
    out.reserveCapacity(groups.reduce(0) { $0 + $1.words.count } * 64)
    // NB: bytes, no Foundation padding or Characters: this prints 50,000 lines.
    func append(_ s: String) {
      if s.utf8.withContiguousStorageIfAvailable({ out.append(contentsOf: $0) }) == nil {
        out.append(contentsOf: s.utf8)
      }
    }
    func pad(_ s: String, _ width: Int) {
      append(s)
      let n = Self.width(s)
      if n < width { out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: width - n)) }
    }
    for group in groups {
      for word in group.words {
        let start = out.count
        pad(word.text, textWidth)
        out.append(0x20)
        out.append(0x20)
        if showLibrary {
          pad(group.library, libraryWidth)
          out.append(0x20)
          out.append(0x20)
        }
        if let first = word.meanings.first {
          // Lines of the definition joined by one space (empty lines dropped).
          let from = out.count
          var newline = false
          var definition = first.definition
          let plain = definition.withUTF8 { $0.isEmpty || memchr($0.baseAddress!, 10, $0.count) == nil }
          if plain { append(definition) }
          for b in definition.utf8 where !plain {
            if b == 10 {
              newline = true
              continue
            }
            if newline && out.count > from { out.append(0x20) }
            newline = false
            out.append(b)
          }
          if word.meanings.count > 1 {
            // " (+N)", without a string made for it.
            out.append(0x20)
            out.append(0x28)
            out.append(0x2B)
            let digitsAt = out.count
            var n = word.meanings.count - 1
            repeat {
              out.insert(UInt8(48 + n % 10), at: digitsAt)
              n /= 10
            } while n > 0
            out.append(0x29)
          }
        }
        while out.count > start && out[out.count - 1] == 0x20 { out.removeLast() }
        out.append(10)
      }
    }
    return out
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
    let filled = bar * state.remaining / max(1, state.seconds)
    out.append(
      "[" + String(repeating: "#", count: filled) + String(repeating: " ", count: bar - filled)
        + "] \(state.remaining) s")
    out.append("")
    out.append("What does " + Style.bold(q.word, color: color) + " mean?")
    out.append("")
    for (i, choice) in q.choices.enumerated() {
      out.append(
        String("  \(i + 1)  \(choice.replacingOccurrences(of: "\n", with: " "))".prefix(width)))
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
    "\u{1B}[H" + lines().map { Printable.escaped($0, keepColors: true) + "\u{1B}[K" }.joined(separator: "\r\n") + "\u{1B}[J"
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
        let percent = r.questions.isEmpty ? 0 : 100 * r.score / r.questions.count
        let day = String(ISO8601DateFormatter().string(from: r.date).prefix(10))
        out +=
          "  \(day)  " + String(repeating: "█", count: percent / 5)
          + String(repeating: "·", count: 20 - percent / 5) + "  \(r.score)/\(r.questions.count)\n"
      }
    }
    return out
  }
}
