import Base
import FoundationEssentials
import Glibc

/// Keeps passwords and tokens written into remote addresses (`https://dan:ghp_x@host/repo`)
/// out of every message, as git prints such a URL without its credentials: CI logs keep what
/// they are shown.
public enum SecretRedaction {
  /// `text` with the user and password of every `scheme://user:password@` removed (a user
  /// alone, `https://dan@host`, is kept: it is no secret and says who is asked).
  public static func scrub(_ text: String) -> String {
    guard text.containsText("://"), text.containsText("@") else { return text }
    var out = ""
    var rest = Substring(text)
    while let scheme = rest.firstRange(ofText: "://") {
      out += rest[..<scheme.upperBound]
      rest = rest[scheme.upperBound...]
      // NB: the authority ends at the first '/', whitespace or quote; its userinfo at the last '@'.
      let end =
        rest.firstIndex { $0 == "/" || $0.isWhitespace || $0 == "'" || $0 == "\"" } ?? rest.endIndex
      let authority = rest[..<end]
      if let at = authority.lastIndex(of: "@"), authority[..<at].containsText(":") {
        rest = rest[authority.index(after: at)...]
      }
    }
    return out + rest
  }

  /// `text` (a server's answer) with every secret part of `address` removed: its user and
  /// password, its path and query, and each of their pieces that could be a token (six
  /// characters or more), also as percent-encoded or decoded. A webhook's path is its secret,
  /// and a 404 page often repeats the path it did not find.
  public static func withoutSecrets(of address: URL, in text: String) -> String {
    var secrets: [String] = []
    let parts: [String?] = [address.user, address.password, address.path, address.query]
    for case let part? in parts where !part.isEmpty && part != "/" {
      secrets.append(part)
      let pieces = part.split(whereSeparator: { "/?&=:".contains($0) }).map(String.init)
      secrets += pieces.filter { $0.count >= 6 }
    }
    secrets += secrets.compactMap { $0.percentDecoded }
    secrets += secrets.map { $0.percentEncoded(keeping: "/") }
    var out = scrub(text)
    // NB: the longest first, so that a piece never leaves the rest of a longer secret behind.
    for secret in Set(secrets).sorted(by: { $0.count > $1.count }) where secret.count >= 4 {
      out = out.replacingText(secret, with: "…")
    }
    return out
  }
}
