/// Turns libyaml's marks, which count characters, into UTF-8 byte offsets. Marks arrive nearly in
/// order, so a cursor that walks forward or back from the last answer does the whole file in
/// linear time without a table.
struct MarkConverter {
  private let base: UnsafePointer<UInt8>
  private let count: Int
  private let isASCII: Bool
  private var charIndex = 0
  private var byteOffset = 0

  init(_ buffer: UnsafeBufferPointer<UInt8>) {
    base = buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!
    count = buffer.count
    isASCII = MarkConverter.allASCII(buffer)
  }

  static func allASCII(_ buffer: UnsafeBufferPointer<UInt8>) -> Bool {
    var i = 0
    let n = buffer.count
    guard let p = buffer.baseAddress else { return true }
    let raw = UnsafeRawPointer(p)
    while i + 8 <= n {
      if raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 {
        return false
      }
      i += 8
    }
    while i < n {
      if p[i] >= 0x80 { return false }
      i += 1
    }
    return true
  }

  /// The byte offset of the character at `index`.
  mutating func offset(ofCharacter index: Int) -> Int {
    if isASCII { return min(index, count) }
    while charIndex < index && byteOffset < count {
      let lead = base[byteOffset]
      byteOffset += lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
      charIndex += 1
    }
    while charIndex > index && byteOffset > 0 {
      byteOffset -= 1
      while byteOffset > 0 && base[byteOffset] & 0xC0 == 0x80 { byteOffset -= 1 }
      charIndex -= 1
    }
    return min(byteOffset, count)
  }
}
