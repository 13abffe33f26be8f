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
      guard start + 16 <= b.count else { return slow(b, from: start, to: end) }
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

    /// The same near the end of the bytes, where eight can't be read at once.
    @inline(never) static func slow(_ b: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int)
      -> Key?
    {
      Key.allCases.first { names[$0.rawValue].elementsEqual(b[start..<end]) }
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
      // NB: in pages of 2 MB where the system allows (transparent huge pages "madvise"): a
      // 10 MB library's entry took 1,400 page faults of 4 KB, 1.5 ms. A hint only.
      let pages = UnsafeMutableRawBufferPointer(buffer).alignedPages()
      if !pages.isEmpty { madvise(pages.baseAddress, pages.count, MADV_HUGEPAGE) }
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
    var marks: [UInt64] = []
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
      if marks.count < 4 * Marks.words(buffer.count) {
        marks = [UInt64](repeating: 0, count: 4 * Marks.words(buffer.count))
      }
      let restart = buffer.withUnsafeBufferPointer { b -> Int? in
        marks.withUnsafeMutableBufferPointer { m in
          let words = Marks.words(buffer.count)
          reader.b = b
          reader.marks = Marks(
            newlines: m.baseAddress!, plain: m.baseAddress! + words,
            quoted: m.baseAddress! + 2 * words, nonspace: m.baseAddress! + 3 * words)
          reader.marks.mark(b, count: end)
          return reader.run(to: end, final: n == 0)
        }
      }
      guard let restart else { return false }
      if n == 0 { return true }
      buffer.withUnsafeMutableBytes { raw in
        raw.baseAddress!.copyMemory(from: raw.baseAddress! + restart, byteCount: have - restart)
      }
      (have, checked) = (have - restart, end - restart)
    }
  }

  /// The hash of a word's natural key, eight bytes at a time; `readable` is how many bytes
  /// from `p` may be read (a last word is read whole when it may). With `lowercasingASCII`,
  /// the bytes are a word's text as written: ASCII capitals are lowercased as they are read,
  /// and nil says the text is not all ASCII (its natural key must be worked out).
  static func keyHash(
    _ p: UnsafePointer<UInt8>, count: Int, readable: Int, lowercasingASCII: Bool = false
  ) -> UInt64? {
    let raw = UnsafeRawPointer(p)
    var h: UInt64 = 0x243F_6A88_85A3_08D3 ^ UInt64(count)
    var at = 0
    while at < count {
      let n = min(8, count - at)
      var w: UInt64
      if at + 8 <= readable {
        w = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt64.self))
        if n < 8 { w &= (1 << (8 * UInt64(n))) - 1 }
      } else {
        w = 0
        for k in 0..<n { w |= UInt64(p[at + k]) << (8 * UInt64(k)) }
      }
      if lowercasingASCII {
        guard w & 0x8080_8080_8080_8080 == 0 else { return nil }
        // NB: 0x80 set in each byte at or past 'A', then in each at or past '['.
        let ones: UInt64 = 0x0101_0101_0101_0101
        let fromA = w &+ ones &* (0x80 - 0x41)
        let pastZ = w &+ ones &* (0x80 - 0x5B)
        w |= ((fromA & ~pastZ) & 0x8080_8080_8080_8080) >> 2
      }
      h = (h ^ w) &* 0x9E37_79B9_7F4A_7C15
      h ^= h >> 29
      at += 8
    }
    return h
  }

  /// True when a hash is in `keys` twice. NB: each hash sets one bit of a table of 16 bits a
  /// hash (chosen by its top bits: 100 KB for 50,000 words, in cache); only the hashes whose bit
  /// was set twice, about 3% of them, are then sorted and compared. A hash table was a cache
  /// miss per word (90 ns), a whole sort 1 ms for 50,000 words.
  static func hasDuplicate(_ keys: [UInt64]) -> Bool {
    guard keys.count > 1 else { return false }
    var shift = 64 - 6  // 64 bits, then doubled up to 16 a hash
    while (1 << (64 - shift)) < 16 * keys.count && shift > 32 { shift -= 1 }
    let places = 1 << (64 - shift)
    var seen = [UInt64](repeating: 0, count: places / 64)
    var twice = [UInt64](repeating: 0, count: places / 64)
    var any = false
    // NB: placed by their mixed bits: FNV-1a's top bits barely differ between "word1" and
    // "word2" (a third of the hashes shared a place).
    @inline(__always) func place(_ key: UInt64) -> Int {
      var x = key ^ (key >> 33)
      x = (x &* 0xFF51_AFD7_ED55_8CCD) ^ ((x &* 0xFF51_AFD7_ED55_8CCD) >> 33)
      return Int(x >> UInt64(shift))
    }
    for key in keys {
      let p = place(key)
      let (w, bit) = (p >> 6, UInt64(1) << UInt64(p & 63))
      if seen[w] & bit != 0 {
        twice[w] |= bit
        any = true
      }
      seen[w] |= bit
    }
    guard any else { return false }
    var shared = keys.filter {
      let p = place($0)
      return twice[p >> 6] & (UInt64(1) << UInt64(p & 63)) != 0
    }
    shared.sort()
    return zip(shared, shared.dropFirst()).contains { $0 == $1 }
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
    @inline(__always) mutating func varint(_ v: Int) {
      // NB: most are a string's length under 128: one byte.
      if v < 0x80 && count < capacity {
        base[count] = UInt8(truncatingIfNeeded: v)
        count += 1
        return
      }
      longVarint(v)
    }

    @inline(never) mutating func longVarint(_ v: Int) {
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

    /// A string as CacheWriter writes one; where its bytes went. `readable`: how many bytes
    /// from the string's start may be read (a string of up to 32 is copied as four words when
    /// 32 may be read and written: a call to memmove per string was 6 ns).
    mutating func string(_ utf8: UnsafeRawBufferPointer, readable: Int = 0) -> Range<Int> {
      let n = utf8.count
      varint(n)
      guard room(n), let from = utf8.baseAddress else { return count..<count }
      let to = UnsafeMutableRawPointer(base + count)
      if n <= 32 && readable >= 32 && count + 32 <= capacity {
        for k in stride(from: 0, to: 32, by: 8) {
          to.storeBytes(
            of: from.loadUnaligned(fromByteOffset: k, as: UInt64.self), toByteOffset: k,
            as: UInt64.self)
        }
      } else {
        to.copyMemory(from: from, byteCount: n)
      }
      count += n
      return (count - n)..<count
    }
  }

  /// The reading under way. A struct with mutating methods, not local variables captured by
  /// nested functions: those were checked for exclusive access at run time on every use.
  private struct Reader {
    /// The lines read so far and not yet taken, and their marks (valid only during `run`).
    var b = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
    var marks = Marks()
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
      var hash: UInt64?
      if !text.escaped && b[text.start] > 32 && b[text.end - 1] > 32 {
        hash = CanonicalLibrary.keyHash(
          b.baseAddress! + text.start, count: text.end - text.start,
          readable: b.count - text.start, lowercasingASCII: true)
      }
      if hash == nil {
        var key = Word(text: text.string(b)).naturalKey
        guard !key.isEmpty else { return false }
        hash = key.withUTF8 {
          CanonicalLibrary.keyHash($0.baseAddress!, count: $0.count, readable: 0)
        }
      }
      guard let hash else { return false }
      keys.append(hash)
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
      if scalar.escaped {
        var range = 0..<0
        scalar.withBytes(b) { range = out.string($0) }
        return range
      }
      // NB: the bytes after it in `b` may be read (a short string is copied 32 at a time).
      let from = UnsafeRawPointer(b.baseAddress! + scalar.start)
      return out.string(
        UnsafeRawBufferPointer(start: from, count: scalar.end - scalar.start),
        readable: b.count - scalar.start)
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
      var at = 0
      while at < limit {
        let end = Marks.next(marks.newlines, from: at, limit: limit)
        let lineStart = at
        defer { at = end + 1 }
        line += 1
        let indent = Marks.next(marks.nonspace, from: at, limit: end)
        let depth = indent - at
        var i = indent
        var item = false
        if i + 1 < end && b[i] == 45 && b[i + 1] == 32 {  // "- "
          item = true
          i += 2
        }
        // key: one of the library's, then ":" and a space or the end of the line. NB: keys are
        // letters only: the first marked byte after the key's start must be its ':'.
        let keyStart = i
        i = Marks.next(marks.plain, from: i, limit: end)
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
          guard let v = Scalar(b, from: i + 1, to: end, clean: marks.clean(b, from: i + 1, to: end))
          else { return false }
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
}

extension UnsafeMutableRawBufferPointer {
  /// The whole pages inside this memory (empty when it holds none).
  func alignedPages() -> UnsafeMutableRawBufferPointer {
    guard let base = baseAddress else { return self }
    let page = Int(sysconf(Int32(_SC_PAGESIZE)))
    let start = (Int(bitPattern: base) + page - 1) & ~(page - 1)
    let end = (Int(bitPattern: base) + count) & ~(page - 1)
    guard end > start else { return UnsafeMutableRawBufferPointer(start: nil, count: 0) }
    return UnsafeMutableRawBufferPointer(
      start: UnsafeMutableRawPointer(bitPattern: start), count: end - start)
  }
}
