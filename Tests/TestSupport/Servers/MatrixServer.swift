import Foundation

/// A real Matrix homeserver (matrix-synapse from PyPI) on 127.0.0.1, with its own config,
/// signing key and SQLite database in a temporary folder; users registered with synapse's own
/// `register_new_matrix_user`, and a client (Python's urllib against the client-server API) to
/// log in, make rooms and read messages back.
public final class MatrixServer: @unchecked Sendable {
  public let folder: TemporaryDirectory
  public let port: Int
  private var pid: Int32?

  /// Whether synapse is installed (`make deps` installs it with pip).
  public static var available: Bool {
    guard let python = ProcessRunner.which("python3") else { return false }
    return (try? ProcessRunner.run(python, ["-c", "import synapse"]).status) == 0
      && ProcessRunner.which("register_new_matrix_user") != nil
  }

  /// The client's calls, as a small Python program: `login USER PASSWORD`,
  /// `room TOKEN ALIAS-LOCALPART`, `join TOKEN ROOM`, `messages TOKEN ROOM`,
  /// `send TOKEN ROOM CONTENT-JSON` (prints the event id), `events TOKEN ROOM`.
  static let client = #"""
    import sys, json, urllib.request, urllib.parse
    base = sys.argv[1]
    def call(method, path, token=None, body=None):
        req = urllib.request.Request(base + '/_matrix/client/v3/' + path, method=method,
                                     data=None if body is None else json.dumps(body).encode())
        req.add_header('Content-Type', 'application/json')
        if token: req.add_header('Authorization', 'Bearer ' + token)
        with urllib.request.urlopen(req) as r: return json.load(r)
    what = sys.argv[2]
    if what == 'login':
        r = call('POST', 'login', body={'type': 'm.login.password', 'identifier': {'type': 'm.id.user', 'user': sys.argv[3]}, 'password': sys.argv[4]})
        print(r['access_token'])
    elif what == 'room':
        r = call('POST', 'createRoom', sys.argv[3], {'room_alias_name': sys.argv[4], 'preset': 'public_chat'})
        print(r['room_id'])
    elif what == 'join':
        call('POST', 'join/' + urllib.parse.quote(sys.argv[4], safe=''), sys.argv[3], {})
        print('ok')
    elif what == 'send':
        import uuid
        r = call('PUT', 'rooms/' + urllib.parse.quote(sys.argv[4], safe='') + '/send/m.room.message/' + uuid.uuid4().hex, sys.argv[3], json.loads(sys.argv[5]))
        print(r['event_id'])
    elif what == 'events':
        r = call('GET', 'rooms/' + urllib.parse.quote(sys.argv[4], safe='') + '/messages?dir=b&limit=100', sys.argv[3])
        out = [{'event_id': e['event_id'], 'sender': e['sender'], 'content': e['content']} for e in r['chunk'] if e['type'] == 'm.room.message']
        print(json.dumps(list(reversed(out))))
    elif what == 'messages':
        r = call('GET', 'rooms/' + urllib.parse.quote(sys.argv[4], safe='') + '/messages?dir=b&limit=50', sys.argv[3])
        out = [{'sender': e['sender'], 'content': e['content'], 'size': len(json.dumps(e, separators=(',', ':'), ensure_ascii=False).encode())} for e in r['chunk'] if e['type'] == 'm.room.message']
        print(json.dumps(list(reversed(out))))
    """#

  public init() throws {
    folder = try TemporaryDirectory("dinger-matrix")
    let python = ProcessRunner.which("python3") ?? "/usr/bin/python3"
    let config = folder.path("homeserver.yaml")
    let made = try ProcessRunner.run(
      python,
      [
        "-m", "synapse.app.homeserver", "--server-name", "localhost", "--config-path", config,
        "--data-directory", folder.url.path, "--generate-config", "--report-stats=no",
      ], timeout: 120)
    guard made.status == 0 else { throw CancellationError() }
    // NB: synapse's generated log settings write homeserver.log in the working directory (the
    // checkout, when tests run): kept in the server's own folder instead.
    let logConfig = folder.path("localhost.log.config")
    if let text = try? String(contentsOfFile: logConfig, encoding: .utf8) {
      let logFile = folder.path("homeserver.log")
      let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
        let indent = line.prefix { $0 == " " }
        return line.dropFirst(indent.count).hasPrefix("filename:")
          ? "\(indent)filename: \(logFile)" : String(line)
      }
      try lines.joined(separator: "\n").write(toFile: logConfig, atomically: true, encoding: .utf8)
    }
    var port = 0
    for _ in 0..<5 {
      port = GitDaemon.freePort()
      var text = try String(contentsOfFile: config, encoding: .utf8)
      text = text.replacingOccurrences(of: "    - ::1\n", with: "")
        .replacingOccurrences(of: "port: 8008", with: "port: \(port)")
      // NB: no rate limits: a test posts and reads in quick succession.
      let open = "{per_second: 10000, burst_count: 10000}"
      text +=
        "rc_message: \(open)\nrc_registration: \(open)\nrc_joins: {local: \(open), remote: \(open)}\n"
        + "rc_login: {address: \(open), account: \(open), failed_attempts: \(open)}\n"
      try text.write(toFile: config, atomically: true, encoding: .utf8)
      let started = try ProcessRunner.start(python, ["-m", "synapse.app.homeserver", "-c", config])
      for _ in 0..<120 {
        if let r = try? ProcessRunner.run(
          "/usr/bin/curl", ["-sf", "http://127.0.0.1:\(port)/_matrix/client/versions"], timeout: 5),
          r.status == 0
        {
          pid = started
          self.port = port
          return
        }
        usleep(250_000)
      }
      ProcessRunner.stop(started)
    }
    throw CancellationError()
  }

  public var base: String { "http://127.0.0.1:\(port)" }

  /// Registers a user; returns their access token.
  public func user(_ name: String, password: String = "secret-pw") throws -> String {
    let r = try ProcessRunner.run(
      ProcessRunner.which("register_new_matrix_user")!,
      ["-c", folder.path("homeserver.yaml"), "-u", name, "-p", password, "--no-admin", base],
      timeout: 60)
    guard r.status == 0 else { throw CancellationError() }
    return try call(["login", name, password])
  }

  /// Runs the client; its output trimmed.
  public func call(_ args: [String]) throws -> String {
    let r = try ProcessRunner.run(
      ProcessRunner.which("python3") ?? "/usr/bin/python3", ["-c", Self.client, base] + args,
      timeout: 60)
    guard r.status == 0 else { throw CancellationError() }
    return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// Stops the homeserver (a test of a server that went away).
  public func stop() {
    if let pid { ProcessRunner.stop(pid) }
    pid = nil
  }

  deinit { stop() }
}
