import Base
import FoundationEssentials
import Glibc

/// One meeting of a scrum: `history/<scrum-slug>/<yyyy-mm-dd>-<id8>.yaml`.
public struct Meeting: Hashable, Sendable, Codable {
  /// Identity; nil for a hand-written file that has none yet.
  public var id: UUID?
  /// The id of the scrum this meeting belongs to.
  public var scrum: UUID
  /// When the meeting started (whole seconds).
  public var date: Date
  /// Planned minutes at the time; nil: unknown (only an imported meeting may not know it).
  public var length: Int?
  /// Actual seconds; nil: unknown (only an imported meeting may not know it).
  public var duration: Int?
  /// Where the meeting was brought in from (`scrumdinger`, `syncups`): the apps kept no planned
  /// length or duration, so such a meeting may leave either out rather than invent one.
  public var imported: String?
  /// Who was expected, at meeting time.
  public var attendees: [String]
  /// Actual time per speaker, in speaking order.
  public var speakers: [SpeakerTime]
  /// Free-text notes.
  public var transcript: String?
  /// What was said, by speaker, as transcribed during the meeting (`dinger meet --transcribe`).
  public var turns: [TranscriptTurn] = []
  /// Keys the schema does not know, kept as written.
  public var unknown = UnknownFields()

  /// The keys of a meeting file, in the order they are written.
  public static let keys = [
    "id", "scrum", "date", "length", "duration", "imported", "attendees", "speakers", "transcript",
    "turns",
  ]

  /// Creates a meeting.
  public init(
    id: UUID? = nil, scrum: UUID, date: Date, length: Int?, duration: Int?, attendees: [String],
    speakers: [SpeakerTime] = [], transcript: String? = nil, turns: [TranscriptTurn] = [],
    imported: String? = nil
  ) {
    self.imported = imported
    self.id = id
    self.scrum = scrum
    self.date = date
    self.length = length
    self.duration = duration
    self.attendees = attendees
    self.speakers = speakers
    self.transcript = transcript
    self.turns = turns
  }

  public init(from decoder: any Decoder) throws {
    var r = try FieldReader(decoder, known: Self.keys)
    id = r.optional("id")
    scrum = r.required("scrum") ?? UUID.nil
    date = r.required("date") ?? Date(timeIntervalSince1970: 0)
    imported = r.optional("imported")
    if imported == nil {
      length = r.required("length") ?? 0
      duration = r.required("duration") ?? 0
    } else {
      length = r.optional("length")
      duration = r.optional("duration")
    }
    attendees = r.list("attendees")
    speakers = r.list("speakers")
    transcript = r.optional("transcript")
    turns = r.list("turns")
    unknown = r.unknown()
    try r.finish(self)
  }

  public func encode(to encoder: any Encoder) throws {
    var w = FieldWriter(encoder)
    try w.write("id", id)
    try w.write("scrum", scrum)
    try w.write("date", date)
    try w.write("length", length)
    try w.write("duration", duration)
    try w.write("imported", imported)
    try w.write("attendees", attendees)
    try w.writeNonEmpty("speakers", speakers)
    try w.write("transcript", transcript)
    try w.writeNonEmpty("turns", turns)
    try w.write(unknown)
  }

  /// The rules a meeting must follow beyond its types.
  public func validate() -> [ValidationIssue] {
    var issues: [ValidationIssue] = []
    if let length, !Scrum.lengthRange.contains(length) {
      issues.append(
        .init(at: [.key("length")], "'length' must be from 1 to 600 minutes, found \(length)"))
    }
    if let imported, imported.trimmed.isEmpty {
      issues.append(
        .init(
          at: [.key("imported")],
          "'imported' names the app the meeting came from (scrumdinger, syncups); it is empty"))
    }
    let duration = self.duration ?? -1
    if duration < 0, self.duration != nil {
      issues.append(
        .init(at: [.key("duration")], "'duration' must be 0 or more seconds, found \(duration)"))
    }
    for (i, name) in attendees.enumerated()
    where name.trimmed.isEmpty {
      issues.append(
        .init(at: [.key("attendees"), .index(i)], "attendee \(i + 1) has an empty name"))
    }
    for (i, speaker) in speakers.enumerated() {
      let path: [PathComponent] = [.key("speakers"), .index(i)]
      if speaker.name.trimmed.isEmpty {
        issues.append(.init(at: path + [.key("name")], "speaker \(i + 1) has an empty name"))
      }
      if speaker.seconds < 0 {
        issues.append(
          .init(
            at: path + [.key("seconds")],
            "'seconds' must be 0 or more, found \(speaker.seconds)"))
      }
    }
    var previous = 0
    for (i, turn) in turns.enumerated() {
      let path: [PathComponent] = [.key("turns"), .index(i)]
      if turn.speaker.trimmed.isEmpty {
        issues.append(.init(at: path + [.key("speaker")], "turn \(i + 1) has an empty speaker"))
      }
      if turn.start < 0 {
        issues.append(
          .init(
            at: path + [.key("start")], "'start' must be 0 or more seconds, found \(turn.start)"))
      } else if turn.start < previous {
        issues.append(
          .init(
            at: path + [.key("start")],
            "turn \(i + 1) starts at \(turn.start) s, before turn \(i) (\(previous) s); turns are in the order spoken"
          ))
      } else if turn.start > duration && duration >= 0 {
        issues.append(
          .init(
            .warning, at: path + [.key("start")],
            "turn \(i + 1) starts at \(turn.start) s, after the meeting's duration of \(duration) s"
          ))
      }
      previous = max(previous, turn.start)
    }
    let spoken = speakers.reduce(0) { $0 + max(0, $1.seconds) }
    if spoken > duration && duration >= 0 {
      issues.append(
        .init(
          .warning, at: [.key("speakers")],
          "speakers add up to \(spoken) s, more than the meeting's duration of \(duration) s"))
    }
    return issues
  }
}

/// How long one person spoke in a meeting.
public struct SpeakerTime: Hashable, Sendable, Codable {
  /// The speaker's name.
  public var name: String
  /// Seconds spoken.
  public var seconds: Int
  /// Keys the schema does not know, kept as written.
  public var unknown = UnknownFields()

  /// Creates a speaker time.
  public init(name: String, seconds: Int) {
    self.name = name
    self.seconds = seconds
  }

  public init(from decoder: any Decoder) throws {
    var r = try FieldReader(decoder, known: ["name", "seconds"])
    name = r.required("name") ?? ""
    seconds = r.required("seconds") ?? 0
    unknown = r.unknown()
    try r.finish(self)
  }

  public func encode(to encoder: any Encoder) throws {
    var w = FieldWriter(encoder)
    try w.write("name", name)
    try w.write("seconds", seconds)
    try w.write(unknown)
  }
}

/// One speaker's turn in a transcribed meeting: who, from when (seconds from the meeting's
/// start), and what the recognizer heard.
public struct TranscriptTurn: Hashable, Sendable, Codable {
  /// The speaker (an attendee's name).
  public var speaker: String
  /// Seconds from the start of the meeting.
  public var start: Int
  /// What was said, as recognized (may be empty: nothing was heard).
  public var text: String
  /// Keys the schema does not know, kept as written.
  public var unknown = UnknownFields()

  /// The keys of a turn, in the order they are written.
  public static let keys = ["speaker", "start", "text"]

  /// Creates a turn.
  public init(speaker: String, start: Int, text: String) {
    (self.speaker, self.start, self.text) = (speaker, start, text)
  }

  public init(from decoder: any Decoder) throws {
    var r = try FieldReader(decoder, known: Self.keys)
    speaker = r.required("speaker") ?? ""
    start = r.required("start") ?? 0
    text = r.optional("text") ?? ""
    unknown = r.unknown()
    try r.finish(self)
  }

  public func encode(to encoder: any Encoder) throws {
    var w = FieldWriter(encoder)
    try w.write("speaker", speaker)
    try w.write("start", start)
    try w.write("text", text)
    try w.write(unknown)
  }
}
