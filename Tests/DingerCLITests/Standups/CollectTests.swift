import Foundation
import TestSupport
import Testing

/// `dinger collect` against a real Synapse: the bot's reminder starts a thread, three
/// attendees in three zones and a stranger reply in it (one on a phone-style line, one who
/// edits, one with a blocker and later a `resolve:`), and the replies become entries written
/// by their senders, on their own days, exactly once.
@Suite(
  .serialized,
  .enabled(if: MatrixServer.available, "needs matrix-synapse (make deps installs it)"))
struct CollectTests {
  static let people = [
    ("Ada", "ada", "Europe/Berlin"), ("Grace", "grace", "America/Los_Angeles"),
    ("Linus", "linus", "Asia/Kolkata"),
  ]

  /// Each person's local day now.
  static func day(in zone: String, _ now: Date = Date()) -> String {
    let f = DateFormatter()
    f.timeZone = TimeZone(identifier: zone)
    f.dateFormat = "yyyy-MM-dd"
    return f.string(from: now)
  }

  /// A thread reply's content.
  static func reply(_ body: String, to root: String) -> String {
    let content: [String: Any] = [
      "msgtype": "m.text", "body": body,
      "m.relates_to": [
        "rel_type": "m.thread", "event_id": root, "is_falling_back": true,
        "m.in_reply_to": ["event_id": root],
      ],
    ]
    return String(decoding: try! JSONSerialization.data(withJSONObject: content), as: UTF8.self)
  }

  @Test func repliesInTheReminderThreadBecomeTheirSendersEntries() throws {
    let server = try MatrixServer()
    let bot = try server.user("dingerbot")
    let room = try server.call(["room", bot, "standup"])
    var tokens: [String: String] = [:]
    for (_, user, _) in Self.people + [("Mallory", "mallory", "UTC")] {
      tokens[user] = try server.user(user)
      _ = try server.call(["join", tokens[user]!, room])
    }
    let box = try Sandbox()
    box.extraEnvironment["MATRIX_ACCESS_TOKEN"] = bot
    expectOK(try box.dinger("init"))
    // A stand-up in five minutes, so that remind sends its reminder now.
    let soon = Date().addingTimeInterval(5 * 60)
    let f = DateFormatter()
    f.timeZone = TimeZone(identifier: "UTC")
    f.dateFormat = "HH:mm"
    var scrum = "id: 0b7e2c1a-4f5d-4e6a-9b8c-1d2e3f4a5b6c\ntitle: Platform\nlength: 15\n"
    scrum += "schedule:\n  at: \"\(f.string(from: soon))\"\n"
    scrum += "  days: daily\n  zone: UTC\nattendees:\n"
    for (name, user, zone) in Self.people {
      scrum += "  - name: \(name)\n    zone: \(zone)\n    matrix: \"@\(user):localhost\"\n"
    }
    try box.write("scrums/platform.yaml", scrum)
    try box.git("add", "-A")
    try box.git("commit", "-qm", "Platform")
    let address = "matrix+http://127.0.0.1:\(server.port)/#standup:localhost"
    expectOK(try box.dinger("remind", "--post", address))
    let events =
      try JSONSerialization.jsonObject(
        with: Data(try server.call(["events", bot, room]).utf8)) as! [[String: Any]]
    let root = try #require(
      events.first { ($0["content"] as? [String: Any])?["org.dinger.standup"] != nil })
    let rootID = root["event_id"] as! String
    #expect(
      ((root["content"] as! [String: Any])["body"] as! String).contains(
        "Answer in this thread, one line each: yesterday: ..."))
    func send(_ user: String, _ content: String) throws -> String {
      try server.call(["send", tokens[user]!, room, content])
    }
    _ = try send("ada", Self.reply("Shipped the login page", to: rootID))
    let graceReply = try send("grace", Self.reply("today: payments", to: rootID))
    _ = try send("linus", Self.reply("yesterday: CI\nblocker: the signing key", to: rootID))
    _ = try send("mallory", Self.reply("today: taking over", to: rootID))

    let first = try box.dinger("collect", "--from", address)
    expectOK(first)
    #expect(
      first.stdout.contains("left alone: @mallory:localhost: not an attendee of Platform"),
      "\(first.stdout)\(first.stderr)")
    let log = try box.git("log", "--format=%an|%s", "-3")
    for (name, _, zone) in Self.people {
      #expect(
        log.contains("\(name)|Platform: stand-up of \(name) for \(Self.day(in: zone))"),
        "\(log)\(first.stdout)")
    }
    let ada = try box.read("standups/platform/\(Self.day(in: "Europe/Berlin"))-ada.yaml")
    #expect(ada.contains("yesterday: Shipped the login page"), "\(ada)")
    let blockers = try box.dinger("blockers", "platform", "--json")
    let id = try #require(
      blockers.stdout.components(separatedBy: "\"id\" : \"").dropFirst().first?.prefix(9))
    #expect(blockers.stdout.contains("the signing key"))

    // Grace edits her reply; Linus resolves his blocker; a second run writes both.
    let edit: [String: Any] = [
      "msgtype": "m.text", "body": "* today: payments and refunds",
      "m.new_content": ["msgtype": "m.text", "body": "today: payments and refunds"],
      "m.relates_to": ["rel_type": "m.replace", "event_id": graceReply],
    ]
    _ = try send(
      "grace",
      String(decoding: try JSONSerialization.data(withJSONObject: edit), as: UTF8.self))
    _ = try send("linus", Self.reply("resolve: \(id)", to: rootID))
    let second = try box.dinger("collect", "--from", address)
    expectOK(second)
    let grace = try box.read(
      "standups/platform/\(Self.day(in: "America/Los_Angeles"))-grace.yaml")
    #expect(grace.contains("today: payments and refunds"), "\(grace)")
    #expect(
      !(try box.dinger("blockers", "platform").stdout.contains("signing key")), "resolved")
    // A third run, and one that forgot how far it read: nothing new, no duplicate.
    let head = try box.git("rev-parse", "HEAD")
    #expect(try box.dinger("collect", "--from", address).stdout.contains("nothing new"))
    for name in try FileManager.default.contentsOfDirectory(
      atPath: box.data.appendingPathComponent(".git/dinger").path)
    where name.hasPrefix("collect-") && name.hasSuffix(".json") {
      try FileManager.default.removeItem(
        at: box.data.appendingPathComponent(".git/dinger/\(name)"))
    }
    let forgot = try box.dinger("collect", "--from", address)
    #expect(forgot.stdout.contains("nothing new"), "\(forgot.stdout)")
    #expect(try box.git("rev-parse", "HEAD") == head)
    expectOK(try box.dinger("check"))
    // The digest shows them.
    let digest = try box.dinger("digest", "--since", "2 days ago")
    #expect(digest.stdout.contains("payments and refunds"), "\(digest.stdout)")
  }
}
