import Base
import FoundationEssentials

/// What a file from another app brings: scrums with their meetings in Dinger's models, and
/// what was done about everything Dinger's rules refuse (each said, nothing dropped silently).
public struct ImportBatch: Sendable, Equatable {
  /// Where the data came from.
  public enum Source: String, Sendable, CaseIterable {
    case scrumdinger, syncups

    /// `Scrumdinger`, `SyncUps`.
    public var name: String { self == .scrumdinger ? "Scrumdinger" : "SyncUps" }
  }

  /// One scrum and its meetings.
  public struct Item: Sendable, Equatable {
    public var scrum: Scrum
    public var meetings: [Meeting]
    public init(scrum: Scrum, meetings: [Meeting]) {
      (self.scrum, self.meetings) = (scrum, meetings)
    }
  }

  public var source: Source
  public private(set) var items: [Item] = []
  // NB: what `items` holds, indexed, so a file of many scrums, meetings or repeated names is
  // read in time linear in its size (each was a search of everything added before).
  private var scrumIDs: Set<UUID> = []
  private var meetingIDs: Set<UUID> = []
  private var titles: Set<String> = []
  /// For a title taken, the first `(n)` that may be free (every smaller one is taken).
  private var nextSuffix: [String: Int] = [:]
  /// What was refused or changed, one line each: `scrum 'Design': attendee 'Ada' is listed
  /// twice; the second is now 'Ada (2)'`.
  public var notes: [String] = []

  public init(source: Source) { self.source = source }

  // MARK: Reading the apps' files

  /// Reads Scrumdinger's `scrums.data` (either tutorial's shape).
  public static func scrumdinger(_ bytes: [UInt8]) throws -> ImportBatch {
    let scrums = try decode([AppFiles.DailyScrum].self, bytes, app: "Scrumdinger")
    for (i, s) in scrums.enumerated() {
      for (j, m) in s.history.enumerated() {
        try checkDate(
          m.date, at: "[\(i)].history[\(j)].date", of: "scrum '\(OneLineText.excerpt(s.title))'")
      }
    }
    var batch = ImportBatch(source: .scrumdinger)
    for s in scrums {
      let label = "scrum '\(OneLineText.excerpt(s.title))'"
      var theme: Theme?
      if let name = s.theme {
        theme = AppFiles.theme(name)
        if theme == nil {
          batch.notes.append(
            "\(label): theme '\(OneLineText.excerpt(name))' is not one of the 16; dinger picks one")
        }
      } else if let color = s.color {
        theme = color.nearestTheme
        batch.notes.append(
          "\(label): its colour is now the nearest of the 16 themes, \(color.nearestTheme.rawValue) (the colour itself is not kept)"
        )
      }
      batch.notes += lossNotes(
        label, ids: !s.attendees.isEmpty, dates: s.history.map(\.date),
        emptyTranscripts: s.history.filter { $0.transcript?.isEmpty == true }.count)
      var names = s.attendees.map(\.name)
      if names.allSatisfy({ $0.trimmed.isEmpty }) {
        // NB: a scrum needs an attendee; the people at its meetings are real ones.
        var seen = Set<String>()
        names = s.history.flatMap { $0.attendees.map(\.name) }.filter {
          !$0.trimmed.isEmpty && seen.insert($0.trimmed.lowercased()).inserted
        }
        if !names.isEmpty {
          batch.notes.append(
            "\(label) has no attendees; took the \(names.count) who came to its meetings")
        }
      }
      let outside = s.history.compactMap(\.lengthInMinutes).filter {
        !Scrum.lengthRange.contains($0)
      }
      if let first = outside.first {
        batch.notes.append(
          "\(label): \(outside.count == 1 ? "a meeting's" : "\(outside.count) meetings'") planned length (\(first) min\(outside.count == 1 ? "" : ", ...")) is outside 1 to 600 minutes and is left out"
        )
      }
      let meetings = s.history.map {
        Meeting(
          id: UUID(uuidString: $0.id), scrum: UUID.nil,
          date: AppFiles.wholeSeconds(appSeconds: $0.date),
          length: $0.lengthInMinutes.flatMap { Scrum.lengthRange.contains($0) ? $0 : nil },
          duration: nil, attendees: $0.attendees.map(\.name).filter { !$0.trimmed.isEmpty },
          transcript: $0.transcript.flatMap { $0.isEmpty ? nil : $0 }, imported: "scrumdinger")
      }
      batch.add(
        id: s.id, title: s.title, names: names, length: s.lengthInMinutes, theme: theme,
        meetings: zip(s.history.map(\.id), meetings).map { ($0, $1) })
    }
    return batch
  }

  /// Reads SyncUps' `sync-ups.json`. Two sync-ups with one id: refused whole, as the app does.
  public static func syncups(_ bytes: [UInt8]) throws -> ImportBatch {
    let syncUps = try decode([AppFiles.SyncUp].self, bytes, app: "SyncUps")
    var ids = Set<String>()
    for s in syncUps where !ids.insert(s.id.lowercased()).inserted {
      throw ImportError(
        "two sync-ups share the id \(OneLineText.excerpt(s.id)) (SyncUps refuses such a file too); nothing was imported"
      )
    }
    for (i, s) in syncUps.enumerated() {
      for (j, m) in s.meetings.enumerated() {
        try checkDate(
          m.date, at: "[\(i)].meetings[\(j)].date", of: "sync-up '\(OneLineText.excerpt(s.title))'")
      }
      // NB: a planned length is at most 600 minutes; the seconds are compared before any
      // arithmetic on them.
      let seconds = s.duration.seconds
      guard seconds >= 0, seconds <= 100 * 365 * 86_400 else {
        throw ImportError(
          "[\(i)].duration of sync-up '\(OneLineText.excerpt(s.title))' is [\(s.duration.high), \(s.duration.low)], \(seconds) s: not a length of time a meeting has (0 to 100 years); nothing was imported"
        )
      }
    }
    var batch = ImportBatch(source: .syncups)
    for s in syncUps {
      let label = "scrum '\(OneLineText.excerpt(s.title))'"
      let theme = AppFiles.theme(s.theme)
      if theme == nil {
        batch.notes.append(
          "\(label): theme '\(OneLineText.excerpt(s.theme))' is not one of the 16; dinger picks one"
        )
      }
      batch.notes += lossNotes(
        label, ids: !s.attendees.isEmpty, dates: s.meetings.map(\.date),
        emptyTranscripts: s.meetings.filter { $0.transcript.isEmpty }.count)
      if !s.meetings.isEmpty {
        batch.notes.append(
          "\(label): SyncUps recorded no attendees at its meetings; their attendance is unknown (left out of attendance, not counted absent)"
        )
      }
      let seconds = s.duration.seconds
      var minutes = Int(clamping: (seconds + 30) / 60)
      if seconds % 60 != 0 {
        batch.notes.append("\(label): its length of \(seconds) s is rounded to \(minutes) min")
      }
      if !Scrum.lengthRange.contains(minutes) {
        let clamped = min(max(minutes, Scrum.lengthRange.lowerBound), Scrum.lengthRange.upperBound)
        batch.notes.append("\(label): a length of \(minutes) min is now \(clamped) min (1 to 600)")
        minutes = clamped
      }
      let meetings = s.meetings.map {
        Meeting(
          id: UUID(uuidString: $0.id), scrum: UUID.nil,
          date: AppFiles.wholeSeconds(appSeconds: $0.date),
          length: nil, duration: nil, attendees: [],
          transcript: $0.transcript.isEmpty ? nil : $0.transcript, imported: "syncups")
      }
      batch.add(
        id: s.id, title: s.title, names: s.attendees.map(\.name), length: minutes, theme: theme,
        themeSpelling: s.theme, meetings: zip(s.meetings.map(\.id), meetings).map { ($0, $1) })
    }
    return batch
  }

  /// Renames people as the batch is imported (`--map OLD=NEW`, keys compared trimmed and
  /// case-insensitive): in each scrum's attendees (two names that become one are one
  /// attendee) and in every meeting's attendees and speakers.
  public mutating func renamePeople(_ map: [String: String]) {
    guard !map.isEmpty else { return }
    func renamed(_ name: String) -> String { map[name.trimmed.lowercased()] ?? name }
    for i in items.indices {
      var seen = Set<String>()
      var attendees: [Attendee] = []
      for var a in items[i].scrum.attendees {
        a.name = renamed(a.name)
        if seen.insert(a.naturalKey).inserted { attendees.append(a) }
      }
      items[i].scrum.attendees = attendees
      for j in items[i].meetings.indices {
        items[i].meetings[j].attendees = items[i].meetings[j].attendees.map(renamed)
        for k in items[i].meetings[j].speakers.indices {
          items[i].meetings[j].speakers[k].name = renamed(items[i].meetings[j].speakers[k].name)
        }
      }
    }
  }

  /// What a scrum of the apps loses in dinger, said once per scrum: attendee ids (dinger
  /// knows people by name), fractions of a second in meeting dates, empty transcripts.
  static func lossNotes(_ label: String, ids: Bool, dates: [Double], emptyTranscripts: Int)
    -> [String]
  {
    var notes: [String] = []
    if ids { notes.append("\(label): attendee ids are not kept (dinger knows people by name)") }
    let fractional = dates.filter { $0 != $0.rounded(.down) }.count
    if fractional > 0 {
      notes.append(
        "\(label): \(fractional) meeting date\(fractional == 1 ? "" : "s") kept to the whole second (the app kept fractions)"
      )
    }
    if emptyTranscripts > 0 {
      notes.append(
        "\(label): \(emptyTranscripts) empty transcript\(emptyTranscripts == 1 ? "" : "s") left out"
      )
    }
    return notes
  }

  /// Refuses a date outside 1970-2200 (or not a number), naming its place in the file.
  static func checkDate(_ appSeconds: Double, at place: String, of what: String) throws {
    guard AppFiles.takes(appSeconds: appSeconds) else {
      throw ImportError(
        "\(place) of \(what) is \(appSeconds) s after 2001-01-01: not a date between 1970 and 2200; nothing was imported"
      )
    }
  }

  /// A Unix time as a date, when it lies between 1970 and 2200.
  public static func date(unixSeconds: Int64) -> Date? {
    AppFiles.dateRange.contains(Double(unixSeconds))
      ? Date(timeIntervalSince1970: Double(unixSeconds)) : nil
  }

  static func decode<T: Decodable>(_ type: T.Type, _ bytes: [UInt8], app: String) throws -> T {
    guard bytes.count <= AppFiles.maxBytes else {
      throw ImportError(
        "the file is \(bytes.count >> 20) MB; an app's file is read up to \(AppFiles.maxBytes >> 20) MB"
      )
    }
    do {
      return try JSONDecoder().decode(type, from: Data(bytes))
    } catch let error as DecodingError {
      throw ImportError("this is not \(app)'s file: \(Self.describe(error))")
    } catch {
      throw ImportError("this is not \(app)'s file: it is not JSON")
    }
  }

  static func describe(_ error: DecodingError) -> String {
    func path(_ c: DecodingError.Context) -> String {
      let p = c.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
      return p.isEmpty ? "the top level" : String(p.drop { $0 == "." })
    }
    switch error {
    case .keyNotFound(let key, let c):
      return "'\(key.stringValue)' is missing at \(path(c))"
    case .typeMismatch(_, let c), .valueNotFound(_, let c):
      return "\(path(c)) has the wrong type (\(c.debugDescription))"
    case .dataCorrupted(let c):
      return c.codingPath.isEmpty ? "it is not JSON" : "\(path(c)): \(c.debugDescription)"
    @unknown default:
      return "\(error)"
    }
  }

  // MARK: Dinger's rules

  /// Adds one scrum after Dinger's rules: a UUID id, a title (not empty, not repeated in the
  /// file), named attendees without repeats, a length of 1 to 600 minutes.
  mutating func add(
    id: String, title: String, names: [String], length: Int, theme: Theme?,
    themeSpelling: String? = nil, meetings: [(id: String, meeting: Meeting)]
  ) {
    var label = "scrum '\(OneLineText.excerpt(title))'"
    guard let uuid = UUID(uuidString: id) else {
      notes.append("\(label) refused: its id '\(OneLineText.excerpt(id))' is not a UUID")
      return
    }
    guard !scrumIDs.contains(uuid) else {
      notes.append("\(label) refused: another scrum in the file has its id \(uuid.lowercased)")
      return
    }
    var title = String(title.trimmed.unicodeScalars.prefix(Scrum.maxTitle))
    if title.isEmpty {
      title = "Untitled"
      notes.append("a scrum with an empty title is now '\(unique(title).title)'")
    }
    let (free, suffix) = unique(title)
    if free != title {
      notes.append("\(label): another scrum in the file has its title; it is now '\(free)'")
    }
    let base = title.lowercased()
    title = free
    label = "scrum '\(OneLineText.excerpt(title))'"
    let attendees = attendees(names, label: label)
    guard !attendees.isEmpty else {
      notes.append(
        "\(label) refused, with its \(meetings.count) meeting\(meetings.count == 1 ? "" : "s"): it has no attendees and a scrum needs one; add one in the app and export again"
      )
      return
    }
    var length = length
    if !Scrum.lengthRange.contains(length) {
      let clamped = min(max(length, Scrum.lengthRange.lowerBound), Scrum.lengthRange.upperBound)
      notes.append("\(label): a length of \(length) min is now \(clamped) min (1 to 600)")
      length = clamped
    }
    let (kept, seen) = self.meetings(meetings, of: uuid, label: label)
    var scrum = Scrum(id: uuid, title: title, theme: theme, length: length, attendees: attendees)
    scrum.keepThemeSpelling(themeSpelling)
    items.append(Item(scrum: scrum, meetings: kept))
    scrumIDs.insert(uuid)
    meetingIDs.formUnion(seen)
    titles.insert(title.lowercased())
    if let suffix { nextSuffix[base] = suffix + 1 }
  }

  /// The named attendees, a repeated name numbered (`Ana (2)`), an empty one left out.
  private mutating func attendees(_ names: [String], label: String) -> [Attendee] {
    var attendees: [Attendee] = []
    var taken = Set<String>()
    for raw in names {
      let name = String(raw.trimmed.unicodeScalars.prefix(Attendee.maxName))
      if name.isEmpty {
        notes.append("\(label): an attendee without a name was left out")
        continue
      }
      // NB: one name, one person: a name listed twice (the app gave it two ids) is one
      // attendee, not a phantom "Nia (2)" whom every meeting then counts absent.
      if taken.contains(name.lowercased()) {
        notes.append(
          "\(label): attendee '\(name)' is listed twice; dinger keeps one person of that name")
        continue
      }
      taken.insert(name.lowercased())
      attendees.append(Attendee(name: name))
    }
    return attendees
  }

  /// The scrum's meetings with ids that are UUIDs and not repeated (in the scrum or the
  /// batch), each pointed at the scrum; and their ids.
  private mutating func meetings(
    _ meetings: [(id: String, meeting: Meeting)], of uuid: UUID, label: String
  ) -> (kept: [Meeting], ids: Set<UUID>) {
    var kept: [Meeting] = []
    var seen = Set<UUID>()
    for (raw, meeting) in meetings {
      guard var meeting = Optional(meeting), let mid = meeting.id else {
        notes.append(
          "\(label): a meeting whose id '\(OneLineText.excerpt(raw))' is not a UUID was refused")
        continue
      }
      guard seen.insert(mid).inserted, !meetingIDs.contains(mid) else {
        notes.append("\(label): a second meeting with the id \(mid.lowercased) was refused")
        continue
      }
      meeting.scrum = uuid
      if let transcript = meeting.transcript, let cut = Self.transcriptCut(transcript) {
        meeting.transcript = cut
        notes.append(
          "\(label): meeting \(mid.lowercased)'s transcript of \(transcript.utf8.count >> 20) MB is over what a meeting file holds (8 MB); its first \(cut.utf8.count >> 20) MB are kept"
        )
      }
      kept.append(meeting)
    }
    return (kept, seen)
  }

  /// What of a transcript fits a meeting file (8 MiB, with 512 KiB for the rest of the record):
  /// its start up to a character, counting the two spaces YAML puts before each of its lines;
  /// nil when all of it fits.
  static func transcriptCut(_ text: String) -> String? {
    let room = (8 << 20) - (512 << 10)
    var cost = 0
    var end = text.utf8.startIndex
    for i in text.utf8.indices {
      let b = text.utf8[i]
      cost += b == 0x0A ? 3 : 1
      if cost > room { break }
      end = text.utf8.index(after: i)
    }
    guard end < text.utf8.endIndex else { return nil }
    // NB: back to a scalar's first byte, then to a character's start.
    var cut = end
    while cut > text.utf8.startIndex, text.utf8[cut] & 0xC0 == 0x80 {
      cut = text.utf8.index(before: cut)
    }
    let scalars = String(text.utf8[..<cut]) ?? ""
    return String(scalars.dropLast())
  }

  /// `title`, or `title (2)`, `(3)`... when a scrum in the batch has it (case ignored), with
  /// the number given.
  func unique(_ title: String) -> (title: String, suffix: Int?) {
    guard titles.contains(title.lowercased()) else { return (title, nil) }
    var n = nextSuffix[title.lowercased()] ?? 2
    while titles.contains("\(title) (\(n))".lowercased()) { n += 1 }
    return ("\(title) (\(n))", n)
  }
}

/// A file that cannot be imported: what is wrong, and nothing was changed.
public struct ImportError: Error, CustomStringConvertible, Sendable {
  public var description: String
  public init(_ description: String) { self.description = description }
}
