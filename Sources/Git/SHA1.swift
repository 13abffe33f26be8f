/// SHA-1 over bytes, for the index file's trailing checksum (not for security).
// NB: raw pointers and four unrolled rounds; a first version with an array and a closure ran at
// a tenth of this speed and was most of a dinger commit's time on a 4 MB index.
struct SHA1 {
  private var h: (UInt32, UInt32, UInt32, UInt32, UInt32) = (
    0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0
  )
  private var pending: [UInt8] = []
  private var length = 0
  /// The message schedule's 80 words: scratch space, owned by a class so that it is freed
  /// once, whenever the hash is dropped (before, only `finish` freed it: a pack write that
  /// threw leaked it, and a copied hash freed it twice).
  private final class Scratch {
    let words = UnsafeMutablePointer<UInt32>.allocate(capacity: 80)
    deinit { words.deallocate() }
  }
  private let scratch = Scratch()
  private var w: UnsafeMutablePointer<UInt32> { scratch.words }

  /// Feeds bytes; whole blocks are hashed straight from the caller's memory.
  mutating func update(_ data: UnsafeRawBufferPointer) {
    guard var p = data.baseAddress, data.count > 0 else { return }
    var n = data.count
    length += n
    if !pending.isEmpty {
      let take = min(64 - pending.count, n)
      pending += UnsafeRawBufferPointer(start: p, count: take)
      p += take
      n -= take
      if pending.count == 64 {
        pending.withUnsafeBytes { SHA1.block($0.baseAddress!, w, &h) }
        pending.removeAll(keepingCapacity: true)
      }
    }
    while n >= 64 {
      SHA1.block(p, w, &h)
      p += 64
      n -= 64
    }
    if n > 0 { pending += UnsafeRawBufferPointer(start: p, count: n) }
  }

  /// The digest; the value is used up.
  mutating func finish() -> [UInt8] {
    var tail = pending
    tail.append(0x80)
    while tail.count % 64 != 56 { tail.append(0) }
    let bits = UInt64(length) * 8
    for i in (0..<8).reversed() { tail.append(UInt8(truncatingIfNeeded: bits >> (UInt64(i) * 8))) }
    tail.withUnsafeBytes { t in
      var o = 0
      while o < t.count {
        SHA1.block(t.baseAddress! + o, w, &h)
        o += 64
      }
    }
    var out: [UInt8] = []
    for v in [h.0, h.1, h.2, h.3, h.4] {
      out += [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
    }
    return out
  }

  /// SHA-1 of one buffer.
  static func digest(_ data: UnsafeRawBufferPointer) -> [UInt8] {
    var sha = SHA1()
    sha.update(data)
    return sha.finish()
  }

  @inline(__always)
  static func rotl(_ x: UInt32, _ n: UInt32) -> UInt32 { (x << n) | (x >> (32 - n)) }

  @inline(__always)
  static func block(
    _ p: UnsafeRawPointer, _ w: UnsafeMutablePointer<UInt32>,
    _ h: inout (UInt32, UInt32, UInt32, UInt32, UInt32)
  ) {
    for i in 0..<16 {
      w[i] = UInt32(bigEndian: p.loadUnaligned(fromByteOffset: i &* 4, as: UInt32.self))
    }
    for i in 16..<80 { w[i] = rotl(w[i &- 3] ^ w[i &- 8] ^ w[i &- 14] ^ w[i &- 16], 1) }
    var (a, b, c, d, e) = h
    for i in 0..<20 {
      let t = rotl(a, 5) &+ ((b & c) | (~b & d)) &+ e &+ 0x5A82_7999 &+ w[i]
      (e, d, c, b, a) = (d, c, rotl(b, 30), a, t)
    }
    for i in 20..<40 {
      let t = rotl(a, 5) &+ (b ^ c ^ d) &+ e &+ 0x6ED9_EBA1 &+ w[i]
      (e, d, c, b, a) = (d, c, rotl(b, 30), a, t)
    }
    for i in 40..<60 {
      let t = rotl(a, 5) &+ ((b & c) | (b & d) | (c & d)) &+ e &+ 0x8F1B_BCDC &+ w[i]
      (e, d, c, b, a) = (d, c, rotl(b, 30), a, t)
    }
    for i in 60..<80 {
      let t = rotl(a, 5) &+ (b ^ c ^ d) &+ e &+ 0xCA62_C1D6 &+ w[i]
      (e, d, c, b, a) = (d, c, rotl(b, 30), a, t)
    }
    h = (h.0 &+ a, h.1 &+ b, h.2 &+ c, h.3 &+ d, h.4 &+ e)
  }
}
