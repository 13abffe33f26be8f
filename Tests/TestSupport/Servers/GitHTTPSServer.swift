import Foundation

/// git's smart HTTP over TLS on 127.0.0.1: `git http-backend` run as CGI by apache (mod_ssl,
/// basic auth for pushes, as git's documentation sets it up), with a certificate made for the
/// test. Where apache2 is not installed, a small Python server plays apache's part.
public final class GitHTTPSServer: @unchecked Sendable {
  public let folder: TemporaryDirectory
  public let port: Int
  public let pid: pid_t
  /// The certificate to trust.
  public var caFile: String { folder.path("cert.pem") }

  public static let script = #"""
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
                       CONTENT_LENGTH=str(len(data)), GIT_HTTP_MAX_REQUEST_BUFFER="100M",
                       HTTP_CONTENT_ENCODING=self.headers.get("Content-Encoding", ""),
                       GIT_PROTOCOL=self.headers.get("Git-Protocol", ""))
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

  public let tls: Bool
  public let host: String

  /// Serves the bare repositories under `root` (over plain http without `tls`); pushes need
  /// `user:password` = `auth`. The certificate names `names` (subjectAltName); URLs use
  /// `host`. A connection idle for `idle` seconds is closed.
  public init(
    root: URL, auth: String = "dan:danpw", tls: Bool = true, host: String = "localhost",
    names: String = "DNS:localhost", idle: Double? = nil, slowPack: Int? = nil
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
    self.root = root
    if Self.apacheAvailable {
      (port, pid) = try Self.startApache(
        folder: folder, root: root, auth: auth, tls: tls, idle: idle, slowPack: slowPack)
      usesApache = true
      share()
      return
    }
    usesApache = false
    let ready = folder.path("port")
    pid = try ProcessRunner.start(
      ProcessRunner.which("python3") ?? "/usr/bin/python3",
      [
        folder.path("server.py"), root.path, ready, folder.url.path, auth, tls ? "tls" : "plain",
        idle.map { String($0) } ?? "-",
      ])
    port = try ProcessRunner.port(writtenTo: ready, by: pid)
  }

  /// The folder of served repositories.
  public let root: URL
  /// Whether apache serves (else the Python stand-in, where apache2 is not installed).
  public let usesApache: Bool

  public static var apacheAvailable: Bool {
    FileManager.default.isExecutableFile(atPath: "/usr/sbin/apache2")
      && FileManager.default.fileExists(atPath: "/usr/lib/apache2/modules/mod_cgi.so")
      && FileManager.default.isExecutableFile(atPath: "/usr/lib/git-core/git-http-backend")
  }

  /// apache's workers run as `nobody` (apache will not run them as root): the served
  /// repositories are opened to them. Called again by `url` for repositories made later.
  public func share() {
    guard usesApache else { return }
    _ = try? ProcessRunner.run("/bin/chmod", ["-R", "a+rwX", root.path])
  }

  /// apache 2.4 with mod_ssl and git-http-backend as CGI, as git's documentation sets it up:
  /// anonymous reads, basic auth (an htpasswd file) for anything that pushes.
  static func startApache(
    folder: TemporaryDirectory, root: URL, auth: String, tls: Bool, idle: Double?,
    slowPack: Int? = nil
  ) throws -> (Int, pid_t) {
    // With `slowPack`, a fetch's pack request is answered only after that many seconds of
    // silence, as a big repository's host prepares its pack (git-http-backend behind a wrapper
    // that sleeps first).
    var backend = "/usr/lib/git-core/git-http-backend"
    if let slowPack {
      try folder.write(
        "slow-backend",
        """
        #!/bin/sh
        case "$REQUEST_METHOD $PATH_INFO" in
          "POST "*/git-upload-pack) sleep \(slowPack) ;;
        esac
        exec /usr/lib/git-core/git-http-backend

        """)
      _ = try ProcessRunner.run("/bin/chmod", ["755", folder.path("slow-backend")])
      backend = folder.path("slow-backend")
    }
    // NB: apache's Timeout (60 s) would end a CGI silent that long with a 504.
    let timeout = slowPack.map { "Timeout \($0 * 2 + 60)" } ?? ""
    let parts = auth.split(separator: ":", maxSplits: 1).map(String.init)
    let hashed = try ProcessRunner.run("/usr/bin/openssl", ["passwd", "-apr1", parts[1]])
    try folder.write("htpasswd", "\(parts[0]):\(hashed.stdout)")
    _ = try ProcessRunner.run("/bin/chmod", ["-R", "a+rX", folder.url.path])
    let modules = "/usr/lib/apache2/modules"
    let keepAlive = idle.map { "KeepAliveTimeout \(Int($0 * 1000))ms" } ?? "KeepAliveTimeout 5"
    for _ in 0..<5 {
      let port = GitDaemon.freePort()
      var config = """
        ServerRoot "\(folder.url.path)"
        PidFile \(folder.path("httpd.pid"))
        DefaultRuntimeDir \(folder.url.path)
        Mutex file:\(folder.url.path) default
        Listen 127.0.0.1:\(port)
        ServerName localhost
        ErrorLog \(folder.path("error.log"))
        LogLevel error
        User nobody
        Group nogroup
        \(keepAlive)
        \(timeout)

        """
      for module in [
        "mpm_prefork", "authz_core", "authz_user", "authn_core", "authn_file", "auth_basic",
        "alias",
        "cgi", "env", "rewrite",
      ] + (tls ? ["ssl"] : []) {
        config += "LoadModule \(module)_module \(modules)/mod_\(module).so\n"
      }
      // The client's port per request: requests on one connection share it.
      config += """
        LogFormat "%{remote}p %m %U %>s" connections
        CustomLog \(folder.path("access.log")) connections

        """
      if tls {
        config += """
          SSLEngine on
          SSLCertificateFile \(folder.path("cert.pem"))
          SSLCertificateKeyFile \(folder.path("key.pem"))

          """
      }
      config += """
        SetEnv GIT_PROJECT_ROOT \(root.path)
        SetEnv GIT_HTTP_EXPORT_ALL 1
        SetEnv GIT_CONFIG_COUNT 1
        SetEnv GIT_CONFIG_KEY_0 safe.directory
        SetEnv GIT_CONFIG_VALUE_0 *
        # A repository that moved: /moved/NAME answers with a permanent redirect to /NAME.
        RedirectMatch 301 ^/moved/(.*)$ /$1
        ScriptAlias / \(backend)/
        <Directory "\(URL(fileURLWithPath: backend).deletingLastPathComponent().path)">
          Require all granted
          # /status/CODE/...: with the password (asked for below), answers CODE, as a server
          # that is down, misconfigured or moved does (per-folder rules run after
          # authentication); /status/302/ sends the client to /status/404/.
          RewriteEngine On
          RewriteCond %{REQUEST_URI} ^/status/404/
          RewriteRule .* - [R=404]
          RewriteCond %{REQUEST_URI} ^/status/500/
          RewriteRule .* - [R=500]
          RewriteCond %{REQUEST_URI} ^/status/502/
          RewriteRule .* - [R=502]
          RewriteCond %{REQUEST_URI} ^/status/302/(.*)$
          RewriteRule .* /status/404/%1 [R=302,L]
        </Directory>
        <If "%{REQUEST_URI} =~ m#^/status/#">
          AuthType Basic
          AuthName "git"
          AuthUserFile \(folder.path("htpasswd"))
          Require valid-user
        </If>
        # /forbidden/...: asks for a password (401), then refuses the user it names (403), as
        # GitHub and GitLab do for a token's scope, single sign-on or a rate limit.
        <If "%{REQUEST_URI} =~ m#^/forbidden/#">
          AuthType Basic
          AuthName "git"
          AuthUserFile \(folder.path("htpasswd"))
          <RequireAll>
            Require valid-user
            Require expr false
          </RequireAll>
        </If>
        # /headers/...: served only to a client that sends both of two headers (as a CI's
        # http.extraHeader pair: a token and a second header a proxy wants).
        <If "%{REQUEST_URI} =~ m#^/headers/#">
          Require expr "%{HTTP:X-Dinger-One} == 'first' && %{HTTP:X-Dinger-Two} == 'second'"
        </If>
        <If "%{QUERY_STRING} =~ /service=git-receive-pack/ || %{REQUEST_URI} =~ m#/git-receive-pack$#">
          AuthType Basic
          AuthName "git"
          AuthUserFile \(folder.path("htpasswd"))
          Require valid-user
        </If>

        """
      try folder.write("httpd.conf", config)
      let pid = try ProcessRunner.start(
        "/usr/sbin/apache2", ["-f", folder.path("httpd.conf"), "-DFOREGROUND"])
      if GitDaemon.waitListening(port) { return (port, pid) }
      stopGroup(pid)
    }
    throw CancellationError()
  }

  /// Stops a server started in its own session and every process in it: SIGTERM first, so
  /// that apache reaps its own workers (killed outright, they are left as zombies).
  static func stopGroup(_ pid: pid_t) {
    kill(pid, SIGTERM)
    for _ in 0..<100 {
      var status: Int32 = 0
      if waitpid(pid, &status, WNOHANG) == pid { return }
      usleep(30_000)
    }
    kill(-pid, SIGKILL)
    ProcessRunner.stop(pid)
  }

  /// apache's access log: a line per request, `client-port method path status`.
  public var accessLog: String {
    (try? String(contentsOfFile: folder.path("access.log"), encoding: .utf8)) ?? ""
  }

  public func url(_ name: String) -> String {
    share()
    return "\(tls ? "https" : "http")://\(host):\(port)/\(name)"
  }

  deinit { Self.stopGroup(pid) }
}
