import Foundation
import TestSupport
import Testing

/// Whatever a server answers once it has the saved password, dinger keeps or forgets that
/// password exactly where `git fetch` does: only a 401 to a sent password forgets it. Each case
/// runs dinger and then git against the same real server with the same `store` helper file.
@Suite(.serialized) struct CredentialKeptTests {
  /// The user's saved line, and git's and dinger's verdicts on it.
  struct Outcome: Equatable {
    var dingerKept: Bool
    var gitKept: Bool
  }

  /// Runs `dinger sync` then `git fetch` against `url` with `saved` in `~/.git-credentials`.
  func outcome(
    _ box: Sandbox, url: String, saved: String, env: [String: String]
  ) throws -> (Outcome, dinger: ProcessResult, git: ProcessResult) {
    try box.git("config", "--global", "credential.helper", "store")
    _ = try? box.git("remote", "remove", "origin")
    try box.git("remote", "add", "origin", url)
    try box.home.write(".git-credentials", saved)
    let dinger = try box.dinger(["sync"], env: env)
    let dingerKept = try stillSaved(box, saved)
    try box.home.write(".git-credentials", saved)
    let git = try ProcessRunner.run(
      "/usr/bin/git", ["fetch", "origin"], in: box.data,
      environment: box.environment.merging(env) { $1 })
    let gitKept = try stillSaved(box, saved)
    return (Outcome(dingerKept: dingerKept, gitKept: gitKept), dinger, git)
  }

  /// Whether the helper still answers with the saved password (git may rewrite the file when
  /// it approves a password after an HTTP 200, with the same entry).
  func stillSaved(_ box: Sandbox, _ saved: String) throws -> Bool {
    let url = URL(string: saved.trimmingCharacters(in: .whitespacesAndNewlines))!
    let r = try ProcessRunner.run(
      "/usr/bin/git", ["credential", "fill"], in: box.home.url,
      environment: box.environment.merging(["GIT_TERMINAL_PROMPT": "0"]) { $1 },
      input: "protocol=\(url.scheme!)\nhost=\(url.host!):\(url.port!)\n\n")
    return r.stdout.contains("password=\(url.password!)\n")
  }

  func dataRepository() throws -> Sandbox {
    let box = try Sandbox()
    #expect(try box.dinger("init").status == 0)
    #expect(try box.dinger("scrum", "new", "Design", "--attendee", "Ada").status == 0)
    return box
  }

  /// apache asks for the password, then answers 404, 500, 502 or a redirect (to a 404); a
  /// wrong password is asked for again (401), which is the one case both forget it.
  @Test(arguments: ["404", "500", "502", "302", "wrong password"])
  func aStatusAfterThePassword(status: String) throws {
    let box = try dataRepository()
    let server = try GitHTTPSServer(root: box.home.url)
    defer { withExtendedLifetime(server) {} }
    guard server.usesApache else { return }
    let code = status == "wrong password" ? "404" : status
    try box.git(
      "init", "-q", "--bare", "-b", "main", box.home.path("status/\(code)/remote.git"),
      in: box.home.url)
    let password = status == "wrong password" ? "nope" : "danpw"
    let saved = "https://dan:\(password)@localhost:\(server.port)\n"
    let (outcome, dinger, git) = try outcome(
      box, url: server.url("status/\(code)/remote.git"), saved: saved,
      env: ["GIT_SSL_CAINFO": server.caFile])
    #expect(dinger.status != 0 && git.status != 0, "\(dinger.stderr)\n\(git.stderr)")
    let kept = status != "wrong password"
    #expect(outcome == Outcome(dingerKept: kept, gitKept: kept), "\(dinger.stderr)\n\(git.stderr)")
    // NB: what the server said reaches the user: its status, not password advice.
    if kept {
      #expect(!dinger.stderr.contains("refused the"), "\(dinger.stderr)")
    }
  }

  /// A plain-http server that asks for the password and then closes the connection, answers
  /// garbage, or stalls.
  final class Misbehaving {
    let folder: TemporaryDirectory
    let port: Int
    let pid: Int32

    static let script = #"""
      import os, sys, time
      os.closerange(3, 4096)
      from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
      class H(BaseHTTPRequestHandler):
          protocol_version = "HTTP/1.1"
          def log_message(self, *a): pass
          def do_GET(self):
              if "Authorization" not in self.headers:
                  self.send_response(401)
                  self.send_header("WWW-Authenticate", 'Basic realm="git"')
                  self.send_header("Content-Length", "0")
                  self.end_headers()
                  return
              p = self.path
              if p.startswith("/closed/"):
                  self.close_connection = True
                  self.connection.shutdown(2)
              elif p.startswith("/garbage/"):
                  self.wfile.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/x-git-upload-pack-advertisement\r\nContent-Length: 40\r\n\r\n")
                  self.wfile.write(b"zz\x00\x01garbage that is no pkt-line at all..")
                  self.close_connection = True
              elif p.startswith("/stall/"):
                  time.sleep(40)
                  self.close_connection = True
      s = ThreadingHTTPServer(("127.0.0.1", 0), H)
      with open(sys.argv[1] + ".tmp", "w") as f:
          f.write("%d %d\n" % (s.server_address[1], os.getpid()))
      os.rename(sys.argv[1] + ".tmp", sys.argv[1])
      s.serve_forever()
      """#

    init() throws {
      folder = try TemporaryDirectory("dinger-misbehaving")
      try folder.write("server.py", Self.script)
      let ready = folder.url.appendingPathComponent("port")
      let started = try ProcessRunner.start(
        ProcessRunner.which("python3") ?? "/usr/bin/python3",
        [folder.path("server.py"), ready.path])
      var line: String?
      for _ in 0..<200 {
        line = try? String(contentsOf: ready, encoding: .utf8)
        if line != nil { break }
        usleep(25_000)
      }
      let parts = (line ?? "").split(separator: " ")
      guard parts.count == 2, let port = Int(parts[0]),
        let pid = Int32(parts[1].trimmingCharacters(in: .whitespacesAndNewlines))
      else {
        ProcessRunner.stop(started)
        throw CancellationError()
      }
      (self.port, self.pid) = (port, pid)
    }

    deinit { kill(pid, SIGKILL) }
  }

  @Test(arguments: ["closed", "garbage", "stall"])
  func aBrokenAnswerAfterThePassword(kind: String) throws {
    let box = try dataRepository()
    let server = try Misbehaving()
    let saved = "http://dan:danpw@127.0.0.1:\(server.port)\n"
    // NB: a stall ends after two seconds of silence, for git and dinger alike.
    let (outcome, dinger, git) = try outcome(
      box, url: "http://127.0.0.1:\(server.port)/\(kind)/remote.git", saved: saved,
      env: ["GIT_HTTP_LOW_SPEED_LIMIT": "1", "GIT_HTTP_LOW_SPEED_TIME": "2"])
    #expect(dinger.status != 0 && git.status != 0, "\(dinger.stderr)\n\(git.stderr)")
    #expect(outcome == Outcome(dingerKept: true, gitKept: true), "\(dinger.stderr)\n\(git.stderr)")
  }
}
