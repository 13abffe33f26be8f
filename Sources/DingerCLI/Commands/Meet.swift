import ArgumentParser
import Foundation
import Models
import Providers
import YAML

/// `dinger meet S`: runs a meeting, or records one held elsewhere with `--record`.
struct Meet: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Run a stand-up with the terminal timer, or record one held elsewhere.",
    discussion: """
      With --record, writes the meeting without the timer: attendees default to the scrum's, \
      the date to now, the length to the scrum's planned length.

      Examples:
        dinger meet design --record --duration 12m
        dinger meet design --record --date 2026-11-20T09:00:00Z --duration 10:30 --attendee Ada --attendee Grace
        dinger meet design --record --duration 9m --transcript-file notes.txt
      """)

  @OptionGroup var global: GlobalOptions

  @Argument(help: "The scrum: slug, title or id prefix.")
  var scrum: String

  @Flag(help: "Record a meeting held elsewhere, without the timer.")
  var record = false

  @Option(help: "When it started (ISO 8601, e.g. 2026-11-21T09:00:00Z; default: now).")
  var date: String?

  @Option(help: "How long it took: 12m, 90s, 1h, 10:30 or minutes (default: the planned length).")
  var duration: String?

  @Option(name: .customLong("attendee"), help: "Who was there; repeat (default: the scrum's attendees).")
  var attendees: [String] = []

  @Option(help: "A file whose text becomes the transcript.")
  var transcriptFile: String?

  func validate() throws {
    if !record && (date != nil || duration != nil || !attendees.isEmpty || transcriptFile != nil) {
      throw ValidationError("--date, --duration, --attendee and --transcript-file go with --record")
    }
    if let date, ISODate.parse(date) == nil {
      throw ValidationError("--date must be a date and time like 2026-11-21T09:00:00Z, found '\(date)'")
    }
    if let duration, Self.seconds(duration) == nil {
      throw ValidationError("--duration must look like 12m, 90s, 1h, 10:30 or a number of minutes, found '\(duration)'")
    }
  }

  func run() throws {
    try reporting {
      guard record else {
        throw CLIError(
          "the meeting timer needs a terminal, and it is not finished yet; record a meeting held elsewhere with 'dinger meet \(scrum) --record --duration 12m'")
      }
      let repository = try global.repository()
      let stored = try ScrumProvider.live(repository: repository).find(scrum)
      var transcript: String?
      if let transcriptFile {
        guard let text = try? String(contentsOfFile: transcriptFile, encoding: .utf8) else {
          throw CLIError("can't read the transcript file '\(transcriptFile)'")
        }
        transcript = text
      }
      let meeting = Meeting(
        scrum: stored.scrum.id ?? UUID(), date: date.flatMap(ISODate.parse) ?? Date(),
        length: stored.scrum.length,
        duration: duration.flatMap(Self.seconds) ?? stored.scrum.length * 60,
        attendees: attendees.isEmpty ? stored.scrum.attendees.map(\.name) : attendees,
        transcript: transcript)
      let (saved, subject) = try MeetingProvider.live(repository: repository).record(meeting, of: stored)
      Terminal.output("\(subject) (\(saved.path))\n")
    }
  }

  /// `12m`, `90s`, `1h`, `10:30` (minutes:seconds) or plain minutes, in seconds.
  static func seconds(_ text: String) -> Int? {
    let t = text.trimmingCharacters(in: .whitespaces).lowercased()
    if let colon = t.firstIndex(of: ":") {
      guard let m = Int(t[..<colon]), let s = Int(t[t.index(after: colon)...]), m >= 0, (0..<60).contains(s) else { return nil }
      return m * 60 + s
    }
    let units: [(String, Int)] = [("h", 3600), ("m", 60), ("s", 1)]
    for (unit, factor) in units where t.hasSuffix(unit) {
      guard let n = Int(t.dropLast()), n >= 0 else { return nil }
      return n * factor
    }
    guard let minutes = Int(t), minutes >= 0 else { return nil }
    return minutes * 60
  }
}
