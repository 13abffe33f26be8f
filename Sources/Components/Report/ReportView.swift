import Base
import FoundationEssentials
import Glibc
import Models

/// `dinger report`: a self-contained web page (or a folder of them) of the team's figures:
/// inline SVG and CSS, no script, no request to anywhere; light and dark schemes, a print style.
public struct ReportView {
  public var stats: TeamStats
  /// The report's name (the data folder's) and when it was made.
  public var name: String
  public var generated: Date

  /// A view.
  public init(stats: TeamStats, name: String, generated: Date) {
    self.stats = stats
    self.name = name
    self.generated = generated
  }

  /// One page with everything.
  public func render() -> String {
    page(
      title: "\(name): stand-ups",
      body: overview(link: { "#scrum-\(HTML.anchor($0))" })
        + stats.scrums.map { scrumSection($0, heading: "h2") }.joined()
        + libraries(link: { "#library-\(HTML.anchor($0))" })
        + stats.libraries.map { librarySection($0) }.joined())
  }

  /// An index page and one page per scrum and library: file name and HTML.
  public func pages() -> [(name: String, html: String)] {
    var out = [
      (
        "index.html",
        page(
          title: "\(name): stand-ups",
          body: overview(link: { "scrum-\(HTML.anchor($0)).html" })
            + libraries(link: { "library-\(HTML.anchor($0)).html" }))
      )
    ]
    for s in stats.scrums {
      out.append(
        (
          "scrum-\(HTML.anchor(s.slug)).html",
          page(
            title: "\(s.title): \(name)",
            body: "<p class=\"back\"><a href=\"index.html\">All scrums</a></p>"
              + scrumSection(s, heading: "h1"))
        ))
    }
    for l in stats.libraries {
      out.append(
        (
          "library-\(HTML.anchor(l.slug)).html",
          page(
            title: "\(l.name): \(name)",
            body: "<p class=\"back\"><a href=\"index.html\">All scrums</a></p>" + librarySection(l))
        ))
    }
    return out
  }

  // MARK: - Sections

  func overview(link: (String) -> String) -> String {
    var out = "<header><h1>\(HTML.esc(name)): stand-ups</h1><p class=\"meta\">"
    out += "Made \(HTML.day(generated)) by dinger report"
    if let since = stats.sinceDate { out += ", meetings since \(HTML.day(since))" }
    if let until = stats.untilDate { out += ", until \(HTML.day(until))" }
    out += ".</p></header>\n"
    guard !stats.scrums.isEmpty else {
      return out
        + "<p class=\"none\">No scrums yet: add one with <code>dinger scrum new</code>.</p>\n"
    }
    out += headline()
    out += "<section class=\"cards\" aria-label=\"Scrums\">\n"
    for s in stats.scrums {
      let theme = Theme(rawValue: s.theme) ?? .default
      let ink = theme.hasLightText ? "#ffffff" : "#000000"
      out +=
        "<a class=\"card\" href=\"\(HTML.esc(link(s.slug)))\" style=\"--theme:\(HTML.hex(theme));--ink:\(ink)\">"
      out += "<h2>\(HTML.esc(s.title))</h2><dl>"
      out += "<dt>Attendees</dt><dd>\(s.attendees)</dd><dt>Length</dt><dd>\(s.length) min</dd>"
      if let schedule = s.schedule { out += "<dt>Meets</dt><dd>\(HTML.esc(schedule))</dd>" }
      out += "<dt>Last meeting</dt><dd>\(s.lastDate.map(HTML.day) ?? "none yet")</dd>"
      out += "<dt>Meetings</dt><dd>\(s.meetings)</dd></dl></a>\n"
    }
    return out + "</section>\n"
  }

  /// The headline numbers of the whole team, at the top of the page.
  func headline() -> String {
    let meetings = stats.scrums.reduce(0) { $0 + $1.meetings }
    let recent = stats.scrums.reduce(0) { $0 + $1.recent }
    let over = stats.scrums.reduce(0) { $0 + $1.overPlan }
    let standups = stats.scrums.compactMap(\.standups)
    let expected = standups.flatMap(\.participation).reduce(0) { $0 + $1.expected }
    let written = standups.flatMap(\.participation).reduce(0) { $0 + $1.written }
    var items: [(String, String)] = [("\(meetings)", meetings == 1 ? "meeting" : "meetings")]
    if recent > 0 { items.append(("\(over)/\(recent)", "recent meetings over plan")) }
    if expected > 0 {
      items.append(
        ("\(Int((Double(written) / Double(expected) * 100).rounded()))%", "written stand-ups done"))
      let open = standups.reduce(0) { $0 + $1.open }
      items.append(("\(open)", open == 1 ? "open blocker" : "open blockers"))
    }
    return "<section class=\"headline\" aria-label=\"Headline numbers\">"
      + items.map { "<p><strong>\(HTML.esc($0.0))</strong> \(HTML.esc($0.1))</p>" }.joined()
      + "</section>\n"
  }

  func libraries(link: (String) -> String) -> String {
    guard !stats.libraries.isEmpty else { return "" }
    var out = "<section class=\"libraries\"><h2>Word libraries</h2><ul>"
    for l in stats.libraries {
      out +=
        "<li><a href=\"\(HTML.esc(link(l.slug)))\">\(HTML.esc(l.name))</a> (\(HTML.esc(l.language))): \(HTML.esc(l.reading))</li>"
    }
    return out + "</ul></section>\n"
  }

  func scrumSection(_ s: ScrumStats, heading: String) -> String {
    let id = HTML.anchor(s.slug)
    let theme = Theme(rawValue: s.theme) ?? .default
    let color = HTML.hex(theme)
    var out = "<section class=\"scrum\" id=\"scrum-\(id)\" style=\"--theme:\(color)\">\n"
    out += "<\(heading) class=\"title\">\(HTML.esc(s.title))</\(heading)>\n"
    out +=
      "<p class=\"reading\">\(HTML.esc(s.reading))\(s.schedule.map { "; meets \(HTML.esc($0))" } ?? "")</p>\n"
    guard s.meetings > 0 else {
      return out
        + "<p class=\"none\">No meetings recorded in this range, so there is nothing to chart yet.</p>\n"
        + standups(s, id: id, color: color) + "</section>\n"
    }
    out += durations(s, id: id)
    out += speakers(s, id: id, color: color)
    out += trend(s, id: id)
    out += attendance(s, id: id)
    out += weeks(s, id: id)
    out += words(s, id: id, color: color)
    out += standups(s, id: id, color: color)
    return out + "</section>\n"
  }

  /// The written stand-up: participation, blockers per week, and each day's entries.
  func standups(_ s: ScrumStats, id: String, color: String) -> String {
    guard let st = s.standups else { return "" }
    var out = "<h3 class=\"part\">Written stand-ups</h3>\n"
    let expected = st.participation.reduce(0) { $0 + $1.expected }
    let written = st.participation.reduce(0) { $0 + $1.written }
    out += Charts.figure(
      id: "\(id)-participation", title: "Entries written on the days expected",
      reading:
        "\(written) of \(expected) expected entries written from \(st.from) to \(st.to) (days away not counted)",
      svg: Charts.bars(
        label: "Entries written per person",
        rows: st.participation.map {
          (
            $0.person, $0.expected == 0 ? 0 : Double($0.written) / Double($0.expected),
            "\($0.written)/\($0.expected)"
          )
        }, color: color),
      table: Charts.table(
        id: "\(id)-participation-data", head: ["Person", "Written", "Expected"],
        rows: st.participation.map { [HTML.esc($0.person), "\($0.written)", "\($0.expected)"] }))
    if !st.weeks.isEmpty {
      let opened = st.weeks.reduce(0) { $0 + $1.opened }
      var reading =
        "\(Style.plural(opened, "blocker")) opened, \(st.resolved) resolved, \(st.open) open now"
      if let m = st.medianDaysToResolve {
        reading += "; median \(Charts.tick(m, "")) working days to resolve"
      }
      let legend =
        "<p class=\"legend\"><span style=\"--swatch:var(--over)\">opened</span> <span style=\"--swatch:var(--in)\">resolved</span></p>"
      out += Charts.figure(
        id: "\(id)-blockers", title: "Blockers per week", reading: reading,
        svg: Charts.columns(
          label: "Blockers opened per week, with those resolved on top",
          values: st.weeks.map { Double($0.opened) }, stacked: st.weeks.map { Double($0.resolved) },
          stackedClass: "in", classes: st.weeks.map { _ in "over" },
          titles: st.weeks.map {
            "week of \($0.week): \($0.opened) opened, \($0.resolved) resolved"
          },
          labels: st.weeks.map(\.week), unit: "", whole: true) + legend,
        table: Charts.table(
          id: "\(id)-blockers-data", head: ["Week of", "Opened", "Resolved"],
          rows: st.weeks.map { [$0.week, "\($0.opened)", "\($0.resolved)"] }))
    }
    // NB: each day's entries, newest first, as the team wrote them.
    out += "<div class=\"entries\" id=\"\(id)-entries\">\n"
    for day in st.days {
      out += "<article class=\"day\"><h4>\(HTML.esc(day.date))</h4>"
      for e in day.entries {
        out += "<div class=\"entry\"><p class=\"who\">\(HTML.esc(e.by))</p><dl>"
        for a in e.answers where !a.text.isEmpty {
          out += "<dt>\(HTML.esc(a.key))</dt><dd>\(HTML.esc(a.text))</dd>"
        }
        for b in e.blockers { out += "<dt class=\"blocked\">blocked</dt><dd>\(HTML.esc(b))</dd>" }
        out += "</dl></div>"
      }
      if !day.away.isEmpty {
        out += "<p class=\"away\">Away: \(HTML.esc(day.away.joined(separator: ", ")))</p>"
      }
      if !day.missing.isEmpty {
        out +=
          "<p class=\"missing\">Not written: \(HTML.esc(day.missing.joined(separator: ", ")))</p>"
      }
      out += "</article>\n"
    }
    return out + "</div>\n"
  }

  func durations(_ s: ScrumStats, id: String) -> String {
    let d = s.durations
    let svg = Charts.columns(
      label: "Meeting length against the plan, last \(d.count) meetings",
      values: d.map { Double($0.seconds) / 60 }, marks: d.map { Double($0.planned) },
      classes: d.map { $0.seconds > $0.planned * 60 ? "over" : "in" },
      titles: d.map { "\(HTML.day($0.date)): \(HTML.duration($0.seconds)) of \($0.planned) min" },
      labels: d.map { HTML.day($0.date) }, unit: "m")
    // NB: what the colours and the line mean (the chart had no legend).
    let legend =
      "<p class=\"legend\"><span style=\"--swatch:var(--in)\">within plan</span> <span style=\"--swatch:var(--over)\">over plan</span> <span class=\"line\" style=\"--swatch:var(--plan)\">planned length</span></p>"
    let table = Charts.table(
      id: "\(id)-durations-data", head: ["Date", "Seconds", "Planned minutes", "Over plan"],
      rows: d.map {
        [
          HTML.day($0.date), "\($0.seconds)", "\($0.planned)",
          $0.seconds > $0.planned * 60 ? "yes" : "no",
        ]
      })
    return Charts.figure(
      id: "\(id)-durations",
      title: "Length against plan" + (s.meetings > d.count ? " (last \(d.count) meetings)" : ""),
      reading: s.reading, svg: svg + legend, table: table)
  }

  func speakers(_ s: ScrumStats, id: String, color: String) -> String {
    let title = "Who talks"
    guard !s.speakers.isEmpty else {
      return Charts.empty(
        id: "\(id)-speakers", title: title,
        why: "No speaking times recorded (meetings recorded without the timer have none).")
    }
    var rows = s.speakers.map {
      ($0.name, Double($0.seconds), "\(HTML.percent($0.share)), \(HTML.duration($0.seconds))")
    }
    if s.otherSpeakers > 0 {
      let all = s.speakers.reduce(s.otherSeconds) { $0 + $1.seconds }
      rows.append(
        (
          "\(s.otherSpeakers) others", Double(s.otherSeconds),
          "\(HTML.percent(Double(s.otherSeconds) / Double(max(all, 1)))), \(HTML.duration(s.otherSeconds))"
        ))
    }
    let top = s.speakers[0]
    let table = Charts.table(
      id: "\(id)-speakers-data", head: ["Speaker", "Seconds", "Share", "Meetings"],
      rows: s.speakers.map {
        [HTML.esc($0.name), "\($0.seconds)", String(cFormat: "%.4f", $0.share), "\($0.meetings)"]
      }
        + (s.otherSpeakers > 0 ? [["\(s.otherSpeakers) others", "\(s.otherSeconds)", "", ""]] : []))
    return Charts.figure(
      id: "\(id)-speakers", title: title,
      reading: "\(top.name) speaks most: \(HTML.percent(top.share)) of the time",
      svg: Charts.bars(label: "Speaking time by person", rows: rows, color: color), table: table)
  }

  func trend(_ s: ScrumStats, id: String) -> String {
    guard s.speakingTrend.count >= 2 else { return "" }
    let names = s.speakers.prefix(5).map(\.name)
    let palette = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#b07aa1"]
    let w = Charts.width, h = Charts.height, left = Charts.left, plotH = h - 30
    let step = (w - left - 8) / Double(s.speakingTrend.count)
    var svg = Charts.svgOpen("Speaking shares by month")
    for (i, m) in s.speakingTrend.enumerated() {
      var y = 8 + plotH
      for (k, n) in names.enumerated() {
        let share = Double(m.seconds[n] ?? 0) / Double(max(m.total, 1))
        let hh = plotH * share
        y -= hh
        svg +=
          "<rect style=\"fill:\(palette[k])\" x=\"\(Charts.num(left + Double(i) * step + step * 0.1))\" y=\"\(Charts.num(y))\" width=\"\(Charts.num(step * 0.8))\" height=\"\(Charts.num(hh))\"><title>\(HTML.esc(m.month)) \(HTML.esc(n)): \(HTML.percent(share))</title></rect>"
      }
    }
    svg +=
      "<text class=\"axis\" x=\"\(Charts.num(left))\" y=\"\(Charts.num(h - 6))\">\(HTML.esc(s.speakingTrend.first!.month))</text>"
    svg +=
      "<text class=\"axis\" x=\"\(Charts.num(w - 8))\" y=\"\(Charts.num(h - 6))\" text-anchor=\"end\">\(HTML.esc(s.speakingTrend.last!.month))</text></svg>"
    let legend =
      "<p class=\"legend\">"
      + names.enumerated().map { "<span style=\"--swatch:\(palette[$0])\">\(HTML.esc($1))</span>" }
      .joined(separator: " ") + "</p>"
    let table = Charts.table(
      id: "\(id)-trend-data", head: ["Month"] + names + ["All seconds"],
      rows: s.speakingTrend.map { m in
        [HTML.esc(m.month)] + names.map { "\(m.seconds[$0] ?? 0)" } + ["\(m.total)"]
      })
    return Charts.figure(
      id: "\(id)-trend", title: "Speaking shares by month",
      reading: "the top \(names.count) speakers' shares over \(s.speakingTrend.count) months",
      svg: svg + legend,
      table: table)
  }

  func attendance(_ s: ScrumStats, id: String) -> String {
    let a = s.attendance
    var grid =
      "<div class=\"grid-wrap\"><table class=\"attendance\" id=\"\(id)-attendance-data\"><thead><tr><th scope=\"col\">Person</th>"
    grid += a.dates.map { "<th scope=\"col\" class=\"date\"><span>\(HTML.day($0))</span></th>" }
      .joined()
    grid += "<th scope=\"col\">Attended</th></tr></thead><tbody>"
    for p in a.people {
      grid += "<tr><th scope=\"row\">\(HTML.esc(p.name))</th>"
      grid += p.present.indices.map { i in
        p.present[i]
          ? "<td class=\"in\" title=\"present\">●</td>"
          : p.away[i]
            ? "<td class=\"away\" title=\"away\">–</td>"
            : "<td class=\"out\" title=\"absent\">·</td>"
      }.joined()
      grid += "<td>\(p.attended)/\(p.expected)</td></tr>"
    }
    grid += "</tbody></table></div>"
    if a.otherPeople > 0 { grid += "<p class=\"more\">and \(a.otherPeople) more people</p>" }
    let absent = a.people.filter { $0.attended < $0.expected }.count
    return """
      <figure class="chart" id="\(id)-attendance">
      <figcaption><h3>Attendance (last \(Style.plural(a.dates.count, "meeting")))</h3><p class="reading">\(absent) of \(a.people.count) people missed at least one</p></figcaption>
      \(grid)
      </figure>

      """
  }

  func weeks(_ s: ScrumStats, id: String) -> String {
    let w = s.weeks
    guard !w.isEmpty else { return "" }
    let missed = w.reduce(0) { $0 + ($1.missed ?? 0) }
    let scheduled = w.contains { $0.missed != nil }
    let svg = Charts.columns(
      label: "Meetings per week, and scheduled stand-ups missed on top",
      values: w.map { Double($0.meetings) }, stacked: w.map { Double($0.missed ?? 0) },
      classes: w.map { _ in "in" },
      titles: w.map {
        "week of \($0.week): \($0.meetings) meetings"
          + (($0.missed ?? 0) > 0 ? ", \($0.missed!) missed" : "")
      },
      labels: w.map(\.week), unit: "", whole: true)
    let table = Charts.table(
      id: "\(id)-weeks-data", head: ["Week of"] + ["Meetings"] + (scheduled ? ["Missed"] : []),
      rows: w.map { [$0.week, "\($0.meetings)"] + (scheduled ? ["\($0.missed ?? 0)"] : []) })
    let reading =
      "\(Style.plural(s.meetings, "meeting")) over \(Style.plural(w.count, "week"))"
      + (scheduled ? ", \(missed) scheduled stand-up\(missed == 1 ? "" : "s") missed" : "")
    let legend =
      scheduled
      ? "<p class=\"legend\"><span style=\"--swatch:var(--in)\">held</span> <span style=\"--swatch:var(--missed)\">missed</span></p>"
      : ""
    return Charts.figure(
      id: "\(id)-weeks", title: "Meetings per week", reading: reading, svg: svg + legend,
      table: table)
  }

  func words(_ s: ScrumStats, id: String, color: String) -> String {
    guard !s.words.isEmpty else { return "" }
    let table = Charts.table(
      id: "\(id)-words-data", head: ["Speaker", "Words"],
      rows: s.words.map { [HTML.esc($0.name), "\($0.words)"] })
    return Charts.figure(
      id: "\(id)-words", title: "Words spoken (transcribed meetings)",
      reading: "\(s.words[0].name) said the most: \(s.words[0].words) words",
      svg: Charts.bars(
        label: "Words spoken per speaker",
        rows: s.words.map { ($0.name, Double($0.words), "\($0.words)") }, color: color),
      table: table)
  }

  func librarySection(_ l: LibraryStats) -> String {
    let id = "library-" + HTML.anchor(l.slug)
    var out =
      "<section class=\"library\" id=\"\(id)\"><h2>\(HTML.esc(l.name))</h2><p class=\"reading\">\(HTML.esc(l.reading))</p>\n"
    if l.added.isEmpty {
      out += Charts.empty(
        id: "\(id)-added", title: "Words added", why: "No additions found in the commits.")
    } else {
      out += Charts.figure(
        id: "\(id)-added", title: "Words added per month",
        reading: "\(l.added.reduce(0) { $0 + $1.words }) words added",
        svg: Charts.columns(
          label: "Words added per month", values: l.added.map { Double($0.words) },
          classes: l.added.map { _ in "in" },
          titles: l.added.map { "\($0.month): \($0.words)" }, labels: l.added.map(\.month),
          unit: "", whole: true),
        table: Charts.table(
          id: "\(id)-added-data", head: ["Month", "Words"],
          rows: l.added.map { [$0.month, "\($0.words)"] }))
    }
    if l.quizzes.isEmpty {
      out += Charts.empty(
        id: "\(id)-quizzes", title: "Quiz scores", why: "No quizzes taken yet: dinger quiz.")
    } else {
      out += Charts.figure(
        id: "\(id)-quizzes", title: "Quiz scores",
        reading: "last \(l.quizzes.last!.score)/\(l.quizzes.last!.questions)",
        svg: Charts.columns(
          label: "Quiz scores", values: l.quizzes.map { Double($0.score) },
          marks: l.quizzes.map { Double($0.questions) },
          classes: l.quizzes.map { _ in "in" },
          titles: l.quizzes.map { "\(HTML.day($0.date)): \($0.score)/\($0.questions)" },
          labels: l.quizzes.map { HTML.day($0.date) }, unit: "", whole: true),
        table: Charts.table(
          id: "\(id)-quizzes-data", head: ["Date", "Score", "Questions"],
          rows: l.quizzes.map { [HTML.day($0.date), "\($0.score)", "\($0.questions)"] }))
    }
    if !l.missed.isEmpty {
      out += Charts.figure(
        id: "\(id)-missed", title: "Words missed most",
        reading: "\(l.missed[0].word): wrong \(l.missed[0].wrong) times",
        svg: Charts.bars(
          label: "Words answered wrong most often",
          rows: l.missed.map { ($0.word, Double($0.wrong), "\($0.wrong)") }, color: "#e15759"),
        table: Charts.table(
          id: "\(id)-missed-data", head: ["Word", "Wrong"],
          rows: l.missed.map { [HTML.esc($0.word), "\($0.wrong)"] }))
    }
    return out + "</section>\n"
  }

  // MARK: - The page

  func page(title: String, body: String) -> String {
    """
    <!DOCTYPE html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
    <meta name="color-scheme" content="light dark">
    <title>\(HTML.esc(title))</title>
    <style>\(Self.css)</style>
    </head>
    <body>
    <main>
    \(body)
    </main>
    </body>
    </html>

    """
  }

  static let css = """
    :root{--bg:#fff;--fg:#1d1d1f;--muted:#6e6e73;--line:#d2d2d7;--in:#4e79a7;--over:#e15759;--missed:#f28e2b;--plan:#1d1d1f}
    @media (prefers-color-scheme:dark){:root{--bg:#141416;--fg:#f2f2f7;--muted:#a1a1a6;--line:#3a3a3c;--in:#7aa6d6;--over:#ff7b7b;--missed:#ffb35c;--plan:#f2f2f7}}
    *{box-sizing:border-box}body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif}
    main{max-width:980px;margin:0 auto;padding:24px}h1{font-size:1.8em;margin:.2em 0}.meta,.reading,.more{color:var(--muted)}
    .cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(210px,1fr));gap:14px;margin:18px 0 32px}
    .card{display:block;background:var(--theme);color:var(--ink);border-radius:14px;padding:14px 16px;text-decoration:none;break-inside:avoid}
    .card h2{margin:0 0 8px;font-size:1.15em}.card dl{display:grid;grid-template-columns:auto 1fr;gap:2px 10px;margin:0;font-size:.9em}.card dt{opacity:.8}.card dd{margin:0}
    section.scrum,section.library{border-top:6px solid var(--theme,var(--line));padding-top:8px;margin:36px 0}
    figure.chart{margin:18px 0 26px;break-inside:avoid}figcaption h3{margin:0;font-size:1.05em}figcaption p{margin:2px 0 8px}
    svg.plot{width:100%;height:auto;overflow:visible}svg .grid{stroke:var(--line)}svg .axis,svg .name,svg .value{fill:var(--muted);font-size:11px}
    svg .in{fill:var(--in)}svg .over{fill:var(--over)}svg .missed{fill:var(--missed)}svg .plan{stroke:var(--plan);stroke-width:2}
    details{margin-top:6px}summary{cursor:pointer;color:var(--muted)}table{border-collapse:collapse;font-size:.85em;margin-top:6px}
    th,td{border:1px solid var(--line);padding:2px 6px;text-align:right}th[scope=row]{text-align:left;font-weight:normal}
    .grid-wrap{overflow-x:auto}table.attendance td{text-align:center;padding:0 3px}td.in{color:var(--in)}td.out{color:var(--over)}
    th.date span{writing-mode:vertical-rl;transform:rotate(180deg);font-weight:normal;font-size:.8em}
    .legend span::before{content:"";display:inline-block;width:10px;height:10px;margin:0 4px 0 8px;background:var(--swatch)}
    .none{color:var(--muted);font-style:italic}
    .headline{display:flex;flex-wrap:wrap;gap:10px 28px;margin:14px 0}.headline p{margin:0}.headline strong{font-size:1.6em;display:block}
    .card dd,.card h2{overflow-wrap:anywhere;min-width:0}
    table.attendance th[scope=row]{position:sticky;left:0;background:var(--bg);z-index:1}table.attendance td:last-child,table.attendance th:last-child{position:sticky;right:0;background:var(--bg)}td.away{color:var(--muted)}
    .legend .line::before{height:2px;vertical-align:middle}
    h3.part{margin-top:28px}.entries{display:grid;gap:12px}.day h4{margin:8px 0 4px}.entry{border-left:4px solid var(--theme,var(--line));padding:2px 10px;margin:6px 0}.entry .who{margin:0;font-weight:600}.entry dl{display:grid;grid-template-columns:auto 1fr;gap:2px 10px;margin:2px 0}.entry dt{color:var(--muted)}.entry dd{margin:0;overflow-wrap:anywhere;white-space:pre-wrap}.blocked{color:var(--over)}.away,.missing{color:var(--muted);margin:2px 0}
    @media (max-width:600px){main{padding:12px}svg .axis,svg .name,svg .value{font-size:21px}}
    @media print{body{background:#fff;color:#000}main{max-width:none;padding:0}details{display:block}details>summary{display:none}details>table{display:table}section.scrum{break-before:page}a{color:inherit}}
    """
}
