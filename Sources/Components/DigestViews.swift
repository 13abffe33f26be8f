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

  /// The digest's lines in a neutral form: a heading per scrum, then its lines, each line's
  /// pieces told apart (dinger's words, names, a teammate's text) for each format to escape.
  struct Section {
    var title: String
    var lines: [ChatLine]
  }

  /// A meeting's start with its zone (`2026-11-24 09:00 CET`; UTC named too).
  static func when(_ date: Date, in zone: any WallClockZone) -> String {
    let text = String(HistoryView.dateText(date, in: zone).prefix(16))
    let utc = Int64(date.timeIntervalSince1970.rounded(.down))
    return text + " " + (zone.offset(at: date) == 0 ? "UTC" : zone.abbreviation(at: utc))
  }

  static func sections(_ d: Digest, zone: any WallClockZone) -> [Section] {
    d.scrums.filter { !$0.isEmpty }.map { s in
      var lines: [ChatLine] = []
      if !s.meetings.isEmpty {
        let held = s.meetings.map {
          "\(when($0.date, in: zone)) (\($0.seconds.map(HTML.duration) ?? "duration unknown"))"
        }
        lines.append(ChatLine([.own("Meetings: " + held.joined(separator: ", "))]))
      }
      if !s.missed.isEmpty {
        lines.append(
          ChatLine([.own("Missed: " + s.missed.map { when($0, in: zone) }.joined(separator: ", "))])
        )
      }
      for day in s.days {
        for e in day.entries {
          var parts: [ChatLine.Part] = [.own("\(day.date) "), .name(e.by), .own(" ")]
          var first = true
          func separate() {
            if !first { parts.append(.own("; ")) }
            first = false
          }
          for answer in e.answers where !answer.text.trimmed.isEmpty {
            separate()
            parts += [.text(answer.key), .own(": "), .text(answer.text)]
          }
          for blocker in e.blockers {
            separate()
            parts += [.own("blocked: "), .text(blocker)]
          }
          lines.append(ChatLine(parts))
        }
      }
      if let mood = s.mood {
        lines.append(
          ChatLine([
            .own(
              "Mood: \(String(cFormat: "%.1f", mood)) of 5 (the team's average of \(s.moodAnswers) answer\(s.moodAnswers == 1 ? "" : "s"))"
            )
          ]))
      }
      for b in s.open {
        lines.append(
          ChatLine([
            .own("Open blocker \(b.id) ("), .name(b.owner), .own(", \(days(b.age))): "),
            .text(b.text),
          ]))
      }
      for b in s.resolved {
        lines.append(
          ChatLine([
            .own("Resolved \(b.id) by "), .name(b.resolvedBy ?? "?"),
            .own(" after \(days(b.age)): "), .text(b.text),
          ]))
      }
      if !s.notWritten.isEmpty {
        var parts: [ChatLine.Part] = [.own("Not written on \(d.to): ")]
        for (i, name) in s.notWritten.enumerated() {
          if i > 0 { parts.append(.own(", ")) }
          parts.append(.name(name))
        }
        lines.append(ChatLine(parts))
      }
      if !s.away.isEmpty {
        var parts: [ChatLine.Part] = [.own("Away: ")]
        for (i, note) in s.away.enumerated() {
          if i > 0 { parts.append(.own(", ")) }
          parts.append(.text(note))
        }
        lines.append(ChatLine(parts))
      }
      return Section(title: s.title, lines: lines)
    }
  }

  static func days(_ n: Int) -> String { n == 1 ? "1 working day" : "\(n) working days" }

  static func heading(_ d: Digest) -> String {
    d.from == d.to ? "Stand-up digest, \(d.to)" : "Stand-up digest, \(d.from) to \(d.to)"
  }

  /// Plain text.
  public static func text(_ d: Digest, zone: any WallClockZone) -> String {
    let sections = sections(d, zone: zone)
    guard !sections.isEmpty else { return heading(d) + ": nothing happened\n" }
    var out = heading(d) + "\n"
    for s in sections {
      out += "\n" + s.title + "\n"
      for line in s.lines { out += "  " + line.rendered(ChatMessages.plain) + "\n" }
    }
    return out
  }

  /// Markdown (a teammate's text escaped: no link, heading or emphasis of theirs).
  public static func markdown(_ d: Digest, zone: any WallClockZone) -> String {
    let sections = sections(d, zone: zone)
    var out = "# " + escapeMarkdown(heading(d)) + "\n"
    guard !sections.isEmpty else { return out + "\nNothing happened.\n" }
    for s in sections {
      out += "\n## " + escapeMarkdown(s.title) + "\n\n"
      for line in s.lines { out += "- " + line.rendered(ChatService.discord.render) + "\n" }
    }
    return out
  }

  /// Markdown's special characters escaped with a backslash, and `@` mentions broken.
  static func escapeMarkdown(_ text: String) -> String { ChatService.escapeMarkdown(text) }

  /// The messages to send: one or more JSON payloads (each within the service's limit), or for
  /// text and Markdown, the text itself.
  public static func messages(_ d: Digest, format: Format, zone: any WallClockZone) throws
    -> [String]
  {
    guard let service = format.service else {
      switch format {
      case .markdown: return [markdown(d, zone: zone)]
      case .json: return [try JSONView.render(d)]
      default: return [text(d, zone: zone)]
      }
    }
    var entries: [ChatMessages.Entry] = []
    for s in sections(d, zone: zone) {
      entries.append(.init(.title, ChatLine([.text(s.title)])))
      entries += s.lines.map { .init(.item, $0) }
    }
    let readAll =
      d.from == d.to
      ? "dinger digest --since \(d.from)" : "dinger digest --since \(d.from) --until \(d.to)"
    return try ChatMessages(
      service: service, heading: heading(d), empty: "Nothing happened.", readAll: readAll
    ).render(entries)
  }

  /// One short message (a reminder) as each format sends it, the text escaped for each.
  public static func note(_ text: String, format: Format) throws -> String {
    guard let service = format.service else {
      switch format {
      case .markdown: return escapeMarkdown(text) + "\n"
      case .json: return try JSONView.render(["text": text])
      default: return text + "\n"
      }
    }
    let messages = try ChatMessages(
      service: service, heading: "Stand-up reminder", empty: "", readAll: "dinger remind --dry-run"
    ).render([.init(.item, ChatLine([.text(text)]))])
    return messages[0]
  }
}

extension DigestViews.Format {
  /// The chat service this format posts to (nil: text, Markdown and JSON, which no service
  /// takes as they are).
  public var service: ChatService? { ChatService(rawValue: rawValue) }
}
