import Foundation
import Models
import TestSupport
import Testing

@testable import Storage

/// `word list`'s reader for libraries in dinger's own form gives what the full decode gives, or
/// nothing (then the full decode reads the file): on libraries as dinger writes them, on
/// hostile ones, and on each of those changed a byte or a line at a time.
@Suite struct CanonicalLibraryTests {
  /// The listing the full decode gives (libyaml, the decoder, the rules), or nil when it has
  /// anything to say about the file.
  static func slow(_ bytes: [UInt8]) -> LibraryListing? {
    let file = RecordCodec.decode(bytes, path: "libraries/l.yaml", kind: .library)
    guard case .library(let l)? = file.record, file.diagnostics.isEmpty else { return nil }
    return LibraryListing(
      path: "libraries/l.yaml", id: l.id, name: l.name, language: l.language,
      rows: WordRows(l.words))
  }

  static func same(_ a: LibraryListing, _ b: LibraryListing) -> Bool {
    a.path == b.path && a.id == b.id && a.name == b.name && a.language == b.language
      && a.rows == b.rows
  }

  /// The fast reader agrees with the full decode on `bytes`: the same listing, or none.
  static func agree(_ bytes: [UInt8], _ what: String) -> Bool {
    guard let fast = CanonicalLibrary.listing(bytes, path: "libraries/l.yaml") else { return true }
    guard let slow = slow(bytes) else {
      Issue.record(
        "the fast reader listed what the full decode refuses: \(what)\n\(String(decoding: bytes, as: UTF8.self))"
      )
      return false
    }
    if !same(fast, slow) {
      Issue.record("the readers differ on \(what):\n\(String(decoding: bytes, as: UTF8.self))")
      return false
    }
    // What the record cache keeps: the same bytes from both, however the file is cut into the
    // pieces it is read in (a word cut by a piece's end is read again from its first line).
    let file = RecordCodec.decode(bytes, path: "libraries/l.yaml", kind: .library)
    let fromFull = CachedRecord.encode(file.record!, places: DataChecker.SlimFile.places(of: file))
    for chunk in [1 << 18, 1, 13, 100] {
      guard let read = CanonicalLibrary.read(bytes, path: "libraries/l.yaml", chunk: chunk),
        Array(read.entry) == fromFull, same(read.listing, slow)
      else {
        Issue.record(
          "the cache entries differ on \(what), read \(chunk) bytes at a time:\n\(String(decoding: bytes, as: UTF8.self))"
        )
        return false
      }
    }
    return true
  }

  static let texts = [
    "hola", "Grüße", "naïve café", "it's", "rock 'n' roll", "a: b", "x #y", "C#", "yes", "No",
    "null", "~", "12", "3.5", "-dash", "?q", "word", "Word", "WORD", "e\u{301}cole", "école",
    "  padded  ", "tab\tin", "emoji 🎉", "quote \"double\"", "ends:", "% pct", "@at", "`tick`",
    "\tword", "word\t",
  ]

  /// A library as people make them: words and definitions from `texts`, some repeated.
  static func library(_ rng: inout SeededGenerator) -> Library {
    func pick() -> String { texts[Int.random(in: 0..<texts.count, using: &rng)] }
    var words: [Word] = []
    for i in 0..<Int.random(in: 0...6, using: &rng) {
      var w = Word(
        text: Bool.random(using: &rng) ? pick() : "w\(i)",
        phonetic: Bool.random(using: &rng) ? "/wɜːd\(i)/" : nil)
      w.meanings = (0..<Int.random(in: 0...2, using: &rng)).map { m in
        Meaning(
          partOfSpeech: Bool.random(using: &rng) ? "noun" : nil,
          definition: Bool.random(using: &rng) ? pick() : "meaning \(m): \(pick()) it's here",
          example: Bool.random(using: &rng) ? "An example with \(pick())." : nil)
      }
      words.append(w)
    }
    return Library(
      id: Bool.random(using: &rng) ? UUID() : nil,
      name: Bool.random(using: &rng) ? "Big words" : pick(),
      language: ["en", "es", "pt-BR", "EN", "e"][Int.random(in: 0..<5, using: &rng)], words: words)
  }

  @Test func librariesAsDingerWritesThemAreListedAlike() throws {
    var rng = SeededGenerator(seed: 30)
    var (taken, valid) = (0, 0)
    for i in 0..<600 {
      let bytes = Array(try RecordCodec.encode(.library(Self.library(&rng))).utf8)
      #expect(Self.agree(bytes, "library \(i)"))
      if Self.slow(bytes) != nil { valid += 1 }
      if CanonicalLibrary.listing(bytes, path: "libraries/l.yaml") != nil { taken += 1 }
    }
    // The fast reader must take most of what dinger writes, or it is not worth having.
    #expect(
      valid > 150 && taken * 10 >= valid * 8,
      "\(taken) of \(valid) valid libraries read without libyaml")
  }

  @Test func hostileLibrariesAreListedAlikeOrLeftToTheFullDecode() throws {
    var generator = ModelGenerator(seed: 31)
    for i in 0..<400 {
      let bytes = Array(try RecordCodec.encode(.library(generator.library())).utf8)
      #expect(Self.agree(bytes, "hostile library \(i)"))
    }
  }

  /// Each library changed at one place: a byte replaced by one of YAML's characters, a line
  /// removed, doubled or moved in or out by a space.
  @Test func everySmallChangeIsListedAlikeOrLeftToTheFullDecode() throws {
    var rng = SeededGenerator(seed: 32)
    // NB: with the controls the reader checks eight bytes at a time (DEL, VT, US, NUL, CR),
    // and a byte of a UTF-8 sequence.
    let replacements =
      Array("'\":#-?[]{}&*!|>%@` \t\r0aZ\u{0}\u{7F}\u{0B}\u{1F}\n".utf8)
      + [0xC3, 0x80, 0xBF, 0xE2, 0xED, 0xF0, 0xF5, 0xFF]
    var checked = 0
    for _ in 0..<400 {
      let base = Array(try RecordCodec.encode(.library(Self.library(&rng))).utf8)
      for _ in 0..<20 {
        var bytes = base
        var lines = base.split(separator: 10, omittingEmptySubsequences: false).map(Array.init)
        switch Int.random(in: 0..<4, using: &rng) {
        case 0 where !bytes.isEmpty:
          bytes[Int.random(in: 0..<bytes.count, using: &rng)] =
            replacements[Int.random(in: 0..<replacements.count, using: &rng)]
        case 1 where lines.count > 1:
          lines.remove(at: Int.random(in: 0..<lines.count - 1, using: &rng))
          bytes = Array(lines.joined(separator: [10]))
        case 2 where lines.count > 1:
          let i = Int.random(in: 0..<lines.count - 1, using: &rng)
          lines.insert(lines[i], at: i)
          bytes = Array(lines.joined(separator: [10]))
        default:
          let i = Int.random(in: 0..<lines.count, using: &rng)
          if Bool.random(using: &rng) {
            lines[i] = [32] + lines[i]
          } else if lines[i].first == 32 {
            lines[i].removeFirst()
          }
          bytes = Array(lines.joined(separator: [10]))
        }
        #expect(Self.agree(bytes, "a changed library"))
        checked += 1
      }
    }
    #expect(checked == 8000)
  }

  /// The reader is what `word list` uses, and it lists a library like the cache does.
  @Test func wordListTakesTheFastReader() throws {
    let text = """
      id: 6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f
      name: Spanish
      language: es
      words:
        - text: hola
          meanings:
            - partOfSpeech: interjection
              definition: 'hello: a greeting'
        - text: adiós
      """ + "\n"
    let fast = try #require(CanonicalLibrary.listing(Array(text.utf8), path: "libraries/l.yaml"))
    let slow = try #require(Self.slow(Array(text.utf8)))
    #expect(Self.same(fast, slow))
    #expect(fast.rows.rows.count == 2 && fast.rows.rows[1].meanings == 0)
  }

  /// The bytes CScan marks a vector at a time are exactly those a byte-by-byte test marks, at
  /// every length and every place in a block of 64 (the vector loop's and the tail's), by each
  /// method (a byte at a time, SSE2, AVX2 where the processor has it), and
  /// `Marks.next` finds the first marked byte across words.
  @Test func theMarkedBytesAreExactlyTheClassesBytes() {
    var rng = SeededGenerator(seed: 64)
    let alphabet: [UInt8] = [10, 32, 58, 35, 39, 9, 0, 31, 127, 128, 0xC3, 0xFF, 0x41, 0x7E, 0x20]
    for method: Int32 in [0, 1, 2] {
      for length in Array(0...200) + [4_096, 4_159] {
        let bytes = (0..<length).map { _ in
          Bool.random(using: &rng)
            ? alphabet[Int.random(in: 0..<alphabet.count, using: &rng)]
            : UInt8.random(in: 0...255, using: &rng)
        }
        let words = CanonicalLibrary.Marks.words(length) + 1
        var storage = [UInt64](repeating: ~0, count: 4 * words)
        storage.withUnsafeMutableBufferPointer { m in
          let marks = CanonicalLibrary.Marks(
            newlines: m.baseAddress!, plain: m.baseAddress! + words,
            quoted: m.baseAddress! + 2 * words, nonspace: m.baseAddress! + 3 * words)
          bytes.withUnsafeBufferPointer { marks.mark($0, count: length, method: method) }
          func bit(_ map: UnsafeMutablePointer<UInt64>, _ i: Int) -> Bool {
            map[i / 64] >> UInt64(i % 64) & 1 == 1
          }
          var wrong = 0
          for (i, c) in bytes.enumerated() {
            let quoted = c < 0x20 || c >= 0x7F || c == 39
            if bit(marks.newlines, i) != (c == 10) || bit(marks.quoted, i) != quoted
              || bit(marks.plain, i) != (quoted || c == 58 || c == 35)
              || bit(marks.nonspace, i) != (c != 32)
            {
              wrong += 1
            }
          }
          // NB: past the bytes, a word's bits are 0 (`next` relies on it).
          if length % 64 != 0 {
            for map in [marks.newlines, marks.plain, marks.quoted, marks.nonspace] {
              if map[length / 64] >> UInt64(length % 64) != 0 { wrong += 1 }
            }
          }
          #expect(wrong == 0, "\(length) bytes, method \(method)")
          for from in stride(from: 0, through: length, by: 7) {
            let expected = bytes[from...].firstIndex(of: 10) ?? length
            #expect(
              CanonicalLibrary.Marks.next(marks.newlines, from: from, limit: length) == expected)
          }
        }
      }
    }
  }

  /// A word twice is found among 50,000 however their hashes fall: apart, next to each other,
  /// or among others that share their top bits.
  @Test func aHashTwiceIsFound() {
    var rng = SeededGenerator(seed: 5)
    let keys = (0..<50_000).map { _ in UInt64.random(in: 0...UInt64.max, using: &rng) }
    #expect(!CanonicalLibrary.hasDuplicate(keys))
    #expect(!CanonicalLibrary.hasDuplicate([]) && !CanonicalLibrary.hasDuplicate([7]))
    #expect(CanonicalLibrary.hasDuplicate(keys + [keys[12_345]]))
    #expect(CanonicalLibrary.hasDuplicate([keys[0]] + keys))
    let sameTop = (0..<100).map { UInt64(0xABCD) << 48 | UInt64($0 * 7919) }
    #expect(!CanonicalLibrary.hasDuplicate(keys + sameTop))
    #expect(CanonicalLibrary.hasDuplicate(keys + sameTop + [sameTop[42]]))
    // Hashes a step apart (as close as a weak hash puts "word1" and "word2").
    let steps = (0..<60_000).map { UInt64($0) }
    #expect(!CanonicalLibrary.hasDuplicate(steps))
    #expect(CanonicalLibrary.hasDuplicate(steps + [59_999]))
  }

  /// A word's natural key is hashed alike however it is read: from its text as written
  /// (ASCII capitals lowercased eight bytes at a time, the last word read whole or byte by
  /// byte) or from the natural key itself; a tab around a quoted text is trimmed like a space,
  /// so `'\tword'` and `Word` are the same word (the full decode says so).
  @Test func aNaturalKeyIsHashedAlikeHoweverItIsRead() throws {
    let text = Array("AbCdEfGhIjKlMnOpQrStUvWxYz@[`{0189".utf8)
    for count in 0...text.count {
      let lower = Array(String(decoding: text[..<count], as: UTF8.self).lowercased().utf8)
      let padded = text + Array(repeating: 0x41, count: 16)
      let fromText = padded.withUnsafeBufferPointer {
        CanonicalLibrary.keyHash(
          $0.baseAddress!, count: count, readable: $0.count, lowercasingASCII: true)
      }
      let byteByByte = text.withUnsafeBufferPointer {
        CanonicalLibrary.keyHash($0.baseAddress!, count: count, readable: 0, lowercasingASCII: true)
      }
      let fromKey = (lower + [0]).withUnsafeBufferPointer {
        CanonicalLibrary.keyHash($0.baseAddress!, count: count, readable: 0)
      }
      #expect(fromText == fromKey && byteByByte == fromKey, "\(count) bytes")
    }
    let nonASCII = Array("café".utf8)
    #expect(
      nonASCII.withUnsafeBufferPointer {
        CanonicalLibrary.keyHash(
          $0.baseAddress!, count: $0.count, readable: 0, lowercasingASCII: true)
      } == nil)
    for twice in ["'\tword'", "'word\t'", "WORD", "' Word'"] {
      let yaml = """
        name: Tabs
        language: en
        words:
          - text: Word
          - text: \(twice)

        """
      #expect(Self.slow(Array(yaml.utf8)) == nil, "\(twice) is the word twice to the full decode")
      #expect(
        CanonicalLibrary.listing(Array(yaml.utf8), path: "libraries/l.yaml") == nil, "\(twice)")
    }
  }

  /// Every byte of a value is checked where the value is read (eight at a time while they are
  /// printable ASCII): a control, a malformed or unprintable UTF-8 sequence at any place in a
  /// plain or quoted value, or in a word's text, is refused as libyaml refuses it, and the
  /// characters it prints are read alike.
  @Test func everyByteOfAValueIsCheckedWhereverItLies() {
    let sequences: [[UInt8]] = [
      [0x00], [0x7F], [0x0D], [0x1B], [0x09], [0xC2, 0x80], [0xC2, 0x85], [0xEF, 0xBB, 0xBF],
      [0xEF, 0xBF, 0xBE], [0xED, 0xA0, 0x80], [0xC0, 0xAF], [0xF4, 0x90, 0x80, 0x80],
      [0xE2, 0x82], [0x80], [0xC3, 0xA9], [0xF0, 0x9F, 0x8E, 0x89], [0xE2, 0x80, 0xA8],
      [0xE2, 0x80, 0xA9],
    ]
    var listed = 0
    for sequence in sequences {
      for at in 0..<17 {
        let value = Array("abcdefghijklmnopqrstuvwx".utf8.prefix(at)) + sequence + Array("yz".utf8)
        for form in 0..<3 {
          var line: [UInt8]
          switch form {
          case 0: line = Array("      - definition: ".utf8) + value
          case 1: line = Array("      - definition: '".utf8) + value + [39]
          default: line = Array("      - definition: plain\n  - text: ".utf8) + value
          }
          let bytes =
            Array("name: Words\nlanguage: en\nwords:\n  - text: w\n    meanings:\n".utf8) + line
            + [10]
          #expect(Self.agree(bytes, "\(sequence) at \(at), form \(form)"))
          if CanonicalLibrary.listing(bytes, path: "libraries/l.yaml") != nil { listed += 1 }
        }
      }
    }
    #expect(listed > 100)  // the printable ones, plain and quoted, are read by the fast reader
  }

  /// The words YAML reads as null or a bool are the numbers the reader refuses.
  @Test func theWordsThatAreNoStringsAreRefused() {
    let words = ["null", "true", "false", "yes", "no", "on", "off", "y", "n"]
    let packed = words.map { $0.utf8.reduce(UInt64(0)) { $0 << 8 | UInt64($1) } }
    #expect(packed == CanonicalLibrary.Scalar.special)
    #expect(packed.allSatisfy(CanonicalLibrary.Scalar.isSpecial))
    #expect(!CanonicalLibrary.Scalar.isSpecial(0x6e6f_756e))  // noun
  }

  /// Every key is told from its bytes wherever it lies (the numbers it is compared with are
  /// its name), and a key one byte off is none.
  @Test func keysAreToldByTheirBytes() {
    for key in CanonicalLibrary.Key.allCases {
      let name = CanonicalLibrary.Key.names[key.rawValue]
      for before in [0, 3, 40] {
        for after in [0, 1, 30] {
          let bytes =
            [UInt8](repeating: 32, count: before) + name + [58] + .init(repeating: 97, count: after)
          let found = bytes.withUnsafeBufferPointer {
            CanonicalLibrary.Key.of($0, from: before, to: before + name.count)
          }
          #expect(found == key, "\(String(decoding: name, as: UTF8.self)) at \(before)")
          for k in name.indices {
            var wrong = bytes
            wrong[before + k] ^= 0x20
            let none = wrong.withUnsafeBufferPointer {
              CanonicalLibrary.Key.of($0, from: before, to: before + name.count)
            }
            #expect(none == nil)
          }
        }
      }
    }
  }

  /// The entry's head (places, id, name, language) goes in the room left before the words; a
  /// name longer than that room makes a new array, with the same bytes.
  @Test func aNameLongerThanTheRoomBeforeTheWordsGivesTheSameEntry() throws {
    for length in [10, CanonicalLibrary.gap - 80, CanonicalLibrary.gap, 3 * CanonicalLibrary.gap] {
      let text =
        "id: 6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f\nname: \(String(repeating: "n", count: length))\n"
        + "language: en\nwords:\n  - text: one\n    meanings:\n      - definition: first\n"
      let bytes = Array(text.utf8)
      let read = try #require(CanonicalLibrary.read(bytes, path: "libraries/l.yaml"))
      #expect(read.listing.name.count == length)
      #expect(Self.agree(bytes, "a name of \(length) bytes"))
    }
  }
}
