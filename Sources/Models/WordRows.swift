/// Words as a listing shows them, packed: each word's text and first definition as byte ranges
/// of one buffer, and how many meanings it has. A library of 50,000 words is two allocations
/// here, where as `Word`s it is 150,000 (what made `word list` slow was walking them).
public struct WordRows: Sendable, Equatable {
  /// One word: 20 bytes (50,000 rows were 2.4 MB of new pages as ranges of Ints).
  public struct Row: Sendable, Equatable {
    private let textStart: UInt32, textCount: UInt32
    /// `definitionCount` is `UInt32.max` without one.
    private let definitionStart: UInt32, definitionCount: UInt32
    private let meaningCount: UInt32

    /// Its text, in `bytes`.
    public var text: Range<Int> { Int(textStart)..<Int(textStart + textCount) }
    /// Its first definition, in `bytes` (nil without meanings).
    public var definition: Range<Int>? {
      definitionCount == .max
        ? nil : Int(definitionStart)..<Int(definitionStart + definitionCount)
    }
    /// How many meanings it has.
    public var meanings: Int { Int(meaningCount) }

    /// A row (ranges below 4 GiB: a library file is at most 64 MiB, a cache file 1 GiB).
    public init(text: Range<Int>, definition: Range<Int>?, meanings: Int) {
      (textStart, textCount) = (UInt32(text.lowerBound), UInt32(text.count))
      (definitionStart, definitionCount) =
        definition.map { (UInt32($0.lowerBound), UInt32($0.count)) } ?? (0, .max)
      meaningCount = UInt32(meanings)
    }
  }

  /// The UTF-8 of every text and definition.
  public private(set) var bytes: [UInt8] = []
  /// The words, in order.
  public private(set) var rows: [Row] = []

  /// No words.
  public init() {}

  /// Rows pointing into `bytes` (which may hold more than the rows use, as a cache file does);
  /// every range must lie inside it.
  public init(bytes: [UInt8], rows: [Row]) {
    precondition(
      rows.allSatisfy {
        $0.text.upperBound <= bytes.count && ($0.definition?.upperBound ?? 0) <= bytes.count
      })
    (self.bytes, self.rows) = (bytes, rows)
  }

  /// The rows of `words`.
  public init(_ words: [Word]) {
    rows.reserveCapacity(words.count)
    for word in words {
      var text = word.text
      let t = text.withUTF8 { append($0) }
      var definition = word.meanings.first?.definition
      let d = definition.map { _ in definition!.withUTF8 { append($0) } }
      rows.append(Row(text: t, definition: d, meanings: word.meanings.count))
    }
  }

  /// Makes room for `count` words of `size` bytes in all.
  public mutating func reserve(words count: Int, bytes size: Int) {
    rows.reserveCapacity(count)
    bytes.reserveCapacity(size)
  }

  /// Adds a word from its text and first definition (UTF-8).
  public mutating func append(
    text: UnsafeRawBufferPointer, definition: UnsafeRawBufferPointer?, meanings: Int
  ) {
    let t = append(raw: text)
    let d = definition.map { append(raw: $0) }
    rows.append(Row(text: t, definition: d, meanings: meanings))
  }

  private mutating func append(raw utf8: UnsafeRawBufferPointer) -> Range<Int> {
    let start = bytes.count
    bytes.append(contentsOf: utf8)
    return start..<bytes.count
  }

  private mutating func append(_ utf8: UnsafeBufferPointer<UInt8>) -> Range<Int> {
    let start = bytes.count
    bytes.append(contentsOf: utf8)
    return start..<bytes.count
  }

  /// How many words.
  public var count: Int { rows.count }

  /// The same words (texts, first definitions and meaning counts), wherever their bytes lie:
  /// rows read from a cache file point into all of it.
  public static func == (a: WordRows, b: WordRows) -> Bool {
    guard a.rows.count == b.rows.count else { return false }
    func same(_ x: Range<Int>, _ y: Range<Int>) -> Bool {
      x.count == y.count && a.bytes[x].elementsEqual(b.bytes[y])
    }
    for (x, y) in zip(a.rows, b.rows) {
      guard x.meanings == y.meanings, same(x.text, y.text) else { return false }
      switch (x.definition, y.definition) {
      case (nil, nil): continue
      case (let dx?, let dy?): guard same(dx, dy) else { return false }
      default: return false
      }
    }
    return true
  }
}
