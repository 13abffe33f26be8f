import Base
import CScan

// The values of a library in dinger's own form: the scalars `CanonicalLibrary` reads, and the
// marks that tell which of their bytes need a look.
extension CanonicalLibrary {
  /// The bytes of the lines being read that need a look, one bit each, marked a vector at a
  /// time by CScan (its header says which): a line's end, a key's ':' and a value's every byte
  /// are found without a loop over each byte.
  struct Marks {
    var newlines = UnsafeMutablePointer<UInt64>(bitPattern: 8)!
    var plain = UnsafeMutablePointer<UInt64>(bitPattern: 8)!
    var quoted = UnsafeMutablePointer<UInt64>(bitPattern: 8)!
    var nonspace = UnsafeMutablePointer<UInt64>(bitPattern: 8)!

    /// The words `count` bytes take.
    static func words(_ count: Int) -> Int { (count + 63) / 64 }

    /// Marks `b[0..<count]` (by the best method the processor has, unless a test chooses:
    /// 0 a byte at a time, 1 SSE2, 2 AVX2).
    func mark(_ b: UnsafeBufferPointer<UInt8>, count: Int, method: Int32? = nil) {
      guard let method else {
        return dinger_scan_classify(b.baseAddress, count, newlines, plain, quoted, nonspace)
      }
      dinger_scan_classify_using(method, b.baseAddress, count, newlines, plain, quoted, nonspace)
    }

    /// The first marked byte at or after `i`, or `limit` (where none is before it). NB: bits
    /// past the marked bytes are 0, and `limit` is at most their count.
    @inline(__always) static func next(
      _ bits: UnsafeMutablePointer<UInt64>, from i: Int, limit: Int
    )
      -> Int
    {
      guard i < limit else { return limit }
      var w = i &>> 6
      let word = bits[w] &>> UInt64(i & 63)
      if word != 0 { return min(i &+ word.trailingZeroBitCount, limit) }
      let last = (limit &- 1) &>> 6
      while w < last {
        w &+= 1
        let word = bits[w]
        if word != 0 { return min(w &* 64 &+ word.trailingZeroBitCount, limit) }
      }
      return limit
    }

    /// True when the value `b[start..<end]` needs no byte examined: printable ASCII without
    /// ':', '#' or a quote when plain; inside the quotes, printable ASCII without a quote.
    @inline(__always) func clean(_ b: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int)
      -> Bool
    {
      if b[start] == 39 {
        guard end - start >= 2, b[end - 1] == 39 else { return false }
        return Self.next(quoted, from: start + 1, limit: end - 1) == end - 1
      }
      return Self.next(plain, from: start, limit: end) == end
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

    /// The scalar `b[start..<end]`, nil when YAML would read it as something else or the full
    /// decode must. `clean` when no byte needs a look (`Marks.clean`).
    init?(_ b: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int, clean: Bool = false) {
      let first = b[start]
      if clean && first == 39 {
        // Printable ASCII, no quote inside: text unless all spaces.
        var i = start + 1
        while i < end - 1 && b[i] == 32 { i += 1 }
        (self.start, self.end, quoted, hasText) = (start + 1, end - 1, true, i < end - 1)
        return
      }
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
      var i = clean ? end : start
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
