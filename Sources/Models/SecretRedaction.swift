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
}
