import Foundation
import TestSupport
import Testing

/// git's smart HTTP over TLS on 127.0.0.1: `git http-backend` run as CGI by a small Python
/// server with a certificate made for the test (for `localhost`) and basic auth for pushes.
final class GitHTTPSServer: @unchecked Sendable {
  let folder: TemporaryDirectory
  let port: Int
  let pid: pid_t
  /// The certificate to trust.
  var caFile: String { folder.path("cert.pem") }

  static let script = #"""
    import base64, os, ssl, subprocess, sys
    os.closerange(3, 4096)
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
    ROOT, READY, CERTS, AUTH = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
    TLS = len(sys.argv) < 6 or sys.argv[5] != "plain"
    class H(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        # A kept-alive connection idle this long is closed (as many hosts do).
        timeout = float(sys.argv[6]) if len(sys.argv) > 6 and sys.argv[6] != "-" else None
        def log_message(self, *a): pass
        def body(self):
            if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
                out = b""
                while True:
                    size = int(self.rfile.readline().split(b";")[0].strip(), 16)
                    if size == 0:
                        while self.rfile.readline() not in (b"\r\n", b"\n", b""): pass
                        return out
                    out += self.rfile.read(size); self.rfile.readline()
            return self.rfile.read(int(self.headers.get("Content-Length", "0") or 0))
        def run(self):
            path, _, query = self.path.partition("?")
            push = "git-receive-pack" in path or "git-receive-pack" in query
            user = ""
            if push:
                if self.headers.get("Authorization", "") != "Basic " + base64.b64encode(AUTH.encode()).decode():
                    self.send_response(401)
                    self.send_header("WWW-Authenticate", 'Basic realm="git"')
                    self.send_header("Content-Length", "0"); self.end_headers(); return
                user = AUTH.split(":")[0]
            data = self.body() if self.command == "POST" else b""
            env = dict(os.environ, GIT_PROJECT_ROOT=ROOT, GIT_HTTP_EXPORT_ALL="1", PATH_INFO=path,
                       QUERY_STRING=query, REQUEST_METHOD=self.command, REMOTE_USER=user,
                       REMOTE_ADDR="127.0.0.1", CONTENT_TYPE=self.headers.get("Content-Type", ""),
                       CONTENT_LENGTH=str(len(data)), GIT_HTTP_MAX_REQUEST_BUFFER="100M")
            out = subprocess.run(["git", "http-backend"], input=data, env=env, capture_output=True).stdout
            head, _, rest = out.partition(b"\r\n\r\n")
            if not _: head, _, rest = out.partition(b"\n\n")
            status = 200
            headers = []
            for line in head.decode().splitlines():
                k, _, v = line.partition(":")
                if k.lower() == "status": status = int(v.strip().split()[0])
                else: headers.append((k, v.strip()))
            self.send_response(status)
            for k, v in headers: self.send_header(k, v)
            self.send_header("Content-Length", str(len(rest))); self.end_headers()
            self.wfile.write(rest)
        do_GET = run
        do_POST = run
    s = ThreadingHTTPServer(("127.0.0.1", 0), H)
    if TLS:
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(CERTS + "/cert.pem", CERTS + "/key.pem")
        s.socket = ctx.wrap_socket(s.socket, server_side=True)
    with open(READY + ".tmp", "w") as f: f.write("%d\n" % s.server_address[1])
    os.rename(READY + ".tmp", READY)
    s.serve_forever()
    """#

  let tls: Bool
  let host: String

  /// Serves the bare repositories under `root` (over plain http without `tls`); pushes need
  /// `user:password` = `auth`. The certificate names `names` (subjectAltName); URLs use
  /// `host`. A connection idle for `idle` seconds is closed.
  init(
    root: URL, auth: String = "dan:danpw", tls: Bool = true, host: String = "localhost",
    names: String = "DNS:localhost", idle: Double? = nil
  ) throws {
    self.tls = tls
    self.host = host
    folder = try TemporaryDirectory("dinger-https")
    try folder.write("server.py", Self.script)
    let made = try ProcessRunner.run(
      ProcessRunner.which("openssl") ?? "/usr/bin/openssl",
      [
        "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=localhost",
        "-addext", "subjectAltName=\(names)", "-addext", "basicConstraints=critical,CA:TRUE",
        "-keyout", folder.path("key.pem"), "-out", folder.path("cert.pem"),
      ])
    guard made.status == 0 else { throw CancellationError() }
    let ready = folder.path("port")
    pid = try ProcessRunner.start(
      ProcessRunner.which("python3") ?? "/usr/bin/python3",
      [
        folder.path("server.py"), root.path, ready, folder.url.path, auth, tls ? "tls" : "plain",
        idle.map { String($0) } ?? "-",
      ])
    var text = ""
    for _ in 0..<300 {
      text = (try? String(contentsOfFile: ready, encoding: .utf8)) ?? ""
      if text.hasSuffix("\n") { break }
      usleep(50_000)
    }
    guard let port = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
      ProcessRunner.stop(pid)
      throw CancellationError()
    }
    self.port = port
  }

  func url(_ name: String) -> String { "\(tls ? "https" : "http")://\(host):\(port)/\(name)" }

  deinit { ProcessRunner.stop(pid) }
}

/// `dinger sync` over https as git configures it: `http.sslCAInfo`, `GIT_SSL_CAINFO`,
/// `http.sslVerify`, credentials from git's helpers.
@Suite struct HTTPSSyncTests {
  /// This machine's environment may name a CA file for git (GIT_SSL_CAINFO); the tests start
  /// from none, as a user who has not set one.
  let env = ["GIT_SSL_CAINFO": ""]

  func team() throws -> (Sandbox, GitHTTPSServer) {
    let box = try Sandbox()
    try box.git("init", "-q", "--bare", "-b", "main", box.home.path("remote.git"), in: box.home.url)
    let server = try GitHTTPSServer(root: box.home.url)
    #expect(try box.dinger("init").status == 0)
    #expect(try box.dinger("scrum", "new", "Design", "--attendee", "Ada").status == 0)
    // A helper that answers with the right password (as `git credential-store` would).
    try box.git(
      "config", "--global", "credential.helper",
      "!f() { test \"$1\" = get && echo username=dan && echo password=danpw; true; }; f")
    #expect(try box.dinger("remote", "add", "origin", server.url("remote.git")).status == 0)
    return (box, server)
  }

  @Test func theCAFromGitsConfigIsTrusted() throws {
    let (box, server) = try team()
    var r = try box.dinger(["sync"], env: env)
    #expect(r.status == 1, "an unknown authority is refused")
    #expect(r.stderr.contains("certificate"), "\(r.stderr)")
    try box.git("config", "http.sslCAInfo", server.caFile)
    r = try box.dinger(["sync"], env: env)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(try box.git("--git-dir", box.home.path("remote.git"), "log", "--format=%s", "-1", in: box.home.url) == "Add scrum Design\n")
    // A teammate clones with the authority named in the environment.
    r = try box.dinger(
      ["clone", server.url("remote.git"), box.home.path("copy")], in: box.home.url,
      env: ["GIT_SSL_CAINFO": server.caFile])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(FileManager.default.fileExists(atPath: box.home.path("copy/scrums/design.yaml")))
  }

  @Test func turningVerificationOffWorksAndSaysSoLoudly() throws {
    let (box, server) = try team()
    defer { withExtendedLifetime(server) {} }
    let r = try box.dinger(["sync"], env: env.merging(["GIT_SSL_NO_VERIFY": "1"]) { $1 })
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stderr.contains("warning: the TLS certificate of localhost was not checked"), "\(r.stderr)")
  }

  /// A wrong password is offered once more at most (the helper is told to forget it), then
  /// the sync fails saying so.
  @Test func aWrongPasswordIsNotTriedOverAndOver() throws {
    let (box, server) = try team()
    try box.git(
      "config", "--global", "credential.helper",
      "!f() { echo \"$1\" >> \"$HOME/helper.log\"; test \"$1\" = get && echo username=dan && echo password=wrong; true; }; f")
    try box.git("config", "http.sslCAInfo", server.caFile)
    let r = try box.dinger(["sync"], env: env)
    #expect(r.status == 1)
    #expect(r.stderr.contains("refused the user name and password"), "\(r.stderr)")
    let asked = try String(contentsOfFile: box.home.path("helper.log"), encoding: .utf8)
    #expect(asked.split(separator: "\n").filter { $0 == "get" }.count <= 2, "\(asked)")
    #expect(asked.contains("erase"), "\(asked)")
  }

  /// Without a helper, git's prompt asks on the terminal, as it does for `git push`.
  @Test func aTerminalPromptAsksForTheUserAndPassword() throws {
    let (box, server) = try team()
    try box.git("config", "--global", "--unset", "credential.helper")
    try box.git("config", "http.sslCAInfo", server.caFile)
    // `script` gives dinger a terminal; the answers are typed after the prompts appear (a
    // password prompt discards what was typed before it).
    let r = try ProcessRunner.run(
      "/bin/sh",
      ["-c", "(sleep 3; printf 'dan\\n'; sleep 2; printf 'danpw\\n') | script -qec '\(dingerBinary) sync' /dev/null"],
      in: box.data, environment: box.environment.merging(env) { $1 })
    #expect(r.stdout.contains("Username for 'https://localhost:\(server.port)'"), "\(r.stdout)")
    #expect(r.stdout.contains("pushed to origin/main"), "\(r.stdout) \(r.stderr)")
  }

  /// git's proxy setting is used: pointed at a port where nothing listens, the sync fails
  /// there (and git's stderr does not leak into the message).
  @Test func httpProxyFromGitsConfigIsUsed() throws {
    let (box, server) = try team()
    try box.git("config", "http.sslCAInfo", server.caFile)
    try box.git("config", "http.proxy", "http://127.0.0.1:1")
    let r = try box.dinger(["sync"], env: env)
    #expect(r.status == 1)
    #expect(r.stderr.lowercased().contains("proxy") || r.stderr.contains("127.0.0.1"), "\(r.stderr)")
    #expect(!r.stderr.contains("fatal:"), "\(r.stderr)")
    try box.git("config", "--unset", "http.proxy")
    #expect(try box.dinger(["sync"], env: env).status == 0)
  }
}
