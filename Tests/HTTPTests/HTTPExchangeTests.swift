import Foundation
import HTTP
import TestSupport
import Testing

/// HTTPExchange against a real server on 127.0.0.1 (Python's http.server): bodies streamed
/// whole, statuses and error bodies, `Retry-After`, redirects not followed, a POST's body,
/// a server that stalls, one that is not there, and a transfer stopped midway.
@Suite(.serialized) struct HTTPExchangeTests {
  static let server = #"""
    import os, sys, time
    os.closerange(3, 4096)
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
    BODY = bytes(i * 7 % 251 for i in range(300000))
    class H(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        def log_message(self, *a): pass
        def answer(self, status, body, headers=()):
            self.send_response(status)
            for k, v in headers: self.send_header(k, v)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        def do_GET(self):
            if self.path == "/body":
                self.send_response(200)
                self.send_header("Content-Type", "application/x-test")
                self.send_header("Content-Length", str(len(BODY)))
                self.end_headers()
                for i in range(0, len(BODY), 7000):
                    self.wfile.write(BODY[i:i + 7000]); self.wfile.flush()
            elif self.path == "/missing":
                self.answer(404, b"no such repository here")
            elif self.path == "/later":
                self.answer(429, b"slow down", [("Retry-After", "7")])
            elif self.path == "/moved":
                self.answer(302, b"", [("Location", "/body")])
            elif self.path == "/stall":
                self.send_response(200)
                self.send_header("Content-Length", "1000000")
                self.end_headers()
                self.wfile.write(b"x" * 1000); self.wfile.flush()
                time.sleep(30)
        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            self.answer(200, self.headers.get("Content-Type", "").encode() + b"|" + body)
    s = ThreadingHTTPServer(("127.0.0.1", 0), H)
    s.daemon_threads = True
    with open(sys.argv[1] + ".tmp", "w") as f: f.write("%d\n" % s.server_address[1])
    os.rename(sys.argv[1] + ".tmp", sys.argv[1])
    s.serve_forever()
    """#

  /// The server's address, with what keeps it running.
  final class Server: @unchecked Sendable {
    let folder: TemporaryDirectory
    let process: pid_t
    let base: String

    init() throws {
      folder = try TemporaryDirectory()
      try folder.write("server.py", Server.script)
      let ready = folder.path("port")
      process = try ProcessRunner.start(
        ProcessRunner.which("python3") ?? "/usr/bin/python3", [folder.path("server.py"), ready])
      var port: Int?
      _ = waitUntil(seconds: 20) {
        port = (try? String(contentsOfFile: ready, encoding: .utf8)).flatMap {
          Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        return port != nil
      }
      guard let port else { throw ProcessError("the test server did not start") }
      base = "http://127.0.0.1:\(port)"
    }

    static var script: String { HTTPExchangeTests.server }

    deinit { ProcessRunner.stop(process) }
  }

  static let expected = (0..<300_000).map { UInt8($0 * 7 % 251) }

  func readAll(_ exchange: HTTPExchange) throws -> [UInt8] {
    var out: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 16384)
    while true {
      let n = try buffer.withUnsafeMutableBytes {
        try exchange.read(into: $0.baseAddress!, size: $0.count)
      }
      if n == 0 { return out }
      out += buffer[0..<n]
    }
  }

  @Test func aBodyIsStreamedWholeAndInOrder() throws {
    let server = try Server()
    let exchange = try HTTPExchange(HTTPRequest(url: server.base + "/body", settings: .init()))
    let answer = exchange.answered()
    #expect(answer.status == 200)
    #expect(answer.contentType == "application/x-test")
    #expect(answer.failure == nil)
    #expect(try readAll(exchange) == Self.expected)
  }

  @Test func anErrorStatusKeepsTheStartOfItsBodyAndRetryAfter() throws {
    let server = try Server()
    let missing = try HTTPExchange(HTTPRequest(url: server.base + "/missing", settings: .init()))
    let ended = missing.ended()
    #expect(ended.status == 404)
    #expect(ended.errorBody == "no such repository here")
    #expect(try readAll(missing).isEmpty)
    let later = try HTTPExchange(HTTPRequest(url: server.base + "/later", settings: .init()))
    #expect(later.ended().status == 429)
    #expect(later.ended().retryAfter == 7)
  }

  /// curl never follows a redirect: the transport decides (same host only).
  @Test func aRedirectIsReportedNotFollowed() throws {
    let server = try Server()
    let moved = try HTTPExchange(HTTPRequest(url: server.base + "/moved", settings: .init()))
    let answer = moved.ended()
    #expect(answer.status == 302)
    #expect(answer.location == server.base + "/body")
  }

  @Test func aPostSendsItsBodyWithItsType() throws {
    let server = try Server()
    let body = Array("0032want 1234\n0000".utf8)
    let echoed = try body.withUnsafeBufferPointer { bytes in
      let exchange = try HTTPExchange(
        HTTPRequest(
          url: server.base + "/echo", settings: .init(),
          body: (bytes, "application/x-git-upload-pack-request")))
      #expect(exchange.answered().status == 200)
      return try readAll(exchange)
    }
    #expect(
      String(decoding: echoed, as: UTF8.self)
        == "application/x-git-upload-pack-request|0032want 1234\n0000")
  }

  /// A server that sends nothing for the low-speed time ends the exchange with an error that
  /// says so, instead of a wait that never ends; a read midway then throws it.
  @Test func aStalledServerTimesOut() throws {
    let server = try Server()
    var settings = HTTPSettings()
    settings.lowSpeedTime = 1
    let exchange = try HTTPExchange(HTTPRequest(url: server.base + "/stall", settings: settings))
    #expect(exchange.answered().status == 200)
    #expect(throws: HTTPFailure.self) { _ = try readAll(exchange) }
    guard case .timedOut(_, let seconds)? = exchange.ended().failure else {
      Issue.record("not a timeout: \(String(describing: exchange.ended().failure))")
      return
    }
    #expect(seconds == 1)
  }

  @Test func nobodyListeningIsUnreachable() throws {
    // NB: a port just freed: nothing listens there.
    let port: Int
    do {
      let server = try Server()
      port = Int(server.base.split(separator: ":").last!)!
    }
    let exchange = try HTTPExchange(
      HTTPRequest(url: "http://127.0.0.1:\(port)/body", settings: .init()))
    guard case .unreachable? = exchange.ended().failure else {
      Issue.record("not unreachable: \(String(describing: exchange.ended().failure))")
      return
    }
    #expect(exchange.ended().status == 0)
  }

  /// Stopping a transfer midway (the reader wanted no more) ends its thread; what was read is
  /// what the server sent, and the next exchange works.
  @Test func aTransferStoppedMidwayEndsAndTheNextWorks() throws {
    let server = try Server()
    let stalled = try HTTPExchange(HTTPRequest(url: server.base + "/stall", settings: .init()))
    #expect(stalled.answered().status == 200)
    var buffer = [UInt8](repeating: 0, count: 100)
    let n = try buffer.withUnsafeMutableBytes {
      try stalled.read(into: $0.baseAddress!, size: $0.count)
    }
    #expect(n > 0 && buffer[0..<n].allSatisfy { $0 == UInt8(ascii: "x") })
    stalled.cancel()
    #expect(stalled.ended().failure == .cancelled)
    let next = try HTTPExchange(HTTPRequest(url: server.base + "/body", settings: .init()))
    #expect(try readAll(next) == Self.expected)
  }
}
