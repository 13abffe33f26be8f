import Components
import Models
import Testing

/// Data shown on a terminal can't drive it.
@Suite struct PrintableTests {
  @Test(arguments: [
    ("plain title", "plain title"),
    ("clear\u{1B}[2Jscreen", "clear\\x1b[2Jscreen"),
    ("title\u{1B}]0;pwned\u{07}", "title\\x1b]0;pwned\\x07"),
    ("bell\u{07} back\u{08}space del\u{7F}", "bell\\x07 back\\x08space del\\x7f"),
    ("c1 \u{9B}2J", "c1 \\x9b2J"),
    ("over\rwrite", "over\\x0dwrite"),
    ("lines\r\nand\ttabs\n", "lines\r\nand\ttabs\n"),
    ("Ünïcödé ✓", "Ünïcödé ✓"),
  ])
  func controlCharactersAreEscaped(text: String, shown: String) {
    #expect(Printable.escaped(text) == shown)
  }

  @Test func dingersOwnColoursStayWhenAsked() {
    let bold = Style.bold("Design", color: true)
    #expect(Printable.escaped(bold, keepColors: true) == "\u{1B}[1mDesign\u{1B}[0m")
    #expect(Printable.escaped(bold) == "Design")
    #expect(Printable.unmarked(bold) == "\u{1B}[1mDesign\u{1B}[0m")
    // A cursor move or screen clear is no colour, even next to one.
    #expect(
      Printable.escaped(Printable.color("1") + "A\u{1B}[2J\u{1B}[H", keepColors: true)
        == "\u{1B}[1mA\\x1b[2J\\x1b[H")
  }

  /// A teammate's colour (concealed text, black on black, reverse video, a colour left open to
  /// bleed into dinger's lines) is shown escaped, colours or not: only dinger's own, which carry
  /// a mark no data can forge, reach the terminal.
  @Test(arguments: [
    "hidden \u{1B}[8msecret\u{1B}[0m", "\u{1B}[30;40mblack on black", "\u{1B}[7mreverse",
    "\u{1B}[31mleft open", "\u{F8FF}\u{1B}[8mforged mark",
  ])
  func aTeammatesColourIsEscaped(text: String) {
    let line = Style.bold("Blocker:", color: true) + " " + text
    let shown = Printable.escaped(line, keepColors: true)
    #expect(shown.hasPrefix("\u{1B}[1mBlocker:\u{1B}[0m "), "\(shown)")
    let data = shown.dropFirst("\u{1B}[1mBlocker:\u{1B}[0m ".count)
    #expect(!data.contains("\u{1B}"), "\(data)")
    #expect(data.contains("\\x1b["), "\(data)")
  }

  /// Bidirectional controls and invisible characters are shown, never obeyed: a blocker cannot
  /// read backwards or hide a word. Emoji joiners and a script's non-joiner stay.
  @Test func bidiAndZeroWidthAreVisible() {
    #expect(Printable.escaped("a\u{202E}gnp.exe\u{202C}b") == "a<U+202E>gnp.exe<U+202C>b")
    #expect(
      Printable.escaped("zero\u{200B}width \u{2066}x\u{2069}")
        == "zero<U+200B>width <U+2066>x<U+2069>")
    #expect(Printable.escaped("👩🏽‍💻 می‌خواهم") == "👩🏽‍💻 می‌خواهم")
  }
}

/// Diagnostics echo a bounded window of a long source line, the caret still under the spot.
@Suite struct DiagnosticsWindowTests {
  @Test func aLongLineIsCutAroundTheCaret() {
    let line = String(repeating: "a", count: 100_000) + "X" + String(repeating: "b", count: 100_000)
    let d = Diagnostic(
      .error, file: "scrums/x.yaml", line: 1, column: 100_001, path: "title", message: "here",
      sourceLine: line)
    let text = DiagnosticsView.render(d)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(text.utf8.count < 400)
    #expect(lines[1].hasPrefix("...") && lines[1].hasSuffix("..."))
    let caret = lines[2].count - 1
    #expect(Array(lines[1])[caret] == "X")
  }

  @Test func aShortLineIsShownWhole() {
    let d = Diagnostic(
      .error, file: "f", line: 2, column: 9, path: "length", message: "m", sourceLine: "length: ten"
    )
    #expect(DiagnosticsView.render(d) == "f:2:9: error: m\nlength: ten\n        ^\n")
  }
}

/// Keys as terminals send them, byte by byte and split anywhere.
@Suite struct KeyDecoderTests {
  func decode(_ bytes: [UInt8], pauseAfter: Set<Int> = []) -> [Key] {
    var decoder = KeyDecoder()
    var keys: [Key] = []
    for (i, b) in bytes.enumerated() {
      keys += decoder.feed(b)
      if pauseAfter.contains(i) { keys += decoder.pause() }
    }
    return keys + decoder.pause()
  }

  @Test func arrowsAreOneKeyNotEscThenALetter() {
    #expect(decode([27, 91, 68]) == [.sequence([27, 91, 68])])  // ← : ESC [ D
    #expect(decode([27, 79, 65]) == [.sequence([27, 79, 65])])  // ↑ in application mode: ESC O A
    #expect(decode([27, 91, 49, 53, 126]) == [.sequence([27, 91, 49, 53, 126])])  // F5
    #expect(decode([27, 91, 68, 110]) == [.sequence([27, 91, 68]), .byte(110)])
  }

  @Test func aLoneEscIsEscOnlyAfterAPause() {
    #expect(decode([27], pauseAfter: [0]) == [.escape])
    #expect(decode([27, 100], pauseAfter: [0]) == [.escape, .byte(100)])  // Esc, then d
    #expect(decode([27, 27, 91, 68]) == [.escape, .sequence([27, 91, 68])])
    #expect(decode([113, 27], pauseAfter: [1]) == [.byte(113), .escape])
  }

  @Test func altKeysAndEndlessSequencesAreBounded() {
    #expect(decode([27, 100]) == [.sequence([27, 100])])  // Alt+d, not Esc then d
    let long = [27, 91] + [UInt8](repeating: 59, count: 40)
    let keys = decode(long)
    #expect(
      keys.allSatisfy {
        if case .sequence(let s) = $0 { return s.count <= 16 } else { return true }
      })
  }
}
