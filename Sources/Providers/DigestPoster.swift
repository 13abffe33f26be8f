import Base
import FoundationEssentials
import Git
import Glibc
import HTTP
import Models
import Processes
import Storage

/// What a target has acknowledged, per period: a message whose exact text was taken by the
/// target for the period is not sent again, so a digest that failed midway, run again, sends
/// only the rest. Kept in `.git/dinger/posted-v1.tsv` (never committed, the last 10,000 lines).
public struct PostMemory: Sendable {
  let folder: URL?
  let key: String

  /// The memory of `target` (an address: only its fingerprint is kept) for `period`.
  public init(folder: URL?, target: String, period: String) {
    self.folder = folder
    var h = FNV1a()
    h.add(target.utf8)
    key = String(h.value, radix: 16) + "\t" + period
  }

  static func fingerprint(_ message: String) -> String {
    var h = FNV1a()
    h.add(message.utf8)
    return String(h.value, radix: 16) + ":" + String(message.utf8.count)
  }

  var path: String? { folder?.appendingPathComponent("posted-v1.tsv").path }

  func lines() -> [Substring] {
    guard let path, let bytes = RegularFile.read(path) else { return [] }
    return String(decoding: bytes.prefix(4 << 20), as: UTF8.self).split(separator: "\n")
  }

  /// Whether `message` was acknowledged already.
  public func sent(_ message: String) -> Bool {
    let line = key + "\t" + Self.fingerprint(message)
    return lines().contains { $0 == line }
  }

  /// Remembers that `message` was acknowledged.
  public func remember(_ message: String) {
    guard let path else { return }
    let keep = (lines().map(String.init) + [key + "\t" + Self.fingerprint(message)]).suffix(10_000)
    // NB: cache-like: no fsync (a lost line means one message sent twice, no data lost).
    try? AtomicFile.write(
      Array((keep.joined(separator: "\n") + "\n").utf8), to: path, durability: .cache)
  }
}

/// Sends a digest's messages to a chat service's incoming webhook (Slack, Mattermost,
/// Rocket.Chat, Teams, Discord), each message one POST, with a bounded number of retries.
/// A webhook's address is a secret (its path holds the token): messages name only its host,
/// and a server's answer is quoted only without the address's path, query and credentials.
public enum DigestPoster {
  /// Attempts per message: a network failure, a 5xx or a 429 is tried again, up to this many
  /// times in all, waiting 1 s, then 2 s, or what the service says (`Retry-After:`, Discord's
  /// `retry_after`), at most 30 s. A certificate that is not trusted is not tried again.
  public static let attempts = 3

  /// The host a webhook address names (what messages show of it).
  public static func shown(_ url: URL) -> String {
    (url.host ?? "?") + (url.port.map { ":\($0)" } ?? "")
  }

  /// What a server said, to quote: its first 300 bytes on one line, without the address's
  /// secrets.
  static func quoted(_ body: [UInt8], of url: URL) -> String {
    let said = String(decoding: body.prefix(300), as: UTF8.self).trimmed
    return said.isEmpty
      ? "" : OneLineText.excerpt(SecretRedaction.withoutSecrets(of: url, in: said))
  }

  /// Why a certificate failed, with the setting that fixes it.
  static func certificateAdvice(_ url: URL, _ why: String) -> String {
    "the certificate of \(shown(url)) is not trusted (\(SecretRedaction.withoutSecrets(of: url, in: why))); if it is your company's, give git its CA: git config --global http.sslCAInfo /path/to/ca.pem (dinger posts with git's http settings)"
  }

  /// Posts each message not yet acknowledged (`memory`); returns how many were sent now and
  /// how many had been before. `pause` seconds pass between two messages (a service's rate);
  /// `wait` sleeps (tests pass a short one).
  public static func post(
    _ messages: [String], to url: URL, timeout: Double = 30, repository: Workspace? = nil,
    memory: PostMemory? = nil, pause: Double = 0,
    wait: (Double) -> Void = { usleep(UInt32($0 * 1_000_000)) }
  ) throws -> (sent: Int, before: Int) {
    let settings = httpSettings(for: url, repository: repository)
    guard let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http" else {
      throw StorageError(
        "--post takes a webhook's http(s) address (a chat service's incoming webhook)")
    }
    var (sent, before) = (0, 0)
    for (i, message) in messages.enumerated() {
      if let memory, memory.sent(message) {
        before += 1
        continue
      }
      if sent > 0 && pause > 0 { wait(pause) }
      var attempt = 0
      while true {
        attempt += 1
        var problem = ""
        var delay = Double(1 << (attempt - 1))
        do {
          let r = try HTTPClient.post(
            url, json: Array(message.utf8), timeout: timeout, settings: settings,
            bodyOf2xx: false)
          if (200..<300).contains(r.status) { break }
          let said = quoted(r.body, of: url)
          problem = "HTTP \(r.status)" + (said.isEmpty ? "" : ": " + said)
          guard r.status == 429 || r.status >= 500 else {
            throw StorageError(
              "\(shown(url)) refused message \(i + 1) of \(messages.count) (\(problem)); \(sent + before) sent. Check the webhook's address and the message format (--format)"
            )
          }
          // NB: `Retry-After:` (Slack, Teams); Discord says it in its body too.
          if let retry = r.retryAfter ?? (r.status == 429 ? retryAfter(r.body) : nil) {
            delay = min(30, retry)
          }
        } catch let failure as HTTPClient.Failure {
          if case .certificate(let why) = failure {
            throw StorageError(
              "could not post message \(i + 1) of \(messages.count): \(certificateAdvice(url, why))"
            )
          }
          problem = SecretRedaction.withoutSecrets(of: url, in: failure.description)
        }
        guard attempt < attempts else {
          throw StorageError(
            "could not post message \(i + 1) of \(messages.count) to \(shown(url)) after \(attempts) attempts (\(problem)); \(sent + before) sent, run it again later: what was sent is not sent twice"
          )
        }
        wait(delay)
      }
      memory?.remember(message)
      sent += 1
    }
    return (sent, before)
  }

  /// git's TLS and proxy settings for `url`, from the repository's configuration (its own,
  /// the user's, the system's) and git's environment, as `sync` reads them.
  static func httpSettings(for url: URL, repository: Workspace?) -> HTTPSettings {
    HTTPClient.settings(
      for: url,
      config: { key in repository.flatMap { $0.gitConfig(key) } ?? Repository.globalConfig(key) })
  }

  /// `retry_after` (seconds) from a JSON body, as Discord sends it with a 429.
  static func retryAfter(_ body: [UInt8]) -> Double? {
    struct Answer: Decodable { var retry_after: Double? }
    return (try? JSONDecoder().decode(Answer.self, from: Data(body.prefix(65536))))?.retry_after
  }
}

/// Sends messages to a Matrix room: `matrix://HOST[:PORT]/ROOM` (https) or
/// `matrix+http://HOST[:PORT]/ROOM` (plain http, for a homeserver on the same machine); ROOM is
/// a `!room:server` id or a `#alias:server`. The access token comes from `MATRIX_ACCESS_TOKEN`
/// or git's credential helper (the password it keeps for the homeserver), never the command
/// line, and is never printed.
public enum MatrixPoster {
  public struct Target: Sendable, Equatable {
    public var base: URL
    public var room: String
    public var host: String
  }

  /// Reads a `matrix://` or `matrix+http://` address; nil for anything else.
  public static func target(_ text: String) -> Target? {
    let schemes = [("matrix://", "https://"), ("matrix+http://", "http://")]
    guard let (prefix, web) = schemes.first(where: { text.lowercased().hasPrefix($0.0) }) else {
      return nil
    }
    let rest = text.dropFirst(prefix.count)
    guard let slash = rest.firstIndex(of: "/") else { return nil }
    let host = String(rest[..<slash])
    let room = String(rest[rest.index(after: slash)...])
    guard !host.isEmpty, room.hasPrefix("!") || room.hasPrefix("#"), room.count > 1,
      !host.contains(where: { $0 == "@" || $0 == "?" || $0 == "#" }),
      let base = URL(string: web + host)
    else { return nil }
    return Target(base: base, room: room, host: host)
  }

  /// The token: `MATRIX_ACCESS_TOKEN`, else git's credential helper for the homeserver.
  public static func token(for target: Target, environment: [String: String]) -> String? {
    if let token = environment["MATRIX_ACCESS_TOKEN"], !token.isEmpty { return token }
    let input = "protocol=\(target.base.scheme ?? "https")\nhost=\(target.host)\n\n"
    guard
      let r = try? ChildProcess.run(
        .init(
          ["git", "credential", "fill"],
          // NB: no prompt: a helper's stored password or nothing.
          environment: environment.merging(["GIT_TERMINAL_PROMPT": "0"]) { $1 }, input: .pipe,
          output: .pipe, errors: .null), input: Array(input.utf8), timeout: 30),
      r.termination.succeeded
    else { return nil }
    for line in r.outputText.split(separator: "\n") where line.hasPrefix("password=") {
      let token = String(line.dropFirst("password=".count))
      return token.isEmpty ? nil : token
    }
    return nil
  }

  /// Matrix's error answer: its code, and how long to wait before trying again.
  struct MatrixError: Decodable {
    var errcode: String?
    var retry_after_ms: Double?
  }

  /// Posts each `m.room.message` content not yet acknowledged (`memory`); returns how many
  /// were sent now and before. A 429 (`M_LIMIT_EXCEEDED`) or a 5xx is tried again, waiting
  /// what the homeserver says (`retry_after_ms`, at most 30 s), as webhooks are; each message's
  /// transaction id comes from its room, period and text, so a message sent again is the same
  /// event to the homeserver, never a second one.
  public static func post(
    _ messages: [String], to target: Target, token: String, timeout: Double = 30,
    repository: Workspace? = nil, memory: PostMemory? = nil, period: String = "",
    wait: (Double) -> Void = { usleep(UInt32($0 * 1_000_000)) }
  ) throws -> (sent: Int, before: Int) {
    try withoutActuallyEscaping(wait) { wait in
      try post(
        messages,
        session: Session(
          target: target, token: token, timeout: timeout, repository: repository, wait: wait),
        memory: memory, period: period)
    }
  }

  static func post(
    _ messages: [String], session: Session, memory: PostMemory?, period: String
  ) throws -> (sent: Int, before: Int) {
    let room = try session.roomID()
    var (sent, before) = (0, 0)
    for (i, message) in messages.enumerated() {
      if let memory, memory.sent(message) {
        before += 1
        continue
      }
      var h = FNV1a()
      h.add(room.utf8)
      h.add(period.utf8)
      h.add(message.utf8)
      let txn = "dinger-\(i)-\(String(h.value, radix: 16))"
      _ = try session.send(message, in: room, txn: txn)
      memory?.remember(message)
      sent += 1
    }
    return (sent, before)
  }

  /// A homeserver's client API as one room's poster and reader use it: the token sent, git's
  /// http settings, a 429 or 5xx tried again (waiting what the homeserver says,
  /// `retry_after_ms`, at most 30 s), and every failure said with the room's name.
  public struct Session {
    public let target: Target
    let token: String
    let timeout: Double
    let settings: HTTPSettings
    let wait: (Double) -> Void

    public init(
      target: Target, token: String, timeout: Double = 30, repository: Workspace? = nil,
      wait: @escaping (Double) -> Void = { usleep(UInt32($0 * 1_000_000)) }
    ) {
      (self.target, self.token, self.timeout, self.wait) = (target, token, timeout, wait)
      settings = DigestPoster.httpSettings(for: target.base, repository: repository)
    }

    var auth: [String] { ["Authorization: Bearer \(token)"] }
    var place: String { "\(target.room) on \(target.host)" }

    func url(_ path: String) -> URL {
      URL(string: target.base.absoluteString + "/_matrix/client/v3/" + path)!
    }

    func failure(_ doing: String, _ r: HTTPClient.Response) -> StorageError {
      let code = (try? JSONDecoder().decode(MatrixError.self, from: Data(r.body.prefix(65536))))?
        .errcode
      let why: String
      switch r.status {
      case 401:
        why = "the homeserver refused the access token (HTTP 401\(code.map { ": \($0)" } ?? ""))"
      case 403:
        why =
          "the access token's user may not \(doing) (HTTP 403\(code.map { ": \($0)" } ?? ""); invite them to the room)"
      case 404: why = "\(place) does not exist (HTTP 404\(code.map { ": \($0)" } ?? ""))"
      default: why = "HTTP \(r.status)\(code.map { ": \($0)" } ?? "")"
      }
      return StorageError("could not \(doing) \(place): \(why)")
    }

    /// One request, tried again on a 429 or a 5xx; the answer of the last try.
    func call(_ doing: String, _ request: () throws(HTTPClient.Failure) -> HTTPClient.Response)
      throws -> HTTPClient.Response
    {
      var attempt = 0
      while true {
        attempt += 1
        var delay = Double(1 << (attempt - 1))
        let r: HTTPClient.Response
        do {
          r = try request()
        } catch {
          if case .certificate(let why) = error {
            throw StorageError(
              "could not \(doing) \(place): \(DigestPoster.certificateAdvice(target.base, why))")
          }
          guard attempt < DigestPoster.attempts else {
            throw StorageError(
              "could not reach the homeserver \(target.host): \(error.description)")
          }
          wait(delay)
          continue
        }
        guard r.status == 429 || r.status >= 500, attempt < DigestPoster.attempts else {
          return r
        }
        if let ms = (try? JSONDecoder().decode(MatrixError.self, from: Data(r.body.prefix(65536))))?
          .retry_after_ms
        {
          delay = min(30, max(0, ms / 1000))
        } else if let after = r.retryAfter {
          delay = min(30, after)
        }
        wait(delay)
      }
    }

    /// A GET of the client API that must answer 200; its body.
    func get(_ doing: String, _ path: String) throws -> [UInt8] {
      let r = try call(doing) { () throws(HTTPClient.Failure) in
        try HTTPClient.get(url(path), timeout: timeout, headers: auth, settings: settings)
      }
      guard r.status == 200 else { throw failure(doing, r) }
      return r.body
    }

    /// The room's id: the address's `!id`, or what its `#alias` names.
    public func roomID() throws -> String {
      guard target.room.hasPrefix("#") else { return target.room }
      let body = try get("find the room", "directory/room/" + target.room.percentEncoded())
      struct Alias: Decodable { var room_id: String }
      guard let id = try? JSONDecoder().decode(Alias.self, from: Data(body)).room_id,
        id.hasPrefix("!")
      else { throw StorageError("the homeserver gave no room id for \(target.room)") }
      return id
    }

    /// Sends one `m.room.message` content (JSON) with the transaction id `txn` (the same id is
    /// the same event to the homeserver, never a second one).
    func send(_ content: String, in room: String, txn: String) throws {
      let r = try call("post to") { () throws(HTTPClient.Failure) in
        try HTTPClient.post(
          url("rooms/\(room.percentEncoded())/send/m.room.message/\(txn)"),
          json: Array(content.utf8), headers: auth, method: "PUT", timeout: timeout,
          settings: settings, bodyOf2xx: false)
      }
      guard (200..<300).contains(r.status) else { throw failure("post to", r) }
    }
  }
}

/// A chat post from start to end: the address read (a webhook's, or a Matrix room's with its
/// token), each message not yet acknowledged sent, and remembered for `period` once it is.
public enum ChatPoster {
  /// What a post did.
  public struct Outcome: Sendable, Equatable {
    /// Messages sent now, and acknowledged by an earlier run (not sent again).
    public var sent: Int
    public var before: Int
    /// Where they went, as messages name it (a webhook's host, a room and its homeserver).
    public var shown: String

    /// `posted 2 messages to HOST (1 sent before, not again)`.
    public var sentence: String {
      var said = "posted \(sent) message\(sent == 1 ? "" : "s") to \(shown)"
      if before > 0 { said += " (\(before) sent before, not again)" }
      return said
    }
  }

  /// Posts `messages` to `address`: a Matrix room (`matrix`), else a webhook, `pause` seconds
  /// between two messages; `DINGER_TEST_POST_TIMEOUT` (tests only) bounds an attempt.
  public static func post(
    _ messages: [String], to address: String, matrix: Bool, pause: Double,
    repository: Workspace, period: String,
    environment: [String: String] = ProcessInfo.processInfo.environment,
    wait: (Double) -> Void = { usleep(UInt32($0 * 1_000_000)) }
  ) throws -> Outcome {
    let memory = PostMemory(
      folder: repository.dingerFolderIfUsable, target: address, period: period)
    let timeout = environment["DINGER_TEST_POST_TIMEOUT"].flatMap(Double.init) ?? 30
    if matrix {
      guard let target = MatrixPoster.target(address) else {
        throw StorageError(
          "'\(OneLineText.excerpt(address))' is not a Matrix room's address: write matrix://HOST[:PORT]/!ROOM-ID or matrix://HOST/#alias:server (matrix+http:// for a homeserver on this machine)"
        )
      }
      guard let token = MatrixPoster.token(for: target, environment: environment) else {
        throw StorageError(
          "no access token for \(target.host): set MATRIX_ACCESS_TOKEN, or store it as the password for \(target.host) in git's credential helper"
        )
      }
      let (sent, before) = try MatrixPoster.post(
        messages, to: target, token: token, timeout: timeout, repository: repository,
        memory: memory, period: period, wait: wait)
      return Outcome(sent: sent, before: before, shown: "\(target.room) on \(target.host)")
    }
    guard let url = URL(string: address), url.host != nil else {
      throw StorageError("--post takes a webhook's https address; this one does not read as one")
    }
    let (sent, before) = try DigestPoster.post(
      messages, to: url, timeout: timeout, repository: repository, memory: memory, pause: pause,
      wait: wait)
    return Outcome(sent: sent, before: before, shown: DigestPoster.shown(url))
  }
}
