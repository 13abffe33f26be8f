import Foundation
import TestSupport
import Testing

/// `dinger digest` over data dinger wrote: the day's entries, blockers opened and resolved,
/// the meeting held and the one missed, who has not written, who is away; every format parses.
@Suite struct DigestTests {
  @Test func theDaysDigestSaysWhatHappened() throws {
    let box = try Sandbox()
    expectOK(try box.dinger("init"))
    expectOK(
      try box.dinger(
        "scrum", "new", "Platform", "--attendee", "Ada Lovelace", "--attendee", "Bo",
        "--attendee", "Dee", "--at", "09:00", "--days", "weekdays", "--zone", "UTC", "--from",
        "2026-11-23"))
    expectOK(
      try box.dinger(
        "scrum", "attendee", "away", "platform", "Dee", "--from", "2026-11-24", "--until",
        "2026-11-27", "--note", "holiday"))
    let monday = ["DINGER_TEST_NOW": "2026-11-23T12:00:00Z"]
    let tuesday = ["DINGER_TEST_NOW": "2026-11-24T18:00:00Z"]
    expectOK(
      try box.dinger(
        ["standup", "--today", "Migrate", "--blocker", "The signing key"], env: monday))
    expectOK(
      try box.dinger(
        ["meet", "platform", "--record", "--date", "2026-11-23T09:00:00Z", "--duration", "12m"],
        env: monday))
    let id = try #require(
      try box.dinger(["blockers", "--json"], env: tuesday).stdout.split(separator: "\"")
        .first { $0.count == 9 && $0.hasPrefix("b") })
    expectOK(
      try box.dinger(["standup", "--today", "Release", "--resolve", String(id)], env: tuesday))
    let day = try box.dinger(["digest"], env: tuesday)
    expectOK(day)
    #expect(day.stdout.contains("Stand-up digest, 2026-11-24"), "\(day.stdout)")
    #expect(day.stdout.contains("2026-11-24 Ada Lovelace today: Release"), "\(day.stdout)")
    #expect(
      day.stdout.contains("Resolved \(id) by Ada Lovelace after 1 working day: The signing key"),
      "\(day.stdout)")
    #expect(day.stdout.contains("Missed: 2026-11-24 09:00"), "\(day.stdout)")
    #expect(day.stdout.contains("Not written on 2026-11-24: Bo"), "\(day.stdout)")
    #expect(day.stdout.contains("Away: Dee (holiday)"), "\(day.stdout)")
    let two = try box.dinger(["digest", "--since", "2026-11-23", "--format", "json"], env: tuesday)
    let json = try JSONSerialization.jsonObject(with: Data(two.stdout.utf8)) as! [String: Any]
    let scrum = (json["scrums"] as! [[String: Any]])[0]
    #expect((scrum["meetings"] as! [Any]).count == 1)
    #expect((scrum["resolved"] as! [Any]).count == 1 && (scrum["open"] as! [Any]).isEmpty)
    #expect((scrum["days"] as! [Any]).count == 2)
    for format in ["markdown", "slack", "mattermost", "rocketchat", "teams", "discord", "matrix"] {
      let r = try box.dinger(["digest", "--since", "2026-11-23", "--format", format], env: tuesday)
      expectOK(r)
      if format != "markdown" {
        #expect((try? JSONSerialization.jsonObject(with: Data(r.stdout.utf8))) != nil, "\(format)")
      }
    }
    let bad = try box.dinger(["digest", "--format", "fax"], env: tuesday)
    #expect(bad.status != 0 && bad.stderr.contains("use one of: text, markdown"), "\(bad.stderr)")
    let backwards = try box.dinger(
      ["digest", "--since", "2026-11-24", "--until", "2026-11-23"], env: tuesday)
    #expect(backwards.status != 0 && backwards.stderr.contains("is after --until"))
  }
}

/// `digest --post`: each message one POST to a webhook (a local receiver that records them),
/// a 500 and a 429 tried again a bounded number of times, a 400 refused with the service's
/// words, the webhook's secret path never printed.
@Suite(.serialized) struct DigestPostTests {
  static let receiver = #"""
    import os, sys, json, time
    os.closerange(3, 4096)
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
    seen = {}
    class H(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        def log_message(self, *a): pass
        def do_GET(self):
            # A Matrix homeserver's room directory, answered with spaces after the colons (as
            # many JSON writers do).
            with open(sys.argv[1] + '.log', 'a') as f:
                f.write(json.dumps({'path': self.path, 'type': 'GET', 'body': '', 'at': time.time()}) + '\n')
            answer = b'{"room_id": "!room:example.org", "servers": ["example.org"]}'
            self.send_response(200)
            self.send_header('Content-Length', str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)
        def do_PUT(self):
            self.do_POST()
        def do_POST(self):
            body = self.rfile.read(int(self.headers.get('Content-Length', 0)))
            n = seen[self.path] = seen.get(self.path, 0) + 1
            with open(sys.argv[1] + '.log', 'a') as f:
                f.write(json.dumps({'path': self.path, 'type': self.headers.get('Content-Type'), 'body': body.decode(), 'at': time.time()}) + '\n')
            status, answer = 200, b'ok'
            if self.path.startswith('/flaky/') and n < 3: status, answer = 500, b'oops'
            if self.path.startswith('/limited/') and n < 2: status, answer = 429, b'{"retry_after": 0.05}'
            if self.path.startswith('/broken/'): status, answer = 500, b'down for good'
            if self.path.startswith('/bad/'): status, answer = 400, b'invalid_blocks'
            if self.path.startswith('/slow/'): time.sleep(3)
            if self.path.startswith('/stall/'): time.sleep(3600)
            if '/send/m.room.message/' in self.path and sum(1 for k in seen if '/send/' in k) == 1 and n == 1:
                status, answer = 429, b'{"errcode": "M_LIMIT_EXCEEDED", "error": "Too Many Requests", "retry_after_ms": 400}' 
            if self.path.startswith('/echo404/'):
                status, answer = 404, ('<html><body><h1>Not Found</h1><p>The requested URL ' + self.path + ' was not found on this server.</p></body></html>').encode()
            if self.path.startswith('/half/') and os.path.exists(sys.argv[1] + '.broken') and n >= 2:
                status, answer = 500, b'down for now'
            if self.path.startswith('/slowbody/'):
                self.send_response(200)
                self.send_header('Content-Length', '100000')
                self.end_headers()
                self.wfile.write(b'ok'); self.wfile.flush()
                time.sleep(60)
                return
            later = self.path.startswith('/later/') and n < 2
            if later: status, answer = 429, b'rate_limited'
            self.send_response(status)
            if later: self.send_header('Retry-After', '3')
            self.send_header('Content-Length', str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)
    s = ThreadingHTTPServer(('127.0.0.1', 0), H)
    s.daemon_threads = True
    if len(sys.argv) > 3:
        import ssl
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(sys.argv[2], sys.argv[3])
        s.socket = context.wrap_socket(s.socket, server_side=True)
    with open(sys.argv[1] + '.tmp', 'w') as f: f.write('%d %d\n' % (s.server_address[1], os.getpid()))
    os.rename(sys.argv[1] + '.tmp', sys.argv[1])
    s.serve_forever()
    """#

  @Test func theDigestIsPostedAndRetriedWithinBounds() throws {
    let box = try Sandbox()
    expectOK(try box.dinger("init"))
    expectOK(try box.dinger("scrum", "new", "Platform", "--attendee", "Ada Lovelace"))
    // NB: a second of waiting lasts 100 ms.
    let env = ["DINGER_TEST_NOW": "2026-11-24T18:00:00Z", "DINGER_TEST_RETRY_MS": "100"]
    expectOK(try box.dinger(["standup", "--today", "Release <!channel>"], env: env))
    try box.home.write("receiver.py", Self.receiver)
    let ready = box.home.path("port")
    let started = try ProcessRunner.start(
      ProcessRunner.which("python3") ?? "/usr/bin/python3", [box.home.path("receiver.py"), ready])
    defer { ProcessRunner.stop(started) }
    var line = ""
    for _ in 0..<200 where line.isEmpty {
      line = (try? String(contentsOfFile: ready, encoding: .utf8)) ?? ""
      usleep(25_000)
    }
    let parts = line.split(separator: " ")
    let port = try #require(parts.first.flatMap { Int($0) })
    defer { kill(pid_t(parts[1].trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0, SIGKILL) }
    let base = "http://127.0.0.1:\(port)"
    // Sent once; the secret path is not printed.
    let ok = try box.dinger(
      ["digest", "--format", "slack", "--post", "\(base)/ok/T000/SECRET"], env: env)
    #expect(ok.status == 0, "\(ok.stderr)")
    #expect(ok.stdout == "posted 1 message to 127.0.0.1:\(port)\n")
    // Two 500s, then taken; a 429 with retry_after, then taken.
    expectOK(
      try box.dinger(["digest", "--format", "discord", "--post", "\(base)/flaky/SECRET"], env: env))
    expectOK(
      try box.dinger(["digest", "--format", "teams", "--post", "\(base)/limited/SECRET"], env: env))
    // Down for good: three attempts, then a clear failure; a 400: at once, with its words.
    let broken = try box.dinger(
      ["digest", "--format", "slack", "--post", "\(base)/broken/SECRET"], env: env)
    #expect(
      broken.status == 1 && broken.stderr.contains("after 3 attempts (HTTP 500"), "\(broken.stderr)"
    )
    let bad = try box.dinger(
      ["digest", "--format", "slack", "--post", "\(base)/bad/SECRET"], env: env)
    #expect(
      bad.status == 1 && bad.stderr.contains("refused message 1 of 1 (HTTP 400: invalid_blocks)"),
      "\(bad.stderr)")
    for r in [ok, broken, bad] { #expect(!(r.stdout + r.stderr).contains("SECRET")) }
    // A 429 with Retry-After: 3 waits three (scaled) seconds, not the first backoff's one.
    expectOK(
      try box.dinger(["digest", "--format", "slack", "--post", "\(base)/later/SECRET"], env: env))
    let log = try String(contentsOfFile: ready + ".log", encoding: .utf8).split(separator: "\n")
    let requests = try log.map { line -> [String: String] in
      let o = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
      return o.mapValues { "\($0)" }
    }
    func count(_ prefix: String) -> Int { requests.filter { $0["path"]!.hasPrefix(prefix) }.count }
    #expect(count("/ok/") == 1 && count("/flaky/") == 3 && count("/limited/") == 2)
    #expect(count("/broken/") == 3 && count("/bad/") == 1 && count("/later/") == 2)
    let later = requests.filter { $0["path"]!.hasPrefix("/later/") }.compactMap {
      Double($0["at"]!)
    }
    #expect(later.count == 2 && later[1] - later[0] >= 0.28, "\(later)")
    #expect(requests.allSatisfy { $0["type"] == "application/json" })
    // What Slack got: the teammate's text escaped, the message Block Kit.
    let slack =
      try JSONSerialization.jsonObject(with: Data(requests[0]["body"]!.utf8)) as! [String: Any]
    #expect(slack["blocks"] != nil && !requests[0]["body"]!.contains("<!channel>"))
    // A format no webhook takes, and --dry-run, send nothing.
    let text = try box.dinger(["digest", "--post", "\(base)/ok/x"], env: env)
    #expect(
      text.status != 0 && text.stderr.contains("belongs to with --format"), "\(text.stderr)")
    let dry = try box.dinger(
      ["digest", "--format", "slack", "--post", "\(base)/ok/x", "--dry-run"], env: env)
    #expect(dry.status == 0 && dry.stdout.contains("\"blocks\""))
    #expect(
      try String(contentsOfFile: ready + ".log", encoding: .utf8).split(separator: "\n").count
        == log.count)
  }
}

/// `dinger remind`: a reminder for each stand-up about to start, once per window, naming who
/// has not written (never the absent), at the right local time across a DST change.
@Suite struct RemindTests {
  @Test func aReminderIsSentOnceAndNamesWhoHasNotWritten() throws {
    let box = try Sandbox()
    expectOK(try box.dinger("init"))
    expectOK(
      try box.dinger(
        "scrum", "new", "Platform", "--attendee", "Ada Lovelace", "--attendee", "Bo",
        "--attendee", "Dee", "--at", "09:30", "--days", "weekdays", "--zone", "Europe/Berlin",
        "--from", "2026-10-01"))
    expectOK(
      try box.dinger(
        "scrum", "attendee", "away", "platform", "Dee", "--from", "2026-10-20", "--until",
        "2026-10-30"))
    // Summer time: 09:30 in Berlin is 07:30 UTC.
    let summer = ["DINGER_TEST_NOW": "2026-10-23T07:22:00Z"]
    expectOK(try box.dinger(["standup", "--today", "x"], env: summer))
    let first = try box.dinger(["remind"], env: summer)
    expectOK(first)
    #expect(
      first.stdout == "Platform starts in 8 min (09:30 Europe/Berlin); not written yet: Bo\n",
      "\(first.stdout)")
    #expect(!first.stdout.contains("Dee"))
    // Once per window.
    #expect(try box.dinger(["remind"], env: summer).stdout == "")
    // Too early for a 10-minute window; a 30-minute one takes it (it was sent: nothing).
    let early = ["DINGER_TEST_NOW": "2026-10-26T08:00:00Z"]
    #expect(try box.dinger(["remind"], env: early).stdout == "")
    // Winter time (the clocks went back on the 25th): 09:30 in Berlin is 08:30 UTC.
    let winter = ["DINGER_TEST_NOW": "2026-10-26T08:25:00Z"]
    let dry = try box.dinger(["remind", "--dry-run"], env: winter)
    #expect(dry.stdout.hasPrefix("Platform starts in 5 min (09:30 Europe/Berlin)"), "\(dry.stdout)")
    // --dry-run remembered nothing: the real run sends it.
    #expect(
      try box.dinger(["remind", "--format", "slack"], env: winter).stdout.contains("\"text\""))
    #expect(try box.dinger(["remind"], env: winter).stdout == "")
    // Nothing of it is committed.
    #expect(try box.git("status", "--porcelain") == "")
    let bad = try box.dinger(
      ["remind", "--format", "fax"], env: ["DINGER_TEST_NOW": "2026-10-27T08:25:00Z"])
    #expect(bad.status != 0 && bad.stderr.contains("use one of"))
  }
}

/// A digest and a reminder reach a real Matrix room (matrix-synapse on 127.0.0.1) and are read
/// back by another member: text, HTML body and sender. A bad token, a room that does not exist
/// and a server that is down each give a clear error.
@Suite(
  .serialized,
  .enabled(
    if: Prerequisite.met(MatrixServer.available), "needs matrix-synapse (make deps installs it)"))
struct MatrixPostTests {
  @Test func aDigestAndAReminderReachAMatrixRoom() throws {
    let server = try MatrixServer()
    let ada = try server.user("ada")
    let bob = try server.user("bob")
    let room = try server.call(["room", ada, "standup"])
    _ = try server.call(["join", bob, room])
    let box = try Sandbox()
    expectOK(try box.dinger("init"))
    expectOK(
      try box.dinger(
        "scrum", "new", "Platform", "--attendee", "Ada Lovelace", "--attendee", "Bo", "--at",
        "09:30", "--days", "weekdays", "--zone", "UTC", "--from", "2026-11-02"))
    let env = ["DINGER_TEST_NOW": "2026-11-24T09:22:00Z", "MATRIX_ACCESS_TOKEN": ada]
    expectOK(try box.dinger(["standup", "--today", "Release <script>alert(1)</script>"], env: env))
    let address = "matrix+http://127.0.0.1:\(server.port)/#standup:localhost"
    let digest = try box.dinger(["digest", "--format", "matrix", "--post", address], env: env)
    #expect(digest.status == 0, "\(digest.stderr)")
    #expect(digest.stdout == "posted 1 message to #standup:localhost on 127.0.0.1:\(server.port)\n")
    #expect(!(digest.stdout + digest.stderr).contains(ada), "the token is never printed")
    let remind = try box.dinger(["remind", "--format", "matrix", "--post", address], env: env)
    #expect(remind.status == 0, "\(remind.stderr)")
    // Bob reads them.
    let read = try server.call(["messages", bob, room])
    let messages = try JSONSerialization.jsonObject(with: Data(read.utf8)) as! [[String: Any]]
    #expect(messages.count == 2, "\(read)")
    let first = messages[0]["content"] as! [String: Any]
    #expect(messages.allSatisfy { $0["sender"] as? String == "@ada:localhost" })
    #expect((first["body"] as! String).contains("Ada Lovelace today: Release <script>"))
    #expect((first["formatted_body"] as! String).contains("&lt;script&gt;"))
    #expect(first["format"] as? String == "org.matrix.custom.html")
    let second = messages[1]["content"] as! [String: Any]
    #expect((second["body"] as! String).contains("Platform starts in 8 min"), "\(second)")
    // A bad token, a room that does not exist, a server that went away.
    // NB: another period: the day's digest was taken, and is not sent again.
    let badToken = try box.dinger(
      ["digest", "--format", "matrix", "--post", address, "--since", "2026-11-23"],
      env: env.merging(["MATRIX_ACCESS_TOKEN": "nope"]) { $1 })
    #expect(
      badToken.status == 1 && badToken.stderr.contains("refused the access token (HTTP 401"),
      "\(badToken.stderr)")
    let noRoom = try box.dinger(
      [
        "digest", "--format", "matrix", "--post",
        "matrix+http://127.0.0.1:\(server.port)/#nowhere:localhost",
      ],
      env: env)
    #expect(
      noRoom.status == 1
        && noRoom.stderr.contains("#nowhere:localhost on 127.0.0.1:\(server.port) does not exist"),
      "\(noRoom.stderr)")
    // The token from git's credential helper, as the password kept for the homeserver.
    try box.git("config", "--global", "credential.helper", "store")
    try box.home.write(".git-credentials", "http://ada:\(ada)@127.0.0.1:\(server.port)\n")
    let stored = try box.dinger(
      ["digest", "--format", "matrix", "--post", address, "--since", "2026-11-20"],
      env: ["DINGER_TEST_NOW": "2026-11-24T09:22:00Z", "MATRIX_ACCESS_TOKEN": ""])
    #expect(stored.status == 0, "\(stored.stderr)")
    try box.home.write(".git-credentials", "")
    server.stop()
    let down = try box.dinger(["digest", "--format", "matrix", "--post", address], env: env)
    #expect(
      down.status == 1 && down.stderr.contains("could not reach the homeserver"), "\(down.stderr)")
    // No token at all: said how to give one.
    let none = try box.dinger(
      ["digest", "--format", "matrix", "--post", address],
      env: ["DINGER_TEST_NOW": "2026-11-24T09:22:00Z", "MATRIX_ACCESS_TOKEN": ""])
    #expect(none.status == 1 && none.stderr.contains("set MATRIX_ACCESS_TOKEN"), "\(none.stderr)")
  }
}

/// `dinger remind --notify` shows the reminder on the desktop: the real `notify-send` talks to a
/// notification server on a private session bus. A title with markup arrives escaped; without a
/// server the error is clear and nothing is remembered, so the next run shows it.
@Suite(
  .enabled(
    if: Prerequisite.met(NotificationServer.available),
    "needs dbus-daemon, python3-dbus and notify-send (make deps installs them)"))
struct RemindNotifyTests {
  @Test func aReminderReachesTheDesktopOnce() throws {
    let box = try Sandbox()
    expectOK(try box.dinger("init"))
    expectOK(
      try box.dinger(
        "scrum", "new", "Ops <b>&</b>", "--attendee", "Ada", "--attendee", "Bo", "--at", "09:30",
        "--days", "weekdays", "--zone", "UTC", "--from", "2026-10-01"))
    let now = "2026-10-23T09:25:00Z"
    // No session bus: a clear error, nothing remembered.
    let nobus = try box.dinger(
      ["remind", "--notify"],
      env: ["DINGER_TEST_NOW": now, "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/bus"])
    #expect(nobus.status == 1, "\(nobus.stdout)")
    #expect(nobus.stderr.contains("notify-send could not show the reminder"), "\(nobus.stderr)")
    let server = try NotificationServer()
    defer { server.stop() }
    let env = ["DINGER_TEST_NOW": now, "DBUS_SESSION_BUS_ADDRESS": server.address]
    expectOK(try box.dinger(["remind", "--notify"], env: env))
    expectOK(try box.dinger(["remind", "--notify"], env: env))
    let shown = try server.shown()
    #expect(shown.count == 1, "\(shown)")
    #expect(shown.first?.app == "dinger")
    #expect(shown.first?.summary == "Stand-up: Ops <b>&</b>")
    #expect(
      shown.first?.body.hasPrefix("Ops &lt;b&gt;&amp;&lt;/b&gt; starts in 5 min (09:30 UTC)")
        == true, "\(shown)")
    let both = try box.dinger(["remind", "--notify", "--post", "https://example.org/x"], env: env)
    #expect(both.status != 0 && both.stderr.contains("different places"))
  }
}

extension DigestPostTests {
  /// `--post env:NAME`: the address comes from the environment, so while a slow post runs no
  /// process's arguments (`/proc/PID/cmdline`, what `ps` shows) hold it; the same post with the
  /// address as an argument is seen there (the scan can find it). An unset variable is named.
  @Test func anAddressFromTheEnvironmentIsInNoProcessList() throws {
    let box = try Sandbox()
    expectOK(try box.dinger("init"))
    expectOK(try box.dinger("scrum", "new", "Platform", "--attendee", "Ada Lovelace"))
    expectOK(try box.dinger(["standup", "--today", "Release"]))
    let (base, pid, log) = try Self.receiver(in: box)
    defer { ProcessRunner.stop(pid) }
    let secret = "T000/B000/SECRET\(UUID().uuidString.prefix(8))"
    let address = "\(base)/slow/\(secret)"

    /// Runs the post and, while it runs, reads every process's arguments: whether any held
    /// the secret, and the post's status and output.
    func post(_ target: String, environment extra: [String: String]) throws -> (Bool, Int32, String)
    {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: dingerBinary)
      process.arguments = ["digest", "--format", "slack", "--post", target]
      process.currentDirectoryURL = box.data
      process.environment = box.environment.merging(extra) { $1 }
      let out = Pipe()
      process.standardOutput = out
      process.standardError = out
      try process.run()
      var seen = false
      var scans = 0
      while process.isRunning {
        scans += 1
        for pid in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        where pid.allSatisfy(\.isNumber) {
          if let args = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"),
            String(decoding: args, as: UTF8.self).contains(secret)
          {
            seen = true
          }
        }
        usleep(50_000)
      }
      process.waitUntilExit()
      #expect(scans > 10, "the post did not last long enough to be watched")
      let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      return (seen, process.terminationStatus, text)
    }
    let (hidden, status, output) = try post(
      "env:STANDUP_HOOK", environment: ["STANDUP_HOOK": address])
    #expect(status == 0, "\(output)")
    #expect(!hidden, "a process list showed the webhook's address")
    #expect(!output.contains("SECRET"), "\(output)")
    // NB: another address (a new target): the first's message is remembered as sent there.
    let (shown, plain, _) = try post(address + "2", environment: [:])
    #expect(plain == 0 && shown, "the scan did not see an address given as an argument")
    let posts = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
    #expect(posts.count == 2 && posts.allSatisfy { $0.contains("Release") })

    let unset = try box.dinger(["digest", "--format", "slack", "--post", "env:NO_SUCH_HOOK"])
    #expect(unset.status == 1)
    #expect(
      unset.stderr.contains("the environment variable NO_SUCH_HOOK is not set"), "\(unset.stderr)")
    let badName = try box.dinger(["remind", "--format", "slack", "--post", "env:not a name"])
    #expect(badName.status == 1 && badName.stderr.contains("env:NAME"), "\(badName.stderr)")
    #expect(try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").count == 2)
  }
}

/// Delivery as the services need it: exactly once whatever a 2xx's body does, the secret never
/// printed (not even as a server's 404 page repeats it), a half-posted digest completed by a
/// rerun, one reminder from two runs started together, a company CA through git's own
/// setting, and the address choosing the format.
extension DigestPostTests {
  /// Starts the receiver (`tls`: its certificate and key); its address and pid.
  static func receiver(in box: Sandbox, tls: (String, String)? = nil) throws -> (
    String, pid_t, String
  ) {
    try box.home.write("receiver.py", Self.receiver)
    let ready = box.home.path("port-\(UUID().uuidString.prefix(6))")
    let started = try ProcessRunner.start(
      ProcessRunner.which("python3") ?? "/usr/bin/python3",
      [box.home.path("receiver.py"), ready] + (tls.map { [$0.0, $0.1] } ?? []))
    var line = ""
    for _ in 0..<200 where line.isEmpty {
      line = (try? String(contentsOfFile: ready, encoding: .utf8)) ?? ""
      usleep(25_000)
    }
    let port = try #require(line.split(separator: " ").first.flatMap { Int($0) })
    return ("\(tls == nil ? "http" : "https")://127.0.0.1:\(port)", started, ready + ".log")
  }

  static func requests(_ log: String) -> [[String: String]] {
    ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").map {
      let o = try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
      return o.mapValues { "\($0)" }
    }
  }

  static func team() throws -> Sandbox {
    let box = try Sandbox()
    expectOK(try box.dinger("init"))
    expectOK(
      try box.dinger(
        "scrum", "new", "Platform", "--attendee", "Ada Lovelace", "--attendee", "Bo", "--at",
        "09:30", "--days", "weekdays", "--zone", "UTC", "--from", "2026-11-02"))
    return box
  }

  @Test func aServersPageNeverShowsTheSecretAndASlowBodyIsPostedOnce() throws {
    let box = try Self.team()
    let env = ["DINGER_TEST_NOW": "2026-11-24T18:00:00Z", "DINGER_TEST_RETRY_MS": "50"]
    expectOK(try box.dinger(["standup", "--today", "Release"], env: env))
    let (base, pid, log) = try Self.receiver(in: box)
    defer { ProcessRunner.stop(pid) }
    let missing = try box.dinger(
      ["digest", "--format", "slack", "--post", "\(base)/echo404/T000/B000/SECRETXYZ"], env: env)
    #expect(missing.status == 1 && missing.stderr.contains("HTTP 404"), "\(missing.stderr)")
    #expect(missing.stderr.contains("The requested URL …"), "\(missing.stderr)")
    for secret in ["SECRETXYZ", "T000/B000", "/echo404/"] {
      #expect(!(missing.stdout + missing.stderr).contains(secret), "\(missing.stderr)")
    }
    let slow = try box.dinger(
      ["digest", "--format", "slack", "--post", "\(base)/slowbody/T000/SECRET"], env: env)
    #expect(slow.status == 0, "\(slow.stderr)")
    #expect(Self.requests(log).filter { $0["path"]!.hasPrefix("/slowbody/") }.count == 1)
  }

  @Test func aRerunOfAHalfPostedDigestSendsOnlyTheRest() throws {
    let box = try Self.team()
    let env = ["DINGER_TEST_NOW": "2026-11-24T18:00:00Z", "DINGER_TEST_RETRY_MS": "20"]
    let scrum = try box.read("scrums/platform.yaml").split(separator: "\n")
      .first { $0.hasPrefix("id: ") }!.dropFirst(4)
    for (i, person) in ["Ada Lovelace", "Bo"].enumerated() {
      try box.write(
        "standups/platform/2026-11-24-p\(i).yaml",
        "scrum: \(scrum)\ndate: '2026-11-24'\nby: \(person)\ntoday: \(String(repeating: "long answer \(i) ", count: 300))\n"
      )
    }
    let (base, pid, log) = try Self.receiver(in: box)
    defer { ProcessRunner.stop(pid) }
    _ = FileManager.default.createFile(
      atPath: log.replacingOccurrences(of: ".log", with: ".broken"), contents: nil)
    let dry = try box.dinger(
      ["digest", "--format", "discord", "--dry-run", "--post", "\(base)/half/x"], env: env)
    let total = try (JSONSerialization.jsonObject(with: Data(dry.stdout.utf8)) as! [Any]).count
    #expect(total >= 3, "\(dry.stdout.prefix(200))")
    let first = try box.dinger(
      ["digest", "--format", "discord", "--post", "\(base)/half/x"], env: env)
    #expect(
      first.status == 1 && first.stderr.contains("1 sent, run it again later"), "\(first.stderr)")
    try FileManager.default.removeItem(
      atPath: log.replacingOccurrences(of: ".log", with: ".broken"))
    let again = try box.dinger(
      ["digest", "--format", "discord", "--post", "\(base)/half/x"], env: env)
    #expect(again.status == 0, "\(again.stderr)")
    #expect(
      again.stdout.contains("posted \(total - 1) messages")
        && again.stdout.contains("(1 sent before, not again)"), "\(again.stdout)")
    // Every message taken exactly once: the bodies answered 200, each once.
    let requests = Self.requests(log)
    let bodies = requests.map { $0["body"]! }
    #expect(Set(bodies).count == total, "\(Set(bodies).count) distinct of \(total)")
    let third = try box.dinger(
      ["digest", "--format", "discord", "--post", "\(base)/half/x"], env: env)
    #expect(
      third.stdout.contains("posted 0 messages") && Self.requests(log).count == requests.count)
  }

  @Test func twoRemindRunsStartedTogetherRemindOnce() throws {
    let box = try Self.team()
    let (base, pid, log) = try Self.receiver(in: box)
    defer { ProcessRunner.stop(pid) }
    var env = box.environment
    env["DINGER_TEST_NOW"] = "2026-11-24T09:22:00Z"
    for round in 0..<20 {
      let args = ["remind", "--format", "slack", "--post", "\(base)/ok/round-\(round)"]
      let runs = (0..<2).map { _ in
        let p = Process()
        p.executableURL = URL(fileURLWithPath: dingerBinary)
        p.arguments = args
        p.currentDirectoryURL = box.data
        p.environment = env
        p.standardOutput = FileHandle.nullDevice
        return p
      }
      for p in runs { try p.run() }
      for p in runs { p.waitUntilExit() }
      #expect(runs.allSatisfy { $0.terminationStatus == 0 })
      let sent = Self.requests(log).filter { $0["path"] == "/ok/round-\(round)" }.count
      #expect(sent == 1, "round \(round): \(sent) reminders")
    }
  }

  @Test func aReminderIsDueFromExactlyBeforeAhead() throws {
    let box = try Self.team()
    let early = try box.dinger(["remind"], env: ["DINGER_TEST_NOW": "2026-11-24T09:19:58Z"])
    #expect(early.stdout.isEmpty, "\(early.stdout)")
    let exact = try box.dinger(["remind"], env: ["DINGER_TEST_NOW": "2026-11-24T09:20:00Z"])
    #expect(exact.stdout.contains("Platform starts in 10 min"), "\(exact.stdout)")
    let help = try box.dinger(["remind", "--help"])
    #expect(help.stdout.contains("(default: 10m)"), "\(help.stdout)")
  }

  @Test func theAddressChoosesTheFormat() throws {
    let box = try Self.team()
    let env = ["DINGER_TEST_NOW": "2026-11-24T09:22:00Z"]
    let slack = try box.dinger(
      ["remind", "--dry-run", "--post", "https://hooks.slack.com/services/T0/B0/X"], env: env)
    #expect(
      slack.status == 0 && slack.stdout.contains("\"blocks\""), "\(slack.stdout)\(slack.stderr)")
    let discord = try box.dinger(
      ["remind", "--dry-run", "--post", "https://discord.com/api/webhooks/1/x"], env: env)
    #expect(discord.stdout.contains("\"allowed_mentions\""), "\(discord.stdout)")
    let matrix = try box.dinger(
      ["remind", "--dry-run", "--post", "matrix://example.org/#standup:example.org"], env: env)
    #expect(matrix.stdout.contains("\"m.mentions\""), "\(matrix.stdout)")
    let unknown = try box.dinger(
      ["remind", "--post", "https://chat.example.org/hooks/x"], env: env)
    #expect(unknown.status != 0 && unknown.stderr.contains("with --format"), "\(unknown.stderr)")
    let text = try box.dinger(
      ["remind", "--format", "text", "--post", "https://hooks.slack.com/services/T0/B0/X"], env: env
    )
    #expect(text.status != 0 && text.stderr.contains("no service takes --format text"))
    let crossed = try box.dinger(
      ["remind", "--format", "slack", "--post", "matrix://example.org/#standup:example.org"],
      env: env)
    #expect(crossed.status != 0 && crossed.stderr.contains("a Matrix room takes Matrix's messages"))
  }

  /// A company CA: the post fails at once (no retries) naming git's setting, and succeeds once
  /// `http.sslCAInfo` names the CA, as `sync` would.
  @Test func aCompanyCAComesFromGitsOwnSetting() throws {
    let box = try Self.team()
    let env = ["DINGER_TEST_NOW": "2026-11-24T18:00:00Z", "GIT_SSL_CAINFO": ""]
    expectOK(try box.dinger(["standup", "--today", "Release"], env: env))
    let cert = box.home.path("cert.pem")
    let key = box.home.path("key.pem")
    let made = try ProcessRunner.run(
      "/usr/bin/openssl",
      [
        "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
        "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key, "-out", cert,
      ])
    #expect(made.status == 0)
    let (base, pid, log) = try Self.receiver(in: box, tls: (cert, key))
    defer { ProcessRunner.stop(pid) }
    let started = Date()
    let refused = try box.dinger(
      ["digest", "--format", "slack", "--post", "\(base)/ok/T0/SECRET"], env: env)
    #expect(refused.status == 1 && refused.stderr.contains("http.sslCAInfo"), "\(refused.stderr)")
    #expect(!refused.stderr.contains("attempts"), "a certificate failure was tried again")
    #expect(Date().timeIntervalSince(started) < 20)
    try box.git("config", "--global", "http.sslCAInfo", cert)
    let taken = try box.dinger(
      ["digest", "--format", "slack", "--post", "\(base)/ok/T0/SECRET"], env: env)
    #expect(taken.status == 0, "\(taken.stderr)")
    #expect(Self.requests(log).count == 1)
  }
}

extension DigestPostTests {
  /// A homeserver that writes its JSON with spaces, and asks the first message to wait 400 ms
  /// (`retry_after_ms`): the room is found, the message waits as asked and is sent once.
  @Test func aMatrixAnswerIsReadAsJSONAndARateLimitWaitedFor() throws {
    let box = try Self.team()
    let env = [
      "DINGER_TEST_NOW": "2026-11-24T18:00:00Z", "MATRIX_ACCESS_TOKEN": "token-x",
      "DINGER_TEST_RETRY_MS": "1000",
    ]
    expectOK(try box.dinger(["standup", "--today", "Release"], env: env))
    let (base, pid, log) = try Self.receiver(in: box)
    defer { ProcessRunner.stop(pid) }
    let host = base.replacingOccurrences(of: "http://", with: "")
    let r = try box.dinger(
      ["digest", "--post", "matrix+http://\(host)/#standup:example.org"], env: env)
    #expect(r.status == 0, "\(r.stderr)")
    let puts = Self.requests(log).filter { $0["path"]!.contains("/send/m.room.message/") }
    #expect(puts.count == 2, "\(puts)")
    #expect(puts.allSatisfy { $0["path"]!.contains("/rooms/%21room%3Aexample.org/") })
    #expect(Set(puts.map { $0["path"]! }).count == 1, "a retry is the same transaction")
    if puts.count == 2 {
      let waited = Double(puts[1]["at"]!)! - Double(puts[0]["at"]!)!
      #expect(waited >= 0.35, "waited \(waited) s of the 0.4 asked")
    }
  }

  /// A webhook that accepts the request and never answers: given up on after the timeout, each
  /// attempt, with a message that names the host only.
  @Test func aStalledWebhookIsGivenUpOn() throws {
    let box = try Self.team()
    let env = [
      "DINGER_TEST_NOW": "2026-11-24T18:00:00Z", "DINGER_TEST_RETRY_MS": "10",
      "DINGER_TEST_POST_TIMEOUT": "1",
    ]
    expectOK(try box.dinger(["standup", "--today", "Release"], env: env))
    let (base, pid, log) = try Self.receiver(in: box)
    defer { ProcessRunner.stop(pid) }
    let r = try box.dinger(
      ["digest", "--format", "slack", "--post", "\(base)/stall/T0/SECRET"], env: env)
    #expect(
      r.status == 1 && r.stderr.contains("after 3 attempts (no answer within 1 s)"), "\(r.stderr)")
    #expect(!r.stderr.contains("SECRET"))
    #expect(Self.requests(log).count == 3)
  }
}
