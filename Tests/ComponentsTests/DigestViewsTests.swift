import Components
import Foundation
import Models
import Testing

/// The digest's messages: a teammate's text takes no effect in any service (no mention, link,
/// markup or HTML of theirs), and each message stays within the service's documented limits.
@Suite struct DigestViewsTests {
  static let hostile = "<!channel> @everyone [click](http://evil) <script>alert(1)</script> *bold*"

  func digest(entries: Int = 1) -> Digest {
    var s = Digest.Scrum(title: "Plat<form> *x*", slug: "platform")
    s.days = [
      StandupStats.Day(
        date: "2026-11-27",
        entries: (0..<entries).map { i in
          StandupStats.Entry(
            by: "Eve <b>\(i)</b>", answers: [StandupStats.Answer(key: "today", text: Self.hostile)],
            blockers: ["blocked by \(Self.hostile)"])
        }, away: [], missing: [])
    ]
    s.open = [
      Digest.BlockerLine(
        id: "b12345678", owner: "Mallory", text: Self.hostile, opened: "2026-11-25", age: 2)
    ]
    s.notWritten = ["Bo"]
    s.away = ["Dee (holiday)"]
    return Digest(from: "2026-11-27", to: "2026-11-27", scrums: [s])
  }

  func json(_ text: String) throws -> [String: Any] {
    try JSONSerialization.jsonObject(with: Data(text.utf8)) as! [String: Any]
  }

  @Test func slackEscapesEveryTeammatesText() throws {
    let messages = try DigestViews.messages(digest(), format: .slack, zone: FixedZone.utc)
    #expect(messages.count == 1)
    let all = messages.joined()
    #expect(!all.contains("<!channel>") && !all.contains("<script>") && !all.contains("<http"))
    #expect(all.contains("&lt;!channel&gt;"))
    let m = try json(messages[0])
    let blocks = m["blocks"] as! [[String: Any]]
    #expect((blocks[0]["type"] as? String) == "header")
    for b in blocks.dropFirst() {
      let text = (b["text"] as! [String: Any])["text"] as! String
      #expect(text.count <= 3_000)
    }
    // Mattermost and Rocket.Chat: Slack's webhook form, text only, in their Markdown: no
    // `@channel` or `@everyone` (an `@` they match), no link.
    for format in [DigestViews.Format.mattermost, .rocketchat] {
      let m = try json(try DigestViews.messages(digest(), format: format, zone: FixedZone.utc)[0])
      let text = try #require(m["text"] as? String)
      #expect(m["blocks"] == nil && text.contains("@\u{200B}everyone"), "\(text)")
      #expect(!text.contains("@everyone") && !text.contains("[click](http"))
    }
  }

  @Test func aLongDigestIsSplitWithinEachServicesLimits() throws {
    let long = digest(entries: 400)
    let slack = try DigestViews.messages(long, format: .slack, zone: FixedZone.utc)
    #expect(slack.count >= 1)
    for m in slack {
      let blocks = try json(m)["blocks"] as! [[String: Any]]
      #expect(blocks.count <= 50)
      for b in blocks {
        #expect(((b["text"] as! [String: Any])["text"] as! String).count <= 3_000)
      }
    }
    // 400 entries are more than 10 Discord messages hold: 10, the last saying what was left.
    let discord = try DigestViews.messages(long, format: .discord, zone: FixedZone.utc)
    #expect(discord.count == 10)
    #expect(
      discord[9].contains(
        "more lines than 10 messages hold: run 'dinger digest --since 2026-11-27'"))
    for m in discord {
      let o = try json(m)
      #expect((o["content"] as! String).count <= 2_000)
      #expect(((o["allowed_mentions"] as! [String: Any])["parse"] as! [Any]).isEmpty)
    }
    let teams = try DigestViews.messages(long, format: .teams, zone: FixedZone.utc)
    for m in teams {
      #expect(m.utf8.count <= 28_000)
      let card = ((try json(m)["attachments"] as! [[String: Any]])[0]["content"]) as! [String: Any]
      #expect(card["type"] as? String == "AdaptiveCard" && card["version"] as? String == "1.4")
      #expect(card["$schema"] as? String == "http://adaptivecards.io/schemas/adaptive-card.json")
    }
    let matrix = try DigestViews.messages(long, format: .matrix, zone: FixedZone.utc)
    for m in matrix { #expect(m.utf8.count <= 65_536) }
    // Nothing is lost in the splitting: every entry is in some message (Matrix holds them all).
    let matrixText = try matrix.map { try json($0)["body"] as! String }.joined()
    for i in [0, 199, 399] { #expect(matrixText.contains("Eve <b>\(i)</b>"), "\(i)") }
  }

  @Test func matrixAndMarkdownShowTextNotMarkup() throws {
    let m = try json(try DigestViews.messages(digest(), format: .matrix, zone: FixedZone.utc)[0])
    let html = m["formatted_body"] as! String
    #expect(
      m["format"] as? String == "org.matrix.custom.html" && m["msgtype"] as? String == "m.text")
    #expect(!html.contains("<script>") && html.contains("&lt;script&gt;"))
    #expect(html.contains("<b>Eve &lt;b&gt;0&lt;/b&gt;</b>"), "\(html)")
    #expect((m["body"] as! String).contains(Self.hostile))
    let md = DigestViews.markdown(digest(), zone: FixedZone.utc)
    #expect(!md.contains("[click](http://evil)") && md.contains("\\[click\\]\\(http://evil\\)"))
    #expect(md.contains("@\u{200B}everyone"))
    let discord = try DigestViews.messages(digest(), format: .discord, zone: FixedZone.utc)
    #expect(!discord[0].contains("@everyone"))
    let text = DigestViews.text(digest(), zone: FixedZone.utc)
    #expect(text.contains("Not written on 2026-11-27: Bo") && text.contains("Away: Dee (holiday)"))
    #expect(text.contains("Open blocker b12345678 (Mallory, 2 working days)"))
  }

  /// Bidi controls and invisible characters from a teammate are shown in every chat payload,
  /// never obeyed (a blocker's text cannot read backwards for the whole channel).
  @Test func bidiAndZeroWidthAreVisibleInEveryPayload() throws {
    var d = digest()
    d.scrums[0].open[0].text = "keys \u{202E}gnp.exe\u{202C} zero\u{200B}width \u{1B}[8mx"
    for format in DigestViews.Format.allCases where format.service != nil {
      let all = try DigestViews.messages(d, format: format, zone: FixedZone.utc).joined()
      #expect(!all.contains("\u{202E}") && !all.lowercased().contains("\\u202e"), "\(format)")
      #expect(all.contains("202E") && all.contains("200B"), "\(format): \(all.prefix(300))")
      #expect(!all.contains("\u{1B}"), "\(format)")
    }
  }
}
