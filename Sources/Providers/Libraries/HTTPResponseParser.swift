/// Reads an HTTP/1.1 answer as it arrives, bounded: each byte is looked at once (no re-parse of
/// the whole buffer per `recv`), the headers may take 64 KiB, the body `maxBody` bytes, and a
/// chunk size is parsed as an unsigned number that may not pass that bound. Whatever a server
/// sends ends in an answer or a `Failure`, never a crash or an allocation it chose.
struct HTTPResponseParser {
  static let maxHeaders = 64 * 1024
  let maxBody: Int

  private enum Body {
    case length(Int)
    case chunked(Chunked)
    case untilClose
  }

  private enum Chunked {
    /// Reading a chunk-size line (its text so far).
    case size([UInt8])
    /// Reading a chunk's data: how much is left.
    case data(Int)
    /// Expecting the CRLF after a chunk's data (how many of its two bytes were seen).
    case dataEnd(Int)
    /// After the last chunk: trailer lines until an empty one (the current line so far).
    case trailers([UInt8])
  }

  private var head: [UInt8] = []
  private var status = 0
  private var body: Body?
  private var out: [UInt8] = []

  init(maxBody: Int = 4 * 1024 * 1024) { self.maxBody = maxBody }

  /// Takes the next bytes; the answer once it is complete.
  mutating func feed(_ bytes: ArraySlice<UInt8>) throws(HTTPClient.Failure) -> HTTPClient.Response?
  {
    var rest = bytes
    if body == nil {
      let before = head.count
      head += rest
      guard let end = Self.headerEnd(head, from: max(before - 3, 0)) else {
        if head.count > Self.maxHeaders { throw .badResponse("headers over 64 KiB") }
        return nil
      }
      rest = head[end...]
      head.removeSubrange(end...)
      try readHead()
    }
    switch body! {
    case .length(let n):
      out += rest.prefix(n - out.count)
      return out.count == n ? finished() : nil
    case .untilClose:
      guard out.count + rest.count <= maxBody else { throw tooBig() }
      out += rest
      return nil
    case .chunked(let state):
      var state = state
      defer { body = .chunked(state) }
      var i = rest.startIndex
      while i < rest.endIndex {
        switch state {
        case .size(var line):
          let b = rest[i]
          i += 1
          if b == 10 {
            if line.last == 13 { line.removeLast() }
            let size = try Self.chunkSize(line)
            guard out.count + size <= maxBody else { throw tooBig() }
            state = size == 0 ? .trailers([]) : .data(size)
          } else {
            guard line.count < 1024 else { throw .badResponse("chunk-size line too long") }
            line.append(b)
            state = .size(line)
          }
        case .data(let left):
          let take = min(left, rest.endIndex - i)
          out += rest[i..<(i + take)]
          i += take
          state = left == take ? .dataEnd(0) : .data(left - take)
        case .dataEnd(let seen):
          let want: UInt8 = seen == 0 ? 13 : 10
          guard rest[i] == want else { throw .badResponse("chunk not followed by CRLF") }
          i += 1
          state = seen == 0 ? .dataEnd(1) : .size([])
        case .trailers(var line):
          let b = rest[i]
          i += 1
          if b == 10 {
            if line.last == 13 { line.removeLast() }
            if line.isEmpty { return finished() }
            state = .trailers([])
          } else {
            guard line.count < 8192 else { throw .badResponse("trailer line too long") }
            line.append(b)
            state = .trailers(line)
          }
        }
      }
      return nil
    }
  }

  /// The connection closed: the answer if it is whole by then.
  mutating func finish() throws(HTTPClient.Failure) -> HTTPClient.Response {
    guard let body else {
      throw .badResponse(head.isEmpty ? "empty answer" : "no end of headers")
    }
    switch body {
    case .untilClose: return finished()
    case .length: throw .badResponse("body shorter than its Content-Length")
    case .chunked: throw .badResponse("broken chunked body")
    }
  }

  private mutating func finished() -> HTTPClient.Response {
    return HTTPClient.Response(status: status, body: out)
  }

  private func tooBig() -> HTTPClient.Failure {
    .badResponse("the answer is over \(maxBody / 1024 / 1024) MiB")
  }

  /// Where the blank line after the headers ends, searching from `start`.
  private static func headerEnd(_ bytes: [UInt8], from start: Int) -> Int? {
    guard bytes.count >= 4 else { return nil }
    var i = start
    while i + 3 < bytes.count {
      if bytes[i] == 13 && bytes[i + 1] == 10 && bytes[i + 2] == 13 && bytes[i + 3] == 10 {
        return i + 4
      }
      i += 1
    }
    return nil
  }

  private mutating func readHead() throws(HTTPClient.Failure) {
    let text = String(decoding: head, as: UTF8.self)
    let lines = text.components(separatedBy: "\r\n")
    let statusLine = lines.first ?? ""
    let parts = statusLine.split(separator: " ")
    guard parts.count >= 2, parts[0].hasPrefix("HTTP/"), parts[1].count == 3,
      let code = Int(parts[1])
    else {
      throw .badResponse("status line '\(statusLine.prefix(40))'")
    }
    status = code
    var chunked = false
    var length: Int?
    for line in lines.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      let name = line[..<colon].lowercased()
      let value = line[line.index(after: colon)...].trimmingCharacters(in: [" ", "\t"])
      if name == "transfer-encoding" { chunked = value.lowercased().hasSuffix("chunked") }
      if name == "content-length" {
        guard let n = UInt64(value), n <= UInt64(maxBody) else {
          throw UInt64(value) == nil
            ? .badResponse("Content-Length '\(value.prefix(20))'") : tooBig()
        }
        length = Int(n)
      }
    }
    if chunked {
      body = .chunked(.size([]))
    } else if let length {
      body = .length(length)
    } else {
      body = .untilClose
    }
  }

  /// A chunk-size line's number: hex digits (extensions after `;` ignored), unsigned, bounded.
  private static func chunkSize(_ line: [UInt8]) throws(HTTPClient.Failure) -> Int {
    var size = 0
    var digits = 0
    for b in line {
      let v: Int
      switch b {
      case 48...57: v = Int(b) - 48
      case 65...70: v = Int(b) - 55
      case 97...102: v = Int(b) - 87
      case 59, 32, 9: return try checked(size, digits)  // ';' extension, or spaces before it
      default:
        throw .badResponse("chunk size '\(String(decoding: line.prefix(20), as: UTF8.self))'")
      }
      digits += 1
      guard digits <= 8 else { throw .badResponse("chunk size too large") }
      size = size * 16 + v
    }
    return try checked(size, digits)
  }

  private static func checked(_ size: Int, _ digits: Int) throws(HTTPClient.Failure) -> Int {
    guard digits > 0 else { throw .badResponse("empty chunk size") }
    return size
  }
}
