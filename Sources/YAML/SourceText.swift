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

  /// The line that holds `offset` for a diagnostic's caret display, bounded: a line of up to
  /// `limit` bytes whole (`column` nil: the caret goes at the finding's own column), a longer
  /// one as `reach` bytes either side of the offset between `…` marks, with the caret's column
  /// in that excerpt. A finding costs the same on a 300 KB line as on a short one (20,000
  /// findings on one line each copied the whole line: minutes and gigabytes).
  public func excerpt(containing offset: Int, limit: Int = 1_000, reach: Int = 160) -> (
    text: String, column: Int?
  ) {
    let offset = min(max(offset, 0), bytes.count)
    let newline = UInt8(ascii: "\n")
    var start = offset
    while start > 0 && bytes[start - 1] != newline && offset - start <= limit { start -= 1 }
    var end = offset
    while end < bytes.count && bytes[end] != newline && end - start <= limit { end += 1 }
    let whole =
      (start == 0 || bytes[start - 1] == newline) && (end == bytes.count || bytes[end] == newline)
    if whole && end - start <= limit {
      if end > start && bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
      return (String(decoding: bytes[start..<end], as: UTF8.self), nil)
    }
    var from = max(start, offset - reach)
    var to = min(end, offset + reach)
    // NB: never cut a character in two.
    while from < offset && bytes[from] & 0xC0 == 0x80 { from += 1 }
    while to < end && to > offset && bytes[to] & 0xC0 == 0x80 { to -= 1 }
    let head = from > start || !(start == 0 || bytes[start - 1] == newline)
    let tail = to < end || !(end == bytes.count || bytes[end] == newline)
    let before = bytes[from..<offset].reduce(0) { $0 + ($1 & 0xC0 != 0x80 ? 1 : 0) }
    let text =
      (head ? "…" : "") + String(decoding: bytes[from..<to], as: UTF8.self) + (tail ? "…" : "")
    return (text, before + (head ? 1 : 0) + 1)
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
