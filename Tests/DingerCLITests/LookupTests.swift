import Foundation
import TestSupport
import Testing

/// `word lookup` and `word random` against a dictionary server on 127.0.0.1 (real sockets):
/// good answers, 404, 500, malformed JSON, a chunked answer, a server slower than the timeout,
/// and no server at all; each with the expected output and fallback.
@Suite struct LookupTests {
  /// A Free-Dictionary-API-like server in Python, printing its port when ready.
  final class FixtureServer {
    let folder: TemporaryDirectory
    let port: Int
    let pid: Int32

    static let script = #"""
      import json, os, sys, time
      os.closerange(3, 4096)  # no pipe of another test's process is kept open
      from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
      HELLO = [{"word": "hello", "phonetic": "/həˈləʊ/", "phonetics": [],
                "meanings": [{"partOfSpeech": "interjection",
                              "definitions": [{"definition": "A greeting.", "example": "hello, everyone"}]},
                             {"partOfSpeech": "noun", "definitions": [{"definition": "The word hello."}]}]},
               {"word": "hello", "phonetics": [{"text": "/hɛˈloʊ/"}],
                "meanings": [{"partOfSpeech": "verb", "definitions": [{"definition": "To say hello."}]}]}]
      class H(BaseHTTPRequestHandler):
          protocol_version = "HTTP/1.1"
          def log_message(self, *a): pass
          def send(self, code, body, chunked=False):
              data = body.encode()
              self.send_response(code)
              self.send_header("Content-Type", "application/json")
              if chunked:
                  self.send_header("Transfer-Encoding", "chunked")
                  self.end_headers()
                  for i in range(0, len(data), 7):
                      part = data[i:i+7]
                      self.wfile.write(b"%x\r\n%s\r\n" % (len(part), part))
                  self.wfile.write(b"0\r\n\r\n")
              else:
                  self.send_header("Content-Length", str(len(data)))
                  self.end_headers()
                  self.wfile.write(data)
          def raw(self, head, parts, pause=0.0, limit=20.0):
              self.wfile.write(head)
              start = time.time()
              try:
                  for part in parts:
                      if time.time() - start > limit: break
                      self.wfile.write(part); self.wfile.flush()
                      if pause: time.sleep(pause)
              except (BrokenPipeError, ConnectionResetError):
                  pass
              self.close_connection = True
          def do_GET(self):
              p = self.path
              chunked = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
              if p == "/api/v2/entries/en/hello": self.send(200, json.dumps(HELLO))
              elif p == "/api/v2/entries/en/caf%C3%A9": self.send(200, json.dumps(HELLO).replace("hello", "café"))
              elif p == "/api/v2/entries/en/negchunk": self.raw(chunked, [b"-1\r\nabc\r\n0\r\n\r\n"])
              elif p == "/api/v2/entries/en/hugechunk": self.raw(chunked, [b"7fffffffffffffff\r\nabc"])
              elif p == "/api/v2/entries/en/badchunk": self.raw(chunked, [b"zz\r\nabc\r\n"])
              elif p == "/api/v2/entries/en/endless":
                  self.raw(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n", (b"[" * 65536 for _ in range(2000)))
              elif p == "/api/v2/entries/en/endlesschunks":
                  self.raw(chunked, (b"10000\r\n" + b"[" * 65536 + b"\r\n" for _ in range(2000)))
              elif p == "/api/v2/entries/en/drip":
                  self.raw(b"HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n", (b"[" for _ in range(100000)), pause=0.05, limit=10)
              elif p == "/api/v2/entries/en/chunky": self.send(200, json.dumps(HELLO).replace("hello", "chunky"), chunked=True)
              elif p == "/api/v2/entries/es/hola": self.send(200, json.dumps([{"word": "hola", "meanings": [{"partOfSpeech": "interjection", "definitions": [{"definition": "hello"}]}]}]))
              elif p == "/api/v2/entries/en/boom": self.send(500, "{}")
              elif p == "/api/v2/entries/en/garbled": self.send(200, "{not json")
              elif p == "/api/v2/entries/en/slow":
                  time.sleep(30); self.send(200, json.dumps(HELLO))
              elif p.startswith("/word?number=3&lang=en"): self.send(200, json.dumps(["alpha", "beta", "gamma"]))
              elif p.startswith("/word"): self.send(200, '{"words": 1}')
              else: self.send(404, json.dumps({"title": "No Definitions Found"}))
      s = ThreadingHTTPServer(("127.0.0.1", 0), H)
      if len(sys.argv) > 2:
          import ssl
          ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
          ctx.load_cert_chain(sys.argv[2] + "/cert.pem", sys.argv[2] + "/key.pem")
          s.socket = ctx.wrap_socket(s.socket, server_side=True)
      with open(sys.argv[1] + ".tmp", "w") as f:
          f.write("%d %d\n" % (s.server_address[1], os.getpid()))
      os.rename(sys.argv[1] + ".tmp", sys.argv[1])
      s.serve_forever()
      """#

    let tls: Bool

    /// Starts the server in its own session with stdio on /dev/null (ProcessRunner.start);
    /// with `tls`, over https with a certificate for 127.0.0.1 made for this run (`caFile`).
    init(tls: Bool = false) throws {
      self.tls = tls
      folder = try TemporaryDirectory("dinger-http")
      try folder.write("server.py", Self.script)
      let ready = folder.url.appendingPathComponent("port")
      let python = ProcessRunner.which("python3") ?? "/usr/bin/python3"
      var arguments = ["\(folder.url.path)/server.py", ready.path]
      if tls {
        let made = try ProcessRunner.run(
          ProcessRunner.which("openssl") ?? "/usr/bin/openssl",
          [
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
            "-addext", "subjectAltName=IP:127.0.0.1", "-addext",
            "basicConstraints=critical,CA:TRUE",
            "-keyout", folder.path("key.pem"), "-out", folder.path("cert.pem"),
          ])
        guard made.status == 0 else { throw SetupError("openssl: \(made.stderr)") }
        arguments.append(folder.url.path)
      }
      let started = try ProcessRunner.start(python, arguments)
      let deadline = Date().addingTimeInterval(15)
      var text = ""
      while Date() < deadline {
        text = (try? String(contentsOf: ready, encoding: .utf8)) ?? ""
        if text.hasSuffix("\n") { break }
        usleep(50_000)
      }
      let parts = text.split(separator: " ").compactMap {
        Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
      }
      guard parts.count == 2 else {
        ProcessRunner.stop(started)
        throw CancellationError()
      }
      (port, pid) = (parts[0], started)
    }

    var url: String { "\(tls ? "https" : "http")://127.0.0.1:\(port)" }
    /// The certificate to trust (look-ups take git's GIT_SSL_CAINFO).
    var caFile: String { folder.path("cert.pem") }

    deinit { ProcessRunner.stop(pid) }
  }

  struct SetupError: Error {
    var message: String
    init(_ m: String) { message = m }
  }

  /// A data repository with an English library that knows "hello" and "boom", and a Spanish one.
  func repository(endpoint: String?) throws -> Sandbox {
    let box = try Sandbox()
    #expect(try box.dinger("init").status == 0)
    if let endpoint {
      try box.write(
        ".dinger/config.yaml",
        "format: 1\nlanguage: en\ndictionary:\n  definitions: \(endpoint)\n  randomWords: \(endpoint)\n  timeout: 1\n"
      )
      try box.git("commit", "-qam", "Configure the dictionary")
    }
    #expect(try box.dinger("library", "new", "Jargon", "--language", "en").status == 0)
    #expect(try box.dinger("library", "new", "Spanish", "--language", "es").status == 0)
    #expect(
      try box.dinger("word", "add", "boom", "--library", "jargon", "--definition", "a sudden rise")
        .status == 0)
    #expect(
      try box.dinger("word", "add", "hello", "--library", "spanish", "--definition", "not Spanish")
        .status == 0)
    return box
  }

  @Test func aGoodAnswerIsShownAndCanBeSaved() throws {
    let server = try FixtureServer()
    let box = try repository(endpoint: server.url)
    var r = try box.dinger("word", "lookup", "hello")
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stderr == "")
    #expect(
      r.stdout == """
        hello  /həˈləʊ/
          1. (interjection) A greeting.
             "hello, everyone"
          2. (noun) The word hello.
          3. (verb) To say hello.

        """)
    r = try box.dinger("word", "lookup", "chunky", "--json")
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains("\"source\" : \"dictionary\""))
    #expect(r.stdout.contains("\"text\" : \"chunky\""))
    r = try box.dinger("word", "lookup", "hello", "--save", "--library", "jargon")
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stderr == "Jargon: add hello\n")
    let text = try box.read("libraries/jargon.yaml")
    #expect(
      text.contains(
        "  - text: hello\n    phonetic: /həˈləʊ/\n    meanings:\n      - partOfSpeech: interjection\n        definition: A greeting.\n"
      ))
    #expect(try box.git("log", "-1", "--format=%s") == "Jargon: add hello\n")
    // The language of the look-up must be the library's.
    r = try box.dinger(
      "word", "lookup", "hola", "--language", "es", "--save", "--library", "jargon")
    #expect(r.status == 1)
    #expect(r.stderr.contains("the word is in 'es' but Jargon is in 'en'"))
    r = try box.dinger(
      "word", "lookup", "hola", "--language", "es", "--save", "--library", "spanish")
    #expect(r.status == 0, "\(r.stderr)")
    #expect(try box.git("log", "-1", "--format=%s") == "Spanish: add hola\n")
    #expect(try box.gitAgrees().status == "")
  }

  @Test func failuresFallBackToTheLibrariesOfThatLanguage() throws {
    let server = try FixtureServer()
    let box = try repository(endpoint: server.url)
    let host = "127.0.0.1:\(server.port)"
    let cases: [(word: String, reason: String)] = [
      ("boom", "the dictionary at \(host) answered HTTP 500"),
      ("unknownword", "the dictionary at \(host) does not know 'unknownword' in 'en'"),
      ("garbled", "the dictionary at \(host) answered something that is not a dictionary entry"),
      ("slow", "the dictionary at \(host) did not answer: no answer within 1 s"),
    ]
    for (word, reason) in cases {
      let started = Date()
      let r = try box.dinger("word", "lookup", word)
      // NB: the slow answer takes 30 s; a generous bound, not a speed test.
      #expect(Date().timeIntervalSince(started) < 10, "\(word) waited past its timeout")
      #expect(r.stderr.hasPrefix("note: \(reason)"), "\(word): \(r.stderr)")
      #expect(r.stderr.hasSuffix("; showing the team's libraries instead\n"), "\(word)")
      if word == "boom" {
        #expect(r.status == 0)
        #expect(r.stdout == "Jargon:\n  boom\n    1. a sudden rise\n")
      } else {
        #expect(r.status == 1)
        #expect(r.stdout == "no library in 'en' has '\(word)' either\n")
      }
    }
    // "hello" is only in the Spanish library: an English fallback does not offer it.
    let r = try box.dinger(
      "word", "lookup", "hello", "--endpoint", "http://127.0.0.1:\(server.port)/nothing-here")
    #expect(r.stderr.contains("does not know 'hello' in 'en'"))
    #expect(r.stdout == "no library in 'en' has 'hello' either\n")
    // Nothing saved when the dictionary did not answer.
    let head = try box.head()
    #expect(try box.dinger("word", "lookup", "boom", "--save", "--library", "jargon").status == 1)
    #expect(try box.head() == head)
  }

  @Test func noServerOrNoConfiguration() throws {
    // A port nothing listens on: take one from the system and close it.
    let box = try repository(endpoint: "http://127.0.0.1:9")
    var r = try box.dinger("word", "lookup", "boom")
    #expect(r.status == 0)
    #expect(
      r.stderr.hasPrefix(
        "note: the dictionary at 127.0.0.1:9 did not answer: nothing answers at 127.0.0.1:9"))
    #expect(r.stdout.contains("boom"))
    let plain = try repository(endpoint: nil)
    r = try plain.dinger("word", "lookup", "boom")
    #expect(r.stderr.hasPrefix("note: no dictionary service is configured"))
    r = try plain.dinger("word", "lookup", "hello", "--language", "es")
    #expect(r.stdout == "Spanish:\n  hello\n    1. not Spanish\n")
    r = try plain.dinger("word", "lookup", "x", "--endpoint", "not a url")
    #expect(r.status == 64)
    r = try plain.dinger("word", "lookup", "boom", "--endpoint", "ftp://127.0.0.1/")
    #expect(r.status == 0)
    #expect(
      r.stderr.hasPrefix(
        "note: the dictionary at 127.0.0.1 did not answer: 'ftp://127.0.0.1/api/v2/entries/en/boom' is not an http:// or https:// address"
      ))
  }

  @Test func randomWords() throws {
    let server = try FixtureServer()
    let box = try repository(endpoint: server.url)
    var r = try box.dinger("word", "random", "--count", "3")
    #expect(r.status == 0)
    #expect(r.stdout == "alpha\nbeta\ngamma\n")
    #expect(r.stderr == "")
    r = try box.dinger("word", "random", "--count", "2", "--language", "es")
    #expect(r.stderr.contains("did not answer a list of words"))
    #expect(r.stdout == "hello\n")
    r = try box.dinger("word", "random", "--count", "0")
    #expect(r.status == 64)
  }

  /// A server that sends what no server should: each look-up ends within its timeout with the
  /// team's words and the reason, never a crash or a hang.
  @Test func hostileAnswersFallBackWithTheirReason() throws {
    let server = try FixtureServer()
    let box = try repository(endpoint: server.url)
    let cases: [(word: String, reason: String)] = [
      // NB: libcurl's words for a broken chunked body.
      ("negchunk", "chunked-encoding"), ("hugechunk", "the answer was not HTTP"),
      ("badchunk", "chunked-encoding"), ("endless", "the answer is over 4 MiB"),
      ("endlesschunks", "the answer is over 4 MiB"), ("drip", "no answer within 1 s"),
    ]
    for (word, reason) in cases {
      let r = try box.dinger("word", "lookup", word)
      #expect(r.status == 1, "\(word): \(r.stderr)")
      #expect(r.stderr.contains(reason), "\(word): \(r.stderr)")
      #expect(r.stderr.hasSuffix("; showing the team's libraries instead\n"), "\(word)")
      #expect(r.stdout == "no library in 'en' has '\(word)' either\n")
    }
  }

  /// A word outside ASCII is asked for encoded once, over http and over https.
  @Test(arguments: [false, true])
  func nonASCIIWordsAreRequestedAsTheyAre(tls: Bool) throws {
    let server = try FixtureServer(tls: tls)
    let box = try repository(endpoint: server.url)
    let r = try box.dinger(["word", "lookup", "café"], env: ["GIT_SSL_CAINFO": server.caFile])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.hasPrefix("café  /həˈləʊ/\n"), "\(r.stdout)")
  }
}
