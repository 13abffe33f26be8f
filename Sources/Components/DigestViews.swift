import Base
import FoundationEssentials
import Models

/// `dinger digest` as text, Markdown, and the messages chat services take: Slack's Block Kit
/// (Mattermost and Rocket.Chat take Slack's incoming-webhook form), Microsoft Teams' Adaptive
/// Card, Discord, and Matrix (`m.room.message` with an HTML body). A teammate's text is escaped
/// for each (no `@channel`, `<!everyone>` or markup of theirs takes effect), and a long digest is
/// split where each service's limit says.
public enum DigestViews {
  /// The formats, as `--format` names them.
  public enum Format: String, CaseIterable, Sendable {
    case text, markdown, json, slack, mattermost, rocketchat, teams, discord, matrix
  }

  /// The digest's lines in a neutral form: a heading per scrum, then its lines.
  struct Section {
    var title: String
    var lines: [String]
  }

  /// `mark` shows a person's name (escaped for the format), `esc` escapes a teammate's text.
  static func sections(
    _ d: Digest, zone: any WallClockZone, mark: (String) -> String,
    esc: (String) -> String = { $0 }
  ) -> [Section] {
    d.scrums.filter { !$0.isEmpty }.map { s in
      var lines: [String] = []
      if !s.meetings.isEmpty {
        let held = s.meetings.map {
          "\(HistoryView.dateText($0.date, in: zone).prefix(16)) (\($0.seconds.map(HTML.duration) ?? "duration unknown"))"
        }
        lines.append("Meetings: " + held.joined(separator: ", "))
      }
      if !s.missed.isEmpty {
        lines.append(
          "Missed: "
            + s.missed.map { String(HistoryView.dateText($0, in: zone).prefix(16)) }.joined(
              separator: ", "))
      }
      for day in s.days {
        for e in day.entries {
          var parts = e.answers.filter { !$0.text.trimmed.isEmpty }.map {
            "\(esc($0.key)): \(esc(oneLine($0.text)))"
          }
          parts += e.blockers.map { "blocked: \(esc(oneLine($0)))" }
          lines.append("\(day.date) \(mark(e.by)) " + parts.joined(separator: "; "))
        }
      }
      for b in s.open {
        lines.append(
          "Open blocker \(b.id) (\(mark(b.owner)), \(days(b.age))): \(esc(oneLine(b.text)))")
      }
      for b in s.resolved {
        lines.append(
          "Resolved \(b.id) by \(mark(b.resolvedBy ?? "?")) after \(days(b.age)): \(esc(oneLine(b.text)))"
        )
      }
      if !s.notWritten.isEmpty {
        lines.append("Not written on \(d.to): " + s.notWritten.map(mark).joined(separator: ", "))
      }
      if !s.away.isEmpty { lines.append("Away: " + s.away.map(esc).joined(separator: ", ")) }
      return Section(title: s.title, lines: lines)
    }
  }

  static func oneLine(_ text: String) -> String {
    text.trimmed.replacingText("\n", with: " ").replacingText("\r", with: " ")
  }

  static func days(_ n: Int) -> String { n == 1 ? "1 working day" : "\(n) working days" }

  static func heading(_ d: Digest) -> String {
    d.from == d.to ? "Stand-up digest, \(d.to)" : "Stand-up digest, \(d.from) to \(d.to)"
  }

  /// Plain text.
  public static func text(_ d: Digest, zone: any WallClockZone) -> String {
    let sections = sections(d, zone: zone) { $0 }
    guard !sections.isEmpty else { return heading(d) + ": nothing happened\n" }
    var out = heading(d) + "\n"
    for s in sections {
      out += "\n" + s.title + "\n"
      for line in s.lines { out += "  " + line + "\n" }
    }
    return out
  }

  /// Markdown (a teammate's text escaped: no link, heading or emphasis of theirs).
  public static func markdown(_ d: Digest, zone: any WallClockZone) -> String {
    let sections = sections(
      d, zone: zone, mark: { "**\(escapeMarkdown($0))**" }, esc: escapeMarkdown)
    var out = "# " + escapeMarkdown(heading(d)) + "\n"
    guard !sections.isEmpty else { return out + "\nNothing happened.\n" }
    for s in sections {
      out += "\n## " + escapeMarkdown(s.title) + "\n\n"
      for line in s.lines { out += "- " + line + "\n" }
    }
    return out
  }

  /// Markdown's special characters escaped with a backslash, and `@` mentions broken.
  static func escapeMarkdown(_ text: String) -> String {
    var out = ""
    for c in text.unicodeScalars {
      if "\\`*_{}[]()#+!|<>~".unicodeScalars.contains(c) { out += "\\" }
      out.unicodeScalars.append(c)
      if c == "@" { out += "\u{200B}" }
    }
    return out
  }

  /// The messages to send: one or more JSON payloads (each within the service's limit), or for
  /// text and Markdown, the text itself.
  public static func messages(_ d: Digest, format: Format, zone: any WallClockZone) throws
    -> [String]
  {
    switch format {
    case .text: return [text(d, zone: zone)]
    case .markdown: return [markdown(d, zone: zone)]
    case .json: return [try JSONView.render(d)]
    case .slack, .mattermost, .rocketchat: return try slack(d, zone: zone, blocks: format == .slack)
    case .teams: return try teams(d, zone: zone)
    case .discord: return try discord(d, zone: zone)
    case .matrix: return try matrix(d, zone: zone)
    }
  }

  /// One short message (a reminder) as each format sends it, the text escaped for each.
  public static func note(_ text: String, format: Format) throws -> String {
    switch format {
    case .text: return text + "\n"
    case .markdown: return escapeMarkdown(text) + "\n"
    case .json: return try JSONView.render(["text": text])
    case .slack, .mattermost, .rocketchat:
      return try JSONView.render(SlackMessage(text: escapeSlack(text), blocks: nil))
    case .teams: return try render([.init(text: escapeMarkdown(text))])
    case .discord:
      return try JSONView.render(
        DiscordMessage(content: String(escapeMarkdown(text).prefix(2_000))))
    case .matrix:
      return try JSONView.render(MatrixMessage(body: text, formatted_body: HTML.esc(text)))
    }
  }

  // MARK: Slack and the services that take its form

  /// Slack's mrkdwn escaping (`&`, `<`, `>`: `<!channel>` and links are written with them).
  static func escapeSlack(_ text: String) -> String {
    text.replacingText("&", with: "&amp;").replacingText("<", with: "&lt;").replacingText(
      ">", with: "&gt;")
  }

  struct SlackText: Encodable {
    var type: String
    var text: String
  }
  struct SlackBlock: Encodable {
    var type: String
    var text: SlackText?
  }
  struct SlackMessage: Encodable {
    var text: String
    var blocks: [SlackBlock]?
  }

  /// Block Kit: a header, then a section per scrum (at most 3,000 characters each, split by
  /// line), at most 50 blocks in one message. Without blocks (Mattermost, Rocket.Chat): the
  /// Markdown as `text`, at most 4,000 characters a message.
  static func slack(_ d: Digest, zone: any WallClockZone, blocks: Bool) throws -> [String] {
    let sections = sections(d, zone: zone, mark: { "*\(escapeSlack($0))*" }, esc: escapeSlack)
    guard blocks else {
      let lines =
        [escapeSlack(heading(d))]
        + sections.flatMap { ["", "*\(escapeSlack($0.title))*"] + $0.lines.map { "• " + $0 } }
      return try chunks(lines, limit: 4_000).map {
        try JSONView.render(SlackMessage(text: $0, blocks: nil))
      }
    }
    var all: [SlackBlock] = [
      SlackBlock(
        type: "header", text: SlackText(type: "plain_text", text: String(heading(d).prefix(150))))
    ]
    if sections.isEmpty {
      all.append(
        SlackBlock(type: "section", text: SlackText(type: "mrkdwn", text: "Nothing happened.")))
    }
    for s in sections {
      let lines = ["*\(escapeSlack(s.title))*"] + s.lines.map { "• " + $0 }
      for chunk in chunks(lines, limit: 3_000) {
        all.append(SlackBlock(type: "section", text: SlackText(type: "mrkdwn", text: chunk)))
      }
    }
    var out: [String] = []
    var start = 0
    while start < all.count {
      let part = Array(all[start..<min(start + 50, all.count)])
      out.append(try JSONView.render(SlackMessage(text: heading(d), blocks: part)))
      start += 50
    }
    return out
  }

  /// Lines joined with newlines into pieces of at most `limit` characters (a longer line is
  /// cut).
  static func chunks(_ lines: [String], limit: Int) -> [String] {
    var out: [String] = []
    var current = ""
    for line in lines {
      let piece = line.count > limit ? String(line.prefix(limit - 1)) + "…" : line
      if !current.isEmpty && current.count + 1 + piece.count > limit {
        out.append(current)
        current = ""
      }
      current += (current.isEmpty ? "" : "\n") + piece
    }
    if !current.isEmpty || out.isEmpty { out.append(current) }
    return out
  }

  // MARK: Microsoft Teams

  struct TeamsMessage: Encodable {
    struct Attachment: Encodable {
      var contentType = "application/vnd.microsoft.card.adaptive"
      var content: Card
    }
    struct Card: Encodable {
      var schema = "http://adaptivecards.io/schemas/adaptive-card.json"
      var type = "AdaptiveCard"
      var version = "1.4"
      var body: [TextBlock]
      enum CodingKeys: String, CodingKey {
        case schema = "$schema"
        case type, version, body
      }
    }
    struct TextBlock: Encodable {
      var type = "TextBlock"
      var text: String
      var wrap = true
      var size: String?
      var weight: String?
    }
    var type = "message"
    var attachments: [Attachment]
  }

  /// An Adaptive Card (version 1.4) in a message, at most about 20,000 characters of text a
  /// card (Teams takes 28 KB a message).
  static func teams(_ d: Digest, zone: any WallClockZone) throws -> [String] {
    let sections = sections(
      d, zone: zone, mark: { "**\(escapeMarkdown($0))**" }, esc: escapeMarkdown)
    var blocks: [TeamsMessage.TextBlock] = [
      .init(text: escapeMarkdown(heading(d)), size: "Large", weight: "Bolder")
    ]
    if sections.isEmpty { blocks.append(.init(text: "Nothing happened.")) }
    for s in sections {
      blocks.append(.init(text: escapeMarkdown(s.title), size: "Medium", weight: "Bolder"))
      for chunk in chunks(s.lines.map { "- " + $0 }, limit: 4_000) {
        blocks.append(.init(text: chunk))
      }
    }
    var out: [String] = []
    var card: [TeamsMessage.TextBlock] = []
    var size = 0
    for b in blocks {
      if size + b.text.count > 20_000 && !card.isEmpty {
        out.append(try render(card))
        (card, size) = ([], 0)
      }
      card.append(b)
      size += b.text.count
    }
    out.append(try render(card))
    return out
  }

  static func render(_ body: [TeamsMessage.TextBlock]) throws -> String {
    try JSONView.render(TeamsMessage(attachments: [.init(content: .init(body: body))]))
  }

  // MARK: Discord

  struct DiscordMessage: Encodable {
    struct Mentions: Encodable { var parse: [String] = [] }
    var content: String
    /// No mention of a teammate's text pings anyone.
    var allowed_mentions = Mentions()
  }

  /// Markdown in `content`, at most 2,000 characters a message; mentions allowed none.
  static func discord(_ d: Digest, zone: any WallClockZone) throws -> [String] {
    let sections = sections(
      d, zone: zone, mark: { "**\(escapeMarkdown($0))**" }, esc: escapeMarkdown)
    let lines =
      ["**\(escapeMarkdown(heading(d)))**"]
      + (sections.isEmpty ? ["Nothing happened."] : [])
      + sections.flatMap { ["", "__\(escapeMarkdown($0.title))__"] + $0.lines.map { "• " + $0 } }
    return try chunks(lines, limit: 2_000).map { try JSONView.render(DiscordMessage(content: $0)) }
  }

  // MARK: Matrix

  struct MatrixMessage: Encodable {
    var msgtype = "m.text"
    var body: String
    var format = "org.matrix.custom.html"
    var formatted_body: String
  }

  /// `m.room.message` with a plain body and an HTML one; a new message before the two together
  /// pass 40,000 bytes (an event is at most 65,536, JSON's escapes included).
  static func matrix(_ d: Digest, zone: any WallClockZone) throws -> [String] {
    let plain = sections(d, zone: zone, mark: { $0 })
    let html = sections(d, zone: zone, mark: { "<b>\(HTML.esc($0))</b>" }, esc: HTML.esc)
    var messages: [MatrixMessage] = []
    var body = heading(d) + "\n"
    var formatted = "<h3>\(HTML.esc(heading(d)))</h3>"
    if plain.isEmpty {
      body += "Nothing happened.\n"
      formatted += "<p>Nothing happened.</p>"
    }
    // NB: every teammate's text in the HTML lines was escaped where it was put in.
    for (p, h) in zip(plain, html) {
      body += "\n" + p.title + "\n"
      formatted += "<h4>\(HTML.esc(h.title))</h4><ul>"
      for (line, markup) in zip(p.lines, h.lines) {
        let text = "- " + line + "\n"
        let item = "<li>\(markup)</li>"
        if body.utf8.count + formatted.utf8.count + text.utf8.count + item.utf8.count > 40_000 {
          messages.append(MatrixMessage(body: body, formatted_body: formatted + "</ul>"))
          (body, formatted) = (
            p.title + " (continued)\n", "<h4>\(HTML.esc(h.title)) (continued)</h4><ul>"
          )
        }
        body += text
        formatted += item
      }
      formatted += "</ul>"
    }
    messages.append(MatrixMessage(body: body, formatted_body: formatted))
    return try messages.map { try JSONView.render($0) }
  }
}
