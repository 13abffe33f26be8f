import Base
import FoundationEssentials
import Glibc

/// Appends the cache's binary values: little-endian integers, varint lengths, UTF-8 strings.
struct CacheWriter {
  var bytes: [UInt8] = []

  mutating func u8(_ v: UInt8) { bytes.append(v) }

  mutating func u64(_ v: UInt64) {
    withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) }
  }

  mutating func int(_ v: Int) { u64(UInt64(bitPattern: Int64(v))) }

  /// A count or length: 7 bits a byte.
  mutating func varint(_ v: Int) {
    var v = UInt64(v)
    while v >= 0x80 {
      bytes.append(UInt8(v & 0x7f) | 0x80)
      v >>= 7
    }
    bytes.append(UInt8(v))
  }

  mutating func string(_ s: String) {
    var s = s
    s.withUTF8 { utf8 in
      varint(utf8.count)
      bytes.append(contentsOf: utf8)
    }
  }

  mutating func optional(_ s: String?) {
    guard let s else { return u8(0) }
    u8(1)
    string(s)
  }

  mutating func uuid(_ id: UUID) {
    withUnsafeBytes(of: id.uuid) { bytes.append(contentsOf: $0) }
  }

  mutating func optional(_ id: UUID?) {
    guard let id else { return u8(0) }
    u8(1)
    uuid(id)
  }

  mutating func date(_ d: Date) { u64(d.timeIntervalSinceReferenceDate.bitPattern) }
}

/// Reads what `CacheWriter` wrote, every length checked against what is left: a damaged cache
/// throws `Damaged` (and is then read from the files again), never reads out of bounds.
struct CacheReader {
  struct Damaged: Error {}

  let bytes: UnsafeRawBufferPointer
  var at: Int
  let end: Int

  init(_ bytes: UnsafeRawBufferPointer, from start: Int = 0, to end: Int? = nil) {
    self.bytes = bytes
    self.at = start
    self.end = min(end ?? bytes.count, bytes.count)
  }

  var atEnd: Bool { at >= end }

  mutating func u8() throws(Damaged) -> UInt8 {
    guard at < end else { throw Damaged() }
    defer { at += 1 }
    return bytes[at]
  }

  mutating func u64() throws(Damaged) -> UInt64 {
    guard end - at >= 8 else { throw Damaged() }
    defer { at += 8 }
    return UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: at, as: UInt64.self))
  }

  mutating func int() throws(Damaged) -> Int { Int(Int64(bitPattern: try u64())) }

  mutating func varint() throws(Damaged) -> Int {
    var v: UInt64 = 0
    var shift: UInt64 = 0
    while true {
      let b = try u8()
      v |= UInt64(b & 0x7f) << shift
      if b & 0x80 == 0 { break }
      shift += 7
      guard shift < 63 else { throw Damaged() }
    }
    guard v <= UInt64(Int.max) else { throw Damaged() }
    return Int(v)
  }

  /// A count of items each at least `size` bytes long: bounded by what is left.
  mutating func count(each size: Int = 1) throws(Damaged) -> Int {
    let n = try varint()
    guard n <= (end - at) / max(size, 1) else { throw Damaged() }
    return n
  }

  mutating func string() throws(Damaged) -> String {
    let n = try varint()
    guard n <= end - at else { throw Damaged() }
    defer { at += n }
    return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[at..<at + n]), as: UTF8.self)
  }

  /// Raw bytes, as a range of the buffer.
  mutating func slice(_ n: Int) throws(Damaged) -> Range<Int> {
    guard n >= 0, n <= end - at else { throw Damaged() }
    defer { at += n }
    return at..<at + n
  }

  /// Where a string is, without making it.
  mutating func stringRange() throws(Damaged) -> Range<Int> {
    try slice(try varint())
  }

  mutating func skipOptionalString() throws(Damaged) {
    switch try u8() {
    case 0: return
    case 1: _ = try stringRange()
    default: throw Damaged()
    }
  }

  mutating func optionalString() throws(Damaged) -> String? {
    switch try u8() {
    case 0: return nil
    case 1: return try string()
    default: throw Damaged()
    }
  }

  mutating func uuid() throws(Damaged) -> UUID {
    guard end - at >= 16 else { throw Damaged() }
    var raw: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    withUnsafeMutableBytes(of: &raw) {
      $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[at..<at + 16]))
    }
    at += 16
    return UUID(uuid: raw)
  }

  mutating func optionalUUID() throws(Damaged) -> UUID? {
    switch try u8() {
    case 0: return nil
    case 1: return try uuid()
    default: throw Damaged()
    }
  }

  mutating func date() throws(Damaged) -> Date {
    Date(timeIntervalSinceReferenceDate: Double(bitPattern: try u64()))
  }
}

/// A quick checksum of a cache file (64-bit words multiplied in), enough to tell a torn or
/// damaged file; not a defence against someone who can write to `.git/` anyway.
func cacheChecksum(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
  var sum = CacheChecksum()
  sum.add(bytes)
  return sum.value
}

/// `cacheChecksum` of bytes given in pieces (a cache file is written from its entries' own
/// buffers, not copied into one): the same value however the bytes are cut.
struct CacheChecksum {
  // NB: four independent lanes of 64-bit words, so the multiplications overlap (one lane was
  // a chain of dependent multiplies, 1.5 ms over a 6 MB cache file).
  private var lanes: (UInt64, UInt64, UInt64, UInt64) = (
    0x9E37_79B9_7F4A_7C15, 0xC2B2_AE3D_27D4_EB4F, 0x1656_67B1_9E37_79F9, 0x27D4_EB2F_1656_67C5
  )
  /// The bytes of a block of 32 not yet complete.
  private var pending: [UInt8] = []
  private var total = 0

  @inline(__always) private static func mix(_ h: UInt64, _ w: UInt64) -> UInt64 {
    let x = (h ^ w) &* 0x100_0000_01B3 &+ 0x2545_F491
    return x ^ (x >> 29)
  }

  private mutating func block(_ bytes: UnsafeRawBufferPointer, at: Int) {
    lanes.0 = Self.mix(lanes.0, bytes.loadUnaligned(fromByteOffset: at, as: UInt64.self))
    lanes.1 = Self.mix(lanes.1, bytes.loadUnaligned(fromByteOffset: at + 8, as: UInt64.self))
    lanes.2 = Self.mix(lanes.2, bytes.loadUnaligned(fromByteOffset: at + 16, as: UInt64.self))
    lanes.3 = Self.mix(lanes.3, bytes.loadUnaligned(fromByteOffset: at + 24, as: UInt64.self))
  }

  mutating func add(_ bytes: UnsafeRawBufferPointer) {
    total += bytes.count
    var at = 0
    if !pending.isEmpty {
      at = min(32 - pending.count, bytes.count)
      pending.append(contentsOf: bytes[0..<at])
      guard pending.count == 32 else { return }
      pending.withUnsafeBytes { block($0, at: 0) }
      pending.removeAll(keepingCapacity: true)
    }
    while at + 32 <= bytes.count {
      block(bytes, at: at)
      at += 32
    }
    pending.append(contentsOf: bytes[at...])
  }

  var value: UInt64 {
    var h = Self.mix(Self.mix(Self.mix(lanes.0, lanes.1), lanes.2), lanes.3)
    for byte in pending { h = (h ^ UInt64(byte)) &* 0x100_0000_01B3 }
    return h ^ UInt64(total)
  }
}
