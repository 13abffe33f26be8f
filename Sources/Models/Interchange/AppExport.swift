import Base
import FoundationEssentials

/// Dinger's scrums and meetings as the apps' own files (`dinger export scrumdinger|syncups`),
/// which the apps' decoders read. What the apps have no place for (schedules, speaker times,
/// turns, written stand-ups, a meeting's length and duration) stays behind; docs/import-export.md
/// lists it.
public enum AppExport {
  /// One scrum with its meetings.
  public typealias Item = ImportBatch.Item

  /// Scrumdinger's `scrums.data` (the 2022-24 tutorial's shape).
  public static func scrumdinger(_ items: [Item]) throws -> [UInt8] {
    let scrums = items.map { item in
      let id = item.scrum.id ?? UUID()
      return AppFiles.DailyScrum(
        id: id.uuidString, title: item.scrum.title,
        attendees: item.scrum.attendees.map {
          .named(id: attendeeID(id, $0.name).uuidString, name: $0.name)
        },
        lengthInMinutes: item.scrum.length, theme: item.scrum.effectiveTheme.rawValue,
        history: item.meetings.sorted { $0.date > $1.date }.map { m in
          AppFiles.History(
            id: (m.id ?? UUID()).uuidString, date: AppFiles.appSeconds(m.date),
            attendees: m.attendees.map { .named(id: attendeeID(id, $0).uuidString, name: $0) },
            transcript: m.transcript)
        })
    }
    return try encode(scrums)
  }

  /// SyncUps' `sync-ups.json`.
  public static func syncups(_ items: [Item]) throws -> [UInt8] {
    let syncUps = items.map { item in
      let id = item.scrum.id ?? UUID()
      return AppFiles.SyncUp(
        id: id.uuidString,
        attendees: item.scrum.attendees.map {
          AppFiles.Person(id: attendeeID(id, $0.name).uuidString, name: $0.name)
        },
        duration: AppFiles.AttoDuration(seconds: Int64(item.scrum.length) * 60),
        meetings: item.meetings.sorted { $0.date > $1.date }.map { m in
          AppFiles.SyncUpMeeting(
            id: (m.id ?? UUID()).uuidString, date: AppFiles.appSeconds(m.date),
            transcript: m.transcript ?? "")
        },
        theme: item.scrum.themeName ?? Theme.default.rawValue, title: item.scrum.title)
    }
    return try encode(syncUps)
  }

  static func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return Array(try encoder.encode(value)) + [10]
  }

  /// An attendee's id in the apps: the same for one name in one scrum on every export (the
  /// scrum's attendees and its meetings' attendees match), made from both.
  public static func attendeeID(_ scrum: UUID, _ name: String) -> UUID {
    var a = FNV1a()
    var b = FNV1a()
    a.add(scrum.lowercased.utf8)
    a.add(0)
    a.add(name.trimmed.lowercased().utf8)
    b.add(name.trimmed.lowercased().utf8)
    b.add(0)
    b.add(scrum.lowercased.utf8)
    var bytes = withUnsafeBytes(of: a.value.bigEndian) { Array($0) }
    bytes += withUnsafeBytes(of: b.value.bigEndian) { Array($0) }
    bytes[6] = (bytes[6] & 0x0f) | 0x80  // version 8: made by this rule
    bytes[8] = (bytes[8] & 0x3f) | 0x80  // RFC 9562 variant
    return UUID(
      uuid: (
        bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8],
        bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
      ))
  }
}
