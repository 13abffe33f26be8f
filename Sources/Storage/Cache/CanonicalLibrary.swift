import Base
import FoundationEssentials
import Glibc
import Models
import YAML

/// `word list` of a library file written in dinger's own form, without libyaml: one pass over
/// the bytes, line by line, straight into the listing's packed rows (no `Word`s). libyaml alone
/// takes 56x `cat` on a 10 MB library; this is about a tenth of that.
///
/// Only the form dinger writes is read here: two-space indents, the keys of a library, a word
/// and a meaning each once, plain or single-quoted one-line scalars that YAML reads as strings.
/// Anything else (a comment, a tab, a CR, a flow collection, a double-quoted or block scalar,
/// an anchor, an unknown key, a value YAML would read as a number, a bool or null) and anything
/// the record's rules would flag (an empty name or definition, a malformed language, a word
/// listed twice) gives nil: the full decode then reads the file and says what is wrong, if
/// anything is. A differential test holds both paths to the same answer.
enum CanonicalLibrary {
  /// The keys, as bytes.
  private enum K {
    static let id = Array("id".utf8), name = Array("name".utf8)
    static let language = Array("language".utf8), words = Array("words".utf8)
    static let text = Array("text".utf8), phonetic = Array("phonetic".utf8)
    static let meanings = Array("meanings".utf8), partOfSpeech = Array("partOfSpeech".utf8)
    static let definition = Array("definition".utf8), example = Array("example".utf8)
  }

  /// The listing of `bytes`, or nil when the full decode must read them.
  static func listing(_ bytes: [UInt8], path: String) -> LibraryListing? {
    bytes.withUnsafeBufferPointer { listing($0, path: path) }
  }

  private static func listing(_ b: UnsafeBufferPointer<UInt8>, path: String) -> LibraryListing? {
    guard let last = b.last, last == 10, !b.starts(with: [0xEF, 0xBB, 0xBF]), printable(b)
    else { return nil }
    var id: UUID?
    var name: String?
    var language: String?
    var sawWords = false
    var rows = WordRows()
    rows.reserve(words: b.count / 100, bytes: b.count / 3)
    // NB: natural keys by their hash; two words with one hash (a duplicate, or a collision)
    // send the file to the full decode, which tells which.
    var keys = Set<Int>(minimumCapacity: b.count / 64)
    var text: Scalar?
    var definition: Scalar?
    var meanings = 0
    var wordKeys = 0  // bits: text 1, phonetic 2, meanings 4
    var meaningKeys = 0  // bits: partOfSpeech 1, definition 2, example 4
    var inMeanings = false
    var level = 0  // 0 top, 1 in words, 2 in meanings
    func endMeaning() -> Bool { meaningKeys == 0 || meaningKeys & 2 != 0 }
    func endWord() -> Bool {
      // NB: `meanings:` with no item under it is null to YAML: the full decode says so.
      guard endMeaning(), let text, wordKeys & 4 == 0 || meanings > 0 else { return wordKeys == 0 }
      // The word's natural key (trimmed, NFC, lowercase): ASCII needs only lowercasing.
      var ascii = !text.escaped && b[text.start] != 32 && b[text.end - 1] != 32
      var h: UInt64 = 0xcbf2_9ce4_8422_2325
      if ascii {
        for i in text.start..<text.end {
          let c = b[i]
          if c >= 0x80 {
            ascii = false
            break
          }
          h = (h ^ UInt64(c >= 65 && c <= 90 ? c + 32 : c)) &* 0x100_0000_01b3
        }
      }
      if !ascii {
        let key = Word(text: text.string(b)).naturalKey
        guard !key.isEmpty else { return false }
        h = 0xcbf2_9ce4_8422_2325
        for c in key.utf8 { h = (h ^ UInt64(c)) &* 0x100_0000_01b3 }
      }
      guard keys.insert(Int(truncatingIfNeeded: h)).inserted else { return false }
      guard definition != nil || meanings == 0 else { return false }
      text.withBytes(b) { tb in
        if let definition {
          definition.withBytes(b) { db in rows.append(text: tb, definition: db, meanings: meanings)
          }
        } else {
          rows.append(text: tb, definition: nil, meanings: 0)
        }
      }
      return true
    }
    var at = 0
    while at < b.count {
      // NB: memchr finds the line's end a vector at a time.
      let end =
        UnsafeRawPointer(memchr(b.baseAddress! + at, 10, b.count - at)!)
        - UnsafeRawPointer(b.baseAddress!)
      defer { at = end + 1 }
      var indent = at
      while indent < end && b[indent] == 32 { indent += 1 }
      let depth = indent - at
      var i = indent
      var item = false
      if i + 1 < end && b[i] == 45 && b[i + 1] == 32 {  // "- "
        item = true
        i += 2
      }
      // key: letters only, then ":" and a space or the end of the line.
      let keyStart = i
      while i < end && ((b[i] >= 97 && b[i] <= 122) || (b[i] >= 65 && b[i] <= 90)) { i += 1 }
      guard i > keyStart, i < end, b[i] == 58 else { return nil }
      let key = UnsafeBufferPointer(rebasing: b[keyStart..<i])
      i += 1
      var value: Scalar?
      if depth == 0 && !item && same(key, K.id) {
        // NB: an id is read as a UUID as it stands (a plain scalar may start with a digit).
        guard id == nil, level == 0, b[i] == 32, i + 1 < end,
          let u = FastUUID.parse(bytes: UnsafeBufferPointer(rebasing: b[(i + 1)..<end]))
        else { return nil }
        id = u
        continue
      }
      if i < end {
        guard b[i] == 32, i + 1 < end else { return nil }
        guard let v = Scalar(b, from: i + 1, to: end) else { return nil }
        value = v
      }
      switch (depth, item) {
      case (0, false):
        if level > 0 {
          guard endWord() else { return nil }
          (level, text, definition, meanings, wordKeys, meaningKeys) = (0, nil, nil, 0, 0, 0)
        }
        switch true {
        case _ where same(key, K.name):
          guard name == nil, let v = value else { return nil }
          name = v.string(b)
        case _ where same(key, K.language):
          guard language == nil, let v = value else { return nil }
          language = v.string(b)
        case _ where same(key, K.words):
          guard !sawWords, value == nil else { return nil }
          sawWords = true
          level = 1
        default: return nil
        }
      case (2, true) where level >= 1:
        // A new word.
        guard endWord() else { return nil }
        (text, definition, meanings, wordKeys, meaningKeys, inMeanings) = (nil, nil, 0, 0, 0, false)
        level = 1
        guard wordKey(key, value, &text, &wordKeys, &inMeanings), !inMeanings || value == nil
        else { return nil }
        if inMeanings { level = 2 }
      case (4, false) where level >= 1 && wordKeys != 0:
        guard endMeaning() else { return nil }
        meaningKeys = 0
        level = 1
        guard wordKey(key, value, &text, &wordKeys, &inMeanings) else { return nil }
        if inMeanings { level = 2 }
      case (6, true) where level == 2:
        guard endMeaning() else { return nil }
        meaningKeys = 0
        meanings += 1
        guard meaningKey(key, value, first: meanings == 1, &definition, &meaningKeys) else {
          return nil
        }
      case (8, false) where level == 2 && meaningKeys != 0:
        guard meaningKey(key, value, first: meanings == 1, &definition, &meaningKeys) else {
          return nil
        }
      default: return nil
      }
    }
    if level > 0 { guard endWord() else { return nil } }
    // NB: a library without words has no `words` key at all.
    guard let name, !name.trimmed.isEmpty, let language, LanguageCode.isWellFormed(language)
    else { return nil }
    return LibraryListing(path: path, id: id, name: name, language: language, rows: rows)
  }

  /// True when `b` is UTF-8 of characters YAML prints: no controls but the line feed (libyaml
  /// refuses the others), no C1 controls, no U+FFFE or U+FFFF.
  private static func printable(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
    var ascii = true
    for c in b {
      // NB: a tab only inside a quoted scalar (a plain one refuses it below).
      if c < 32 && c != 10 && c != 9 || c == 127 { return false }
      if c >= 0x80 { ascii = false }
    }
    guard !ascii else { return true }
    guard let text = String(validating: b, as: UTF8.self) else { return false }
    for s in text.unicodeScalars where s.value >= 0x80 {
      if s.value <= 0x9F && s.value != 0x85 || s.value == 0xFFFE || s.value == 0xFFFF
        || s.value == 0xFEFF
      {
        return false
      }
    }
    return true
  }

  /// A word's key: `text`, `phonetic` (strings) or `meanings` (a list follows).
  private static func wordKey(
    _ key: UnsafeBufferPointer<UInt8>, _ value: Scalar?, _ text: inout Scalar?, _ seen: inout Int,
    _ inMeanings: inout Bool
  ) -> Bool {
    let bit: Int
    switch true {
    case _ where same(key, K.text): bit = 1
    case _ where same(key, K.phonetic): bit = 2
    case _ where same(key, K.meanings): bit = 4
    default: return false
    }
    guard seen & bit == 0 else { return false }
    seen |= bit
    if bit == 4 {
      guard value == nil else { return false }
      inMeanings = true
      return true
    }
    guard let value else { return false }
    if bit == 1 { text = value }
    return true
  }

  /// A meaning's key: `partOfSpeech`, `definition`, `example`, each a string.
  private static func meaningKey(
    _ key: UnsafeBufferPointer<UInt8>, _ value: Scalar?, first: Bool, _ definition: inout Scalar?,
    _ seen: inout Int
  ) -> Bool {
    let bit: Int
    switch true {
    case _ where same(key, K.partOfSpeech): bit = 1
    case _ where same(key, K.definition): bit = 2
    case _ where same(key, K.example): bit = 4
    default: return false
    }
    guard seen & bit == 0, let value else { return false }
    seen |= bit
    if bit == 2 {
      guard value.hasText else { return false }  // an empty definition: the rules flag it
      if first { definition = value }
    }
    return true
  }

  /// True when `key` is `name`.
  @inline(__always) private static func same(_ key: UnsafeBufferPointer<UInt8>, _ name: [UInt8])
    -> Bool
  {
    key.count == name.count
      && name.withUnsafeBytes { memcmp(key.baseAddress!, $0.baseAddress!, key.count) == 0 }
  }

  /// A one-line scalar YAML reads as a string: plain, or single-quoted (`''` for a quote).
  struct Scalar {
    let start: Int
    let end: Int
    let quoted: Bool
    /// False when it is only spaces (after trimming: an empty definition).
    let hasText: Bool
    static let special: Set<[UInt8]> = Set(
      ["null", "true", "false", "yes", "no", "on", "off", "y", "n"].map { Array($0.utf8) })

    /// True when it holds `''` (a quote).
    var escaped = false

    init?(_ b: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) {
      let first = b[start]
      if first == 39 {  // '
        guard end - start >= 2, b[end - 1] == 39 else { return nil }
        var i = start + 1
        var text = false
        var escaped = false
        while i < end - 1 {
          if b[i] == 39 {
            guard i + 1 < end - 1, b[i + 1] == 39 else { return nil }
            escaped = true
            i += 1
          }
          if b[i] != 32 && b[i] != 9 { text = true }
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
      var i = start
      while i < end {
        let c = b[i]
        if c < 32 || c == 127 { return nil }
        if c == 58 && i + 1 < end && b[i + 1] == 32 { return nil }
        if c == 35 && b[i - 1] == 32 { return nil }
        i += 1
      }
      if end - start <= 5 {
        // null, true, false, yes, no, on, off, y, n in any case: not strings to YAML 1.1.
        var lower = [UInt8](repeating: 0, count: end - start)
        for i in start..<end { lower[i - start] = b[i] | 0x20 }
        if Self.special.contains(lower) { return nil }
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
