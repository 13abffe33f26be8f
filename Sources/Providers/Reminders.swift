import Base
import FoundationEssentials
import Git
import Glibc
import Models
import Schedules
import Storage

/// Reminders before each stand-up (`dinger remind`), meant to run every few minutes from cron,
/// a systemd timer or a CI schedule. Idempotent: what was sent is remembered under
/// `.git/dinger/reminders-v1.tsv` (never committed), so a second run in the same window sends
/// nothing.
public struct Reminders: Sendable {
  let schedules: ScheduleProvider
  let standups: StandupProvider
  let folder: URL?

  public init(repository: Workspace) {
    schedules = .live(repository: repository)
    standups = .live(repository: repository)
    folder = repository.dingerFolderIfUsable
  }

  /// One reminder: the stand-up, each attendee's local time, and who has not written yet.
  public struct Reminder: Sendable, Equatable, Codable {
    public var scrum: String
    public var slug: String
    public var start: Date
    /// The key it is remembered by: the scrum's id (or slug) and the occurrence's start.
    public var key: String
    public var text: String
    /// Attendees away that day (named nowhere in the reminder).
    public var away: [String]
    public var notWritten: [String]
    /// The Matrix ids of the people a personal reminder is for (`m.mentions`): pinged on
    /// purpose, the only ones.
    public var mentions: [String] = []
  }

  /// The reminders due now: stand-ups starting within `before` seconds from `viewer.now`
  /// (and not begun), less the ones already sent for `target`.
  public func due(before: Int, viewer: ViewerClock, target: String) throws -> [Reminder] {
    // NB: due from exactly `before` ahead, inclusive: run at 09:20 with --before 10m, a 09:30
    // stand-up is reminded then, not a cron tick later (the window's end was exclusive, and
    // the clock's fraction of a second cut it below 09:30).
    let end = viewer.now.addingTimeInterval(TimeInterval(before))
    let window = viewer.now..<end.addingTimeInterval(1)
    let items = try schedules.agenda(window, viewer: viewer).filter {
      $0.date >= viewer.now && $0.date <= end.addingTimeInterval(0.999)
    }
    let sent = Set(remembered())
    // NB: the scrums listed once, not once per stand-up due.
    let scrumsBySlug =
      items.isEmpty
      ? [:]
      : Dictionary(
        try schedules.scrums.list().scrums.map { ($0.slug, $0) }, uniquingKeysWith: { a, _ in a })
    var out: [Reminder] = []
    for item in items {
      let key =
        "\(item.id ?? item.slug)@\(Int64(item.date.timeIntervalSince1970))#\(Self.fingerprint(target))"
      guard !sent.contains(key) else { continue }
      let minutes = max(0, Int((item.date.timeIntervalSince(viewer.now) / 60).rounded(.up)))
      var text = "\(item.title) starts in \(minutes) min (\(item.zoneTime) \(item.zone))"
      let away = item.attendees.filter { $0.away != nil }.map(\.name)
      let times = item.attendees.filter { $0.away == nil && $0.time != nil }.map {
        "\($0.name) \($0.time!)" + ($0.day.map { " (\($0))" } ?? "")
      }
      if !times.isEmpty { text += "; local times: " + times.joined(separator: ", ") }
      // NB: who has not written their entry of the day yet (a scrum that writes one), the
      // absent left out.
      var notWritten: [String] = []
      if let stored = scrumsBySlug[item.slug] {
        let entries = try standups.entries(of: stored).entries
        if !entries.isEmpty, let day = CivilDate(item.day) {
          notWritten = standups.day(day, of: stored, entries: entries)
            .filter { $0.status == .missing }.map(\.person)
        }
      }
      if !notWritten.isEmpty { text += "; not written yet: " + notWritten.joined(separator: ", ") }
      out.append(
        Reminder(
          scrum: item.title, slug: item.slug, start: item.date, key: key, text: text, away: away,
          notWritten: notWritten))
    }
    return out + (try personal(from: viewer.now, to: end, sent: sent, target: target))
  }

  /// Each person's own reminder to write (`standup: remind: "09:00"`, in the attendee's zone,
  /// else the scrum's): one reminder per scrum and instant, naming (and mentioning) exactly the
  /// attendees whose morning it is, whose day it is to write, who are not away and have not
  /// written yet.
  func personal(from now: Date, to end: Date, sent: Set<String>, target: String) throws
    -> [Reminder]
  {
    let scrums = try schedules.scrums.list().scrums.filter { $0.scrum.standup?.remind != nil }
    var out: [Reminder] = []
    let (from, until) = (
      Int64(now.timeIntervalSince1970.rounded(.up)), Int64(end.timeIntervalSince1970)
    )
    for stored in scrums {
      guard let time = stored.scrum.standup?.remind.flatMap({ LocalTime($0) }) else { continue }
      let scrumZone: any WallClockZone =
        stored.scrum.schedule.flatMap { ZoneDatabase.system.rules($0.zone) } ?? FixedZone.utc
      let expected = Set(
        StandupSettings.expectedDays(stored.scrum.standup, schedule: stored.scrum.schedule))
      var groups: [Int64: [(person: Attendee, day: CivilDate)]] = [:]
      var entries: [StoredEntry]?
      for person in stored.scrum.attendees {
        let zone = person.zone.flatMap { ZoneDatabase.system.rules($0) } ?? scrumZone
        let today = Int64(CivilDate(at: from, in: zone).dayNumber)
        for number in [today - 1, today, today + 1] {
          let instant = zone.utc(
            forLocal: number * 86400 + Int64(time.hour * 3600 + time.minute * 60))
          guard instant >= from, instant <= until else { continue }
          let day = CivilDate(dayNumber: Int(number))
          guard expected.contains(day.weekday), person.away(on: day) == nil else { continue }
          if entries == nil { entries = try standups.entries(of: stored).entries }
          let written = entries!.contains {
            $0.entry.date == day.description
              && $0.entry.by.trimmed.lowercased() == person.naturalKey && $0.entry.isWritten
          }
          if !written { groups[instant, default: []].append((person, day)) }
        }
      }
      for (instant, people) in groups.sorted(by: { $0.key < $1.key }) {
        let key =
          "standup:\(stored.scrum.id?.lowercased ?? stored.slug)@\(instant)#\(Self.fingerprint(target))"
        guard !sent.contains(key) else { continue }
        let names = people.map(\.person.name)
        out.append(
          Reminder(
            scrum: stored.scrum.title, slug: stored.slug,
            start: Date(timeIntervalSince1970: TimeInterval(instant)), key: key,
            text:
              "Good morning \(names.joined(separator: ", ")): time to write your stand-up for \(stored.scrum.title) (\(time) your time)",
            away: [], notWritten: names, mentions: people.compactMap(\.person.matrix)))
      }
    }
    return out
  }

  /// Remembers that these were sent (appended; the file keeps its last 10,000 lines).
  public func remember(_ sent: [Reminder]) {
    guard let folder, !sent.isEmpty else { return }
    let keep = (remembered() + sent.map(\.key)).suffix(10_000)
    let path = folder.appendingPathComponent("reminders-v1.tsv")
    // NB: a cache-like record of what was sent: no fsync (losing it at a power cut means one
    // reminder sent twice, not data lost).
    try? AtomicFile.write(
      Array((keep.joined(separator: "\n") + "\n").utf8), to: path.path, durability: .cache)
  }

  func remembered() -> [String] {
    guard let folder,
      let bytes = RegularFile.read(folder.appendingPathComponent("reminders-v1.tsv").path)
    else { return [] }
    return String(decoding: bytes.prefix(4 << 20), as: UTF8.self).split(separator: "\n").map(
      String.init)
  }

  static func fingerprint(_ target: String) -> String {
    var h = FNV1a()
    h.add(target.utf8)
    return String(h.value & 0xffff_ffff, radix: 16)
  }
}
