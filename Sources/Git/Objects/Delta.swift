/// Git's delta format (gitformat-pack(5), "Deltified representation"): the base's size and the
/// result's size as little-endian base-128 numbers, then instructions that copy a range of the
/// base or insert the bytes that follow.
enum Delta {
  /// The object `delta` makes from `base`; nil when the delta does not fit the base.
  static func apply(_ delta: UnsafeRawBufferPointer, to base: [UInt8]) -> [UInt8]? {
    var i = 0
    func number() -> Int? {
      var value = 0
      var shift = 0
      while i < delta.count, shift < 63 {
        let c = delta[i]
        i += 1
        value |= Int(c & 0x7f) << shift
        if c & 0x80 == 0 { return value }
        shift += 7
      }
      return nil
    }
    guard let baseSize = number(), baseSize == base.count, let size = number(),
      size <= ObjectReader.largestObject
    else { return nil }
    var ok = true
    let result = base.withUnsafeBytes { source in
      [UInt8](unsafeUninitializedCapacity: size) { out, count in
        var o = 0
        /// Appends `length` bytes of `from` starting at `start`; false when either side is short.
        func append(_ from: UnsafeRawBufferPointer, _ start: Int, _ length: Int) -> Bool {
          guard start + length <= from.count, o + length <= size else { return false }
          UnsafeMutableRawPointer(out.baseAddress! + o).copyMemory(
            from: from.baseAddress! + start, byteCount: length)
          o += length
          return true
        }
        while ok && i < delta.count {
          let op = delta[i]
          i += 1
          if op & 0x80 != 0 {
            // Copy from the base: which offset and length bytes follow is in the op's bits.
            var offset = 0
            var length = 0
            for k in 0..<7 where op & (1 << k) != 0 && ok {
              guard i < delta.count else {
                ok = false
                break
              }
              if k < 4 {
                offset |= Int(delta[i]) << (8 * k)
              } else {
                length |= Int(delta[i]) << (8 * (k - 4))
              }
              i += 1
            }
            ok = ok && append(source, offset, length == 0 ? 0x10000 : length)
          } else if op != 0 {
            // Insert the next `op` bytes of the delta.
            ok = append(delta, i, Int(op))
            i += Int(op)
          } else {
            ok = false  // reserved instruction
          }
        }
        ok = ok && o == size
        count = ok ? size : 0
      }
    }
    return ok ? result : nil
  }
}
