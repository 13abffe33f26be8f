import Base
import FoundationEssentials
import Glibc
import Models
import Storage

/// Sends a digest's messages to a chat service's incoming webhook (Slack, Mattermost,
/// Rocket.Chat, Teams, Discord), each message one POST, with a bounded number of retries.
/// A webhook's address is a secret (its path holds the token): messages name only its host.
public enum DigestPoster {
  /// Attempts per message: a network failure, a 5xx or a 429 is tried again, up to this many
  /// times in all, waiting 1 s, then 2 s (a 429's `retry_after` when the service says one,
  /// at most 30 s).
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
          // NB: Discord says how long to wait in its body.
          if r.status == 429, let retry = retryAfter(r.body) { pause = min(30, retry) }
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
