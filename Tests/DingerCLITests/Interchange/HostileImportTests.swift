import Foundation
import TestSupport
import Testing

/// The hostile import set: every number field of every format the apps and Geekbot write,
/// each given every kind of value past a bound (huge, negative, fractional, past Int64 and
/// UInt64, subnormal, exponent forms), and sizes past what dinger keeps (long titles, many
/// attendees, deep nesting). Each run ends in exit 0 with `check` clean, or exit 1 with a
/// message and nothing committed: never a trap, never a file that `check` refuses.
@Suite struct HostileImportTests {
  static let id = "6A4F0C1E-1111-4222-8333-944455556666"
  static let other = "3F2C0C1E-1111-4222-8333-944455556666"

  /// Each format's file with `@` where the hostile value goes, one per number field.
  static let templates: [(app: String, field: String, text: String)] = {
    let person = #"{"id": "\#(other)", "name": "Ada"}"#
    func dinger2022(length: String = "10", date: String = "600000000") -> String {
      #"[{"id": "\#(id)", "title": "Design", "attendees": [\#(person)], "lengthInMinutes": \#(length), "theme": "yellow", "history": [{"id": "\#(other)", "date": \#(date), "attendees": [\#(person)], "transcript": "hi"}]}]"#
    }
    func dinger2020(
      length: String = "10", red: String = "0.5", alpha: String = "1", date: String = "600000000",
      meetingLength: String = "10"
    ) -> String {
      #"[{"id": "\#(id)", "title": "Old", "attendees": ["Ada"], "lengthInMinutes": \#(length), "color": {"red": \#(red), "green": 0.2, "blue": 0.1, "alpha": \#(alpha)}, "history": [{"id": "\#(other)", "date": \#(date), "attendees": ["Ada"], "lengthInMinutes": \#(meetingLength)}]}]"#
    }
    func syncups(high: String = "300", low: String = "0", date: String = "600000000") -> String {
      #"[{"id": "\#(id)", "title": "Sync", "attendees": [\#(person)], "duration": [\#(high), \#(low)], "theme": "appTeal", "meetings": [{"id": "\#(other)", "date": \#(date), "transcript": "x"}]}]"#
    }
    func geekbot(timestamp: String = "1795995000", reportID: String = "101") -> String {
      #"[{"id": \#(reportID), "standup_id": 7, "timestamp": \#(timestamp), "member": {"id": "U1", "realname": "Ada", "username": "ada"}, "questions": [{"id": 1, "question": "What have you done since yesterday?", "answer": "Shipped"}, {"id": 3, "question": "Anything blocking your progress?", "answer": "Nope"}]}]"#
    }
    return [
      ("scrumdinger", "lengthInMinutes", dinger2022(length: "@")),
      ("scrumdinger", "history.date", dinger2022(date: "@")),
      ("scrumdinger", "2020 lengthInMinutes", dinger2020(length: "@")),
      ("scrumdinger", "2020 color.red", dinger2020(red: "@")),
      ("scrumdinger", "2020 color.alpha", dinger2020(alpha: "@")),
      ("scrumdinger", "2020 history.date", dinger2020(date: "@")),
      ("scrumdinger", "2020 history.lengthInMinutes", dinger2020(meetingLength: "@")),
      ("syncups", "duration high", syncups(high: "@")),
      ("syncups", "duration low", syncups(low: "@")),
      ("syncups", "meetings.date", syncups(date: "@")),
      ("geekbot", "timestamp", geekbot(timestamp: "@")),
      ("geekbot", "id", geekbot(reportID: "@")),
    ]
  }()

  static let numbers = [
    "0", "-1", "1.5", "-0.0", "1e20", "-1e20", "1e308", "-1e308", "4.9e-324", "1e400",
    "9223372036854775807", "9223372036854775808", "-9223372036854775809",
    "18446744073709551615", "18446744073709551616", "170141183460469231731687303715884105728",
    "\"10\"", "null", "true", "[]",
  ]

  /// One import in a fresh data repository: (exit status, stderr), with the outcome judged.
  static func judge(_ box: Sandbox, app: String, text: String, label: String) throws -> Int32 {
    let head = try box.git("rev-parse", "HEAD")
    let file = box.home.url.appendingPathComponent("import.json")
    try Data(text.utf8).write(to: file)
    var args = ["import", app, file.path]
    if app == "geekbot" { args += ["--scrum", "platform"] }
    let r = try box.dinger(args)
    #expect(r.status == 0 || r.status == 1, "\(label): exit \(r.status) \(r.stderr.prefix(300))")
    if r.status == 1 {
      #expect(!r.stderr.isEmpty, "\(label): refused without a word")
      #expect(try box.git("rev-parse", "HEAD") == head, "\(label): a refusal committed")
    }
    let check = try box.dinger("check")
    #expect(check.status == 0, "\(label): check refuses what import wrote: \(check.stdout)")
    // NB: back to the first commit, so that each case starts from the same repository.
    _ = try box.git("reset", "-q", "--hard", head.trimmingCharacters(in: .whitespacesAndNewlines))
    _ = try box.git("clean", "-qfdx", "-e", ".git")
    return r.status
  }

  static func repository() throws -> Sandbox {
    let box = try Sandbox()
    expectOK(try box.dinger("init"))
    expectOK(try box.dinger("scrum", "new", "Platform", "--attendee", "Ada"))
    return box
  }

  @Test func everyNumberFieldPastEveryBound() throws {
    let box = try Self.repository()
    var runs = 0
    var refused = 0
    for t in Self.templates {
      for n in Self.numbers {
        let text = t.text.replacingOccurrences(of: "@", with: n)
        let status = try Self.judge(box, app: t.app, text: text, label: "\(t.field) = \(n)")
        runs += 1
        if status == 1 { refused += 1 }
      }
    }
    #expect(runs == Self.templates.count * Self.numbers.count && runs >= 81)
    // A value that imports but is not kept is said.
    let text = Self.templates.first { $0.field == "2020 history.lengthInMinutes" }!.text
      .replacingOccurrences(of: "@", with: "9223372036854775807")
    let file = box.home.url.appendingPathComponent("import.json")
    try Data(text.utf8).write(to: file)
    let r = try box.dinger("import", "scrumdinger", file.path)
    #expect(
      r.status == 0
        && r.stderr.contains(
          "a meeting's planned length (9223372036854775807 min) is outside 1 to 600 minutes and is left out"
        ), "\(r.stderr)")
    // Most values are refused; the in-range ones (0, 1.5 as a colour, ...) import.
    #expect(refused > runs / 2, "\(refused) of \(runs) refused")
  }

  @Test func sizesPastWhatDingerKeeps() throws {
    let box = try Self.repository()
    let person = #"{"id": "\#(Self.other)", "name": "Ada"}"#
    let many = (0..<20_000).map { i in
      #"{"id": "00000000-0000-4000-8000-\#(String(format: "%012d", i))", "name": "P\#(i)"}"#
    }.joined(separator: ",")
    let cases: [(String, String, String)] = [
      (
        "a 1 MB title", "scrumdinger",
        #"[{"id": "\#(Self.id)", "title": "\#(String(repeating: "T", count: 1 << 20))", "attendees": [\#(person)], "lengthInMinutes": 5, "theme": "sky", "history": []}]"#
      ),
      (
        "20,000 attendees", "syncups",
        #"[{"id": "\#(Self.id)", "title": "Big", "attendees": [\#(many)], "duration": [300, 0], "theme": "sky", "meetings": []}]"#
      ),
      (
        "a 64 KB name", "scrumdinger",
        #"[{"id": "\#(Self.id)", "title": "N", "attendees": [{"id": "\#(Self.other)", "name": "\#(String(repeating: "n", count: 65_536))"}], "lengthInMinutes": 5, "theme": "sky", "history": []}]"#
      ),
      ("100,000 nested arrays", "syncups", String(repeating: "[", count: 100_000)),
      ("100,000 nested objects", "geekbot", String(repeating: #"{"a":"#, count: 100_000)),
      (
        "a 300 KB Geekbot answer", "geekbot",
        #"[{"id": 1, "standup_id": 7, "timestamp": 1795995000, "member": {"id": "U1", "realname": "Ada", "username": "ada"}, "questions": [{"id": 1, "question": "What have you done since yesterday?", "answer": "\#(String(repeating: "a", count: 300_000))"}]}]"#
      ),
    ]
    for (label, app, text) in cases {
      _ = try Self.judge(box, app: app, text: text, label: label)
    }
  }
}
