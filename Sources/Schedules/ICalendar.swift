import Base
import FoundationEssentials
import Glibc
import Models

/// Writes a team's schedules as one iCalendar file (RFC 5545) that calendar apps import or
/// subscribe to: one recurring VEVENT per scheduled scrum (RRULE, EXDATE for skips, an override
/// per moved occurrence), a VTIMEZONE for every zone used, and optionally past meetings as
/// single events. The same data gives the same bytes (DTSTAMP is the last change's time, not
/// the clock), so a feed published from CI changes only when the schedules do.
public enum ICalendar {
  /// A scheduled scrum.
  public struct Series: Sendable {
    /// Stable across renames: the scrum's id.
    public var uid: String
    public var title: String
    public var plan: Schedule.Plan
    public var rules: ZoneRules
    /// Planned minutes.
    public var minutes: Int
    /// Attendee names, in speaking order.
    public var attendees: [String]
    /// The day the recurrence is counted from: `from`, else the day of the last change.
    public var firstDay: CivilDate
    /// How many commits changed the scrum (so a subscribed calendar takes the new version).
    public var sequence: Int
    /// The last change's time, UTC seconds.
    public var lastModified: Int64
    /// Who is away when (attendees' `away:`): said in the description.
    public var away: [(name: String, absence: Absence)] = []
    /// Minutes before the start a calendar app reminds (a VALARM), when asked for.
    public var alarm: Int?

    /// A series.
    public init(
      uid: String, title: String, plan: Schedule.Plan, rules: ZoneRules, minutes: Int,
      attendees: [String], firstDay: CivilDate, sequence: Int, lastModified: Int64
    ) {
      self.uid = uid
      self.title = title
      self.plan = plan
      self.rules = rules
      self.minutes = minutes
      self.attendees = attendees
      self.firstDay = firstDay
      self.sequence = sequence
      self.lastModified = lastModified
    }
  }

  /// A meeting that happened, for `--history`.
  public struct Past: Sendable {
    public var uid: String
    public var title: String
    public var start: Int64
    /// nil: unknown (an imported meeting): the event has a start and no length.
    public var seconds: Int?
    public var speakers: [String]

    /// A past meeting.
    public init(uid: String, title: String, start: Int64, seconds: Int?, speakers: [String]) {
      self.uid = uid
      self.title = title
      self.start = start
      self.seconds = seconds
      self.speakers = speakers
    }
  }

  /// The calendar file, CRLF line ends, lines folded at 75 octets.
  public static func write(name: String, series: [Series], past: [Past] = []) -> String {
    var lines = [
      "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Dinger//dinger//EN", "CALSCALE:GREGORIAN",
      "METHOD:PUBLISH", "X-WR-CALNAME:" + text(name),
    ]
    var zones: [String: ZoneRules] = [:]
    var earliest: [String: CivilDate] = [:]
    for s in series {
      zones[s.rules.name] = s.rules
      earliest[s.rules.name] = min(earliest[s.rules.name] ?? s.firstDay, s.firstDay)
    }
    for name in zones.keys.sorted() {
      lines += VTimezone.lines(zones[name]!, from: earliest[name]!)
    }
    for s in series { lines += events(s) }
    for p in past {
      lines += [
        "BEGIN:VEVENT", "UID:" + text(p.uid),
        "DTSTAMP:" + utcStamp(p.start + Int64(p.seconds ?? 0)), "DTSTART:" + utcStamp(p.start),
      ]
      if let seconds = p.seconds { lines.append("DURATION:" + duration(seconds: seconds)) }
      lines += ["SUMMARY:" + text(p.title + " (recorded)")]
      if !p.speakers.isEmpty {
        lines.append("DESCRIPTION:" + text("Speakers: " + p.speakers.joined(separator: ", ")))
      }
      lines += ["TRANSP:TRANSPARENT", "END:VEVENT"]
    }
    lines.append("END:VCALENDAR")
    return lines.map(fold).joined(separator: "\r\n") + "\r\n"
  }

  /// The recurring event and its moved overrides.
  static func events(_ s: Series) -> [String] {
    let plan = s.plan
    guard let first = plan.firstScheduled(onOrAfter: max(s.firstDay, plan.from ?? s.firstDay))
    else { return [] }
    let zone = s.rules.name
    func local(_ day: CivilDate, _ time: LocalTime) -> String {
      ";TZID=" + param(zone) + ":" + day.compact + "T" + CivilDate.pad(time.hour, 2)
        + CivilDate.pad(time.minute, 2) + "00"
    }
    var rule = "RRULE:FREQ=WEEKLY"
    if plan.every > 1 { rule += ";INTERVAL=\(plan.every)" }
    rule += ";BYDAY=" + plan.days.map(\.ical).joined(separator: ",") + ";WKST=MO"
    if let until = plan.until {
      // UNTIL is UTC when DTSTART has a zone: the end of the last day there.
      rule += ";UNTIL=" + utcStamp(s.rules.startOfDay(until.adding(days: 1)) - 1)
    }
    var description = "Attendees: " + s.attendees.joined(separator: ", ")
    description += "\nPlanned length: \(s.minutes) min"
    description += "\nSchedule: " + plan.summary
    // NB: absences as a line each, so a calendar shows who will not be there.
    for (name, a) in s.away.prefix(50) {
      description +=
        "\nAway: \(name) " + (a.from == a.until ? a.from : "\(a.from) to \(a.until)")
        + (a.note.map { " (\($0))" } ?? "")
    }
    var common = [
      "SUMMARY:" + text(s.title), "DESCRIPTION:" + text(description),
      "SEQUENCE:\(s.sequence)", "LAST-MODIFIED:" + utcStamp(s.lastModified),
    ]
    for name in s.attendees {
      common.append(
        "ATTENDEE;CN=" + param(name)
          + ";ROLE=REQ-PARTICIPANT;PARTSTAT=ACCEPTED:urn:x-dinger:attendee:"
          + percentEncoded(name))
    }
    // NB: RFC 5545's display alarm, relative to the start: every subscribed calendar app
    // reminds on its own (`calendar --alarm 10m`).
    if let minutes = s.alarm {
      common += [
        "BEGIN:VALARM", "ACTION:DISPLAY",
        "DESCRIPTION:" + text("\(s.title) starts in \(minutes) min"),
        "TRIGGER:-" + duration(seconds: minutes * 60), "END:VALARM",
      ]
    }
    var out = [
      "BEGIN:VEVENT", "UID:" + text(s.uid), "DTSTAMP:" + utcStamp(s.lastModified),
      "DTSTART" + local(first, plan.at), "DURATION:" + duration(seconds: s.minutes * 60), rule,
    ]
    let skipped = plan.skip.filter { $0 >= first && plan.isScheduled($0) }.sorted()
    if !skipped.isEmpty {
      let at = "T" + CivilDate.pad(plan.at.hour, 2) + CivilDate.pad(plan.at.minute, 2) + "00"
      let days: [String] = skipped.map { $0.compact + at }
      out.append("EXDATE;TZID=" + param(zone) + ":" + days.joined(separator: ","))
    }
    out += common + ["END:VEVENT"]
    for (day, time) in plan.moved.sorted(by: { $0.key < $1.key })
    where day >= first && plan.occurs(day) {
      out += [
        "BEGIN:VEVENT", "UID:" + text(s.uid), "DTSTAMP:" + utcStamp(s.lastModified),
        "RECURRENCE-ID" + local(day, plan.at), "DTSTART" + local(day, time),
        "DURATION:" + duration(seconds: s.minutes * 60),
      ]
      out += common + ["END:VEVENT"]
    }
    return out
  }

  // MARK: - Values

  /// `20261201T083000Z`.
  static func utcStamp(_ seconds: Int64) -> String {
    let day = floorDays(seconds)
    let rest = Int(seconds - Int64(day) * 86_400)
    return CivilDate(dayNumber: day).compact + "T" + CivilDate.pad(rest / 3600, 2)
      + CivilDate.pad(rest % 3600 / 60, 2) + CivilDate.pad(rest % 60, 2) + "Z"
  }

  /// `PT15M`, `PT1H2M3S`.
  static func duration(seconds: Int) -> String {
    var out = "PT"
    let (h, m, s) = (seconds / 3600, seconds % 3600 / 60, seconds % 60)
    if h > 0 { out += "\(h)H" }
    if m > 0 { out += "\(m)M" }
    if s > 0 || seconds == 0 { out += "\(s)S" }
    return out
  }

  /// A TEXT value: backslash, semicolon, comma and newline escaped; other control characters
  /// (a teammate's file may hold any) become spaces.
  static func text(_ s: String) -> String {
    var out = ""
    for u in s.replacingText("\r\n", with: "\n").unicodeScalars {
      switch u {
      case "\\": out += "\\\\"
      case ";": out += "\\;"
      case ",": out += "\\,"
      case "\n": out += "\\n"
      default: out.unicodeScalars.append(isControl(u) ? " " : u)
      }
    }
    return out
  }

  /// A parameter value: quoted when it holds `:;,`; a double quote (which a parameter cannot
  /// hold) becomes a single one, control characters spaces.
  static func param(_ s: String) -> String {
    var out = ""
    for u in s.unicodeScalars {
      if u == "\"" {
        out += "'"
      } else {
        out.unicodeScalars.append(isControl(u) ? " " : u)
      }
    }
    // NB: decided on scalars: `;` joined to a neighbour in one grapheme (U+0600 before it, a
    // combining mark, ZWJ or VS16 after it) is still a `;` to every calendar parser.
    let special = out.unicodeScalars.contains { $0 == ":" || $0 == ";" || $0 == "," }
    return special ? "\"" + out + "\"" : out
  }

  static func percentEncoded(_ s: String) -> String { s.percentEncoded() }

  static func isControl(_ u: Unicode.Scalar) -> Bool {
    u.value < 0x20 || u.value == 0x7F || (0x80...0x9F).contains(u.value) || u.value == 0x2028
      || u.value == 0x2029
  }

  /// Splits a line into 75-octet pieces (never inside a UTF-8 sequence), continuation lines
  /// starting with a space.
  static func fold(_ line: String) -> String {
    let bytes = Array(line.utf8)
    guard bytes.count > 75 else { return line }
    var pieces: [String] = []
    var start = 0
    var limit = 75
    while start < bytes.count {
      var end = min(start + limit, bytes.count)
      while end < bytes.count && end > start && (bytes[end] & 0xC0) == 0x80 { end -= 1 }
      pieces.append(String(decoding: bytes[start..<end], as: UTF8.self))
      start = end
      limit = 74
    }
    return pieces.joined(separator: "\r\n ")
  }
}

extension String {
  fileprivate func leftPadded(_ width: Int) -> String {
    count >= width ? self : String(repeating: "0", count: width - count) + self
  }
}
