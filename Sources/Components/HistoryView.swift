import Base
import FoundationEssentials
import Glibc
import Models

/// `dinger history`: one line per meeting, newest first.
///
///     2026-11-21 09:00  Design   12 of 10 min  4 attendees  Cathy: the colour picker ships Friday.
public struct HistoryView {
  /// Rows: the meeting, its scrum's title, and a short id.
  public var rows: [(meeting: Meeting, title: String, id: String)]
  /// The zone times are shown in (the user's; files keep UTC).
  public var timeZone: any WallClockZone
  /// Scheduled stand-ups nothing was recorded for (and not skipped): when, and the scrum.
  public var missed: [(start: Date, title: String)]

  /// Creates a view.
  public init(
    rows: [(meeting: Meeting, title: String, id: String)],
    timeZone: any WallClockZone = FixedZone.utc, missed: [(start: Date, title: String)] = []
  ) {
    (self.rows, self.timeZone, self.missed) = (rows, timeZone, missed)
  }

  /// The text.
  public func render() -> String {
    guard !rows.isEmpty || !missed.isEmpty else { return "no meetings recorded yet\n" }
    let width = min(30, (rows.map(\.title.count) + missed.map(\.title.count)).max() ?? 0)
    // Missed stand-ups go between the meetings, by date, newest first.
    var gaps = missed.sorted { $0.start > $1.start }[...]
    func gapsAfter(_ date: Date?) -> String {
      var out = ""
      while let gap = gaps.first, date.map({ gap.start > $0 }) ?? true {
        gaps.removeFirst()
        let when = Self.dateText(gap.start, in: timeZone)
        out +=
          "--------  \(when)  \(gap.title.padded(to: width))  missed: scheduled, nothing recorded\n"
      }
      return out
    }
    return rows.map { meeting, title, id in
      gapsAfter(meeting.date) + line(meeting, title, id, width: width)
    }.joined() + gapsAfter(nil)
  }

  private func line(_ meeting: Meeting, _ title: String, _ id: String, width: Int) -> String {
    let date = Self.dateText(meeting.date, in: timeZone)
    // NB: a meeting under a minute says its seconds ("0 of 10 min" read as nothing).
    let text = Self.lengthText(meeting)
    // NB: never clipped: "duration unknown" is longer than the column.
    let minutes = text.count >= 14 ? text : text.padded(to: 14)
    let people = Style.plural(meeting.attendees.count, "attendee").padded(to: 12)
    let note = meeting.transcript?.split(separator: "\n").first.map { "  " + $0.prefix(60) } ?? ""
    return
      "\(id)  \(date)  \(title.padded(to: width))  \(minutes) \(people)\(note)"
      .trimmingTrailingSpaces() + "\n"
  }

  /// `11 of 10 min`, `42 s of 10 min`; an imported meeting's unknowns said so: `duration
  /// unknown`, `12 min, planned unknown`.
  public static func lengthText(_ meeting: Meeting) -> String {
    guard let seconds = meeting.duration else {
      return meeting.length.map { "duration unknown (\($0) min planned)" } ?? "duration unknown"
    }
    let actual = seconds < 60 ? "\(seconds) s" : "\((seconds + 30) / 60)"
    guard let length = meeting.length else {
      return "\(actual)\(seconds < 60 ? "" : " min"), planned unknown"
    }
    return "\(actual) of \(length) min"
  }

  /// `2026-11-21 10:00 CET`: the time in `zone`, labelled with the zone unless it is UTC then.
  public static func dateText(_ date: Date, in zone: any WallClockZone) -> String {
    // NB: civil date from the day count (Hinnant's algorithm), not a Calendar per row: a
    // history of 2,600 meetings spent a fifth of its time making calendars.
    let local = Int((date.timeIntervalSince1970).rounded(.down)) + zone.offset(at: date)
    var days = local / 86_400
    var seconds = local % 86_400
    if seconds < 0 {
      seconds += 86_400
      days -= 1
    }
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let day = doy - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
    func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
    let text =
      "\(year)-\(two(month))-\(two(day)) \(two(seconds / 3600)):\(two(seconds % 3600 / 60))"
    // NB: UTC (the files' own zone, and many servers') goes unlabelled.
    return zone.offset(at: date) == 0
      ? text : text + " " + zone.abbreviation(at: Int64(date.timeIntervalSince1970.rounded(.down)))
  }
}

/// `dinger history show`: one meeting in full.
public struct MeetingDetailView {
  /// The meeting and its scrum's title.
  public var meeting: Meeting, title: String, path: String

  /// Creates a view.
  /// The zone the time is shown in.
  public var timeZone: any WallClockZone

  public init(
    meeting: Meeting, title: String, path: String,
    timeZone: any WallClockZone = FixedZone.utc
  ) {
    (self.meeting, self.title, self.path, self.timeZone) = (meeting, title, path, timeZone)
  }

  /// The text.
  public func render() -> String {
    let when = HistoryView.dateText(meeting.date, in: timeZone)
    var out = "\(title), \(when.count == 16 ? when + " UTC" : when)\n"
    let planned = meeting.length.map { "planned \($0) min" } ?? "planned length unknown"
    if let seconds = meeting.duration {
      out += "  length     \(seconds / 60) min \(seconds % 60) s (\(planned))\n"
    } else {
      out += "  length     duration unknown (\(planned))\n"
    }
    if let imported = meeting.imported { out += "  imported   from \(imported)\n" }
    out += "  attendees  \(meeting.attendees.joined(separator: ", "))\n"
    for s in meeting.speakers {
      out +=
        "  \(s.name.padded(to: 20)) \(s.seconds / 60):\(String(cFormat: "%02d", s.seconds % 60))\n"
    }
    out += "  file       \(path)\n"
    if let t = meeting.transcript?.trimming(\.isLineEnd), !t.isEmpty {
      out +=
        "\n"
        + t.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(
          separator: "\n") + "\n"
    }
    if !meeting.turns.isEmpty {
      out += "\nTranscript\n"
      for turn in meeting.turns {
        let at = "\(turn.start / 60):\(turn.start % 60 < 10 ? "0" : "")\(turn.start % 60)"
        let text = turn.text.isEmpty ? "(nothing heard)" : turn.text
        out += "  \(at)  \(turn.speaker)\n"
        out += Self.wrapped(text, width: 72, indent: "        ")
      }
    }
    return out
  }

  /// `text` in lines of at most `width` columns (a longer word keeps its own line), indented.
  static func wrapped(_ text: String, width: Int, indent: String) -> String {
    var out = ""
    var line = ""
    for word in text.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
      if !line.isEmpty && line.count + 1 + word.count > width - indent.count {
        out += indent + line + "\n"
        line = ""
      }
      line += line.isEmpty ? String(word) : " " + word
    }
    if !line.isEmpty { out += indent + line + "\n" }
    return out
  }
}
