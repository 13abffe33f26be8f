import Foundation
import TestSupport
import Testing

/// The apps' own encoders and decoders: a program compiled here with swiftc from the apps' model
/// types as they declare them (Fixtures/AppModels), run with Foundation's default JSONEncoder
/// and JSONDecoder. `encode KIND OUT` writes the app's file; `decode KIND IN` prints what the app
/// reads from one (sorted JSON), or fails as the app would.
enum AppPrograms {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fixtures/AppModels")

  /// The compiled program (once per test process).
  static let binary: Result<String, BuildFailed> = {
    let out = FileManager.default.temporaryDirectory.appendingPathComponent(
      "dinger-app-models-\(getpid())")
    let sources = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
      .filter { $0.hasSuffix(".swift") }.sorted().map { folder.appendingPathComponent($0).path }
    guard let swiftc = ProcessRunner.which("swiftc"),
      let r = try? ProcessRunner.run(swiftc, ["-Onone", "-o", out.path] + sources, timeout: 300),
      r.status == 0
    else { return .failure(BuildFailed()) }
    return .success(out.path)
  }()

  struct BuildFailed: Error {}

  /// Runs the program; its result.
  static func run(_ mode: String, _ kind: String, _ path: String) throws -> ProcessResult {
    try ProcessRunner.run(try binary.get(), [mode, kind, path], timeout: 60)
  }

  /// What the app reads from `path`.
  static func decode(_ kind: String, _ path: String) throws -> [AppSummary] {
    let r = try run("decode", kind, path)
    #expect(r.status == 0, "the app refused dinger's file: \(r.stderr)")
    return try JSONDecoder().decode([AppSummary].self, from: Data(r.stdout.utf8))
  }

  /// A file as the app writes it.
  static func encode(_ kind: String, into box: Sandbox) throws -> String {
    let path = box.home.url.appendingPathComponent("\(kind).json").path
    let r = try run("encode", kind, path)
    #expect(r.status == 0, "\(r.stderr)")
    return path
  }
}

/// One scrum as an app holds it (the program's summary).
struct AppSummary: Decodable, Equatable {
  var id: String
  var title: String
  var attendees: [String]
  var length: Double
  var theme: String
  var meetings: [Meeting]

  struct Meeting: Decodable, Equatable {
    var id: String
    /// Seconds since 2001.
    var date: Double
    var attendees: [String]?
    var transcript: String?
  }
}

/// Dinger's records as `scrum list --json` and `history --json` give them.
struct DingerData {
  struct Scrum: Decodable {
    var id: String
    var title: String
    var attendees: [String]
    var length: Int
    var theme: String
  }
  struct Meeting: Decodable {
    var id: String
    var scrum: String
    var date: String
    var attendees: [String]
    var transcript: String?
    var length: Int?
    var duration: Int?
    var imported: String?
  }
  var scrums: [Scrum]
  var meetings: [Meeting]

  init(_ box: Sandbox) throws {
    struct Scrums: Decodable { var scrums: [Scrum] }
    struct Meetings: Decodable { var meetings: [Meeting] }
    let list = try box.dinger("scrum", "list", "--json")
    let history = try box.dinger("history", "--json")
    #expect(list.status == 0 && history.status == 0, "\(list.stderr)\(history.stderr)")
    scrums = try JSONDecoder().decode(Scrums.self, from: Data(list.stdout.utf8)).scrums
    meetings = try JSONDecoder().decode(Meetings.self, from: Data(history.stdout.utf8)).meetings
  }

  /// Seconds since 2001 of an ISO date.
  static func appSeconds(_ iso: String) -> Double {
    let f = ISO8601DateFormatter()
    return f.date(from: iso)!.timeIntervalSinceReferenceDate
  }

  /// The app's view of what dinger holds: meetings newest first, as the apps list them.
  func summaries(meetingAttendees: Bool = true) -> [String: AppSummary] {
    Dictionary(
      uniqueKeysWithValues: scrums.map { s in
        (
          s.id,
          AppSummary(
            id: s.id, title: s.title, attendees: s.attendees, length: Double(s.length),
            theme: s.theme,
            meetings: meetings.filter { $0.scrum == s.id }.sorted { $0.date > $1.date }.map {
              AppSummary.Meeting(
                id: $0.id, date: Self.appSeconds($0.date),
                attendees: meetingAttendees ? $0.attendees : nil, transcript: $0.transcript)
            })
        )
      })
  }
}
