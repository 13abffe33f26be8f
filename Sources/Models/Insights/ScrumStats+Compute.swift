import Base
import FoundationEssentials
import Glibc

extension ScrumStats {
  /// The figures of `scrum` (file name `slug`) from its `meetings` (any order) and, when it is
  /// scheduled, the starts of the stand-ups `missed`. Days, weeks and months are UTC, as the
  /// files store dates.
  public static func compute(
    scrum: Scrum, slug: String, schedule: String?, meetings unsorted: [Meeting], missed: [Date]?
  ) -> ScrumStats {
    let meetings = unsorted.sorted { $0.date < $1.date }
    // NB: duration figures only from meetings whose length and duration are known.
    let timed = meetings.filter { $0.duration != nil && $0.length != nil }
    let recentMeetings = timed.suffix(10)
    var totals: [String: (seconds: Int, meetings: Int)] = [:]
    var words: [String: Int] = [:]
    for m in meetings {
      var seen = Set<String>()
      for s in m.speakers {
        totals[s.name, default: (0, 0)].seconds += s.seconds
        if seen.insert(s.name).inserted { totals[s.name, default: (0, 0)].meetings += 1 }
      }
      for t in m.turns {
        words[t.speaker, default: 0] += t.text.split(whereSeparator: \.isWhitespace).count
      }
    }
    let everyone = totals.values.reduce(0) { $0 + $1.seconds }
    let ranked = totals.sorted { ($0.value.seconds, $1.key) > ($1.value.seconds, $0.key) }
    let top = ranked.prefix(speakerLimit)
    let speakers = top.map { name, t in
      Speaker(
        name: name, seconds: t.seconds,
        share: everyone == 0
          ? 0 : (Double(t.seconds) / Double(everyone) * 10_000).rounded() / 10_000,
        meetings: t.meetings)
    }
    let rest = ranked.dropFirst(speakerLimit)
    var stats = ScrumStats(
      title: scrum.title, slug: slug, id: scrum.id?.uuidString.lowercased(),
      theme: scrum.effectiveTheme.rawValue, length: scrum.length, attendees: scrum.attendees.count,
      schedule: schedule, meetings: meetings.count, lastDate: meetings.last?.date,
      medianMinutes: median(timed.map { Double($0.duration!) / 60 }).map {
        ($0 * 10).rounded() / 10
      },
      overPlan: recentMeetings.filter { $0.duration! > $0.length! * 60 }.count,
      recent: recentMeetings.count,
      durations: timed.suffix(durationLimit).map {
        Duration(date: $0.date, seconds: $0.duration!, planned: $0.length!)
      },
      speakers: speakers, otherSpeakers: rest.count,
      otherSeconds: rest.reduce(0) { $0 + $1.value.seconds },
      speakingTrend: trend(meetings, names: top.prefix(5).map(\.key)),
      // NB: a meeting that names nobody (SyncUps kept no attendees) says nothing of who came:
      // attendance unknown, left out, not everyone absent.
      attendance: attendance(
        Array(meetings.filter(knowsAttendance).suffix(attendanceMeetings)), scrum: scrum),
      weeks: weeks(meetings, missed: missed),
      words: words.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.prefix(speakerLimit).map {
        SpeakerWords(name: $0.key, words: $0.value)
      })
    stats.unknownDurations = meetings.count - timed.count
    return stats
  }

  /// Whether `name` was at `m`: they spoke, or (a meeting without speaker times) they are in
  /// its attendees.
  public static func attended(_ name: String, _ m: Meeting) -> Bool {
    if m.speakers.isEmpty { return m.attendees.contains(name) }
    return m.speakers.contains { $0.name == name && $0.seconds > 0 }
  }

  /// Whether a meeting says who came: it has attendees or speakers.
  public static func knowsAttendance(_ m: Meeting) -> Bool {
    !(m.attendees.isEmpty && m.speakers.isEmpty)
  }

  static func attendance(_ meetings: [Meeting], scrum: Scrum) -> Attendance {
    var names: [String] = scrum.attendees.map(\.name)
    var known = Set(names)
    let people = scrum.people
    // NB: a person's other names (aka) are theirs: one row per person.
    for m in meetings {
      for n in (m.speakers.map(\.name) + m.attendees).map(people.person)
      where known.insert(n).inserted {
        names.append(n)
      }
    }
    let order = Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
    // NB: one pass per meeting over its own people, not people x meetings (40,000 attendees).
    var present: [String: Set<Int>] = [:]
    for (i, m) in meetings.enumerated() {
      let here = m.speakers.isEmpty ? m.attendees : m.speakers.filter { $0.seconds > 0 }.map(\.name)
      for n in here { present[people.person(n), default: []].insert(i) }
    }
    let sorted = names.sorted {
      let (a, b) = (present[$0]?.count ?? 0, present[$1]?.count ?? 0)
      return a != b ? a > b : order[$0]! < order[$1]!
    }
    // NB: a day the person was away (their `away:` in the scrum) is not an absence.
    let days = meetings.map {
      CivilDate(dayNumber: Int(floor($0.date.timeIntervalSince1970 / 86_400)))
    }
    let rows = sorted.prefix(attendancePeople).map { name in
      let marks = (0..<meetings.count).map { present[name]?.contains($0) ?? false }
      let attendee = scrum.attendee(named: name)
      let away = (0..<meetings.count).map { i in
        !marks[i] && attendee?.away(on: days[i]) != nil
      }
      return Attendance.Row(
        name: name, present: marks, attended: marks.filter { $0 }.count, away: away,
        expected: meetings.count - away.filter { $0 }.count)
    }
    return Attendance(
      dates: meetings.map(\.date), people: Array(rows),
      otherPeople: max(0, names.count - rows.count))
  }

  static func weeks(_ meetings: [Meeting], missed: [Date]?) -> [Week] {
    var counts: [Int: Int] = [:]
    var gaps: [Int: Int] = [:]
    for m in meetings { counts[monday(m.date), default: 0] += 1 }
    for d in missed ?? [] { gaps[monday(d), default: 0] += 1 }
    let all = Array(counts.keys) + Array(gaps.keys)
    guard let first = all.min(), let last = all.max() else { return [] }
    let start = max(first, last - 7 * 155)
    return stride(from: start, through: last, by: 7).map { day in
      Week(
        week: CivilDate(dayNumber: day).description, meetings: counts[day] ?? 0,
        missed: missed == nil ? nil : gaps[day] ?? 0)
    }
  }

  static func trend(_ meetings: [Meeting], names: [String]) -> [MonthShares] {
    guard !names.isEmpty else { return [] }
    var months: [String: (seconds: [String: Int], total: Int)] = [:]
    let wanted = Set(names)
    for m in meetings {
      let month = String(day(m.date).description.prefix(7))
      for s in m.speakers {
        months[month, default: ([:], 0)].total += s.seconds
        if wanted.contains(s.name) {
          months[month, default: ([:], 0)].seconds[s.name, default: 0] += s.seconds
        }
      }
    }
    return months.keys.sorted().suffix(24).map {
      MonthShares(month: $0, seconds: months[$0]!.seconds, total: months[$0]!.total)
    }
  }

  static func day(_ date: Date) -> CivilDate {
    CivilDate(dayNumber: Int((date.timeIntervalSince1970 / 86_400).rounded(.down)))
  }

  static func monday(_ date: Date) -> Int { day(date).monday.dayNumber }

  static func median(_ values: [Double]) -> Double? {
    guard !values.isEmpty else { return nil }
    let s = values.sorted()
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
  }
}
