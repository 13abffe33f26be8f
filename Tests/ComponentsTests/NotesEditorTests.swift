import Components
import Testing

/// The notes prompt's line editing, key by key.
@Suite struct NotesEditorTests {
  func type(_ editor: inout NotesEditor, _ text: String) {
    for b in text.utf8 { _ = editor.apply(.byte(b)) }
  }

  @Test func arrowsHomeEndAndErasingEditTheLine() {
    var e = NotesEditor()
    type(&e, "Ada shiped")
    for _ in 0..<2 { _ = e.apply(.sequence([27, 91, 68])) }
    type(&e, "p")
    #expect(String(e.line) == "Ada shipped")
    _ = e.apply(.sequence([27, 91, 72]))  // Home
    type(&e, "> ")
    _ = e.apply(.sequence([27, 79, 70]))  // End
    type(&e, " it!")
    #expect(String(e.line) == "> Ada shipped it!")
    _ = e.apply(.byte(127))
    _ = e.apply(.byte(23))  // Ctrl-W: "it"
    #expect(String(e.line) == "> Ada shipped ")
    _ = e.apply(.byte(1))
    _ = e.apply(.sequence([27, 91, 51, 126]))  // Delete
    _ = e.apply(.sequence([27, 91, 51, 126]))
    #expect(String(e.line) == "Ada shipped ")
    _ = e.apply(.sequence([27, 91, 67]))
    _ = e.apply(.byte(21))  // Ctrl-U
    #expect(String(e.line) == "da shipped ")
    _ = e.apply(.byte(11))  // Ctrl-K
    #expect(e.line.isEmpty)
  }

  @Test func paragraphsAndTheWaysToFinish() {
    var e = NotesEditor()
    type(&e, "First")
    #expect(e.apply(.byte(13)) == .editing)
    #expect(e.apply(.byte(13)) == .editing)  // a paragraph break
    type(&e, "Second")
    #expect(e.apply(.byte(13)) == .editing)
    #expect(e.apply(.byte(13)) == .editing)
    #expect(e.apply(.byte(13)) == .done)  // two empty lines
    #expect(e.text == "First\n\nSecond\n")

    var d = NotesEditor()
    type(&d, "Only")
    #expect(d.apply(.byte(4)) == .done)  // Ctrl-D keeps the line under way
    #expect(d.text == "Only\n")

    var skip = NotesEditor()
    #expect(skip.apply(.byte(13)) == .done)
    #expect(skip.text == nil)

    var c = NotesEditor()
    type(&c, "x")
    #expect(c.apply(.byte(3)) == .interrupted)
  }

  @Test func unicodeIsWholeCharactersAndControlBytesNeverShow() {
    var e = NotesEditor()
    type(&e, "¡Hola, señor! 😀")
    _ = e.apply(.byte(127))
    #expect(String(e.line) == "¡Hola, señor! ")
    _ = e.apply(.byte(0x1B))  // a lone Esc byte is not text
    _ = e.apply(.byte(7))
    #expect(String(e.line) == "¡Hola, señor! ")
    #expect(!e.output.contains("\u{07}"))
  }

  @Test func aLongLineShowsTheTailAroundTheCursor() {
    var e = NotesEditor()
    type(&e, String(repeating: "a", count: 100) + "END")
    #expect(e.apply(.byte(UInt8(ascii: "!")), width: 40) == .editing)
    #expect(e.output.hasSuffix("END!"))
    #expect(e.output.count < 60)
  }
}
