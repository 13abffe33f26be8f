/// The bytes of one source file, with what diagnostics need: the text of a line, and the location
/// of a byte offset.
public struct SourceText: Sendable {
  /// The file's bytes exactly as read.
  public let bytes: [UInt8]

  /// Wraps the bytes of a file.
  public init(_ bytes: [UInt8]) { self.bytes = bytes }

  /// Wraps the UTF-8 of a string.
  public init(_ string: String) { self.bytes = Array(string.utf8) }

  /// The text of the line that holds `offset`, without its line break.
  public func line(containing offset: Int) -> String {
    let offset = min(max(offset, 0), bytes.count)
    var start = offset
    while start > 0 && bytes[start - 1] != UInt8(ascii: "\n") { start -= 1 }
    var end = offset
    while end < bytes.count && bytes[end] != UInt8(ascii: "\n") { end += 1 }
    if end > start && bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
    return String(decoding: bytes[start..<end], as: UTF8.self)
  }

  /// The location of a byte offset: counts lines and the Unicode scalars before it on its line.
  public func location(ofByte offset: Int) -> Location {
    let offset = min(max(offset, 0), bytes.count)
    var line = 1
    var lineStart = 0
    for i in 0..<offset where bytes[i] == UInt8(ascii: "\n") {
      line += 1
      lineStart = i + 1
    }
    var column = 1
    for i in lineStart..<offset where bytes[i] & 0xC0 != 0x80 { column += 1 }
    return Location(line: line, column: column, offset: offset)
  }
}
