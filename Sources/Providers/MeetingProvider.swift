import Base
import FoundationEssentials
import Glibc
import Models
import Storage
import YAML

/// A meeting as stored.
public struct StoredMeeting: Sendable, Equatable {
  /// Data-relative path (`history/design/2026-11-21-3f2c0a1b.yaml`).
  public var path: String
  /// The meeting.
  public var meeting: Meeting
}

/// Meetings: recording (as a commit), history, removal.
public struct MeetingProvider: Sendable {
  /// The storage verbs (the same as scrums use).
  public let dependencies: ScrumProvider.Dependencies

  /// Wraps dependencies.
  public init(_ dependencies: ScrumProvider.Dependencies) { self.dependencies = dependencies }

  /// Meetings of a git-backed data repository.
  public static func live(repository: DataRepository) -> MeetingProvider {
    MeetingProvider(ScrumProvider.live(repository: repository).dependencies)
  }

  /// Meetings in memory.
  public static func inMemory(_ store: InMemoryStore) -> MeetingProvider {
    MeetingProvider(ScrumProvider.inMemory(store).dependencies)
  }

  var scrums: ScrumProvider { ScrumProvider(dependencies) }

  /// Records a meeting of a scrum as one commit: "Record meeting of Design (12 min, 4 attendees)".
  /// A hand-written scrum without an id gets one in the same commit (meetings refer to it by id).
  public func record(_ meeting: Meeting, of stored: StoredScrum) throws -> (
    StoredMeeting, subject: String
  ) {
    var meeting = meeting
    if meeting.id == nil { meeting.id = UUID() }
    meeting.date = Date(timeIntervalSince1970: meeting.date.timeIntervalSince1970.rounded(.down))
    let id = meeting.id!.lowercased
    let day = String(ISODate.format(meeting.date).prefix(10))
    let path = "history/\(stored.slug)/\(day)-\(id.prefix(8)).yaml"
    var subject = ""
    _ = try dependencies.commit { snapshot in
      var change = Change(subject: "")
      var scrum = stored.scrum
      if scrum.id == nil {
        // NB: only then is the scrum's file written (and so read as committed now).
        var source: SourceText
        (scrum, source) = try ScrumProvider.committed(stored, in: snapshot)
        scrum.id = scrum.id ?? UUID()
        change.write(stored.path, try RecordCodec.encode(.scrum(scrum), updating: source).text)
      }
      meeting.scrum = scrum.id!
      if let issue = meeting.validate().first(where: { $0.severity == .error }) {
        throw StorageError(issue.message)
      }
      // NB: a meeting under a minute says its seconds ("(0 min, ...)" read as nothing).
      let seconds = meeting.duration ?? 0
      let length = seconds < 60 ? "\(seconds) s" : "\((seconds + 30) / 60) min"
      change.subject =
        "Record meeting of \(scrum.title) (\(length), \(meeting.attendees.count) attendee\(meeting.attendees.count == 1 ? "" : "s"))"
      change.trailers = [
        ("Dinger-Action", "meeting.record"), ("Dinger-Record", id),
        ("Dinger-Scrum", scrum.id!.lowercased),
      ]
      change.write(path, try RecordCodec.newFile(.meeting(meeting), at: path))
      subject = change.subject
      return change
    }
    return (StoredMeeting(path: path, meeting: meeting), subject)
  }

  /// Meetings, newest first; of one scrum when given; within `since`...`until` when given.
  public func history(of stored: StoredScrum? = nil, since: Date? = nil, until: Date? = nil) throws
    -> [StoredMeeting]
  {
    // NB: only the files that can be in the answer are read: a scrum's own folder, and days
    // (from the file name, `2026-11-21-3f2c0a1b.yaml`) within the range; the exact checks
    // below still apply. Ten years of meetings cost what one scrum's share costs.
    let sinceDay = since.map { String(ISODate.format($0).prefix(10)) }
    let untilDay = until.map { String(ISODate.format($0).prefix(10)) }
    var listed =
      try stored.map { try dependencies.pathsIn("history/\($0.slug)") }
      ?? dependencies.paths(.meeting)
    if stored != nil {
      // NB: a scrum renamed by hand (git mv) left its meetings in the old folder: folders no
      // scrum is named after are read too (only those), and their meetings kept by scrum id.
      let slugs = Set(try dependencies.paths(.scrum).map { RecordLayout.slug(ofPath: $0) })
      for folder in try dependencies.folders("history") where !slugs.contains(folder) {
        listed += try dependencies.pathsIn("history/\(folder)")
      }
    }
    let paths = listed.filter { path in
      let day = String(path.split(separator: "/").last?.prefix(10) ?? "")
      guard ISODate.parse(day) != nil else { return true }
      if let sinceDay, day < sinceDay { return false }
      if let untilDay, day > untilDay { return false }
      return true
    }
    var out: [StoredMeeting] = []
    for file in try dependencies.read(.meeting, paths) {
      guard case .meeting(let meeting) = file.record else { continue }
      if let stored, meeting.scrum != stored.scrum.id { continue }
      if let since, meeting.date < since { continue }
      if let until, meeting.date > until { continue }
      out.append(StoredMeeting(path: file.path, meeting: meeting))
    }
    return out.sorted { ($0.meeting.date, $0.path) > ($1.meeting.date, $1.path) }
  }

  /// A meeting by a prefix of its id or its file name.
  public func find(_ query: String) throws -> StoredMeeting {
    // NB: the file name `history` prints, with or without `.yaml` or its folders, works too.
    var q = query.trimmingSpaces().lowercased()
    if q.hasSuffix(".yaml") { q = String(q.dropLast(5)) }
    let matches = try history().filter {
      let stem = String($0.path.dropLast(5))
      return q.contains("/")
        ? stem == q || stem.hasSuffix("/" + q)
        : $0.meeting.id?.lowercased.hasPrefix(q) == true
          || URL(fileURLWithPath: stem).lastPathComponent == q
    }
    guard matches.count == 1 else {
      throw StorageError(
        matches.isEmpty
          ? "no meeting '\(query)'; 'dinger history' lists them with their ids"
          : "'\(query)' matches \(matches.count) meetings; give more of the id",
        kind: matches.isEmpty ? .notFound(query) : .ambiguous(query))
    }
    return matches[0]
  }

  /// Removes a meeting as one commit.
  public func remove(_ stored: StoredMeeting) throws -> String {
    let title =
      try scrums.list().scrums.first { $0.scrum.id == stored.meeting.scrum }?.scrum.title
      ?? "a removed scrum"
    var change = Change(
      subject: "Remove meeting of \(title) on \(ISODate.format(stored.meeting.date).prefix(10))",
      trailers: [("Dinger-Action", "meeting.remove")])
    if let id = stored.meeting.id { change.trailers.append(("Dinger-Record", id.lowercased)) }
    change.remove(stored.path)
    _ = try dependencies.commit { snapshot in
      guard try snapshot.read(stored.path) != nil else {
        throw StorageError("the meeting \(stored.path) was removed meanwhile")
      }
      return change
    }
    return change.subject
  }
}
