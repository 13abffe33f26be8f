/// "Did you mean" suggestions for mistyped names.
public enum Suggestions {
  /// The candidates closest to `input` (case-insensitive edit distance), best first; only those
  /// close enough to be a plausible typo.
  public static func closest(to input: String, in candidates: [String], limit: Int = 3) -> [String]
  {
    // NB: bounded work per call, whatever a teammate's file holds: a name past `longest` is no
    // typo of anything (a 64 KB zone name cost 47 s of edit distances per command), and a
    // candidate whose length is further off than the threshold is never measured.
    guard input.utf8.count <= Self.longest else { return [] }
    let needle = Array(input.lowercased())
    let threshold = max(1, needle.count / 3)
    let scored = candidates.compactMap { candidate -> (String, Int)? in
      let hay = Array(candidate.lowercased())
      if hay == needle { return (candidate, 0) }
      if hay.starts(with: needle) || needle.starts(with: hay) { return (candidate, 1) }
      guard abs(hay.count - needle.count) <= threshold, hay.count <= Self.longest else {
        return nil
      }
      return (candidate, distance(needle, hay))
    }
    return scored.filter { $0.1 <= threshold }.sorted { ($0.1, $0.0) < ($1.1, $1.0) }
      .prefix(limit).map(\.0)
  }

  /// The longest name a suggestion is looked for (in UTF-8 bytes).
  public static let longest = 200

  /// Levenshtein distance, with a transposition counted as one edit.
  static func distance(_ a: [Character], _ b: [Character]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous2 = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          current[j] = min(current[j], previous2[j - 2] + 1)
        }
      }
      (previous2, previous, current) = (previous, current, previous2)
    }
    return previous[b.count]
  }

  /// ` (did you mean 'x'?)` or an empty string.
  public static func hint(for input: String, in candidates: [String]) -> String {
    guard let best = closest(to: input, in: candidates, limit: 1).first else { return "" }
    return " (did you mean '\(best)'?)"
  }
}

extension String {
  /// The text without leading and trailing whitespace and newlines. Used instead of Foundation's
  /// `trimmingCharacters(in:)`, which goes through NSString on Linux and showed in profiles.
  public var trimmed: String {
    let scalars = unicodeScalars
    guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }) else { return "" }
    let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })!
    if first == scalars.startIndex && last == scalars.index(before: scalars.endIndex) {
      return self
    }
    return String(scalars[first...last])
  }
}
