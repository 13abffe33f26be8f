// The apps' own encoders and decoders (Foundation's default JSONEncoder/JSONDecoder over the
// apps' model types): `encode KIND OUT` writes a sample file as the app would; `decode KIND IN`
// reads a file as the app would and prints what it holds as sorted JSON (exit 1 when the app
// refuses the file).
import Foundation

struct Summary: Codable {
  var id: String
  var title: String
  var attendees: [String]
  var length: Double
  var theme: String
  var meetings: [MeetingSummary]
}

struct MeetingSummary: Codable {
  var id: String
  var date: Double
  var attendees: [String]?
  var transcript: String?
}

func uuid(_ n: Int) -> UUID { UUID(uuidString: String(format: "%08X-0000-4000-8000-%012X", n, n))! }
func day(_ seconds: Double) -> Date { Date(timeIntervalSinceReferenceDate: seconds) }

let args = CommandLine.arguments
let (mode, kind, path) = (args[1], args[2], args[3])
let encoder = JSONEncoder()

func write<T: Encodable>(_ value: T) throws {
  try encoder.encode(value).write(to: URL(fileURLWithPath: path))
}

func print<T: Encodable>(summary: T) throws {
  let e = JSONEncoder()
  e.outputFormatting = [.sortedKeys]
  FileHandle.standardOutput.write(try e.encode(summary))
}

do {
  switch (mode, kind) {
  case ("encode", "scrumdinger2022"):
    typealias S = Scrumdinger2022
    var design = S.DailyScrum(
      id: uuid(1), title: "Design", attendees: ["Cathy", "Daisy", "Simon", "Jonathan"],
      lengthInMinutes: 10, theme: .yellow)
    design.history = [
      S.History(
        id: uuid(11), date: day(786_000_000.75), attendees: design.attendees,
        transcript: "Cathy: shipped the icons.\nDaisy: \"blocked\", on review"),
      S.History(
        id: uuid(12), date: day(785_913_600), attendees: Array(design.attendees.prefix(2)),
        transcript: nil),
    ]
    let appDev = S.DailyScrum(
      id: uuid(2), title: "App Dev", attendees: ["Katie", "Gray", "Euna", "Luis", "Darla"],
      lengthInMinutes: 5, theme: .orange)
    var web = S.DailyScrum(
      id: uuid(3), title: "Web Dev",
      attendees: [
        "Chella", "Chris", "Christina", "Eden", "Karla", "Lindsey", "Aga", "Chad", "Jenn", "Sarah",
      ], lengthInMinutes: 5, theme: .poppy)
    web.history = [
      S.History(id: uuid(31), date: day(786_100_000.5), attendees: web.attendees, transcript: "")
    ]
    try write([design, appDev, web])
  case ("encode", "scrumdinger2022-messy"):
    typealias S = Scrumdinger2022
    let empty = S.DailyScrum(
      id: uuid(40), title: "  ", attendees: ["Ada"], lengthInMinutes: 5, theme: .sky)
    let twice1 = S.DailyScrum(
      id: uuid(41), title: "Ops", attendees: ["Ada", "ada", ""], lengthInMinutes: 0, theme: .tan)
    let twice2 = S.DailyScrum(
      id: uuid(42), title: "ops", attendees: ["Bo"], lengthInMinutes: 700, theme: .teal)
    let nobody = S.DailyScrum(
      id: uuid(43), title: "Nobody", attendees: [], lengthInMinutes: 5, theme: .navy)
    var fromHistory = S.DailyScrum(
      id: uuid(44), title: "From history", attendees: [], lengthInMinutes: 5, theme: .navy)
    fromHistory.history = [
      S.History(
        id: uuid(441), date: day(786_000_000), attendees: [.init(name: "Eve"), .init(name: "Fay")])
    ]
    try write([empty, twice1, twice2, nobody, fromHistory])
  case ("encode", "scrumdinger2020"):
    typealias S = Scrumdinger2020
    let scrum = S.DailyScrum(
      id: uuid(50), title: "Legacy", attendees: ["Ana", "Ben"], lengthInMinutes: 15,
      color: .init(red: 0.98, green: 0.55, blue: 0.27, alpha: 1),
      history: [
        S.History(
          id: uuid(51), date: day(600_000_000.25), attendees: ["Ana"], lengthInMinutes: 15,
          transcript: "old notes")
      ])
    try write([scrum])
  case ("encode", "syncups"):
    typealias S = SyncUps
    func people(_ names: [String], _ base: Int) -> IdentifiedArrayOf<S.Attendee> {
      IdentifiedArrayOf(
        names.enumerated().map { i, name in S.Attendee(id: .init(uuid(base + i)), name: name) })
    }
    let lengths: [(String, Duration)] = [
      ("Five", .seconds(300)), ("Ten seconds", .seconds(10)), ("Nineteen seconds", .seconds(19)),
      ("Ninety and a half", .milliseconds(90_500)), ("Half hour", .seconds(1_800)),
      ("Ten hours", .seconds(36_000)),
    ]
    var all: [S.SyncUp] = []
    for (i, (title, duration)) in lengths.enumerated() {
      var s = S.SyncUp(id: .init(uuid(100 + i)))
      s.title = title
      s.duration = duration
      s.attendees = people(["Blob", "Blob Jr", "Blob Sr"], 200 + 10 * i)
      s.theme = S.Theme.allCases[i]
      s.meetings = IdentifiedArrayOf([
        S.Meeting(
          id: .init(uuid(300 + i)), date: day(786_000_000 + Double(i) * 86_400 + 0.5),
          transcript: i == 0 ? "" : "Meeting \(i)")
      ])
      all.append(s)
    }
    try write(all)
  case ("encode", "syncups-prefixed"):
    typealias S = SyncUps
    var s = S.PrefixedSyncUp(id: .init(uuid(400)))
    s.title = "Prefixed"
    s.attendees = [S.Attendee(id: .init(uuid(401)), name: "Blob")]
    s.theme = .appOrange
    var t = S.PrefixedSyncUp(id: .init(uuid(402)))
    t.title = "Plain"
    t.attendees = [S.Attendee(id: .init(uuid(403)), name: "Blob")]
    t.theme = .sky
    try write([s, t])
  case ("encode", "syncups-titles"):
    // Titles in scripts without Latin letters, one typed decomposed (as macOS may paste it).
    typealias S = SyncUps
    let titles = ["周会", "站会", "\u{1112}\u{1161}\u{11AB}\u{1100}\u{116E}\u{11A8} 회의", "🎉"]
    try write(
      titles.enumerated().map { i, title in
        var s = S.SyncUp(id: .init(uuid(500 + 2 * i)))
        s.title = title
        s.attendees = [S.Attendee(id: .init(uuid(501 + 2 * i)), name: "Blob")]
        return s
      })
  case ("decode", "scrumdinger2022"):
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    let scrums = try JSONDecoder().decode([Scrumdinger2022.DailyScrum].self, from: data)
    try print(
      summary: scrums.map { s in
        Summary(
          id: s.id.uuidString.lowercased(), title: s.title, attendees: s.attendees.map(\.name),
          length: Double(s.lengthInMinutes), theme: s.theme.rawValue,
          meetings: s.history.map {
            MeetingSummary(
              id: $0.id.uuidString.lowercased(), date: $0.date.timeIntervalSinceReferenceDate,
              attendees: $0.attendees.map(\.name), transcript: $0.transcript)
          })
      })
  case ("decode", "scrumdinger2020"):
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    let scrums = try JSONDecoder().decode([Scrumdinger2020.DailyScrum].self, from: data)
    try print(
      summary: scrums.map { s in
        Summary(
          id: s.id.uuidString.lowercased(), title: s.title, attendees: s.attendees,
          length: Double(s.lengthInMinutes), theme: "",
          meetings: s.history.map {
            MeetingSummary(
              id: $0.id.uuidString.lowercased(), date: $0.date.timeIntervalSinceReferenceDate,
              attendees: $0.attendees, transcript: $0.transcript)
          })
      })
  case ("decode", "syncups"):
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    // NB: the app keeps an IdentifiedArrayOf<SyncUp>: a repeated id is refused.
    let syncUps = try JSONDecoder().decode(IdentifiedArrayOf<SyncUps.SyncUp>.self, from: data)
    try print(
      summary: syncUps.elements.map { s in
        let (seconds, atto) = s.duration.components
        return Summary(
          id: s.id.rawValue.uuidString.lowercased(), title: s.title,
          attendees: s.attendees.elements.map(\.name),
          length: (Double(seconds) + Double(atto) / 1e18) / 60, theme: s.theme.rawValue,
          meetings: s.meetings.elements.map {
            MeetingSummary(
              id: $0.id.rawValue.uuidString.lowercased(),
              date: $0.date.timeIntervalSinceReferenceDate,
              attendees: nil, transcript: $0.transcript)
          })
      })
  case ("decode", "syncups-prefixed"):
    // The revision whose decoder knows `appOrange`, and not `orange`.
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    let syncUps = try JSONDecoder().decode(
      IdentifiedArrayOf<SyncUps.PrefixedSyncUp>.self, from: data)
    try print(
      summary: syncUps.elements.map { s in
        Summary(
          id: s.id.rawValue.uuidString.lowercased(), title: s.title,
          attendees: s.attendees.elements.map(\.name),
          length: Double(s.duration.components.seconds) / 60, theme: s.theme.rawValue,
          meetings: [])
      })
  default:
    FileHandle.standardError.write("usage: encode|decode KIND PATH\n".data(using: .utf8)!)
    exit(2)
  }
} catch {
  FileHandle.standardError.write("the app refuses it: \(error)\n".data(using: .utf8)!)
  exit(1)
}
