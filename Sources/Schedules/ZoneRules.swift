import Models

/// One time zone's offsets from UTC over time, read from a TZif file (RFC 8536) as the system's
/// tzdata ships them: the transitions the file lists, then its footer rule (a POSIX TZ string)
/// for every instant after the last one.
public struct ZoneRules: Hashable, Sendable {
  /// The IANA name (`Europe/Berlin`).
  public let name: String
  /// Transition instants, UTC seconds, ascending.
  let transitions: [Int64]
  /// Index into `types` in effect from each transition on.
  let typeAfter: [UInt8]
  /// Local time types.
  let types: [LocalType]
  /// The rule after the last transition, when the file has one.
  public let rule: PosixRule?

  struct LocalType: Hashable, Sendable {
    var offset: Int
    var isDST: Bool
    var abbreviation: String
  }

  /// Why a TZif file could not be read.
  public struct Invalid: Error, Sendable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
  }

  /// The largest zone file read, in bytes (real ones are under 4 KiB).
  public static let maxBytes = 256 * 1024

  /// Reads a TZif file's bytes.
  public init(name: String, tzif bytes: [UInt8]) throws(Invalid) {
    self.name = name
    guard bytes.count <= Self.maxBytes else { throw Invalid("larger than \(Self.maxBytes) bytes") }
    var r = Reader(bytes: bytes)
    let version = try Self.header(&r)
    var counts = try Self.counts(&r)
    if version >= 2 {
      // NB: skip the 32-bit block; the 64-bit one after it says the same with wider times.
      try r.skip(counts.size(timeBytes: 4))
      guard try Self.header(&r) >= 2 else {
        throw Invalid("second header is not version 2 or later")
      }
      counts = try Self.counts(&r)
    }
    let timeBytes = version >= 2 ? 8 : 4
    var transitions: [Int64] = []
    transitions.reserveCapacity(counts.time)
    for _ in 0..<counts.time {
      let t = timeBytes == 8 ? try r.int64() : Int64(try r.int32())
      if let last = transitions.last, t <= last { throw Invalid("transitions out of order") }
      transitions.append(t)
    }
    var typeAfter: [UInt8] = []
    for _ in 0..<counts.time {
      let i = try r.u8()
      guard Int(i) < counts.type else { throw Invalid("transition names a missing type") }
      typeAfter.append(i)
    }
    var raw: [(Int, Bool, Int)] = []
    for _ in 0..<counts.type {
      let offset = Int(try r.int32())
      let dst = try r.u8()
      let index = Int(try r.u8())
      guard abs(offset) < 26 * 3600, dst <= 1, index < max(counts.char, 1) else {
        throw Invalid("bad local time type")
      }
      raw.append((offset, dst == 1, index))
    }
    let chars = try r.bytes(counts.char)
    self.types = raw.map { offset, dst, index in
      let tail = chars.count > index ? chars[index...] : []
      let end = tail.firstIndex(of: 0) ?? tail.endIndex
      return LocalType(
        offset: offset, isDST: dst,
        abbreviation: String(decoding: tail[tail.startIndex..<end], as: UTF8.self))
    }
    try r.skip(counts.leap * (timeBytes + 4) + counts.isStd + counts.isUT)
    var rule: PosixRule?
    if version >= 2, r.remaining > 1, try r.u8() == 10 {
      let footer = try r.bytes(r.remaining)
      if let end = footer.firstIndex(of: 10), end > 0 {
        rule = PosixRule(String(decoding: footer[..<end], as: UTF8.self))
      }
    }
    self.transitions = transitions
    self.typeAfter = typeAfter
    self.rule = rule
  }

  /// A zone at a fixed offset (UTC itself, or a test's).
  public init(name: String, fixedOffset: Int, abbreviation: String, rule: PosixRule? = nil) {
    self.name = name
    transitions = []
    typeAfter = []
    types = [LocalType(offset: fixedOffset, isDST: false, abbreviation: abbreviation)]
    self.rule = rule
  }

  /// UTC.
  public static let utc = ZoneRules(name: "UTC", fixedOffset: 0, abbreviation: "UTC")

  /// Seconds east of UTC in effect at the instant `utc` (seconds since 1970).
  public func offset(at utc: Int64) -> Int { localType(at: utc).offset }

  /// The abbreviation in effect at `utc` (`CET`, `CEST`, `+0530`).
  public func abbreviation(at utc: Int64) -> String { localType(at: utc).abbreviation }

  func localType(at utc: Int64) -> LocalType {
    guard let last = transitions.last else {
      if let rule { return rule.localType(at: utc) }
      return types[0]
    }
    if utc >= last, let rule { return rule.localType(at: utc) }
    if utc < transitions[0] { return types[0] }
    // The last transition at or before `utc`.
    var (lo, hi) = (0, transitions.count - 1)
    while lo < hi {
      let mid = (lo + hi + 1) / 2
      if transitions[mid] <= utc { lo = mid } else { hi = mid - 1 }
    }
    return types[Int(typeAfter[lo])]
  }

  /// The instant a wall-clock time in this zone names (`local`: seconds since 1970 as if the
  /// wall clock were UTC). As RFC 5545 says: a time that occurs twice (clocks going back) is
  /// the first of the two; a time that never occurs (clocks going forward) is read with the
  /// offset before the gap, so 02:30 on a spring-forward night is 03:30 after it.
  public func utc(forLocal local: Int64) -> Int64 {
    let early = Int64(offset(at: local - 86_400))
    let late = Int64(offset(at: local + 86_400))
    let a = local - early
    let b = local - late
    let aFits = Int64(offset(at: a)) == early
    let bFits = Int64(offset(at: b)) == late
    switch (aFits, bFits) {
    case (true, true): return min(a, b)
    case (true, false): return a
    case (false, true): return b
    case (false, false): return a
    }
  }

  /// Every offset change in `range` (UTC seconds), oldest first: when, and the offsets before
  /// and after. For VTIMEZONE blocks.
  public func changes(in range: Range<Int64>) -> [(
    at: Int64, from: LocalTypeInfo, to: LocalTypeInfo
  )] {
    var out: [(Int64, LocalTypeInfo, LocalTypeInfo)] = []
    var previous = localType(at: range.lowerBound)
    var points = transitions.filter { range.contains($0) }
    if let rule, rule.dst != nil {
      let (startYear, endYear) = (
        CivilDate(dayNumber: floorDays(range.lowerBound)).parts.year,
        CivilDate(dayNumber: floorDays(range.upperBound - 1)).parts.year
      )
      for year in startYear...max(startYear, endYear) {
        for t in rule.transitions(in: year)
        where range.contains(t) && t >= (transitions.last ?? .min) {
          points.append(t)
        }
      }
    }
    for t in points.sorted() {
      let now = localType(at: t)
      if now != previous {
        out.append((t, previous.info, now.info))
        previous = now
      }
    }
    return out
  }

  /// Offset, DST flag and abbreviation, as VTIMEZONE blocks need them.
  public struct LocalTypeInfo: Hashable, Sendable {
    public var offset: Int
    public var isDST: Bool
    public var abbreviation: String
  }

  // MARK: - Reading

  private struct Counts {
    var isUT, isStd, leap, time, type, char: Int

    func size(timeBytes: Int) -> Int {
      time * timeBytes + time + type * 6 + char + leap * (timeBytes + 4) + isStd + isUT
    }
  }

  private static func header(_ r: inout Reader) throws(Invalid) -> Int {
    guard try r.bytes(4) == Array("TZif".utf8) else { throw Invalid("not a TZif file") }
    let v = try r.u8()
    try r.skip(15)
    switch v {
    case 0: return 1
    case 50...57: return Int(v) - 48
    default: throw Invalid("unknown TZif version")
    }
  }

  private static func counts(_ r: inout Reader) throws(Invalid) -> Counts {
    var c: [Int] = []
    for _ in 0..<6 {
      let n = Int(try r.int32())
      guard (0...100_000).contains(n) else { throw Invalid("implausible count") }
      c.append(n)
    }
    guard c[4] >= 1 else { throw Invalid("no local time types") }
    return Counts(isUT: c[0], isStd: c[1], leap: c[2], time: c[3], type: c[4], char: c[5])
  }

  private struct Reader {
    let bytes: [UInt8]
    var at = 0

    var remaining: Int { bytes.count - at }

    mutating func bytes(_ n: Int) throws(Invalid) -> [UInt8] {
      guard n >= 0, n <= remaining else { throw Invalid("file ends early") }
      defer { at += n }
      return Array(bytes[at..<(at + n)])
    }

    mutating func skip(_ n: Int) throws(Invalid) {
      guard n >= 0, n <= remaining else { throw Invalid("file ends early") }
      at += n
    }

    mutating func u8() throws(Invalid) -> UInt8 {
      guard remaining >= 1 else { throw Invalid("file ends early") }
      defer { at += 1 }
      return bytes[at]
    }

    mutating func int32() throws(Invalid) -> Int32 {
      var v: UInt32 = 0
      for _ in 0..<4 { v = v << 8 | UInt32(try u8()) }
      return Int32(bitPattern: v)
    }

    mutating func int64() throws(Invalid) -> Int64 {
      var v: UInt64 = 0
      for _ in 0..<8 { v = v << 8 | UInt64(try u8()) }
      return Int64(bitPattern: v)
    }
  }
}

extension ZoneRules.LocalType {
  var info: ZoneRules.LocalTypeInfo {
    ZoneRules.LocalTypeInfo(offset: offset, isDST: isDST, abbreviation: abbreviation)
  }
}

/// Dates typed and shown on the command line are read in the user's zone through this.
extension ZoneRules: WallClockZone {}
