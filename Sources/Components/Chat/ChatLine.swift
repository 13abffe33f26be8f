import Base
import FoundationEssentials

/// A line of a chat message as pieces: dinger's own words, a person's name (each service marks
/// it), and a teammate's text (each service escapes it). A line too long for one message is cut
/// inside a teammate's text only, between two grapheme clusters (at a space where one is near),
/// before it is escaped, so a cut never falls inside an escape or a character.
public struct ChatLine: Sendable, Equatable {
  public enum Part: Sendable, Equatable {
    /// dinger's own words: never a teammate's.
    case own(String)
    /// A person's name (data: escaped, then marked).
    case name(String)
    /// A teammate's text, or any other data (titles, notes).
    case text(String)
  }

  public var parts: [Part]

  public init(_ parts: [Part]) { self.parts = parts }

  /// The line as one string, each part rendered by `render`.
  public func rendered(_ render: (Part) -> String) -> String {
    parts.map(render).joined()
  }

  /// This line in pieces whose rendered cost each stays within `limit` (`cost` measures a
  /// rendered string in the service's unit). A piece after the first starts with `more`.
  /// A piece of dinger's own words or a name is never cut; a teammate's text is cut between
  /// grapheme clusters, at the last space within the limit where there is one.
  public func wrapped(
    limit: Int, more: ChatLine.Part = .own("  "), render: (Part) -> String,
    cost: (String) -> Int
  ) -> [ChatLine] {
    guard cost(rendered(render)) > limit else { return [self] }
    var out: [ChatLine] = []
    var current: [Part] = []
    var used = 0
    func flush() {
      if !current.isEmpty { out.append(ChatLine(current)) }
      current = [more]
      used = cost(render(more))
    }
    for part in parts {
      let whole = cost(render(part))
      if used + whole <= limit {
        current.append(part)
        used += whole
        continue
      }
      guard case .text(let text) = part else {
        flush()
        current.append(part)
        used += whole
        continue
      }
      // A teammate's text: as much as fits, cut between characters (at a space if near).
      var rest = Substring(text)
      while !rest.isEmpty {
        let room = limit - used
        let take = Self.prefix(of: rest, fitting: room) { cost(render(.text(String($0)))) }
        if take.isEmpty {
          if current.count <= 1 {
            // Not even one character fits a fresh line: it goes alone (the limits are
            // thousands of units; a character is at most a few dozen).
            let one = String(rest.first!)
            current.append(.text(one))
            used += cost(render(.text(one)))
            rest = rest.dropFirst()
          }
          flush()
          continue
        }
        current.append(.text(String(take)))
        used += cost(render(.text(String(take))))
        rest = rest.dropFirst(take.count)
        if !rest.isEmpty { flush() }
      }
    }
    if !current.isEmpty && !(current.count == 1 && current[0] == more) {
      out.append(ChatLine(current))
    }
    return out
  }

  /// The longest start of `text` whose cost is within `room`, ended at a space when one lies
  /// in its last fifth (so words stay whole), else at a character boundary. Binary search over
  /// the characters: O(n log n) costs for a text of n characters.
  static func prefix(of text: Substring, fitting room: Int, cost: (Substring) -> Int)
    -> Substring
  {
    guard room > 0 else { return "" }
    let characters = Array(text.indices)
    var (low, high) = (0, characters.count)
    while low < high {
      let mid = (low + high + 1) / 2
      let end = mid == characters.count ? text.endIndex : characters[mid]
      if cost(text[..<end]) <= room { low = mid } else { high = mid - 1 }
    }
    guard low > 0 else { return "" }
    guard low < characters.count else { return text }
    let end = characters[low]
    let window = max(0, low - max(1, low / 5))
    if let space = text[characters[window]..<end].lastIndex(of: " ") {
      let cut = text.index(after: space)
      if cut > text.startIndex { return text[..<cut] }
    }
    return text[..<end]
  }
}

/// How a chat service counts: what its limits are measured in.
public enum ChatUnit: Sendable {
  /// Unicode code points (Slack, Discord, Mattermost, Rocket.Chat: what their servers count).
  case codePoints
  /// Bytes of the UTF-8 JSON the string becomes (Teams, Matrix: limits on the payload).
  case jsonBytes

  /// The cost of `text` in this unit.
  public func cost<S: StringProtocol>(_ text: S) -> Int {
    switch self {
    case .codePoints: return text.unicodeScalars.count
    case .jsonBytes:
      var n = 0
      for s in text.unicodeScalars {
        switch s.value {
        // NB: JSONEncoder writes `"`, `\` and `/` with a backslash, control characters as
        // \uXXXX (the common ones as two bytes; counted as six to stay on the safe side).
        case 0x22, 0x5C, 0x2F: n += 2
        case 0..<0x20: n += 6
        case 0x20..<0x80: n += 1
        case 0x80..<0x800: n += 2
        case 0x800..<0x10000: n += 3
        default: n += 4
        }
      }
      return n
    }
  }
}

/// Lines packed into as few messages as the limit allows, each message's lines joined by
/// newlines; `overhead` is what every message costs beside its lines (a header, the JSON
/// around them).
public struct ChatPacking: Sendable {
  public var limit: Int
  public var overhead: Int
  public var unit: ChatUnit

  public init(limit: Int, overhead: Int = 0, unit: ChatUnit) {
    (self.limit, self.overhead, self.unit) = (limit, overhead, unit)
  }

  /// `lines` (rendered, each within the limit less the overhead) grouped into messages.
  public func pack(_ lines: [String]) -> [[String]] {
    var out: [[String]] = []
    var current: [String] = []
    var used = overhead
    for line in lines {
      let c = unit.cost(line) + (current.isEmpty ? 0 : unit.cost("\n"))
      if !current.isEmpty && used + c > limit {
        out.append(current)
        current = []
        used = overhead
      }
      current.append(line)
      used += unit.cost(line) + (current.count == 1 ? 0 : unit.cost("\n"))
    }
    if !current.isEmpty { out.append(current) }
    return out
  }
}
