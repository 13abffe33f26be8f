internal import CZlib

/// Inflates zlib streams whose inflated size is known (pack entries), reusing one zlib state.
final class Inflater {
  private var stream = z_stream()
  private let ready: Bool

  init() { ready = dinger_inflate_init(&stream) == Z_OK }

  deinit { if ready { inflateEnd(&stream) } }

  /// Inflates the stream at the start of `input` into exactly `size` bytes written to `output`;
  /// false when the stream is damaged or does not make exactly `size` bytes.
  func inflate(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) -> Bool
  {
    guard ready, inflateReset(&stream) == Z_OK, let source = input.baseAddress else { return false }
    var spare: UInt8 = 0
    return withUnsafeMutablePointer(to: &spare) { sparePointer in
      // NB: zlib refuses a nil output pointer, even for an empty object.
      let target = output.baseAddress?.assumingMemoryBound(to: Bytef.self) ?? sparePointer
      stream.next_in = UnsafeMutablePointer(mutating: source.assumingMemoryBound(to: Bytef.self))
      stream.avail_in = UInt32(min(input.count, Int(UInt32.max)))
      stream.next_out = target
      stream.avail_out = UInt32(output.count)
      let rc = CZlib.inflate(&stream, Z_FINISH)
      return rc == Z_STREAM_END && Int(stream.total_out) == output.count
    }
  }

  /// The `size` bytes the stream at the start of `input` inflates to; nil when damaged.
  func inflate(_ input: UnsafeRawBufferPointer, size: Int) -> [UInt8]? {
    var ok = false
    let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
      ok = inflate(input, into: UnsafeMutableRawBufferPointer(buffer))
      count = ok ? size : 0
    }
    return ok ? bytes : nil
  }
}
