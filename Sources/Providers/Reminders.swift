import Base
import FoundationEssentials
import Git
import Glibc
import Models
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
