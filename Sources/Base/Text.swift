@_spi(_Unicode) import Swift

// What full Foundation's NSString gave us, on the standard library alone: FoundationEssentials
// (all dinger links) has no trimming, literal search or folding for strings, and full Foundation
// brings ICU's 34 MB of data into the binary.
//
// Searches here compare Unicode scalars, not Characters: `"a\r\nb".containsText("\n")` is true,
// where the standard library's Character-based `contains` says false (CR LF is one Character).

extension Unicode.Scalar {
  /// A space or tab: Unicode's space separators (Zs) and U+0009, as Foundation's `.whitespaces`.
  public var isSpaceOrTab: Bool { value == 9 || properties.generalCategory == .spaceSeparator }

  /// A line end: U+000A-U+000D, U+0085, U+2028, U+2029, as Foundation's `.newlines`.
  public var isLineEnd: Bool {
    (0x0A...0x0D).contains(value) || value == 0x85 || value == 0x2028 || value == 0x2029
  }
}

extension StringProtocol {
  /// Without leading and trailing spaces, tabs and line ends.
  public func trimmed() -> String { trimming { $0.isSpaceOrTab || $0.isLineEnd } }

  /// Without leading and trailing spaces and tabs; line ends stay.
  public func trimmingSpaces() -> String { trimming(\.isSpaceOrTab) }

  /// Without the leading and trailing scalars `drop` is true for.
  public func trimming(_ drop: (Unicode.Scalar) -> Bool) -> String {
    let scalars = unicodeScalars
    guard let first = scalars.firstIndex(where: { !drop($0) }) else { return "" }
    let last = scalars.lastIndex(where: { !drop($0) })!
    return String(String.UnicodeScalarView(scalars[first...last]))
  }

  /// The first place `target` occurs, scalar by scalar.
  public func firstRange(ofText target: some StringProtocol) -> Range<Index>? {
    let needle = Array(target.unicodeScalars)
    guard let first = needle.first else { return nil }
    let scalars = unicodeScalars
    var i = scalars.startIndex
    while let start = scalars[i...].firstIndex(of: first) {
      var (j, k) = (start, 0)
      while k < needle.count, j < scalars.endIndex, scalars[j] == needle[k] {
        scalars.formIndex(after: &j)
        k += 1
      }
      if k == needle.count { return start..<j }
      i = scalars.index(after: start)
    }
    return nil
  }

  /// The last place `target` occurs, scalar by scalar.
  public func lastRange(ofText target: some StringProtocol) -> Range<Index>? {
    var found: Range<Index>?
    var rest = self[...]
    while let r = rest.firstRange(ofText: target) {
      found = r
      rest = self[unicodeScalars.index(after: r.lowerBound)...]
    }
    return found
  }

  /// True when `target` occurs, scalar by scalar.
  public func containsText(_ target: some StringProtocol) -> Bool {
    firstRange(ofText: target) != nil
  }

  /// Every occurrence of `target` (scalar by scalar, left to right, not overlapping) replaced.
  public func replacingText(_ target: some StringProtocol, with replacement: some StringProtocol)
    -> String
  {
    var out = ""
    var rest = self[...]
    while let r = rest.firstRange(ofText: target) {
      out += rest[..<r.lowerBound]
      out += replacement
      rest = rest[r.upperBound...]
    }
    out += rest
    return out
  }

  /// The parts between each `separator` (empty parts kept), as Foundation's
  /// `components(separatedBy:)`.
  public func parts(separatedBy separator: some StringProtocol) -> [String] {
    var out: [String] = []
    var rest = self[...]
    while let r = rest.firstRange(ofText: separator) {
      out.append(String(rest[..<r.lowerBound]))
      rest = rest[r.upperBound...]
    }
    out.append(String(rest))
    return out
  }

  /// Padded with spaces, or cut, to `width` Characters.
  public func padded(to width: Int) -> String {
    let n = count
    return n >= width
      ? String(prefix(width)) : String(self) + String(repeating: " ", count: width - n)
  }

  /// In Unicode's composed form (NFC): the same text, written one way.
  public var composed: String { String(decoding: String(self)._nfcCodeUnits, as: UTF8.self) }

  /// Accents and other combining marks removed (`Crème` -> `Creme`).
  public var withoutMarks: String {
    var out = String.UnicodeScalarView()
    for scalar in String(self)._nfd
    where scalar.properties.canonicalCombiningClass == .notReordered
      && scalar.properties.generalCategory != .nonspacingMark
    {
      out.append(scalar)
    }
    return String(out)
  }

  /// `%XX` escapes decoded; nil when one is malformed or the bytes are not UTF-8.
  public var percentDecoded: String? {
    var bytes: [UInt8] = []
    var it = utf8.makeIterator()
    func hex(_ c: UInt8?) -> UInt8? {
      switch c {
      case .some(48...57): return c! - 48
      case .some(65...70): return c! - 55
      case .some(97...102): return c! - 87
      default: return nil
      }
    }
    while let c = it.next() {
      if c == 37 {
        guard let hi = hex(it.next()), let lo = hex(it.next()) else { return nil }
        bytes.append(hi << 4 | lo)
      } else {
        bytes.append(c)
      }
    }
    return String(validating: bytes, as: UTF8.self)
  }

  /// Bytes outside `A-Z a-z 0-9 - . _ ~` (and those in `keep`) as `%XX`.
  public func percentEncoded(keeping keep: String = "") -> String {
    let kept = Set(keep.utf8)
    var out = ""
    for b in utf8 {
      switch b {
      case 48...57, 65...90, 97...122, 45, 46, 95, 126: out.unicodeScalars.append(Unicode.Scalar(b))
      case _ where kept.contains(b): out.unicodeScalars.append(Unicode.Scalar(b))
      default:
        let digits = Array("0123456789ABCDEF".utf8)
        out += "%"
        out.unicodeScalars.append(Unicode.Scalar(digits[Int(b >> 4)]))
        out.unicodeScalars.append(Unicode.Scalar(digits[Int(b & 15)]))
      }
    }
    return out
  }
}

extension String {
  /// `self` and `name` joined by one `/`, as NSString's `appendingPathComponent`.
  public func appendingPath(_ name: String) -> String {
    isEmpty ? name : hasSuffix("/") ? self + name : self + "/" + name
  }
}

extension StringProtocol {
  /// The text as markup (HTML, a notification body) reads it: `&`, `<` and `>` as entities,
  /// `"` too when `quotes`; a line feed as `lineBreak`; a carriage return dropped; any other
  /// control character as a space.
  public func markupEscaped(quotes: Bool = false, lineBreak: String = "\n") -> String {
    var out = ""
    for scalar in unicodeScalars {
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"" where quotes: out += "&quot;"
      case "\n": out += lineBreak
      case "\r": break
      case _ where scalar.value < 0x20 || scalar.value == 0x7f: out += " "
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }
}

extension String {
  /// The index of the last `byte` (an ASCII byte such as `/`), found in the string's bytes:
  /// `utf8.lastIndex(of:)` steps back through `index(before:)` a code unit at a time, which was
  /// a fourteenth of a warm `check` that splits 130,000 paths at their last slash.
  public func lastIndex(ofASCII byte: UInt8) -> String.Index? {
    let found = utf8.withContiguousStorageIfAvailable { $0.lastIndex(of: byte) }
    guard let found else { return utf8.lastIndex(of: byte) }
    return found.map { utf8.index(utf8.startIndex, offsetBy: $0) }
  }
}
