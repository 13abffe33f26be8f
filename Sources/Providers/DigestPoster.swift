import Base
import FoundationEssentials
import Glibc
import Models
import Processes
import Storage

/// Sends a digest's messages to a chat service's incoming webhook (Slack, Mattermost,
/// Rocket.Chat, Teams, Discord), each message one POST, with a bounded number of retries.
/// A webhook's address is a secret (its path holds the token): messages name only its host.
public enum DigestPoster {
  /// Attempts per message: a network failure, a 5xx or a 429 is tried again, up to this many
  /// times in all, waiting 1 s, then 2 s, or what the service says (`Retry-After:`, Discord's
  /// `retry_after`), at most 30 s.
  public static let attempts = 3

  /// The host a webhook address names (what messages show of it).
  public static func shown(_ url: URL) -> String {
    (url.host ?? "?") + (url.port.map { ":\($0)" } ?? "")
  }

  /// Posts each message; returns how many were sent. `wait` sleeps (tests pass a short one).
  public static func post(
    _ messages: [String], to url: URL, timeout: Double = 30,
    wait: (Double) -> Void = { usleep(UInt32($0 * 1_000_000)) }
  ) throws -> Int {
    guard let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http" else {
      throw StorageError(
        "--post takes a webhook's http(s) address (a chat service's incoming webhook)")
    }
    var sent = 0
    for (i, message) in messages.enumerated() {
      var attempt = 0
      while true {
        attempt += 1
        var problem = ""
        var pause = Double(1 << (attempt - 1))
        do {
          let r = try HTTPClient.post(url, json: Array(message.utf8), timeout: timeout)
          if (200..<300).contains(r.status) { break }
          let said = String(decoding: r.body.prefix(300), as: UTF8.self).trimmed
          problem = "HTTP \(r.status)" + (said.isEmpty ? "" : ": " + OneLineText.excerpt(said))
          guard r.status == 429 || r.status >= 500 else {
            throw StorageError(
              "\(shown(url)) refused message \(i + 1) of \(messages.count) (\(problem)); \(sent) sent. Check the webhook's address and the message format (--format)"
            )
          }
          // NB: `Retry-After:` (Slack, Teams); Discord says it in its body too.
          if let retry = r.retryAfter ?? (r.status == 429 ? retryAfter(r.body) : nil) {
            pause = min(30, retry)
          }
        } catch let failure as HTTPClient.Failure {
          problem = failure.description
        }
        guard attempt < attempts else {
          throw StorageError(
            "could not post message \(i + 1) of \(messages.count) to \(shown(url)) after \(attempts) attempts (\(problem)); \(sent) sent, run it again later"
          )
        }
        wait(pause)
      }
      sent += 1
    }
    return sent
  }

  /// `retry_after` (seconds) from a JSON body, as Discord sends it with a 429.
  static func retryAfter(_ body: [UInt8]) -> Double? {
    let text = String(decoding: body.prefix(4096), as: UTF8.self)
    guard let r = text.firstRange(ofText: "\"retry_after\"") else { return nil }
    let rest = text[r.upperBound...].drop { $0 == " " || $0 == ":" }
    return Double(rest.prefix { $0.isNumber || $0 == "." })
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

  /// Posts each `m.room.message` body; returns how many were sent.
  public static func post(
    _ messages: [String], to target: Target, token: String, timeout: Double = 30
  ) throws -> Int {
    let auth = ["Authorization: Bearer \(token)"]
    let where_ = "\(target.room) on \(target.host)"
    func url(_ path: String) -> URL {
      URL(string: target.base.absoluteString + "/_matrix/client/v3/" + path)!
    }
    func failure(_ doing: String, _ r: HTTPClient.Response) -> StorageError {
      let said = String(decoding: r.body.prefix(300), as: UTF8.self)
      let code = said.components(separatedBy: "\"errcode\":").dropFirst().first?
        .split(separator: "\"").first.map(String.init)
      let why: String
      switch r.status {
      case 401:
        why = "the homeserver refused the access token (HTTP 401\(code.map { ": \($0)" } ?? ""))"
      case 403:
        why =
          "the access token's user may not \(doing) (HTTP 403\(code.map { ": \($0)" } ?? ""); invite them to the room)"
      case 404: why = "\(where_) does not exist (HTTP 404\(code.map { ": \($0)" } ?? ""))"
      default: why = "HTTP \(r.status)\(code.map { ": \($0)" } ?? "")"
      }
      return StorageError("could not \(doing) \(where_): \(why)")
    }
    var room = target.room
    do {
      if room.hasPrefix("#") {
        let r = try HTTPClient.get(
          url("directory/room/" + percentEncoded(room)), timeout: timeout, headers: auth)
        guard r.status == 200 else { throw failure("find the room", r) }
        let text = String(decoding: r.body, as: UTF8.self)
        guard
          let id = text.components(separatedBy: "\"room_id\":").dropFirst().first?
            .split(separator: "\"").first.map(String.init), id.hasPrefix("!")
        else { throw StorageError("the homeserver gave no room id for \(target.room)") }
        room = id
      }
      var sent = 0
      for (i, message) in messages.enumerated() {
        var h = FNV1a()
        h.add(message.utf8)
        let txn =
          "dinger-\(Int(Date().timeIntervalSince1970 * 1000))-\(i)-\(String(h.value, radix: 16))"
        let r = try HTTPClient.post(
          url("rooms/\(percentEncoded(room))/send/m.room.message/\(txn)"),
          json: Array(message.utf8), headers: auth, method: "PUT", timeout: timeout)
        guard (200..<300).contains(r.status) else { throw failure("post to", r) }
        sent += 1
      }
      return sent
    } catch let f as HTTPClient.Failure {
      throw StorageError("could not reach the homeserver \(target.host): \(f.description)")
    }
  }

  /// A path segment percent-encoded (a room id's `!` and `:`, an alias's `#`).
  static func percentEncoded(_ s: String) -> String {
    var out = ""
    for b in s.utf8 {
      if (0x30...0x39).contains(b) || (0x41...0x5a).contains(b) || (0x61...0x7a).contains(b)
        || b == 0x2d || b == 0x2e || b == 0x5f || b == 0x7e
      {
        out.unicodeScalars.append(Unicode.Scalar(b))
      } else {
        out += String(cFormat: "%%%02X", Int32(b))
      }
    }
    return out
  }
}
