import Base
import FoundationEssentials
import Git
import Glibc
import Models
import Schedules
import Storage
import YAML

/// Bringing a team's data in from the apps Dinger descends from, and taking it out again.
public struct InterchangeProvider: Sendable {
  let scrums: ScrumProvider
  let meetings: MeetingProvider

  public init(_ dependencies: ScrumProvider.Dependencies) {
    scrums = ScrumProvider(dependencies)
    meetings = MeetingProvider(dependencies)
  }

  public static func live(repository: Workspace) -> InterchangeProvider {
    InterchangeProvider(ScrumProvider.live(repository: repository).dependencies)
  }

  /// What an import did (or, dry, would do).
  public struct ImportResult: Sendable, Equatable {
    public var subject: String
    public var commit: String?
    public var newScrums: [String] = []
    public var newMeetings = 0
    public var scrumsHere = 0
    public var meetingsHere = 0
    /// What was refused or renamed, one line each.
    public var notes: [String] = []
    /// The files written, in order (for --dry-run).
    public var paths: [String] = []
  }

  /// Imports `batch` as one commit ("Import 3 scrums and 41 meetings from Scrumdinger").
  /// Ids are kept: a scrum or meeting already here (by id) is left as it is, so importing the
  /// same file twice adds nothing. A title another scrum here has gets ` (2)`, said in a note.
  public func importBatch(_ batch: ImportBatch, dryRun: Bool = false) throws -> ImportResult {
    let existing = try scrums.list().scrums
    let meetingIDs = Set(try meetings.history().compactMap(\.meeting.id))
    var result = ImportResult(subject: "", notes: batch.notes)
    var writes: [(String, String)] = []
    var titles = Set(existing.map { $0.scrum.title.trimmed.lowercased() })
    var taken = Set(existing.map(\.path))
    var usedThemes = Set(existing.compactMap(\.scrum.theme))
    let byID = Dictionary(
      existing.compactMap { s in s.scrum.id.map { ($0, s) } }, uniquingKeysWith: { a, _ in a })
    for item in batch.items {
      var slug: String
      var scrum = item.scrum
      if let here = scrum.id.flatMap({ byID[$0] }) {
        slug = here.slug
        result.scrumsHere += 1
      } else {
        if titles.contains(scrum.title.lowercased()) {
          var n = 2
          while titles.contains("\(scrum.title) (\(n))".lowercased()) { n += 1 }
          result.notes.append(
            "scrum '\(OneLineText.excerpt(scrum.title))': a scrum here has that title; it is now '\(scrum.title) (\(n))'"
          )
          scrum.title = "\(scrum.title) (\(n))"
        }
        titles.insert(scrum.title.lowercased())
        if scrum.theme == nil {
          scrum.theme = Theme.allCases.first { !usedThemes.contains($0) } ?? .default
        }
        usedThemes.insert(scrum.theme!)
        let path = Slug.uniquePath(
          folder: "scrums", title: scrum.title, taken: taken, fallback: "scrum")
        taken.insert(path)
        slug = String(path.dropFirst("scrums/".count).dropLast(".yaml".count))
        writes.append((path, try RecordCodec.newFile(.scrum(scrum), at: path)))
        result.newScrums.append(scrum.title)
      }
      for meeting in item.meetings {
        guard let id = meeting.id, !meetingIDs.contains(id) else {
          result.meetingsHere += 1
          continue
        }
        let day = String(ISODate.format(meeting.date).prefix(10))
        let path = "history/\(slug)/\(day)-\(id.lowercased.prefix(8)).yaml"
        writes.append((path, try RecordCodec.newFile(.meeting(meeting), at: path)))
        result.newMeetings += 1
      }
    }
    result.paths = writes.map(\.0)
    let what = [
      result.newScrums.isEmpty ? nil : Self.count(result.newScrums.count, "scrum"),
      result.newMeetings == 0 ? nil : Self.count(result.newMeetings, "meeting"),
    ].compactMap { $0 }.joined(separator: " and ")
    guard !writes.isEmpty else {
      result.subject =
        "nothing to import: \(Self.count(result.scrumsHere, "scrum")) and \(Self.count(result.meetingsHere, "meeting")) from \(batch.source.name) are here already"
      return result
    }
    result.subject = "Import \(what) from \(batch.source.name)"
    if dryRun { return result }
    let subject = result.subject
    let body = result.notes.isEmpty ? nil : result.notes.map { "- " + $0 }.joined(separator: "\n")
    result.commit = try scrums.dependencies.commit { snapshot in
      var change = Change(
        subject: subject, body: body,
        trailers: [("Dinger-Action", "import.\(batch.source.rawValue)")])
      for (path, text) in writes {
        // NB: under the lock: a file made meanwhile by another writer is never overwritten.
        if try snapshot.read(path) != nil {
          throw StorageError(
            "\(path) was written by another command while importing; run the import again")
        }
        change.write(path, text)
      }
      return change
    }
    return result
  }

  /// A file a user names (an app's export, a spreadsheet), read whole up to `limit` bytes (a
  /// regular file; a longer one is refused by its size before it is read).
  public static func readFile(_ path: String, limit: Int) throws -> [UInt8] {
    var st = stat()
    guard stat(path, &st) == 0 else {
      throw StorageError("can't read '\(path)': \(String(cString: strerror(errno)))")
    }
    guard st.st_mode & S_IFMT == S_IFREG else {
      throw StorageError("can't read '\(path)': it is not a file")
    }
    // NB: the size said before anything is read (a stale errno said "Inappropriate ioctl").
    guard st.st_size <= limit else {
      throw StorageError(
        "'\(path)' is \(Self.megabytes(Int(st.st_size))), over the \(limit >> 20) MB an import reads; nothing was read"
      )
    }
    errno = 0
    guard let bytes = RegularFile.read(path, limit: limit + 1) else {
      let why = errno == 0 ? "it changed while it was read" : String(cString: strerror(errno))
      throw StorageError("can't read '\(path)': \(why)")
    }
    guard bytes.count <= limit else {
      throw StorageError(
        "'\(path)' grew over the \(limit >> 20) MB an import reads while it was read; nothing was read"
      )
    }
    return bytes
  }

  static func megabytes(_ bytes: Int) -> String {
    bytes >= 10 << 20 ? "\(bytes >> 20) MB" : String(cFormat: "%.1f MB", Double(bytes) / 1_048_576)
  }

  /// Imports Geekbot's reports as written stand-up entries of `stored`, one commit; an entry
  /// for that person and day already here is left as it is. A report's day is its writer's:
  /// in the attendee's `zone:`, else the scrum's (its schedule's), else `zone`; a report dated
  /// after its writer's today (at `now`) is left out.
  public func importGeekbot(
    _ bytes: [UInt8], into stored: StoredScrum, zone fallback: any WallClockZone,
    now: Date = Date(), renames: [String: String] = [:], dryRun: Bool = false
  ) throws -> ImportResult {
    let scrumZone: any WallClockZone =
      stored.scrum.schedule.flatMap { ZoneDatabase.system.rules($0.zone) } ?? fallback
    func zone(_ a: Attendee) -> any WallClockZone {
      a.zone.flatMap { ZoneDatabase.system.rules($0) } ?? scrumZone
    }
    let day = { (date: Date, writer: Attendee) -> CivilDate in
      CivilDate(at: date, in: zone(writer))
    }
    guard let id = stored.scrum.id else {
      throw StorageError(
        "scrum '\(stored.scrum.title)' has no id yet; edit it once (dinger scrum edit) and import again"
      )
    }
    let converted: GeekbotReports.Converted
    do {
      converted = try GeekbotReports.convert(
        bytes, scrum: stored.scrum, id: id, day: day, today: { day(now, $0) }, renames: renames)
    } catch let error as ImportError {
      throw StorageError(error.description + "; nothing was imported")
    }
    let here = try StandupProvider(scrums: scrums).entries(of: stored).entries
    let taken = Set(here.map { "\($0.entry.by.trimmed.lowercased())@\($0.entry.date)" })
    var result = ImportResult(subject: "", notes: converted.notes)
    var writes: [(String, String)] = []
    for entry in converted.entries {
      guard !taken.contains("\(entry.by.trimmed.lowercased())@\(entry.date)") else {
        result.meetingsHere += 1
        continue
      }
      do {
        try StandupProvider.validate(entry, against: stored.scrum)
      } catch {
        result.notes.append(
          "the report by \(entry.by) for \(entry.date) left out: \(Workspace.message(of: error) ?? "\(error)")"
        )
        continue
      }
      let path = StandupFiles.path(scrumSlug: stored.slug, date: entry.date, by: entry.by)
      writes.append((path, try RecordCodec.newFile(.standup(entry), at: path)))
    }
    result.paths = writes.map(\.0)
    guard !writes.isEmpty else {
      result.subject =
        "nothing to import: \(Self.count(result.meetingsHere, "entry")) from Geekbot \(result.meetingsHere == 1 ? "is" : "are") here already"
      return result
    }
    result.subject =
      "Import \(writes.count == 1 ? "1 stand-up entry" : "\(writes.count) stand-up entries") from Geekbot into \(stored.scrum.title)"
    if dryRun { return result }
    let subject = result.subject
    result.commit = try scrums.dependencies.commit { snapshot in
      guard try snapshot.read(stored.path) != nil else {
        throw StorageError(
          "scrum '\(stored.scrum.title)' was removed meanwhile; nothing was imported")
      }
      var change = Change(
        subject: subject,
        trailers: [("Dinger-Action", "import.geekbot"), ("Dinger-Record", id.lowercased)])
      for (path, text) in writes {
        if try snapshot.read(path) != nil {
          throw StorageError("\(path) was written meanwhile; run the import again")
        }
        change.write(path, text)
      }
      return change
    }
    return result
  }

  static func count(_ n: Int, _ noun: String) -> String {
    n == 1 ? "1 \(noun)" : noun.hasSuffix("y") ? "\(n) \(noun.dropLast())ies" : "\(n) \(noun)s"
  }

  /// The scrums named (all when none) with their meetings, for an export, and what was left
  /// out: a record without an id yet (hand-written) would come back from the app as a copy.
  public func items(_ queries: [String]) throws -> (items: [ImportBatch.Item], notes: [String]) {
    let chosen = queries.isEmpty ? try scrums.list().scrums : try queries.map(scrums.find)
    let all = try meetings.history()
    var byScrum: [UUID: [Meeting]] = [:]
    var notes: [String] = []
    let noID = all.filter { $0.meeting.id == nil }
    if !noID.isEmpty {
      notes.append(
        "\(Self.count(noID.count, "meeting")) without an id left out (\(noID.prefix(3).map(\.path).joined(separator: ", "))); an id: line in each brings it along"
      )
    }
    for m in all where m.meeting.id != nil {
      byScrum[m.meeting.scrum, default: []].append(m.meeting)
    }
    var items: [ImportBatch.Item] = []
    for stored in chosen {
      guard let id = stored.scrum.id else {
        notes.append(
          "scrum '\(stored.scrum.title)' left out: it has no id yet (\(stored.path)); edit it once with dinger scrum edit to give it one"
        )
        continue
      }
      items.append(
        ImportBatch.Item(
          scrum: stored.scrum, meetings: byScrum[id]?.sorted { $0.date < $1.date } ?? []))
    }
    return (items, notes)
  }

}
