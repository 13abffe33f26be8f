import Base
import FoundationEssentials
import Glibc
import Models
import YAML

/// `word list` of a library file written in dinger's own form, without libyaml: one pass over
/// the bytes, line by line, straight into the record cache's entry for it, which the listing's
/// packed rows point into (no `Word`s). libyaml alone takes 56x `cat` on a 10 MB library.
///
/// Only the form dinger writes is read here: two-space indents, the keys of a library, a word
/// and a meaning each once, plain or single-quoted one-line scalars that YAML reads as strings.
/// Anything else (a comment, a tab, a CR, a flow collection, a double-quoted or block scalar,
/// an anchor, an unknown key, a value YAML would read as a number, a bool or null) and anything
/// the record's rules would flag (an empty name or definition, a malformed language, a word
/// listed twice) gives nil: the full decode then reads the file and says what is wrong, if
/// anything is. A differential test holds both paths to the same answer.
enum CanonicalLibrary {
  /// The keys of a library, a word and a meaning.
  enum Key: Int, CaseIterable {
    case id, name, language, words, text, phonetic, meanings, partOfSpeech, definition, example

    static let names = [
      "id", "name", "language", "words", "text", "phonetic", "meanings", "partOfSpeech",
      "definition", "example",
    ].map { Array($0.utf8) }

    /// The key `b[start..<end]` is, if any: its length and its first and last eight bytes read
    /// as little-endian numbers, against each key's (the numbers spell `names`; a test holds
    /// them together).
    @inline(__always) static func of(_ b: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int)
      -> Key?
    {
      let count = end - start
      guard start + 16 <= b.count else {
        return Key.allCases.first { names[$0.rawValue].elementsEqual(b[start..<end]) }
      }
      let raw = UnsafeRawPointer(b.baseAddress!)
      let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: start, as: UInt64.self))
      let head = count < 8 ? word & ((1 << (8 * UInt64(count))) - 1) : word
      let tail =
        count > 8
        ? UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: end - 8, as: UInt64.self)) : 0
      switch (count, head, tail) {
      case (2, 0x6469, 0): return .id
      case (4, 0x656d_616e, 0): return .name
      case (4, 0x7478_6574, 0): return .text
      case (5, 0x73_6472_6f77, 0): return .words
      case (7, 0x65_6c70_6d61_7865, 0): return .example
      case (8, 0x6567_6175_676e_616c, 0): return .language
      case (8, 0x6369_7465_6e6f_6870, 0): return .phonetic
      case (8, 0x7367_6e69_6e61_656d, 0): return .meanings
      case (10, 0x6974_696e_6966_6564, 0x6e6f_6974_696e_6966): return .definition
      case (12, 0x7053_664f_7472_6170, 0x6863_6565_7053_664f): return .partOfSpeech
      default: return nil
      }
    }
  }

  /// The listing of `bytes`, or nil when the full decode must read them.
  static func listing(_ bytes: [UInt8], path: String) -> LibraryListing? {
    read(bytes, path: path)?.listing
  }

  /// The listing and the record cache's entry for the file (byte for byte what the full
  /// decode's library would be cached as; the listing's rows point into it), or nil when the
  /// full decode must read `bytes`. `chunk` is how much is read at a time (tests vary it).
  static func read(_ bytes: [UInt8], path: String, chunk: Int = 1 << 18) -> (
    listing: LibraryListing, entry: ArraySlice<UInt8>
  )? {
    var at = 0
    return read(size: bytes.count, path: path, chunk: chunk) { into in
      let n = min(into.count, bytes.count - at)
      bytes[at..<(at + n)].withUnsafeBytes { into.copyMemory(from: $0) }
      at += n
      return n
    }
  }

  /// The same from an open file of `size` bytes (its stamp's), read a piece at a time: a
  /// 10 MB library is never in memory whole, only the entry made from it (reading it whole
  /// cost more than `cat` takes, in page faults and copies). Nil also when the file is not
  /// `size` bytes long after all.
  static func read(fd: Int32, size: Int, path: String) -> (
    listing: LibraryListing, entry: ArraySlice<UInt8>
  )? {
    read(size: size, path: path, chunk: 1 << 18) { into in
      while true {
        let n = Glibc.read(fd, into.baseAddress!, into.count)
        if n < 0 && errno == EINTR { continue }
        return n
      }
    }
  }

  /// Room before the words for the rest of the entry (its places, id, name, language).
  static let gap = 1024

  /// Reads `size` bytes through `fill` (which puts up to its buffer's count of the next bytes
  /// there and says how many, 0 at the end, -1 on an error), whole lines at a time; a word cut
  /// by the end of what has been read is read again from its first line with what follows.
  private static func read(
    size: Int, path: String, chunk: Int, fill: (UnsafeMutableRawBufferPointer) -> Int
  ) -> (listing: LibraryListing, entry: ArraySlice<UInt8>)? {
    guard size > 0 else { return nil }
    // NB: the words go straight into the array that becomes the entry, set aside at the file's
    // size (no append's checks per string; untouched memory is never faulted in).
    var reader = Reader(expected: size)
    var read = false
    var words = [UInt8](unsafeUninitializedCapacity: gap + size) { buffer, count in
      buffer.baseAddress!.initialize(repeating: 0, count: gap)
      reader.out = Out(base: buffer.baseAddress!, capacity: buffer.count, count: gap)
      read = Self.read(size: size, chunk: chunk, fill: fill, into: &reader)
      count = read ? reader.out.count : 0
    }
    guard read, !reader.out.full, let name = reader.name, !name.trimmed.isEmpty,
      let language = reader.language, LanguageCode.isWellFormed(language)
    else { return nil }
    // The id's place, as the full decode gives it: the value's line and column, and the line.
    let place = reader.idLine.map {
      Diagnostic(
        .error, file: path, line: $0.number, column: 5, path: "id", message: "",
        sourceLine: $0.text)
    }
    // NB: a library without words has no `words` key at all.
    let entry = CachedRecord.libraryEntry(
      places: CachedRecord.Places(id: place, parent: nil), id: reader.id, name: name,
      language: language, count: reader.rows.count, words: &words, gap: gap)
    let listing = LibraryListing(
      path: path, id: reader.id, name: name, language: language,
      rows: WordRows(bytes: words, rows: reader.rows))
    return (listing, entry)
  }

  /// Reads every line of the file into `reader`; false when the full decode must read it.
  private static func read(
    size: Int, chunk: Int, fill: (UnsafeMutableRawBufferPointer) -> Int, into reader: inout Reader
  ) -> Bool {
    var buffer = [UInt8](repeating: 0, count: max(1, min(chunk, size)))
    var (have, checked, total) = (0, 0, 0)
    while true {
      if have == buffer.count {
        // A word longer than the buffer: room for it (bounded by the file's size).
        buffer.append(contentsOf: repeatElement(0, count: buffer.count))
      }
      let n = buffer.withUnsafeMutableBytes {
        fill(UnsafeMutableRawBufferPointer(rebasing: $0[have...]))
      }
      guard n >= 0, total + n <= size else { return false }
      total += n
      have += n
      let end: Int
      if n == 0 {
        // The end: every byte of the stamp's size, ending with a line feed. NB: a byte order
        // mark starts no key: the line is refused.
        guard total == size, have == 0 || buffer[have - 1] == 10 else { return false }
        end = have
      } else {
        guard let last = buffer[checked..<have].lastIndex(of: 10) else { continue }
        end = last + 1
      }
      let restart = buffer.withUnsafeBufferPointer { b -> Int? in
        reader.b = b
        return reader.run(to: end, final: n == 0)
      }
      guard let restart else { return false }
      if n == 0 { return true }
      buffer.withUnsafeMutableBytes { raw in
        raw.baseAddress!.copyMemory(from: raw.baseAddress! + restart, byteCount: have - restart)
      }
      (have, checked) = (have - restart, end - restart)
    }
  }

  /// True when a hash is in `keys` twice. NB: placed by their top 12 bits (a count and a
  /// scatter, like a radix sort's first pass), then only hashes that share those bits are
  /// compared: a hash table was a cache miss per word, a whole sort 1 ms for 50,000 words.
  static func hasDuplicate(_ keys: [UInt64]) -> Bool {
    guard keys.count > 1 else { return false }
    let shift: UInt64 = 52  // 4,096 places: a dozen hashes each for 50,000 words
    var starts = [Int32](repeating: 0, count: (1 << 12) + 1)
    for key in keys { starts[Int(key >> shift) + 1] += 1 }
    for b in 1..<starts.count { starts[b] += starts[b - 1] }
    var next = starts
    var placed = [UInt64](repeating: 0, count: keys.count)
    for key in keys {
      let b = Int(key >> shift)
      placed[Int(next[b])] = key
      next[b] += 1
    }
    // Each place sorted where it lies (insertion: a dozen), then each next to the next.
    for b in 0..<(1 << 12) {
      let (low, high) = (Int(starts[b]), Int(starts[b + 1]))
      guard high - low > 1 else { continue }
      for k in (low + 1)..<high {
        let key = placed[k]
        var j = k
        while j > low && placed[j - 1] > key {
          placed[j] = placed[j - 1]
          j -= 1
        }
        if j > low && placed[j - 1] == key { return true }
        placed[j] = key
      }
    }
    return false
  }

  /// The entry's words, written into memory set aside for them: the file's size, as dinger's
  /// form never takes more bytes to cache than to write (a key's name is longer than the
  /// length and flag that stand for it). Should it ever, `full` is set and the full decode
  /// reads the file.
  struct Out {
    var base = UnsafeMutablePointer<UInt8>(bitPattern: 8)!
    var capacity = 0
    var count = 0
    var full = false

    @inline(__always) mutating func room(_ n: Int) -> Bool {
      if count + n > capacity { full = true }
      return !full
    }

    mutating func u8(_ v: UInt8) {
      guard room(1) else { return }
      base[count] = v
      count += 1
    }

    /// As CacheWriter writes one.
    mutating func varint(_ v: Int) {
      var length = 1
      var rest = UInt64(v) >> 7
      while rest != 0 { (length, rest) = (length + 1, rest >> 7) }
      guard room(length) else { return }
      var v = UInt64(v)
      while v >= 0x80 {
        base[count] = UInt8(v & 0x7f) | 0x80
        count += 1
        v >>= 7
      }
      base[count] = UInt8(v)
      count += 1
    }

    /// A string as CacheWriter writes one; where its bytes went.
    mutating func string(_ utf8: UnsafeRawBufferPointer) -> Range<Int> {
      varint(utf8.count)
      guard room(utf8.count), let from = utf8.baseAddress else { return count..<count }
      UnsafeMutableRawPointer(base + count).copyMemory(from: from, byteCount: utf8.count)
      count += utf8.count
      return (count - utf8.count)..<count
    }
  }

  /// The reading under way. A struct with mutating methods, not local variables captured by
  /// nested functions: those were checked for exclusive access at run time on every use.
  private struct Reader {
    /// The lines read so far and not yet taken (valid only during `run`).
    var b = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
    var id: UUID?
    var name: String?
    var language: String?
    var sawWords = false
    /// The words as the cache's entry holds them, and each one's row (ranges in `out`).
    var out = Out()
    var rows: [WordRows.Row] = []
    // NB: natural keys by their hash; two words with one hash (a duplicate, or a collision)
    // send the file to the full decode, which tells which.
    var keys: [UInt64] = []
    var text: Scalar?
    var phonetic: Scalar?
    var definition: Scalar?
    /// The meaning being read, and the word's meanings so far.
    var pos: Scalar?, meaningText: Scalar?, example: Scalar?
    /// NB: `currentCount` of `current` are the word's (the array is kept, not emptied: its
    /// removeAll was a generic replaceSubrange per word).
    var current: [(pos: Scalar?, definition: Scalar, example: Scalar?)] = []
    var currentCount = 0
    /// The id's line: its number and text.
    var idLine: (number: Int, text: String)?
    var line = 0
    /// Where the word being read starts in `b`, and the line count before it.
    var wordStart: Int?
    var wordLine = 0
    var meanings = 0
    var wordKeys = 0  // bits: text 1, phonetic 2, meanings 4
    var meaningKeys = 0  // bits: partOfSpeech 1, definition 2, example 4
    var inMeanings = false
    var level = 0  // 0 top, 1 in words, 2 in meanings

    init(expected size: Int) {
      keys.reserveCapacity(size / 128)
      rows.reserveCapacity(size / 100)
    }

    /// Ends the meaning being read (if any): false when it has no definition.
    mutating func closeMeaning() -> Bool {
      guard meaningKeys != 0 else { return true }
      guard meaningKeys & 2 != 0, let meaningText else { return false }
      if currentCount < current.count {
        current[currentCount] = (pos, meaningText, example)
      } else {
        current.append((pos, meaningText, example))
      }
      currentCount += 1
      (meaningKeys, pos, self.meaningText, example) = (0, nil, nil, nil)
      return true
    }

    mutating func endWord() -> Bool {
      // NB: `meanings:` with no item under it is null to YAML: the full decode says so.
      guard closeMeaning(), let text, wordKeys & 4 == 0 || meanings > 0 else {
        return wordKeys == 0
      }
      // The word's natural key (trimmed, NFC, lowercase): ASCII needs only lowercasing.
      var ascii = !text.escaped && b[text.start] != 32 && b[text.end - 1] != 32
      var h = FNV1a()
      if ascii {
        for i in text.start..<text.end {
          let c = b[i]
          if c >= 0x80 {
            ascii = false
            break
          }
          h.add(c >= 65 && c <= 90 ? c + 32 : c)
        }
      }
      if !ascii {
        let key = Word(text: text.string(b)).naturalKey
        guard !key.isEmpty else { return false }
        h = FNV1a()
        h.add(key.utf8)
      }
      keys.append(h.value)
      guard definition != nil || meanings == 0 else { return false }
      // The layout of CachedRecord.body's words.
      let textRange = write(text)
      write(optional: phonetic)
      out.varint(currentCount)
      var first: Range<Int>?
      for meaning in current[..<currentCount] {
        write(optional: meaning.pos)
        let d = write(meaning.definition)
        if first == nil { first = d }
        write(optional: meaning.example)
      }
      rows.append(WordRows.Row(text: textRange, definition: first, meanings: currentCount))
      phonetic = nil
      currentCount = 0
      return true
    }

    @discardableResult
    mutating func write(_ scalar: Scalar) -> Range<Int> {
      var range = 0..<0
      scalar.withBytes(b) { range = out.string($0) }
      return range
    }

    mutating func write(optional scalar: Scalar?) {
      guard let scalar else { return out.u8(0) }
      out.u8(1)
      write(scalar)
    }

    /// A word's key: `text`, `phonetic` (strings) or `meanings` (a list follows).
    mutating func wordKey(_ key: Key, _ value: Scalar?) -> Bool {
      let bit: Int
      switch key {
      case .text: bit = 1
      case .phonetic: bit = 2
      case .meanings: bit = 4
      default: return false
      }
      guard wordKeys & bit == 0 else { return false }
      wordKeys |= bit
      if bit == 4 {
        guard value == nil else { return false }
        inMeanings = true
        return true
      }
      guard let value else { return false }
      if bit == 1 { text = value } else { phonetic = value }
      return true
    }

    /// A meaning's key: `partOfSpeech`, `definition`, `example`, each a string.
    mutating func meaningKey(_ key: Key, _ value: Scalar?, first: Bool) -> Bool {
      let bit: Int
      switch key {
      case .partOfSpeech: bit = 1
      case .definition: bit = 2
      case .example: bit = 4
      default: return false
      }
      guard meaningKeys & bit == 0, let value else { return false }
      meaningKeys |= bit
      switch bit {
      case 1: pos = value
      case 2:
        guard value.hasText else { return false }  // an empty definition: the rules flag it
        meaningText = value
        if first { definition = value }
      default: example = value
      }
      return true
    }

    /// Forgets the word being read (its scalars lie in bytes about to move): it is read again
    /// from its first line. Returns where that is.
    mutating func restartWord() -> Int? {
      guard let start = wordStart else { return nil }
      (text, phonetic, definition, pos, meaningText, example) = (nil, nil, nil, nil, nil, nil)
      currentCount = 0
      (meanings, wordKeys, meaningKeys, inMeanings, level, line) = (0, 0, 0, false, 1, wordLine)
      wordStart = nil
      return start
    }

    /// Reads the lines of `b` up to `limit` (the end of a line); nil when the full decode must
    /// read the file. Else where the next read starts: `limit`, or the first line of a word
    /// not yet complete (unless `final`: then every word ends and the keys are checked).
    mutating func run(to limit: Int, final: Bool) -> Int? {
      guard run(to: limit) else { return nil }
      guard final else { return restartWord() ?? limit }
      if level > 0 { guard endWord() else { return nil } }
      return CanonicalLibrary.hasDuplicate(keys) ? nil : limit
    }

    private mutating func run(to limit: Int) -> Bool {
      let raw = UnsafeRawPointer(b.baseAddress!)
      var at = 0
      while at < limit {
        // NB: memchr finds the line's end a vector at a time.
        let end =
          UnsafeRawPointer(memchr(b.baseAddress! + at, 10, limit - at)!)
          - UnsafeRawPointer(b.baseAddress!)
        let lineStart = at
        defer { at = end + 1 }
        line += 1
        var indent = at
        while indent < end && b[indent] == 32 { indent += 1 }
        let depth = indent - at
        var i = indent
        var item = false
        if i + 1 < end && b[i] == 45 && b[i + 1] == 32 {  // "- "
          item = true
          i += 2
        }
        // key: one of the library's, then ":" and a space or the end of the line. NB: the
        // first ':' is found eight bytes at a time (keys are letters only, at most 12).
        let keyStart = i
        if keyStart + 16 <= b.count {
          let w = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
          let w2 = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i + 8, as: UInt64.self))
          let (c, c2) = (Scalar.has(w, 58), Scalar.has(w2, 58))
          i += c != 0 ? c.trailingZeroBitCount / 8 : c2 != 0 ? 8 + c2.trailingZeroBitCount / 8 : 16
        } else {
          while i < end && b[i] != 58 { i += 1 }
        }
        guard i > keyStart, i < end, b[i] == 58, let key = Key.of(b, from: keyStart, to: i) else {
          return false
        }
        i += 1
        var value: Scalar?
        if depth == 0 && !item && key == .id {
          // NB: an id is read as a UUID as it stands (a plain scalar may start with a digit).
          guard id == nil, level == 0, b[i] == 32, i + 1 < end,
            let u = FastUUID.parse(bytes: UnsafeBufferPointer(rebasing: b[(i + 1)..<end]))
          else { return false }
          id = u
          idLine = (line, String(decoding: b[at..<end], as: UTF8.self))
          continue
        }
        if i < end {
          guard b[i] == 32, i + 1 < end else { return false }
          guard let v = Scalar(b, from: i + 1, to: end) else { return false }
          value = v
        }
        switch (depth, item) {
        case (0, false):
          if level > 0 {
            guard endWord() else { return false }
            (level, text, definition, meanings, wordKeys, meaningKeys) = (0, nil, nil, 0, 0, 0)
            wordStart = nil
          }
          if key == .name {
            guard name == nil, let v = value else { return false }
            name = v.string(b)
          } else if key == .language {
            guard language == nil, let v = value else { return false }
            language = v.string(b)
          } else if key == .words {
            guard !sawWords, value == nil else { return false }
            sawWords = true
            level = 1
          } else {
            return false
          }
        case (2, true) where level >= 1:
          // A new word.
          guard endWord() else { return false }
          (text, definition, meanings, wordKeys, meaningKeys, inMeanings) = (
            nil, nil, 0, 0, 0, false
          )
          level = 1
          (wordStart, wordLine) = (lineStart, line - 1)
          guard wordKey(key, value), !inMeanings || value == nil else { return false }
          if inMeanings { level = 2 }
        case (4, false) where level >= 1 && wordKeys != 0:
          guard closeMeaning() else { return false }
          level = 1
          guard wordKey(key, value) else { return false }
          if inMeanings { level = 2 }
        case (6, true) where level == 2:
          guard closeMeaning() else { return false }
          meanings += 1
          guard meaningKey(key, value, first: meanings == 1) else { return false }
        case (8, false) where level == 2 && meaningKeys != 0:
          guard meaningKey(key, value, first: meanings == 1) else { return false }
        default: return false
        }
      }
      return true
    }
  }

  /// The length of the UTF-8 sequence at `b[at]` (a byte of 0x80 or more) when it is a
  /// character YAML prints inside a line, else nil: no overlong form, surrogate or value past
  /// U+10FFFF (the standard library's check and a walk over every scalar took 30 ms on 10 MB),
  /// no C1 control, U+FFFE, U+FFFF or byte order mark (libyaml refuses them), no NEL, LS or
  /// PS (line breaks to YAML 1.1). NB: every other byte of a line is checked where it is read:
  /// indentation, "- ", a key, ':' and a space exactly, a value by `Scalar` (ASCII eight bytes
  /// at a time), an id as a UUID.
  static func character(_ b: UnsafeBufferPointer<UInt8>, at i: Int, end: Int) -> Int? {
    let c = b[i]
    let length: Int
    var value: UInt32
    switch c {
    case 0xC2...0xDF: (length, value) = (2, UInt32(c & 0x1F))
    case 0xE0...0xEF: (length, value) = (3, UInt32(c & 0x0F))
    case 0xF0...0xF4: (length, value) = (4, UInt32(c & 0x07))
    default: return nil
    }
    guard i + length <= end else { return nil }
    for k in 1..<length {
      let d = b[i + k]
      guard d & 0xC0 == 0x80 else { return nil }
      value = value << 6 | UInt32(d & 0x3F)
    }
    if length == 3 && (value < 0x800 || (0xD800...0xDFFF).contains(value)) { return nil }
    if length == 4 && (value < 0x10000 || value > 0x10FFFF) { return nil }
    // NB: NEL, LS and PS are line breaks to YAML 1.1 (libyaml folds a scalar there): the
    // full decode reads them.
    if value <= 0x9F || value == 0x2028 || value == 0x2029 || value == 0xFFFE || value == 0xFFFF
      || value == 0xFEFF
    {
      return nil
    }
    return length
  }

  /// A one-line scalar YAML reads as a string: plain, or single-quoted (`''` for a quote).
  struct Scalar {
    let start: Int
    let end: Int
    let quoted: Bool
    /// False when it is only spaces (after trimming: an empty definition).
    let hasText: Bool
    /// The words YAML 1.1 reads as null or a bool, lowercase, packed in a number (the first
    /// byte highest): a test holds them to the words.
    static let special: [UInt64] = [
      0x6e75_6c6c, 0x7472_7565, 0x66_616c_7365, 0x79_6573, 0x6e6f, 0x6f6e, 0x6f_6666, 0x79, 0x6e,
    ]

    /// True for one of `special` (a switch: no array to reach for each short scalar).
    @inline(__always) static func isSpecial(_ packed: UInt64) -> Bool {
      switch packed {
      case 0x6e75_6c6c, 0x7472_7565, 0x66_616c_7365, 0x79_6573, 0x6e6f, 0x6f6e, 0x6f_6666, 0x79,
        0x6e:
        return true
      default: return false
      }
    }

    /// Nonzero when one of the eight bytes of `w` is not printable ASCII (0x80 or more, a
    /// control, DEL). Exact per byte: no borrow crosses a byte.
    @inline(__always) static func unprintable(_ w: UInt64) -> UInt64 {
      let m: UInt64 = 0x8080_8080_8080_8080
      let control = ~((w | m) &- 0x2020_2020_2020_2020) & m
      let d = w ^ 0x7F7F_7F7F_7F7F_7F7F
      let del = ~(((d & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7F7F_7F7F_7F7F_7F7F) | d) & m
      return (w & m) | control | del
    }

    /// Nonzero when one of the eight bytes of `w` is `c`.
    @inline(__always) static func has(_ w: UInt64, _ c: UInt8) -> UInt64 {
      let v = w ^ (0x0101_0101_0101_0101 &* UInt64(c))
      return (v &- 0x0101_0101_0101_0101) & ~v & 0x8080_8080_8080_8080
    }

    /// True when it holds `''` (a quote).
    var escaped = false

    init?(_ b: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) {
      let first = b[start]
      if first == 39 {  // '
        guard end - start >= 2, b[end - 1] == 39 else { return nil }
        var i = start + 1
        var text = false
        var escaped = false
        let raw = UnsafeRawPointer(b.baseAddress!)
        while i < end - 1 {
          // NB: once it has text, eight bytes at a time while none is a quote and all are
          // printable ASCII.
          if text && i + 8 <= end - 1 {
            let w = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            if Self.has(w, 39) | Self.unprintable(w) == 0 {
              i += 8
              continue
            }
          }
          let c = b[i]
          if c >= 0x80 {
            guard let n = CanonicalLibrary.character(b, at: i, end: end - 1) else { return nil }
            (text, i) = (true, i + n)
            continue
          }
          if c < 32 && c != 9 || c == 127 { return nil }  // a tab only quoted
          if c == 39 {
            guard i + 1 < end - 1, b[i + 1] == 39 else { return nil }
            escaped = true
            i += 1
          }
          if c != 32 && c != 9 { text = true }
          i += 1
        }
        (self.start, self.end, quoted, hasText) = (start + 1, end - 1, true, text)
        self.escaped = escaped
        return
      }
      // Plain: no indicator first, no ": " or " #" inside, no space at the end, nothing YAML
      // would resolve as another type.
      switch first {
      case 45, 63, 58, 44, 91, 93, 123, 125, 35, 38, 42, 33, 124, 62, 34, 37, 64, 96, 32, 43, 46,
        126:
        return nil
      case 48...57: return nil
      default: break
      }
      guard b[end - 1] != 32, b[end - 1] != 58 else { return nil }
      // NB: eight bytes at a time while none is a ':' or a '#' and all are printable ASCII.
      let raw = UnsafeRawPointer(b.baseAddress!)
      var i = start
      while i < end {
        if i + 8 <= end {
          let w = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
          if Self.has(w, 58) | Self.has(w, 35) | Self.unprintable(w) == 0 {
            i += 8
            continue
          }
        }
        let c = b[i]
        if c >= 0x80 {
          guard let n = CanonicalLibrary.character(b, at: i, end: end) else { return nil }
          i += n
          continue
        }
        if c < 32 || c == 127 { return nil }
        if c == 58 && i + 1 < end && b[i + 1] == 32 { return nil }
        if c == 35 && b[i - 1] == 32 { return nil }
        i += 1
      }
      if end - start <= 5 {
        // null, true, false, yes, no, on, off, y, n in any case: not strings to YAML 1.1.
        var lower: UInt64 = 0
        for i in start..<end { lower = lower << 8 | UInt64(b[i] | 0x20) }
        if Self.isSpecial(lower) { return nil }
      }
      (self.start, self.end, quoted, hasText) = (start, end, false, true)
    }

    func string(_ b: UnsafeBufferPointer<UInt8>) -> String {
      String(decoding: bytes(b), as: UTF8.self)
    }

    /// `body` with its UTF-8, without copying when there is no `''` to read.
    func withBytes(_ b: UnsafeBufferPointer<UInt8>, _ body: (UnsafeRawBufferPointer) -> Void) {
      if escaped {
        bytes(b).withUnsafeBytes(body)
      } else {
        body(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: b[start..<end])))
      }
    }

    /// Its UTF-8, `''` read as one quote.
    func bytes(_ b: UnsafeBufferPointer<UInt8>) -> [UInt8] {
      guard escaped else { return Array(b[start..<end]) }
      var out: [UInt8] = []
      out.reserveCapacity(end - start)
      var i = start
      while i < end {
        out.append(b[i])
        i += b[i] == 39 ? 2 : 1
      }
      return out
    }
  }
}
