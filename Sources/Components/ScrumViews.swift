import Models

/// `scrum list`: one line per scrum, with a swatch in its theme colour on a terminal.
///
///     ██ Design     yellow   10 min  4 attendees
public struct ScrumListView {
  /// A row: the slug people type, and the scrum.
  public var rows: [(slug: String, scrum: Scrum)]
  /// Colour the swatches (terminal, no NO_COLOR).
  public var color: Bool

  /// Creates a view.
  public init(rows: [(slug: String, scrum: Scrum)], color: Bool) {
    self.rows = rows
    self.color = color
  }

  /// The text.
  public func render() -> String {
    guard !rows.isEmpty else {
      return "no scrums yet; add one with 'dinger scrum new TITLE --attendee NAME'\n"
    }
    let titleWidth = min(40, rows.map(\.scrum.title.count).max() ?? 0)
    let slugWidth = min(30, rows.map(\.slug.count).max() ?? 0)
    return rows.map { slug, scrum in
      let theme = scrum.effectiveTheme
      let swatch = color ? Style.swatch(theme) + " " : ""
      let title = scrum.title.padded(to: titleWidth)
      let name = theme.rawValue.padded(to: 10)
      let length = "\(scrum.length) min".padded(to: 8)
      let people = Style.plural(scrum.attendees.count, "attendee")
      return
        "\(swatch)\(title)  \(name) \(length) \(people.padded(to: 13)) \(slug.padded(to: slugWidth))"
        .trimmingTrailingSpaces() + "\n"
    }.joined()
  }
}

/// `scrum show`: everything about one scrum.
public struct ScrumDetailView {
  /// The scrum, its file, and how many meetings it has.
  public var scrum: Scrum, path: String, meetings: Int, color: Bool

  /// Creates a view.
  public init(scrum: Scrum, path: String, meetings: Int, color: Bool) {
    (self.scrum, self.path, self.meetings, self.color) = (scrum, path, meetings, color)
  }

  /// The text.
  public func render() -> String {
    let theme = scrum.effectiveTheme
    var out = (color ? Style.themed(" \(scrum.title) ", theme) : scrum.title) + "\n"
    out += "  theme      \(theme.rawValue)\(scrum.theme == nil ? " (default)" : "")\n"
    out += "  length     \(scrum.length) min\n"
    if let schedule = scrum.schedule {
      var line =
        schedule.plan?.summary ?? "\(schedule.at) \(schedule.zone) (has errors; run 'dinger check')"
      if let from = schedule.from { line += ", from \(from)" }
      if let until = schedule.until { line += ", until \(until)" }
      if !schedule.skip.isEmpty { line += ", \(Style.plural(schedule.skip.count, "day")) skipped" }
      if !schedule.moved.isEmpty { line += ", \(schedule.moved.count) moved" }
      out += "  schedule   \(line)\n"
    }
    out +=
      "  attendees  \(scrum.attendees.map { a in a.zone.map { "\(a.name) (\($0))" } ?? a.name }.joined(separator: ", "))\n"
    out += "  meetings   \(meetings)\n"
    out += "  file       \(path)\n"
    out +=
      "  id         \(scrum.id.map { $0.uuidString.lowercased() } ?? "none yet (added on the first change)")\n"
    return out
  }
}

extension String {
  func trimmingTrailingSpaces() -> String {
    var s = self
    while s.hasSuffix(" ") { s.removeLast() }
    return s
  }
}

extension Style {
  /// Two full blocks in the theme's colour (24-bit).
  public static func swatch(_ theme: Theme) -> String {
    let (r, g, b) = theme.rgb
    return Printable.color("38;2;\(Int(r * 255));\(Int(g * 255));\(Int(b * 255))") + "██"
      + Printable.color("0")
  }

  /// Text on the theme's colour, in its accent (white or black).
  public static func themed(_ text: String, _ theme: Theme) -> String {
    let (r, g, b) = theme.rgb
    let fg = theme.hasLightText ? "255;255;255" : "0;0;0"
    return Printable.color("1;38;2;\(fg);48;2;\(Int(r * 255));\(Int(g * 255));\(Int(b * 255))")
      + text + Printable.color("0")
  }
}
