import Base
import FoundationEssentials
import Glibc
import Models

/// `dinger agenda`: the coming stand-ups by day, in the viewer's zone.
///
///     Today, Tue 2026-12-01
///       09:30-09:45  Design    in 12 min   Ada 09:30 · Bob 03:30 America/New_York
///     Wed 2026-12-02
///       09:30-09:45  Design
public struct AgendaView {
  public var items: [AgendaItem]
  /// The viewer's today (`YYYY-MM-DD`), the viewer's zone name, and the instant now.
  public var today: String
  public var viewerZone: String
  public var now: Date
  public var color: Bool

  /// A view.
  public init(items: [AgendaItem], today: String, viewerZone: String, now: Date, color: Bool) {
    self.items = items
    self.today = today
    self.viewerZone = viewerZone
    self.now = now
    self.color = color
  }

  /// The text.
  public func render() -> String {
    guard !items.isEmpty else {
      return
        "no stand-ups scheduled in these days; give a scrum a schedule with 'dinger scrum edit S --at 09:30 --days weekdays'\n"
    }
    let titleWidth = min(30, items.map(\.title.count).max() ?? 0)
    var out = ""
    var day = ""
    for item in items {
      if item.localDay != day {
        day = item.localDay
        out += Style.bold(Self.dayHeading(day, today: today), color: color) + "\n"
      }
      var line = "  \(item.localStart)-\(item.localEnd)  "
      line += item.title.padded(to: titleWidth)
      let state = status(item)
      line += "  " + state.padded(to: 16)
      var notes: [String] = []
      if item.zone != viewerZone { notes.append("\(item.zoneTime) \(item.zone)") }
      if item.moved { notes.append("moved") }
      let timed = item.attendees.filter { $0.time != nil && $0.away == nil }
      let away = item.attendees.filter { $0.away != nil }
      if !away.isEmpty {
        notes.append(
          "away: "
            + away.map { "\($0.name)" + ($0.away == "away" ? "" : " (\($0.away!))") }
            .joined(separator: ", "))
      }
      if !timed.isEmpty {
        notes.append(
          timed.map { a in
            "\(a.name) \(a.time!)" + (a.day.map { " (\(Self.short($0)))" } ?? "")
          }.joined(separator: ", "))
      }
      line += notes.joined(separator: " · ")
      out += line.trimmingTrailingSpaces() + "\n"
    }
    return out
  }

  /// `next`: one line.
  public func renderNext() -> String {
    guard let item = items.first else {
      return "no stand-up is scheduled in the coming year\n"
    }
    let when =
      item.localDay == today ? "today" : Self.dayHeading(item.localDay, today: today).lowercased()
    var out = "\(item.title) \(when) \(item.localStart)-\(item.localEnd)"
    let state = status(item)
    if !state.isEmpty { out += " (\(state))" }
    if item.zone != viewerZone { out += ", \(item.zoneTime) \(item.zone)" }
    return out + "\n"
  }

  func status(_ item: AgendaItem) -> String {
    switch item.status {
    case .done: return "done (recorded)"
    case .missed: return "missed"
    case .over: return "over"
    case .now where item.date <= now: return "now"
    case .now, .upcoming:
      // NB: `now` starts 10 minutes early for `meet` to pick the scrum; on the screen, a
      // stand-up that has not started says when it will.
      let minutes = Int((item.date.timeIntervalSince(now) / 60).rounded(.up))
      if minutes < 60 { return "in \(minutes) min" }
      if minutes < 24 * 60 {
        return "in \(minutes / 60) h" + (minutes % 60 == 0 ? "" : " \(minutes % 60) min")
      }
      return ""
    }
  }

  /// `Today, Tue 2026-12-01`, `Tomorrow, Wed ...`, `Thu 2026-12-03`.
  static func dayHeading(_ day: String, today: String) -> String {
    guard let d = CivilDate(day) else { return day }
    let label = "\(d.weekday.label) \(day)"
    if day == today { return "Today, " + label }
    if let t = CivilDate(today), t.adding(days: 1) == d { return "Tomorrow, " + label }
    return label
  }

  static func short(_ day: String) -> String {
    guard let d = CivilDate(day) else { return day }
    return d.weekday.label
  }
}
