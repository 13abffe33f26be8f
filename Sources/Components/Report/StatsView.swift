import Base
import FoundationEssentials
import Glibc
import Models

/// `dinger stats`: the report's figures in the terminal, in 80 columns, Unicode bars.
///
///     Design  weekdays 09:30 Europe/Berlin
///       42 meetings, median 11 min, 3 of the last 10 over plan; last 2026-11-20
///       who talks   Ada    ████████████░░░░░░░░  38%  1 h 12 min
public struct StatsView {
  public var stats: TeamStats
  public var color: Bool
  /// The viewer's zone: days are the viewer's, as `history` shows them.
  public var timeZone: any WallClockZone

  /// A view.
  public init(stats: TeamStats, color: Bool, timeZone: any WallClockZone = FixedZone.utc) {
    self.stats = stats
    self.color = color
    self.timeZone = timeZone
  }

  /// The written stand-up's lines: entries written of those expected, and blockers.
  func standupLines(_ s: ScrumStats) -> String {
    var out = ""
    if let st = s.standups {
      let expected = st.participation.reduce(0) { $0 + $1.expected }
      let written = st.participation.reduce(0) { $0 + $1.written }
      out += "  written      \(written)/\(expected) expected entries"
      if expected > 0 { out += " (\(Int((Double(written) / Double(expected) * 100).rounded()))%)" }
      out += ": "
      out += st.participation.prefix(6).map {
        "\(clip($0.person, 14)) \($0.written)/\($0.expected)"
      }
      .joined(separator: ", ")
      out += st.participation.count > 6 ? ", +\(st.participation.count - 6)\n" : "\n"
      out += "  blockers     \(st.open) open, \(st.resolved) resolved"
      if let m = st.medianDaysToResolve {
        out += " (median \(m == m.rounded() ? String(Int(m)) : String(m)) working days to resolve)"
      }
      out += "\n"
    }
    return out
  }

  public func render() -> String {
    guard !stats.scrums.isEmpty || !stats.libraries.isEmpty else {
      return "no scrums yet; add one with 'dinger scrum new TITLE --attendee NAME'\n"
    }
    var out = ""
    for s in stats.scrums {
      out +=
        Style.bold(clip(s.title, 40), color: color) + (s.schedule.map { "  \($0)" } ?? "") + "\n"
      guard s.meetings > 0 else {
        out += "  no meetings recorded\n" + standupLines(s) + "\n"
        continue
      }
      out += "  \(s.meetings) meeting\(s.meetings == 1 ? "" : "s"), \(s.reading)"
      out += s.lastDate.map { "; last \(HistoryView.dateText($0, in: timeZone).prefix(10))" } ?? ""
      out += "\n"
      if !s.speakers.isEmpty {
        out += "  who talks\n"
        let width = min(16, s.speakers.map { $0.name.count }.max() ?? 0)
        for p in s.speakers {
          out +=
            "    \(clip(p.name, width).padded(to: width)) \(Self.bar(p.share, 24)) \(HTML.percent(p.share).leftPadded(4))  \(HTML.duration(p.seconds))\n"
        }
        if s.otherSpeakers > 0 {
          out += "    and \(s.otherSpeakers) others, \(HTML.duration(s.otherSeconds))\n"
        }
      }
      let a = s.attendance
      if !a.people.isEmpty {
        out += "  attendance, last \(a.dates.count) meetings: "
        out += a.people.prefix(6).map { "\(clip($0.name, 14)) \($0.attended)/\($0.expected)" }
          .joined(separator: ", ")
        let more = a.people.count - min(6, a.people.count) + a.otherPeople
        out += more > 0 ? ", +\(more)\n" : "\n"
      }
      let weeks = s.weeks.suffix(26)
      if !weeks.isEmpty {
        let top = max(weeks.map { $0.meetings }.max() ?? 1, 1)
        out +=
          "  per week     " + weeks.map { Self.spark(Double($0.meetings) / Double(top)) }.joined()
        out += "  (\(weeks.count) weeks to \(weeks.last!.week))"
        let missed = weeks.reduce(0) { $0 + ($1.missed ?? 0) }
        if weeks.contains(where: { $0.missed != nil }) { out += ", \(missed) missed" }
        out += "\n"
      }
      if let w = s.words.first { out += "  most words   \(clip(w.name, 20)): \(w.words)\n" }
      out += standupLines(s)
      out += "\n"
    }
    for l in stats.libraries {
      out +=
        Style.bold(clip(l.name, 40), color: color) + "  (library, \(l.language))\n  \(l.reading)\n"
      if !l.quizzes.isEmpty {
        out +=
          "  quizzes      "
          + l.quizzes.suffix(40).map { Self.spark(Double($0.score) / Double(max($0.questions, 1))) }
          .joined() + "\n"
      }
      out += "\n"
    }
    return out
  }

  static func bar(_ share: Double, _ width: Int) -> String {
    // NB: shares come from teammates' files: a speaker's seconds past the meeting's, or none
    // at all (0/0), must draw a bar, not trap.
    let filled =
      share.isFinite ? Int(min(Double(width), max(0, share * Double(width))).rounded()) : 0
    return String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
  }

  static func spark(_ f: Double) -> String {
    let levels = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
    guard f > 0, f.isFinite else { return " " }
    return levels[Int(min(7, (f * 7).rounded()))]
  }

  func clip(_ s: String, _ n: Int) -> String { s.count <= n ? s : String(s.prefix(n - 1)) + "…" }
}

extension String {
  fileprivate func leftPadded(_ width: Int) -> String {
    count >= width ? self : String(repeating: " ", count: width - count) + self
  }
}
