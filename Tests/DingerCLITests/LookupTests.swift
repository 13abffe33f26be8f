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
          def do_GET(self):
              p = self.path
              if p == "/api/v2/entries/en/hello": self.send(200, json.dumps(HELLO))
              elif p == "/api/v2/entries/en/chunky": self.send(200, json.dumps(HELLO).replace("hello", "chunky"), chunked=True)
              elif p == "/api/v2/entries/es/hola": self.send(200, json.dumps([{"word": "hola", "meanings": [{"partOfSpeech": "interjection", "definitions": [{"definition": "hello"}]}]}]))
              elif p == "/api/v2/entries/en/boom": self.send(500, "{}")
              elif p == "/api/v2/entries/en/garbled": self.send(200, "{not json")
              elif p == "/api/v2/entries/en/slow":
                  time.sleep(3); self.send(200, json.dumps(HELLO))
              elif p.startswith("/word?number=3&lang=en"): self.send(200, json.dumps(["alpha", "beta", "gamma"]))
              elif p.startswith("/word"): self.send(200, '{"words": 1}')
              else: self.send(404, json.dumps({"title": "No Definitions Found"}))
      s = ThreadingHTTPServer(("127.0.0.1", 0), H)
      with open(sys.argv[1] + ".tmp", "w") as f:
          f.write("%d %d\n" % (s.server_address[1], os.getpid()))
      os.rename(sys.argv[1] + ".tmp", sys.argv[1])
      s.serve_forever()
      """#

    /// Starts the server in its own session with stdio on /dev/null (ProcessRunner.start).
    init() throws {
      folder = try TemporaryDirectory("dinger-http")
      try folder.write("server.py", Self.script)
      let ready = folder.url.appendingPathComponent("port")
      let python = ProcessRunner.which("python3") ?? "/usr/bin/python3"
      let started = try ProcessRunner.start(python, ["\(folder.url.path)/server.py", ready.path])
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

    var url: String { "http://127.0.0.1:\(port)" }

    deinit { ProcessRunner.stop(pid) }
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
    #expect(r.stderr.contains("the word is 'es' but Jargon is a 'en' library"))
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
      #expect(Date().timeIntervalSince(started) < 2.5, "\(word) waited past its timeout")
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
}
