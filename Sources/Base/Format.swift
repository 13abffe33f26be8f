#if canImport(Glibc)
  import Glibc
#endif

extension String {
  /// C's printf formatting of numbers (`%.1f`, `%04x`, `%02d`): what `String(format:)` did
  /// in full Foundation. `%@` is not supported; pass strings as `%s` with `withCString`.
  public init(cFormat format: String, _ arguments: CVarArg...) {
    var buffer = [CChar](repeating: 0, count: 128)
    let needed = withVaList(arguments) { vsnprintf(&buffer, buffer.count, format, $0) }
    if needed >= buffer.count {
      buffer = [CChar](repeating: 0, count: Int(needed) + 1)
      _ = withVaList(arguments) { vsnprintf(&buffer, buffer.count, format, $0) }
    }
    self = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}

/// The process's standard error, written at once (no buffering), whole or not at all retried.
public enum StandardError {
  /// Writes `text` to file descriptor 2.
  public static func write(_ text: String) {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
      let n = bytes.withUnsafeBytes { Glibc.write(2, $0.baseAddress, $0.count) }
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else { return }
      bytes = bytes.dropFirst(n)
    }
  }
}

/// FNV-1a, 64 bits: a quick hash of bytes for file names, stamps and keys (not for security).
public struct FNV1a: Sendable {
  /// The hash of the bytes added so far.
  public private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

  public init() {}

  /// Adds one byte.
  @inline(__always) public mutating func add(_ byte: UInt8) {
    value = (value ^ UInt64(byte)) &* 0x100_0000_01b3
  }

  /// Adds bytes in order.
  public mutating func add(_ bytes: some Sequence<UInt8>) { for b in bytes { add(b) } }
}
