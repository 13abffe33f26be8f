/// Unicode Normalization Form C (UAX #15) without ICU and without the standard library's private
/// normalizer: canonical decomposition, canonical ordering, then canonical composition, from the
/// tables in `CanonicalComposition` (Unicode 14). File names dinger makes from titles and names
/// are NFC, the form macOS's git (`core.precomposeUnicode`) and most keyboards write, so one
/// title gives the same bytes on every teammate's machine.
extension String {
  /// This text in NFC. Characters newer than the tables' Unicode version are left as they are.
  public var nfc: String {
    // NB: most text is NFC already and ASCII always is; the scan costs what the text does.
    if utf8.allSatisfy({ $0 < 0x80 }) { return self }
    var scalars: [Unicode.Scalar] = []
    scalars.reserveCapacity(unicodeScalars.count)
    for s in unicodeScalars { NFC.decompose(s, into: &scalars) }
    NFC.reorder(&scalars)
    var out = String.UnicodeScalarView()
    for s in NFC.compose(scalars) { out.append(s) }
    return String(out)
  }

  /// True when the text is in NFC.
  public var isNFC: Bool { unicodeScalars.elementsEqual(nfc.unicodeScalars) }
}

enum NFC {
  // Hangul syllables (Unicode 3.12): L V T jamo arithmetic.
  static let sBase: UInt32 = 0xAC00
  static let lBase: UInt32 = 0x1100
  static let vBase: UInt32 = 0x1161
  static let tBase: UInt32 = 0x11A7
  static let lCount: UInt32 = 19
  static let vCount: UInt32 = 21
  static let tCount: UInt32 = 28
  static let nCount = vCount * tCount
  static let sCount = lCount * nCount

  static let mask: UInt64 = (1 << 21) - 1

  /// The full canonical decomposition of `s`, appended.
  static func decompose(_ s: Unicode.Scalar, into out: inout [Unicode.Scalar]) {
    let v = s.value
    if v >= sBase && v < sBase + sCount {
      let i = v - sBase
      out.append(Unicode.Scalar(lBase + i / nCount)!)
      out.append(Unicode.Scalar(vBase + (i % nCount) / tCount)!)
      if i % tCount != 0 { out.append(Unicode.Scalar(tBase + i % tCount)!) }
      return
    }
    guard v >= 0xC0, let step = find(UInt64(v), in: CanonicalComposition.decompositions, shift: 42)
    else {
      out.append(s)
      return
    }
    decompose(Unicode.Scalar(UInt32((step >> 21) & mask))!, into: &out)
    let second = UInt32(step & mask)
    if second != 0 { decompose(Unicode.Scalar(second)!, into: &out) }
  }

  /// Marks sorted by combining class within each run between starters (a stable sort).
  static func reorder(_ s: inout [Unicode.Scalar]) {
    var i = 0
    while i < s.count {
      guard ccc(s[i]) != 0 else {
        i += 1
        continue
      }
      var end = i
      while end < s.count && ccc(s[end]) != 0 { end += 1 }
      if end - i > 1 {
        let run = s[i..<end].enumerated().sorted { a, b in
          (ccc(a.element), a.offset) < (ccc(b.element), b.offset)
        }
        s.replaceSubrange(i..<end, with: run.map(\.element))
      }
      i = end
    }
  }

  /// Canonical composition of decomposed, ordered scalars.
  static func compose(_ s: [Unicode.Scalar]) -> [Unicode.Scalar] {
    var out: [Unicode.Scalar] = []
    out.reserveCapacity(s.count)
    var starter: Int? = nil
    var lastClass = 0
    for c in s {
      let cc = ccc(c)
      // NB: a mark is blocked from the starter by an earlier mark of the same or higher class;
      // a starter joins only the starter right before it.
      if let st = starter, lastClass < cc || lastClass == 0, let joined = pair(out[st], c) {
        out[st] = joined
        continue
      }
      if cc == 0 { starter = out.count }
      lastClass = cc
      out.append(c)
    }
    return out
  }

  /// What NFC joins `a` and `b` into, if anything.
  static func pair(_ a: Unicode.Scalar, _ b: Unicode.Scalar) -> Unicode.Scalar? {
    let (x, y) = (a.value, b.value)
    if x >= lBase && x < lBase + lCount && y >= vBase && y < vBase + vCount {
      return Unicode.Scalar(sBase + ((x - lBase) * vCount + (y - vBase)) * tCount)
    }
    if x >= sBase && x < sBase + sCount && (x - sBase) % tCount == 0 && y > tBase
      && y < tBase + tCount
    {
      return Unicode.Scalar(x + (y - tBase))
    }
    let key = (UInt64(x) << 21 | UInt64(y)) << 21
    guard let hit = find(key >> 21, in: CanonicalComposition.compositions, shift: 21) else {
      return nil
    }
    return Unicode.Scalar(UInt32(hit & mask))
  }

  static func ccc(_ s: Unicode.Scalar) -> Int {
    Int(s.properties.canonicalCombiningClass.rawValue)
  }

  /// The entry of a sorted table whose bits above `shift` are `key`.
  static func find(_ key: UInt64, in table: [UInt64], shift: UInt64) -> UInt64? {
    var (lo, hi) = (0, table.count)
    while lo < hi {
      let mid = (lo + hi) / 2
      let k = table[mid] >> shift
      if k == key { return table[mid] }
      if k < key { lo = mid + 1 } else { hi = mid }
    }
    return nil
  }
}
