import Base
import FoundationEssentials

/// A chat service dinger posts to: its limits in the service's own unit, how a teammate's text
/// is escaped so that it never becomes a mention, a link or markup, how a name is marked, and
/// which addresses mean it. `digest` and `remind` both ask it; a new service is one new case.
public enum ChatService: String, CaseIterable, Sendable {
  case slack, mattermost, rocketchat, teams, discord, matrix

  /// The unit the service's limits count.
  public var unit: ChatUnit {
    switch self {
    case .teams, .matrix: .jsonBytes
    default: .codePoints
    }
  }

  /// The most one piece of text may cost: Slack's section text (3,000 code points), a
  /// Mattermost post (16,383), a Rocket.Chat message (5,000, its default), a Discord message
  /// (2,000); for Teams the whole message (28 KB of JSON), for Matrix the event's content
  /// (65,536 bytes an event, less what the homeserver wraps around it).
  public var limit: Int {
    switch self {
    case .slack: 3_000
    case .mattermost: 16_383
    case .rocketchat: 5_000
    case .discord: 2_000
    case .teams: 28_000
    case .matrix: 65_536 - Self.matrixEnvelope
    }
  }

  /// What a homeserver adds around an event's content (room and event ids, sender, signatures,
  /// hashes, auth and previous events), with room to spare: measured on Synapse at about 700
  /// bytes.
  static let matrixEnvelope = 4_096

  /// The most messages one digest sends; past it, the last says what was left out.
  public static let maxMessages = 10

  /// Seconds between two messages of one digest (Discord lets a webhook post about 5 times in
  /// 2 seconds; the others take a message a second).
  public var pause: Double { self == .discord ? 0.5 : 0.2 }

  /// A teammate's text, escaped: no mention, link or markup of theirs takes effect, and no
  /// control, bidirectional or invisible character either (shown as `\x1b`, `<U+202E>`).
  public func escape(_ text: String) -> String {
    let text = Printable.escaped(text)
    return switch self {
    case .slack: Self.escapeSlack(text)
    case .matrix: HTML.esc(text)
    case .mattermost, .rocketchat, .teams, .discord: Self.escapeMarkdown(text)
    }
  }

  /// A person's name, escaped and marked (bold).
  public func mark(_ name: String) -> String {
    switch self {
    case .slack: "*\(escape(name))*"
    case .matrix: "<b>\(escape(name))</b>"
    default: "**\(escape(name))**"
    }
  }

  /// A line part as this service writes it.
  public func render(_ part: ChatLine.Part) -> String {
    switch part {
    case .own(let s): self == .matrix ? HTML.esc(s) : s
    case .name(let s): mark(s)
    case .text(let s): escape(ChatText.oneLine(s))
    }
  }

  /// The service an address is for, when the address says it: `matrix://`, Slack's, Discord's
  /// and Teams' webhook hosts. Mattermost and Rocket.Chat run on the team's own hosts: their
  /// format is named with --format.
  public static func forAddress(_ address: String) -> ChatService? {
    let lower = address.lowercased()
    if lower.hasPrefix("matrix://") || lower.hasPrefix("matrix+http://") { return .matrix }
    guard let url = URL(string: address), let host = url.host?.lowercased() else { return nil }
    func under(_ domain: String) -> Bool { host == domain || host.hasSuffix("." + domain) }
    if under("hooks.slack.com") { return .slack }
    if (under("discord.com") || under("discordapp.com")) && url.path.hasPrefix("/api/webhooks/") {
      return .discord
    }
    if under("webhook.office.com") || under("logic.azure.com") || host == "outlook.office.com"
      || under("environment.api.powerplatform.com")
    {
      return .teams
    }
    return nil
  }

  // MARK: Escaping

  /// Slack's mrkdwn escaping: `&`, `<`, `>` (every mention, channel ping and link is written
  /// with them: `<!channel>`, `<@U123>`, `<http://x|text>`).
  public static func escapeSlack(_ text: String) -> String {
    var out = ""
    for c in text.unicodeScalars {
      switch c {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      default: out.unicodeScalars.append(c)
      }
    }
    return out
  }

  /// Markdown's special characters with a backslash (no link, image, heading or emphasis), and
  /// an `@` followed by a zero-width space (no `@channel`, `@here`, `@all`, `@everyone` or
  /// `@person`: Mattermost, Rocket.Chat and Discord match a mention at the `@`).
  public static func escapeMarkdown(_ text: String) -> String {
    var out = ""
    for c in text.unicodeScalars {
      if "\\`*_{}[]()#+!|<>~".unicodeScalars.contains(c) { out += "\\" }
      out.unicodeScalars.append(c)
      if c == "@" { out += "\u{200B}" }
    }
    return out
  }
}

/// Text helpers shared by every format.
public enum ChatText {
  /// A teammate's text on one line: line breaks become spaces.
  public static func oneLine(_ text: String) -> String {
    text.trimmed.replacingText("\r\n", with: " ").replacingText("\n", with: " ")
      .replacingText("\r", with: " ")
  }
}
