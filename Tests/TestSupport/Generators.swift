import Foundation

/// A small, seeded random number generator (SplitMix64), so generated cases are the same on
/// every run and a failure names a seed that reproduces it.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
  private var state: UInt64

  /// A generator from a seed.
  public init(seed: UInt64) { state = seed }

  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// Strings that break naive YAML writers.
public enum HostileStrings {
  /// Every troublesome piece the encoder must quote or escape correctly.
  public static let pieces: [String] = [
    "no", "No", "NO", "yes", "on", "off", "y", "n", "true", "False", "null", "Null", "~", "",
    "0x1F", "0o17", "017", "1e3", "1.0", "-1", "+1", ".5", ".inf", "-.INF", ".nan", "1_000",
    "1:20", "2026-01-01", "2026-01-01T09:00:00Z", "2001-12-14 21:59:43.10 -5",
    "key: value", "a #b", "#hash", " lead", "trail ", " both ", "\ttab", "tab\tinside",
    "- dash", "-", "?", ":", "? q", ": c", "[x]", "{y}", "a, b", "&anchor", "*alias", "!tag",
    "|", ">", "x? q", "a?b", "'single'", "\"double\"", "%percent", "@at", "`tick`", "back\\slash",
    "line\nbreak", "ends\n", "two\n\n", "\nstarts", "  \n  ", "crlf\r\n", "cr\rcr",
    "ünïcödé", "日本語", "emoji 🎉🚀", "👩‍👩‍👧‍👦", "nbsp\u{A0}x", "bom\u{FEFF}x", "bell\u{7}",
    "nul\u{0}x", "del\u{7F}", "nel\u{85}x", "ls\u{2028}x", "ps\u{2029}x", "---", "...",
    "--- x", "=", "<<", "Design Review", "O'Brien", "He said \"hi\"", "x:y", "http://a.b/c?d=e#f",
    "multi\nline with: colon\n  indented\n", "trailing spaces  \nnext", "\u{E000}", "\u{FFFD}",
  ]

  /// A random string: a hostile piece, an ordinary word, or a few of them joined.
  public static func random(using rng: inout SeededGenerator) -> String {
    let words = ["Ada", "Grace", "standup", "review", "ok", "42", "x"]
    switch Int.random(in: 0..<4, using: &rng) {
    case 0: return pieces.randomElement(using: &rng)!
    case 1: return words.randomElement(using: &rng)!
    default:
      let n = Int.random(in: 1...3, using: &rng)
      let separators = [" ", "", "\n", ": ", " #", ","]
      return (0..<n).map { _ in
        (Bool.random(using: &rng) ? pieces : words).randomElement(using: &rng)!
      }.joined(separator: separators.randomElement(using: &rng)!)
    }
  }
}
