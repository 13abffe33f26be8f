import Foundation
import TestSupport
import Testing

/// http(s) remotes that behave as real hosts and real networks do: a certificate for an IP
/// address, a host that closes idle connections while a long history is packed, a server that
/// stops answering, a redirect to another host.
@Suite struct HTTPRobustnessTests {
  let env = ["GIT_SSL_CAINFO": ""]

  func team(_ server: (URL) throws -> GitHTTPSServer) throws -> (Sandbox, GitHTTPSServer) {
    let box = try Sandbox()
    try box.git("init", "-q", "--bare", "-b", "main", box.home.path("remote.git"), in: box.home.url)
    let made = try server(box.home.url)
    #expect(try box.dinger("init").status == 0)
    #expect(try box.dinger("scrum", "new", "Design", "--attendee", "Ada").status == 0)
    try box.git(
      "config", "--global", "credential.helper",
      "!f() { test \"$1\" = get && echo username=dan && echo password=danpw; true; }; f")
    #expect(try box.dinger("remote", "add", "origin", made.url("remote.git")).status == 0)
    if made.tls { try box.git("config", "http.sslCAInfo", made.caFile) }
    return (box, made)
  }

  /// `https://127.0.0.1:PORT` with a certificate that names the address as an IP SAN (libgit2's
  /// own TLS refused it: it only reads DNS names).
  @Test func anIPAddressHostIsCheckedAgainstItsCertificate() throws {
    let (box, server) = try team {
      try GitHTTPSServer(root: $0, host: "127.0.0.1", names: "IP:127.0.0.1")
    }
    let r = try box.dinger(["sync"], env: env)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(
      try box.git("--git-dir", box.home.path("remote.git"), "rev-parse", "main", in: box.home.url)
        == box.git("rev-parse", "main"))
    // The same certificate does not vouch for another name of the host.
    try box.git("remote", "set-url", "origin", "https://localhost:\(server.port)/remote.git")
    let other = try box.dinger(["sync"], env: env)
    #expect(other.status == 1)
    #expect(other.stderr.contains("certificate"), "\(other.stderr)")
  }

  /// A 5,000-commit history pushed to an empty remote whose server closes any connection idle
  /// for a second: the pack is ready before the request that carries it starts, so the push
  /// goes through (libgit2's own client died silently here, as the listing's connection was
  /// closed while the pack was prepared).
  @Test func aLongPushSurvivesAServerThatClosesIdleConnections() throws {
    let (box, server) = try team { try GitHTTPSServer(root: $0, idle: 1) }
    defer { withExtendedLifetime(server) {} }
    try Self.addMeetings(5_000, to: box)
    let r = try box.dinger(["sync"], env: env)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(
      try box.git("--git-dir", box.home.path("remote.git"), "rev-parse", "main", in: box.home.url)
        == box.git("rev-parse", "main"))
    #expect(
      try box.git(
        "--git-dir", box.home.path("remote.git"), "rev-list", "--count", "main", in: box.home.url
      )
      .trimmingCharacters(in: .whitespacesAndNewlines) == "5002")
  }

  /// A server that accepts the request and then sends nothing, or stops halfway through its
  /// answer: the sync gives up after the low-speed time with a message, not a wait forever.
  @Test(arguments: ["silent", "stalled"]) func aServerThatStopsAnsweringFailsInTime(mode: String)
    throws
  {
    let box = try Sandbox()
    let server = try MisbehavingServer(mode: mode)
    #expect(try box.dinger("init").status == 0)
    #expect(
      try box.dinger("remote", "add", "origin", "http://127.0.0.1:\(server.port)/team.git").status
        == 0)
    let started = Date()
    let r = try ProcessRunner.run(
      "/usr/bin/timeout", ["120", dingerBinary, "sync"], in: box.data,
      environment: box.environment.merging(["GIT_HTTP_LOW_SPEED_TIME": "2"]) { $1 })
    #expect(r.status == 1, "\(r.stderr)")
    #expect(r.stderr.contains("stopped answering"), "\(r.stderr)")
    #expect(r.stderr.contains("http.lowSpeedTime"), "\(r.stderr)")
    #expect(Date().timeIntervalSince(started) < 60, "gave up long after the low-speed time")
  }

  /// A redirect of the first request to another host is refused before anything (a password
  /// above all) is sent there.
  @Test func aRedirectToAnotherHostIsRefused() throws {
    let box = try Sandbox()
    let server = try MisbehavingServer(mode: "redirect")
    #expect(try box.dinger("init").status == 0)
    let url = "http://localhost:\(server.port)/team.git"
    #expect(try box.dinger("remote", "add", "origin", url).status == 0)
    let r = try box.dinger(["sync"])
    #expect(r.status == 1)
    #expect(r.stderr.contains("redirected to another host"), "\(r.stderr)")
    #expect(r.stderr.contains("http://127.0.0.1:\(server.port)/elsewhere.git"), "\(r.stderr)")
    let log = (try? String(contentsOfFile: server.log, encoding: .utf8)) ?? ""
    #expect(!log.contains("elsewhere"), "a request went to the other host: \(log)")
  }

  /// apache's redirect of a moved repository on the same host (a 301 with a body) is followed
  /// for the whole sync, as git follows it.
  @Test func aRedirectOnTheSameHostIsFollowed() throws {
    let (box, server) = try team { try GitHTTPSServer(root: $0) }
    defer { withExtendedLifetime(server) {} }
    guard server.usesApache else {
      if Prerequisite.underCI {
        Issue.record("apache2 with git-http-backend is needed (make deps installs it)")
      }
      return
    }
    try box.git("remote", "set-url", "origin", "https://localhost:\(server.port)/moved/remote.git")
    let r = try box.dinger(["sync"], env: env)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(
      try box.git("--git-dir", box.home.path("remote.git"), "rev-parse", "main", in: box.home.url)
        == box.git("rev-parse", "main"))
  }

  /// A remote emptied (or replaced by a new, empty repository) gets the whole history again:
  /// the stale tracking branch is dropped by the fetch, not taken for "up to date".
  @Test func anEmptiedRemoteGetsEverythingAgain() throws {
    let (box, server) = try team { try GitHTTPSServer(root: $0) }
    defer { withExtendedLifetime(server) {} }
    #expect(try box.dinger(["sync"], env: env).status == 0)
    let remote = box.home.path("remote.git")
    try FileManager.default.removeItem(atPath: remote)
    try box.git("init", "-q", "--bare", "-b", "main", remote, in: box.home.url)
    server.share()
    let r = try box.dinger(["sync"], env: env)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(
      try box.git("--git-dir", remote, "rev-parse", "main", in: box.home.url)
        == box.git("rev-parse", "main"))
  }

  /// The server's refusal of the branch (a hook saying no) reaches the user in its own words,
  /// and nothing local changes.
  @Test func aRefusalByTheServerIsShown() throws {
    let (box, server) = try team { try GitHTTPSServer(root: $0) }
    defer { withExtendedLifetime(server) {} }
    let hook = box.home.path("remote.git/hooks/pre-receive")
    try "#!/bin/sh\necho 'main is frozen for the release' >&2\nexit 1\n".write(
      toFile: hook, atomically: true, encoding: .utf8)
    chmod(hook, 0o755)
    let head = try box.git("rev-parse", "HEAD")
    let r = try box.dinger(["sync"], env: env)
    #expect(r.status == 1)
    #expect(
      r.stderr.contains("the remote refused the push (refs/heads/main: pre-receive hook declined)"),
      "\(r.stderr)")
    #expect(r.stderr.contains("\nremote: main is frozen for the release"), "\(r.stderr)")
    #expect(!r.stderr.contains("kept changing"), "\(r.stderr)")
    #expect(try box.git("rev-parse", "HEAD") == head)
  }

  /// A push that fails for any reason but a refused password (here the server's hook says no)
  /// leaves the saved password where it was: git rejects a credential only on HTTP 401.
  @Test func aSavedPasswordSurvivesAFailedPush() throws {
    let (box, server) = try team { try GitHTTPSServer(root: $0) }
    defer { withExtendedLifetime(server) {} }
    try box.git("config", "--global", "credential.helper", "store")
    let saved = "https://dan:danpw@localhost:\(server.port)\n"
    try box.home.write(".git-credentials", saved)
    let hook = box.home.path("remote.git/hooks/pre-receive")
    try "#!/bin/sh\nexit 1\n".write(toFile: hook, atomically: true, encoding: .utf8)
    chmod(hook, 0o755)
    let r = try box.dinger(["sync"], env: env)
    #expect(r.status == 1, "\(r.stderr)")
    let kept = try String(contentsOfFile: box.home.path(".git-credentials"), encoding: .utf8)
    #expect(kept.contains("dan:danpw@localhost"), "\(kept)")
    // A wrong password is forgotten, as git forgets it, and never printed.
    try box.home.write(".git-credentials", "https://dan:wrongpw@localhost:\(server.port)\n")
    try "#!/bin/sh\nexit 0\n".write(toFile: hook, atomically: true, encoding: .utf8)
    let refused = try box.dinger(["sync"], env: env)
    #expect(refused.status == 1)
    #expect(!refused.stderr.contains("wrongpw"), "\(refused.stderr)")
    #expect(
      try !String(contentsOfFile: box.home.path(".git-credentials"), encoding: .utf8).contains(
        "wrongpw"))
  }

  /// A password written into the remote's address is never printed, whatever fails.
  @Test func aPasswordInTheAddressIsNeverPrinted() throws {
    let (box, server) = try team { try GitHTTPSServer(root: $0) }
    defer { withExtendedLifetime(server) {} }
    try box.git("config", "--global", "--unset", "credential.helper")
    let url = "https://dan:ghp_SECRET@localhost:\(server.port)/remote.git"
    try box.git("remote", "set-url", "origin", url)
    for args in [
      ["sync"], ["sync", "--dry-run"], ["remote", "list"], ["remote", "list", "--json"],
    ] {
      let r = try box.dinger(args, env: env)
      #expect(!(r.stdout + r.stderr).contains("ghp_SECRET"), "\(args): \(r.stdout)\(r.stderr)")
    }
    let cloned = try box.dinger(
      ["clone", "https://dan:ghp_SECRET@localhost:1/none.git", "x"], in: box.home.url, env: env)
    #expect(cloned.status != 0)
    #expect(!(cloned.stdout + cloned.stderr).contains("ghp_SECRET"), "\(cloned.stderr)")
  }

  /// The user's own settings count before any repository exists: a global http.sslVerify=false
  /// (here for a self-signed test server) lets `dinger clone` through as it lets `git clone`.
  @Test func theUsersGlobalSettingsCountAtCloneTime() throws {
    let (box, server) = try team { try GitHTTPSServer(root: $0) }
    defer { withExtendedLifetime(server) {} }
    #expect(try box.dinger(["sync"], env: env).status == 0)
    let url = server.url("remote.git")
    let refused = try box.dinger(
      ["clone", url, box.home.path("first")], in: box.home.url, env: env)
    #expect(refused.status == 1)
    #expect(refused.stderr.contains("certificate"), "\(refused.stderr)")
    try box.git("config", "--global", "http.\(url).sslVerify", "false")
    let cloned = try box.dinger(
      ["clone", url, box.home.path("second")], in: box.home.url, env: env)
    #expect(cloned.status == 0, "\(cloned.stderr)")
    #expect(FileManager.default.fileExists(atPath: box.home.path("second/scrums/design.yaml")))
  }

  /// Over https too: a remote whose data is on another branch is named, not silently doubled.
  @Test func aRemoteWhoseDataIsOnAnotherBranchIsNamed() throws {
    let (box, server) = try team { try GitHTTPSServer(root: $0) }
    defer { withExtendedLifetime(server) {} }
    let remote = box.home.path("remote.git")
    let other = box.home.url.appendingPathComponent("other")
    try box.git(["clone", "-q", remote, other.path], in: box.home.url)
    try box.git(["checkout", "-q", "-b", "master"], in: other)
    try "x\n".write(to: other.appendingPathComponent("notes.md"), atomically: true, encoding: .utf8)
    try box.git(["add", "notes.md"], in: other)
    try box.git(["commit", "-qm", "on master"], in: other)
    try box.git(["push", "-q", "origin", "master"], in: other)
    server.share()
    let r = try box.dinger(["sync"], env: env)
    #expect(
      r.stderr.contains("warning: origin has no branch 'main' but has 'master'"), "\(r.stderr)")
  }

  /// The requests of one transfer share a connection, as git's do (the listing and the pack).
  @Test func oneTransferReusesItsConnection() throws {
    let (box, server) = try team { try GitHTTPSServer(root: $0) }
    defer { withExtendedLifetime(server) {} }
    guard server.usesApache else {
      if Prerequisite.underCI {
        Issue.record("apache2 with git-http-backend is needed (make deps installs it)")
      }
      return
    }
    #expect(try box.dinger(["sync"], env: env).status == 0)
    #expect(try box.dinger("scrum", "attendee", "add", "design", "Bob").status == 0)
    #expect(try box.dinger(["sync"], env: env).status == 0)
    let lines = server.accessLog.split(separator: "\n").map { $0.split(separator: " ") }
    let requests = lines.filter { $0.count == 4 }
    #expect(requests.count >= 4, "\(server.accessLog)")
    let ports = Set(requests.map { $0[0] })
    // NB: without reuse every request has a port of its own.
    #expect(ports.count < requests.count, "\(server.accessLog)")
  }

  /// A push over https shows its stages on a terminal, the request going out included.
  @Test func aPushShowsItsProgressOnATerminal() throws {
    let (box, server) = try team { try GitHTTPSServer(root: $0) }
    defer { withExtendedLifetime(server) {} }
    try Self.addMeetings(300, to: box)
    let typescript = box.home.path("typescript")
    let r = try ProcessRunner.run(
      "/usr/bin/script", ["-qec", "\(dingerBinary) sync", typescript], in: box.data,
      environment: box.environment.merging(env.merging(["TERM": "xterm"]) { $1 }) { $1 })
    #expect(r.status == 0, "\(r.stdout)")
    let shown = try String(contentsOfFile: typescript, encoding: .utf8)
    #expect(shown.contains("Counting objects: 100%"), "\(shown)")
    #expect(shown.contains("Sending pack: 100%"), "\(shown)")
    #expect(
      shown.contains("KiB)\r\n") || shown.contains("KiB)\n"),
      "progress not ended before the next line: \(shown)")
    #expect(shown.contains("pushed to origin/main"), "\(shown)")
  }

  /// Commits `count` meetings of the sandbox's Design scrum on top of main (git fast-import).
  /// A 20,000-commit catch-up from apache whose git-http-backend is silent for 90 s before it
  /// answers the pack request (longer than the 60 s low-speed time): with default settings the
  /// sync waits, says so, and catches up, as `git pull` does; a server that truly stalls is
  /// still given up on (aServerThatStopsAnsweringFailsInTime, PaceTests).
  @Test(.enabled(if: GitHTTPSServer.apacheAvailable, "needs apache2 with git-http-backend"))
  func aServerPreparingABigPackIsWaitedFor() throws {
    let (box, server) = try team { try GitHTTPSServer(root: $0, slowPack: 90) }
    defer { withExtendedLifetime(server) {} }
    #expect(try box.dinger(["sync"], env: env).status == 0)
    // A teammate's 20,000 meetings reach the remote.
    try Self.addMeetings(20_000, to: box, gitDirectory: box.home.path("remote.git"))
    server.share()
    let r = try box.dinger(["sync"], env: env)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stderr.contains("waiting for the server to prepare"), "\(r.stderr)")
    #expect(
      try box.git("--git-dir", box.home.path("remote.git"), "rev-parse", "main", in: box.home.url)
        == box.git("rev-parse", "main"))
    #expect(try box.git("rev-list", "--count", "main").hasPrefix("2000"))
  }

  static func addMeetings(_ count: Int, to box: Sandbox, gitDirectory: String? = nil) throws {
    let scrum = try box.read("scrums/design.yaml")
    let id = scrum.split(separator: "\n").first { $0.hasPrefix("id: ") }!.dropFirst(4)
    var stream = ""
    for m in 0..<count {
      let day = Date(timeIntervalSince1970: 1_420_070_400 + Double(m) * 86_400)
      let date = ISO8601DateFormatter().string(from: day)
      let meeting = String(format: "%08x-0000-4000-8000-000000000000", m)
      let text =
        "id: \(meeting)\nscrum: \(id)\ndate: \(date)\nlength: 15\nduration: \(600 + m % 300)\nattendees: [Ada]\nspeakers:\n  - {name: Ada, seconds: \(600 + m % 300)}\n"
      let message = "Record meeting of Design\n"
      stream +=
        "commit refs/heads/main\ncommitter Ada <ada@example.com> \(1_420_070_400 + m * 86_400) +0000\n"
      stream += "data \(message.utf8.count)\n\(message)"
      if m == 0 { stream += "from refs/heads/main^0\n" }
      let path = "history/design/\(date.prefix(10))-\(meeting.prefix(8)).yaml"
      stream += "M 100644 inline \(path)\ndata \(text.utf8.count)\n\(text)\n"
    }
    let r = try ProcessRunner.run(
      "/usr/bin/git",
      (gitDirectory.map { ["--git-dir", $0] } ?? []) + ["fast-import", "--quiet", "--force"],
      in: box.data, environment: box.environment, input: stream)
    #expect(r.status == 0, "\(r.stderr)")
    if gitDirectory == nil { try box.git("reset", "-q", "--hard", "main") }
  }
}

/// An http server on 127.0.0.1 that misbehaves on purpose: `silent` reads the request and
/// never answers, `stalled` sends the headers and a little of the body, then nothing,
/// `redirect` sends every request to another host's `elsewhere.git`. Every request line is
/// logged.
final class MisbehavingServer: @unchecked Sendable {
  let folder: TemporaryDirectory
  let port: Int
  let pid: pid_t
  var log: String { folder.path("requests.log") }

  static let script = #"""
    import os, socket, sys, threading, time
    MODE, READY, LOG = sys.argv[1], sys.argv[2], sys.argv[3]
    s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("127.0.0.1", 0)); s.listen(16)
    port = s.getsockname()[1]
    def serve(c):
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = c.recv(65536)
            if not chunk: return
            data += chunk
        with open(LOG, "a") as f: f.write(data.split(b"\r\n")[0].decode() + "\n")
        if MODE == "silent":
            time.sleep(3600)
        elif MODE == "stalled":
            c.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/x-git-upload-pack-advertisement\r\nContent-Length: 100000\r\n\r\n001e# service=git-upload-pack\n0000")
            time.sleep(3600)
        else:
            where = "http://127.0.0.1:%d/elsewhere.git/info/refs?service=git-upload-pack" % port
            c.sendall(("HTTP/1.1 302 Found\r\nLocation: %s\r\nContent-Length: 0\r\n\r\n" % where).encode())
            c.close()
    with open(READY + ".tmp", "w") as f: f.write("%d\n" % port)
    os.rename(READY + ".tmp", READY)
    while True:
        c, _ = s.accept()
        threading.Thread(target=serve, args=(c,), daemon=True).start()
    """#

  init(mode: String) throws {
    folder = try TemporaryDirectory("dinger-misbehaving")
    try folder.write("server.py", Self.script)
    let ready = folder.path("port")
    pid = try ProcessRunner.start(
      ProcessRunner.which("python3") ?? "/usr/bin/python3",
      [folder.path("server.py"), mode, ready, folder.path("requests.log")])
    port = try ProcessRunner.port(writtenTo: ready, by: pid)
  }

  deinit { ProcessRunner.stop(pid) }
}

/// An HTTP 403 after the password was sent (a token's scope, single sign-on, a rate limit) keeps
/// the saved password, as git keeps it; only a 401 to a sent password forgets it.
@Suite struct ForbiddenKeepsThePasswordTests {
  @Test func a403KeepsTheSavedPasswordAsGitDoes() throws {
    let box = try Sandbox()
    let server = try GitHTTPSServer(root: box.home.url)
    defer { withExtendedLifetime(server) {} }
    guard server.usesApache else { return }
    try box.git(
      "init", "-q", "--bare", "-b", "main", box.home.path("forbidden/remote.git"),
      in: box.home.url)
    #expect(try box.dinger("init").status == 0)
    #expect(try box.dinger("scrum", "new", "Design", "--attendee", "Ada").status == 0)
    try box.git("config", "--global", "credential.helper", "store")
    try box.git("config", "--global", "http.sslCAInfo", server.caFile)
    let saved = "https://dan:danpw@localhost:\(server.port)\n"
    try box.home.write(".git-credentials", saved)
    #expect(
      try box.dinger("remote", "add", "origin", server.url("forbidden/remote.git")).status == 0)
    let r = try box.dinger(["sync"], env: ["GIT_SSL_CAINFO": ""])
    #expect(r.status == 1)
    #expect(r.stderr.contains("(HTTP 403)"), "\(r.stderr)")
    #expect(r.stderr.contains("a saved password is kept"), "\(r.stderr)")
    #expect(!r.stderr.contains("<html") && !r.stderr.contains("<title"), "\(r.stderr)")
    #expect(!r.stderr.contains("store the right ones"), "\(r.stderr)")
    #expect(try box.home.read(".git-credentials") == saved)
    // git, on the same server, keeps it too.
    let git = try ProcessRunner.run(
      "/usr/bin/git", ["fetch", "origin"], in: box.data,
      environment: box.environment.merging(["GIT_SSL_CAINFO": server.caFile]) { $1 })
    #expect(git.status != 0)
    #expect(git.stderr.contains("403"), "\(git.stderr)")
    #expect(try box.home.read(".git-credentials") == saved)
  }
}

/// A shallow repository served over https is refused by name (libgit2 1.5 failed with "error
/// parsing REF pkt-line"); git clones it (shallow).
@Suite(.serialized) struct ShallowRemoteTests {
  @Test func aShallowRepositoryOverHTTPSIsRefusedByName() throws {
    let box = try Sandbox()
    let server = try GitHTTPSServer(root: box.home.url)
    defer { withExtendedLifetime(server) {} }
    #expect(try box.dinger("init").status == 0)
    #expect(try box.dinger("scrum", "new", "Design", "--attendee", "Ada").status == 0)
    try box.git(
      "clone", "-q", "--bare", "--depth", "1", "file://" + box.data.path,
      box.home.path("shallow.git"), in: box.home.url)
    let target = box.home.path("c")
    let r = try box.dinger(
      ["clone", server.url("shallow.git"), target], in: box.home.url,
      env: ["GIT_SSL_CAINFO": server.caFile])
    #expect(r.status == 1)
    #expect(r.stderr.contains("is shallow (made with --depth"), "\(r.stderr)")
    #expect(!r.stderr.contains("pkt-line"), "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: target))
    let git = try ProcessRunner.run(
      "/usr/bin/git", ["clone", "-q", server.url("shallow.git"), box.home.path("g")],
      in: box.home.url,
      environment: box.environment.merging(["GIT_SSL_CAINFO": server.caFile]) { $1 })
    #expect(git.status == 0, "\(git.stderr)")
  }

  /// The same over git:// (libgit2's own transport, which failed with "error parsing REF
  /// pkt-line"): refused by name, as the other transports refuse it.
  @Test func aShallowRepositoryOverGitIsRefusedByName() throws {
    let box = try Sandbox()
    #expect(try box.dinger("init").status == 0)
    #expect(try box.dinger("scrum", "new", "Design", "--attendee", "Ada").status == 0)
    let served = box.home.url.appendingPathComponent("served")
    try FileManager.default.createDirectory(at: served, withIntermediateDirectories: true)
    try box.git(
      "clone", "-q", "--bare", "--depth", "1", "file://" + box.data.path,
      served.appendingPathComponent("shallow.git").path, in: box.home.url)
    let daemon = try GitDaemon(base: served)
    defer { daemon.stop() }
    let target = box.home.path("c")
    let r = try box.dinger(["clone", daemon.url("shallow.git"), target], in: box.home.url)
    #expect(r.status == 1)
    #expect(r.stderr.contains("is shallow (made with --depth"), "\(r.stderr)")
    #expect(!r.stderr.contains("pkt-line"), "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: target))
  }
}

/// Every `http.extraHeader` is sent, as git sends them all (only the last one was).
@Suite(.serialized) struct ExtraHeadersTests {
  @Test func everyExtraHeaderIsSentAsGitSendsThem() throws {
    let box = try Sandbox()
    let server = try GitHTTPSServer(root: box.home.url)
    defer { withExtendedLifetime(server) {} }
    guard server.usesApache else { return }
    try box.git(
      "init", "-q", "--bare", "-b", "main", box.home.path("headers/remote.git"), in: box.home.url)
    #expect(try box.dinger("init").status == 0)
    #expect(try box.dinger("scrum", "new", "Design", "--attendee", "Ada").status == 0)
    try box.git("config", "--global", "http.sslCAInfo", server.caFile)
    try box.git("config", "--global", "credential.helper", "store")
    try box.home.write(".git-credentials", "https://dan:danpw@localhost:\(server.port)\n")
    try box.git("config", "--global", "--add", "http.extraHeader", "X-Dinger-One: first")
    try box.git("config", "--global", "--add", "http.extraHeader", "X-Dinger-Two: second")
    #expect(
      try box.dinger("remote", "add", "origin", server.url("headers/remote.git")).status == 0)
    let r = try box.dinger(["sync"], env: ["GIT_SSL_CAINFO": ""])
    #expect(r.status == 0, "\(r.stderr)")
    let git = try ProcessRunner.run(
      "/usr/bin/git", ["ls-remote", "origin"], in: box.data,
      environment: box.environment.merging(["GIT_SSL_CAINFO": server.caFile]) { $1 })
    #expect(git.status == 0, "\(git.stderr)")
    #expect(git.stdout.contains("refs/heads/main"), "\(git.stdout)")
    // With one of them cleared (an empty value resets the list, in git and dinger), both refuse.
    try box.git("config", "--global", "--add", "http.extraHeader", "")
    try box.git("config", "--global", "--add", "http.extraHeader", "X-Dinger-Two: second")
    #expect(try box.dinger("scrum", "new", "Later", "--attendee", "Bo").status == 0)
    let refused = try box.dinger(["sync"], env: ["GIT_SSL_CAINFO": ""])
    #expect(refused.status == 1)
    #expect(refused.stderr.contains("403"), "\(refused.stderr)")
    let gitRefused = try ProcessRunner.run(
      "/usr/bin/git", ["ls-remote", "origin"], in: box.data,
      environment: box.environment.merging(["GIT_SSL_CAINFO": server.caFile]) { $1 })
    #expect(gitRefused.status != 0)
  }
}
