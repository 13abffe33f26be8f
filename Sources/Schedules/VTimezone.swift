import Models

/// VTIMEZONE blocks: what a calendar app without the IANA database needs to place a zone's
/// times. From the zone's current rule (the TZif footer) as yearly RRULEs where it has the
/// `Mm.w.d` form with a time within the day; otherwise each change from the series' first day on
/// for 30 years, listed one by one.
enum VTimezone {
  static func lines(_ rules: ZoneRules, from first: CivilDate) -> [String] {
    var out = ["BEGIN:VTIMEZONE", "TZID:" + ICalendar.text(rules.name)]
    out.append("X-LIC-LOCATION:" + ICalendar.text(rules.name))
    let firstInstant = Int64(first.dayNumber) * 86_400
    if let rule = rules.rule, let dst = rule.dst, let start = yearly(dst.start),
      let end = yearly(dst.end)
    {
      out += block(
        "DAYLIGHT", from: rule.standard.offset, to: dst.part.offset, name: dst.part.abbreviation,
        start: dst.start, rrule: start)
      out += block(
        "STANDARD", from: dst.part.offset, to: rule.standard.offset,
        name: rule.standard.abbreviation, start: dst.end, rrule: end)
    } else {
      let range = (firstInstant - 366 * 86_400)..<(firstInstant + 30 * 366 * 86_400)
      let changes = rules.changes(in: range)
      let initial = rules.localType(at: range.lowerBound)
      out += [
        "BEGIN:" + (initial.isDST ? "DAYLIGHT" : "STANDARD"),
        "TZOFFSETFROM:" + offset(initial.offset), "TZOFFSETTO:" + offset(initial.offset),
        "TZNAME:" + ICalendar.text(initial.abbreviation), "DTSTART:19700101T000000",
        "END:" + (initial.isDST ? "DAYLIGHT" : "STANDARD"),
      ]
      for c in changes {
        let kind = c.to.isDST ? "DAYLIGHT" : "STANDARD"
        let wall = c.at + Int64(c.from.offset)
        let day = floorDays(wall)
        let secs = Int(wall - Int64(day) * 86_400)
        out += [
          "BEGIN:" + kind, "TZOFFSETFROM:" + offset(c.from.offset),
          "TZOFFSETTO:" + offset(c.to.offset), "TZNAME:" + ICalendar.text(c.to.abbreviation),
          "DTSTART:" + CivilDate(dayNumber: day).compact + "T" + CivilDate.pad(secs / 3600, 2)
            + CivilDate.pad(secs % 3600 / 60, 2) + CivilDate.pad(secs % 60, 2),
          "END:" + kind,
        ]
      }
    }
    out.append("END:VTIMEZONE")
    return out
  }

  /// `FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU` for an `Mm.w.d` moment within the day.
  private static func yearly(_ m: PosixRule.Moment) -> String? {
    guard case .monthWeekDay(let month, let week, let weekday) = m.day,
      (0..<86_400).contains(m.time)
    else { return nil }
    let day = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"][weekday]
    return "RRULE:FREQ=YEARLY;BYMONTH=\(month);BYDAY=\(week == 5 ? "-1" : "\(week)")\(day)"
  }

  private static func block(
    _ kind: String, from: Int, to: Int, name: String, start: PosixRule.Moment, rrule: String
  ) -> [String] {
    let day = start.day.date(in: 1970)
    let t = start.time
    return [
      "BEGIN:" + kind, "TZOFFSETFROM:" + offset(from), "TZOFFSETTO:" + offset(to),
      "TZNAME:" + ICalendar.text(name),
      "DTSTART:" + day.compact + "T" + CivilDate.pad(t / 3600, 2) + CivilDate.pad(t % 3600 / 60, 2)
        + CivilDate.pad(t % 60, 2),
      rrule, "END:" + kind,
    ]
  }

  /// `+0530`, `-0400`.
  static func offset(_ seconds: Int) -> String {
    let sign = seconds < 0 ? "-" : "+"
    let a = abs(seconds)
    var out = sign + CivilDate.pad(a / 3600, 2) + CivilDate.pad(a % 3600 / 60, 2)
    if a % 60 != 0 { out += CivilDate.pad(a % 60, 2) }
    return out
  }
}
