import Models
import Testing

/// Rows are equal when they show the same words, wherever their bytes lie (rows read from a
/// cache file point into all of it).
@Suite struct WordRowsTests {
  static let words = [
    Word(text: "hola", meanings: [Meaning(definition: "hello"), Meaning(definition: "hi")]),
    Word(text: "agua"),
  ]

  @Test func theSameWordsInOtherBytesAreEqual() {
    let packed = WordRows(Self.words)
    // The same texts after other bytes, in another order in the buffer.
    let bytes = Array("xxagua--hellohola".utf8)
    let elsewhere = WordRows(
      bytes: bytes,
      rows: [
        .init(text: 13..<17, definition: 8..<13, meanings: 2),
        .init(text: 2..<6, definition: nil, meanings: 0),
      ])
    #expect(packed == elsewhere)
    #expect(packed.bytes != elsewhere.bytes)
  }

  @Test func anyDifferenceInAWordIsUnequal() {
    let packed = WordRows(Self.words)
    var words = Self.words
    words[0].meanings[0].definition = "hellO"
    #expect(packed != WordRows(words))
    words = Self.words
    words[0].meanings.removeLast()
    #expect(packed != WordRows(words))
    words = Self.words
    words[1].meanings = [Meaning(definition: "water")]
    #expect(packed != WordRows(words))
    #expect(packed != WordRows(Array(Self.words.prefix(1))))
    #expect(packed == WordRows(Self.words))
  }
}
