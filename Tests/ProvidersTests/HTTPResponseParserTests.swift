import Testing

@testable import Providers

/// The dictionary client's HTTP reader: bounded, incremental, and the same answer however the
/// bytes are split.
@Suite struct HTTPResponseParserTests {
  func parse(_ text: String, split: Int = .max, maxBody: Int = 4 << 20) throws(HTTPClient.Failure)
    -> HTTPClient.Response
  {
    var parser = HTTPResponseParser(maxBody: maxBody)
    let bytes = Array(text.utf8)
    var at = 0
    while at < bytes.count {
      let end = min(at + split, bytes.count)
      if let done = try parser.feed(bytes[at..<end]) { return done }
      at = end
    }
    return try parser.finish()
  }

  @Test(arguments: [1, 2, 3, 7, 1000])
  func answersReadTheSameHoweverTheyAreSplit(split: Int) throws {
    let length = "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello"
    #expect(try parse(length, split: split) == .init(status: 200, body: Array("hello".utf8)))
    let chunked =
      "HTTP/1.1 404 Not Found\r\nTransfer-Encoding: chunked\r\n\r\n3;ext=1\r\nhel\r\n2\r\nlo\r\n0\r\nX-T: 1\r\n\r\n"
    #expect(try parse(chunked, split: split) == .init(status: 404, body: Array("hello".utf8)))
    let close = "HTTP/1.0 200 OK\r\n\r\nto the end"
    #expect(try parse(close, split: split) == .init(status: 200, body: Array("to the end".utf8)))
  }

  @Test(arguments: [
    ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n-1\r\nabc", "chunk size '-1'"),
    (
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n7fffffffffffffff\r\n",
      "chunk size too large"
    ),
    ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n\r\n", "empty chunk size"),
    (
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcXY",
      "chunk not followed by CRLF"
    ),
    ("HTTP/1.1 200 OK\r\nContent-Length: -5\r\n\r\n", "Content-Length '-5'"),
    ("HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999\r\n\r\n", "Content-Length"),
    ("HTTP/1.1 200 OK\r\nContent-Length: 5000000\r\n\r\n", "over 4 MiB"),
    ("SSH-2.0-OpenSSH\r\n\r\n", "status line"),
    ("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc", "shorter than its Content-Length"),
    ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nab", "broken chunked body"),
    ("HTTP/1.1 200", "no end of headers"),
    ("", "empty answer"),
  ])
  func brokenAnswersAreFailuresNotCrashes(text: String, reason: String) {
    let failure = #expect(throws: HTTPClient.Failure.self) { try parse(text) }
    #expect(failure?.description.contains(reason) == true, "\(String(describing: failure))")
  }

  @Test func bodiesAndHeadersAreBounded() {
    let body = String(repeating: "x", count: 100)
    #expect(throws: HTTPClient.Failure.badResponse("the answer is over 0 MiB")) {
      try parse("HTTP/1.1 200 OK\r\n\r\n" + body, maxBody: 50)
    }
    let chunks =
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
      + String(repeating: "10\r\n" + String(repeating: "y", count: 16) + "\r\n", count: 10)
    #expect(throws: HTTPClient.Failure.self) { try parse(chunks, maxBody: 50) }
    let headers = "HTTP/1.1 200 OK\r\n" + String(repeating: "X-A: b\r\n", count: 10_000)
    #expect(throws: HTTPClient.Failure.badResponse("headers over 64 KiB")) { try parse(headers) }
  }
}
