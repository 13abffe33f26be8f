import Base
import FoundationEssentials

/// A digest (or any list of lines under a heading) as the messages a chat service takes: each
/// within the service's limit in its own unit, as few as the limits allow, at most
/// `ChatService.maxMessages` (the last then says how much was left out and where to read it).
public struct ChatMessages {
  /// One line of the list: a section's title, or an item under it.
  public struct Entry: Sendable, Equatable {
    public enum Kind: Sendable, Equatable { case title, item }
    public var kind: Kind
    public var line: ChatLine

    public init(_ kind: Kind, _ line: ChatLine) { (self.kind, self.line) = (kind, line) }
  }

  public let service: ChatService
  public let heading: String
  /// What a message says when it is empty of entries ("Nothing happened.").
  public let empty: String
  /// The command that shows everything, named when lines were left out.
  public let readAll: String

  public init(service: ChatService, heading: String, empty: String, readAll: String) {
    (self.service, self.heading, self.empty, self.readAll) = (service, heading, empty, readAll)
  }

  /// The payloads (JSON), in order.
  public func render(_ entries: [Entry]) throws -> [String] {
    let lines = entries.flatMap { wrapped($0) }
    let all = try payloads(lines)
    guard all.count > ChatService.maxMessages else { return all }
    // Too many: the most entries that fit in the bound with a last line saying what is left.
    var (low, high) = (0, lines.count)
    var best = try payloads([note(left: lines.count)])
    while low < high {
      let mid = (low + high + 1) / 2
      let kept = try payloads(Array(lines[..<mid]) + [note(left: lines.count - mid)])
      if kept.count <= ChatService.maxMessages {
        (low, best) = (mid, kept)
      } else {
        high = mid - 1
      }
    }
    return best
  }

  func note(left: Int) -> Entry {
    Entry(
      .item,
      ChatLine([
        .own(
          "… and \(left) more line\(left == 1 ? "" : "s") than \(ChatService.maxMessages) messages hold: run '\(readAll)' to read them all"
        )
      ]))
  }

  /// The longest a line may be, in the service's unit, before it is cut.
  var lineLimit: Int {
    switch service {
    case .slack: service.limit - 10
    case .teams: 4_000
    case .matrix: 16_000
    default: service.limit - 200
    }
  }

  /// An entry cut into lines that each fit a message.
  func wrapped(_ entry: Entry) -> [Entry] {
    let service = self.service
    let render: (ChatLine.Part) -> String = { part in
      service == .matrix
        ? ChatService.matrix.render(part) + ChatMessages.plain(part) : service.render(part)
    }
    let unit = service.unit
    let pieces = entry.line.wrapped(
      limit: lineLimit, render: render, cost: { (text: String) in unit.cost(text) })
    return pieces.map { Entry(entry.kind, $0) }
  }

  /// A part as plain text (Matrix's `body`): a teammate's control, bidirectional and invisible
  /// characters shown, not obeyed.
  static func plain(_ part: ChatLine.Part) -> String {
    switch part {
    case .own(let s): s
    case .name(let s): Printable.escaped(s)
    case .text(let s): Printable.escaped(ChatText.oneLine(s))
    }
  }

  func payloads(_ entries: [Entry]) throws -> [String] {
    switch service {
    case .slack: try slack(entries)
    case .mattermost, .rocketchat:
      try markdownText(entries) { try Self.json(SlackMessage(text: $0)) }
    case .discord: try markdownText(entries) { try Self.json(DiscordMessage(content: $0)) }
    case .teams: try teams(entries)
    case .matrix: try matrix(entries)
    }
  }

  static func json<T: Encodable>(_ value: T) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(value), as: UTF8.self)
  }

  // MARK: Slack's Block Kit

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

  /// A header block, then section blocks of at most 3,000 code points, 50 blocks a message.
  func slack(_ entries: [Entry]) throws -> [String] {
    var texts: [String] = []
    var current: [String] = []
    var used = 0
    for entry in entries {
      let line = (entry.kind == .title ? "" : "• ") + entry.line.rendered(service.render)
      let text = entry.kind == .title ? "*\(line)*" : line
      let c = service.unit.cost(text) + (current.isEmpty ? 0 : 1)
      // NB: a title starts a block of its own.
      if !current.isEmpty && (used + c > service.limit || entry.kind == .title) {
        texts.append(current.joined(separator: "\n"))
        (current, used) = ([], 0)
      }
      current.append(text)
      used += service.unit.cost(text) + (current.count == 1 ? 0 : 1)
    }
    if !current.isEmpty { texts.append(current.joined(separator: "\n")) }
    if texts.isEmpty { texts = [empty] }
    let header = SlackBlock(
      type: "header",
      text: SlackText(type: "plain_text", text: String(heading.unicodeScalars.prefix(150))))
    var out: [String] = []
    var blocks = [header]
    for text in texts {
      if blocks.count == 50 {
        out.append(try Self.json(SlackMessage(text: heading, blocks: blocks)))
        blocks = []
      }
      blocks.append(SlackBlock(type: "section", text: SlackText(type: "mrkdwn", text: text)))
    }
    out.append(try Self.json(SlackMessage(text: heading, blocks: blocks)))
    return out
  }

  // MARK: Markdown in one text field (Mattermost, Rocket.Chat, Discord)

  struct DiscordMessage: Encodable {
    struct Mentions: Encodable { var parse: [String] = [] }
    var content: String
    /// No mention in the text pings anyone.
    var allowed_mentions = Mentions()
  }

  func markdownText(_ entries: [Entry], payload: (String) throws -> String) throws -> [String] {
    let head = "**\(ChatService.escapeMarkdown(heading))**"
    let lines: [String] = entries.map { entry in
      let line = entry.line.rendered(service.render)
      return entry.kind == .title ? "\n__\(line)__" : "• " + line
    }
    let packing = ChatPacking(
      limit: service.limit, overhead: service.unit.cost(head) + 1, unit: service.unit)
    let messages = packing.pack(lines)
    guard !messages.isEmpty else { return [try payload(head + "\n" + empty)] }
    return try messages.map { try payload(([head] + $0).joined(separator: "\n")) }
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

  static func teamsCard(_ body: [TeamsMessage.TextBlock]) throws -> String {
    try json(TeamsMessage(attachments: [.init(content: .init(body: body))]))
  }

  /// Adaptive Cards (1.4), each message at most 28,000 bytes: a title block per section, its
  /// items in blocks of at most 4,000 bytes.
  func teams(_ entries: [Entry]) throws -> [String] {
    var blocks: [TeamsMessage.TextBlock] = []
    var items: [String] = []
    func flushItems() {
      for chunk in ChatPacking(limit: 4_000, unit: .jsonBytes).pack(items) {
        blocks.append(.init(text: chunk.joined(separator: "\n")))
      }
      items = []
    }
    for entry in entries {
      let line = entry.line.rendered(service.render)
      if entry.kind == .title {
        flushItems()
        blocks.append(.init(text: line, size: "Medium", weight: "Bolder"))
      } else {
        items.append("- " + line)
      }
    }
    flushItems()
    if blocks.isEmpty { blocks = [.init(text: empty)] }
    let head = TeamsMessage.TextBlock(
      text: ChatService.escapeMarkdown(heading), size: "Large", weight: "Bolder")
    var out: [String] = []
    var card = [head]
    var size = try Self.teamsCard(card).utf8.count
    for block in blocks {
      let cost = try Self.json(block).utf8.count + 1
      if size + cost > service.limit && card.count > 1 {
        out.append(try Self.teamsCard(card))
        card = [head]
        size = try Self.teamsCard(card).utf8.count
      }
      card.append(block)
      size += cost
    }
    out.append(try Self.teamsCard(card))
    return out
  }

  // MARK: Matrix

  struct MatrixMessage: Encodable {
    /// Intentional mentions: none (no `@room` or name in the text pings anyone).
    struct Mentions: Encodable {
      var user_ids: [String]?
    }
    var msgtype = "m.text"
    var body: String
    var format = "org.matrix.custom.html"
    var formatted_body: String
    var mentions = Mentions()
    enum CodingKeys: String, CodingKey {
      case msgtype, body, format, formatted_body
      case mentions = "m.mentions"
    }
  }

  /// `m.room.message` events with a plain body and an HTML one (only escaped text inside dinger's
  /// own tags), each event's content within `ChatService.matrix.limit` bytes.
  func matrix(_ entries: [Entry]) throws -> [String] {
    let limit = service.limit
    var out: [String] = []
    var body = heading + "\n"
    var html = "<h3>\(HTML.esc(heading))</h3>"
    var open = false
    var used = 0
    func reset() {
      body = heading + " (continued)\n"
      html = "<h3>\(HTML.esc(heading)) (continued)</h3>"
      open = false
    }
    func cost() -> Int { ChatUnit.jsonBytes.cost(body) + ChatUnit.jsonBytes.cost(html) + 200 }
    used = cost()
    var any = false
    for entry in entries {
      let plain = entry.line.rendered(Self.plain)
      let markup = entry.line.rendered(ChatService.matrix.render)
      let (text, item): (String, String) =
        entry.kind == .title
        ? ("\n\(plain)\n", (open ? "</ul>" : "") + "<h4>\(markup)</h4><ul>")
        : ("- \(plain)\n", (open ? "" : "<ul>") + "<li>\(markup)</li>")
      let c = ChatUnit.jsonBytes.cost(text) + ChatUnit.jsonBytes.cost(item) + 5
      if any && used + c > limit {
        if open { html += "</ul>" }
        out.append(try Self.json(MatrixMessage(body: body, formatted_body: html)))
        reset()
        used = cost()
      }
      let (text2, item2): (String, String) =
        entry.kind == .title
        ? ("\n\(plain)\n", (open ? "</ul>" : "") + "<h4>\(markup)</h4><ul>")
        : ("- \(plain)\n", (open ? "" : "<ul>") + "<li>\(markup)</li>")
      body += text2
      html += item2
      open = true
      used += c
      any = true
    }
    if !any {
      body += empty + "\n"
      html += "<p>\(HTML.esc(empty))</p>"
    }
    if open { html += "</ul>" }
    out.append(try Self.json(MatrixMessage(body: body, formatted_body: html)))
    return out
  }
}
