import Base
import FoundationEssentials
import Glibc
import Models
import Storage
import YAML

/// A written stand-up entry as stored.
public struct StoredEntry: Sendable, Equatable {
  /// `standups/<scrum-slug>/<date>-<person>.yaml`.
  public var path: String
  public var entry: StandupEntry
}

/// One attendee's day in the written stand-up: what they wrote, or that they are away, or
/// that their entry is missing.
public struct StandupDay: Sendable, Equatable {
  public enum Status: String, Sendable, Equatable { case written, away, missing, notExpected }
  public var person: String
  public var status: Status
  public var entry: StoredEntry?
  public var away: Absence?
}

/// Written stand-ups: entries per person per day, blockers followed across days. Entries live
/// beside the scrum's meetings (`standups/<scrum-slug>/`), each person writing only their own
/// file, so teammates never conflict.
public struct StandupProvider: Sendable {
  let scrums: ScrumProvider

  public init(scrums: ScrumProvider) { self.scrums = scrums }

  /// Reads from and commits to a data repository.
  public static func live(repository: Workspace) -> StandupProvider {
    StandupProvider(scrums: .live(repository: repository))
  }

  // MARK: Reading

  /// The scrum's entries (in its folder, naming it), oldest day first, and the diagnostics of
  /// entry files there that do not read.
  public func entries(of stored: StoredScrum) throws -> (
    entries: [StoredEntry], problems: [Diagnostic]
  ) {
    // NB: every entry naming the scrum, wherever it is filed: an entry a merge left in the
    // scrum's old folder (a rename beside a teammate's entry) is still the scrum's (`check`
    // says it is misfiled). Filed elsewhere only by the folder's name, such an entry was lost
    // to every view.
    let files = try scrums.dependencies.load(.standup)
    var entries: [StoredEntry] = []
    var problems: [Diagnostic] = []
    for file in files {
      guard case .standup(let entry)? = file.record else {
        problems += file.diagnostics.filter { $0.severity == .error }
        continue
      }
      if let id = stored.scrum.id, entry.scrum != id { continue }
      entries.append(StoredEntry(path: file.path, entry: entry))
    }
    entries.sort { ($0.entry.date, $0.entry.by) < ($1.entry.date, $1.entry.by) }
    return (entries, problems)
  }

  /// The writer's entry of `date`, wherever it is filed, found by its file name: at its own
  /// path (one folder listed), else among every entry file of that day (names listed, only
  /// those decoded). Writing today's entry costs the day, not the years (issue 57: reading
  /// every entry of every scrum was 65 % of a `standup` at ten years).
  func entry(of stored: StoredScrum, by writer: String, date: String) throws -> StoredEntry? {
    let expected = StandupFiles.path(scrumSlug: stored.slug, date: date, by: writer)
    let deps = scrums.dependencies
    func ofTheDay(_ folder: String) throws -> [String] {
      if let listed = deps.pathsWithPrefix { return try listed(folder, date + "-") }
      return try deps.pathsIn(folder).filter {
        ($0.split(separator: "/").last ?? "").hasPrefix(date + "-")
      }
    }
    let own = try ofTheDay("standups/\(stored.slug)")
    var candidates = own.contains(expected) ? [expected] : own
    if candidates.isEmpty {
      // NB: a teammate's `git mv` of the scrum file leaves entries in a folder of another name.
      for other in try deps.folders("standups") where other != stored.slug {
        candidates += try ofTheDay("standups/\(other)")
      }
    }
    guard !candidates.isEmpty else { return nil }
    let key = writer.trimmed().lowercased()
    for file in try scrums.dependencies.read(.standup, candidates) {
      guard case .standup(let entry)? = file.record, entry.date == date,
        entry.by.trimmed().lowercased() == key
      else { continue }
      if let id = stored.scrum.id, entry.scrum != id { continue }
      return StoredEntry(path: file.path, entry: entry)
    }
    return nil
  }

  /// The blockers of the scrum's entries, in the order opened.
  public func blockers(of stored: StoredScrum) throws -> [Blocker] {
    Blockers.follow(try entries(of: stored).entries.map(\.entry))
  }

  /// Each attendee's `day`: written, away, missing, or not a day entries are expected.
  public func day(_ day: CivilDate, of stored: StoredScrum, entries: [StoredEntry]) -> [StandupDay]
  {
    let expected = Set(
      StandupSettings.expectedDays(stored.scrum.standup, schedule: stored.scrum.schedule))
    let text = day.description
    var byPerson: [String: StoredEntry] = [:]
    for e in entries where e.entry.date == text {
      byPerson[e.entry.by.trimmed.lowercased()] = e
    }
    var out: [StandupDay] = stored.scrum.attendees.map { attendee in
      let entry = byPerson.removeValue(forKey: attendee.naturalKey)
      if let entry, entry.entry.isWritten {
        return StandupDay(person: attendee.name, status: .written, entry: entry, away: nil)
      }
      if let away = attendee.away(on: day) {
        return StandupDay(person: attendee.name, status: .away, entry: entry, away: away)
      }
      return StandupDay(
        person: attendee.name, status: expected.contains(day.weekday) ? .missing : .notExpected,
        entry: entry, away: nil)
    }
    // NB: someone no longer (or not yet) an attendee still wrote: shown, after the attendees.
    for (_, entry) in byPerson.sorted(by: { $0.key < $1.key }) where entry.entry.isWritten {
      out.append(StandupDay(person: entry.entry.by, status: .written, entry: entry, away: nil))
    }
    return out
  }

  // MARK: Who is writing

  /// The attendee the writer is: `name` when given (it must be an attendee), else the one whose
  /// `email` is git's `user.email`, else the one named like git's `user.name`.
  public static func writer(
    of scrum: Scrum, given name: String?, gitName: String?, gitEmail: String?
  ) throws -> Attendee {
    if let name {
      guard let attendee = scrum.attendee(named: name) else {
        throw StorageError(
          "'\(OneLineText.excerpt(name))' is not an attendee of \(scrum.title)\(Suggestions.hint(for: name, in: scrum.attendees.map(\.name))); an entry is written by an attendee (dinger scrum attendee add)"
        )
      }
      return attendee
    }
    if let email = gitEmail?.trimmed.lowercased(), !email.isEmpty,
      let attendee = scrum.attendees.first(where: { $0.email?.trimmed.lowercased() == email })
    {
      return attendee
    }
    if let gitName, let attendee = scrum.attendee(named: gitName) { return attendee }
    throw StorageError(
      "dinger doesn't know which attendee of \(scrum.title) you are: git's user.name '\(OneLineText.excerpt(gitName ?? ""))' and user.email '\(OneLineText.excerpt(gitEmail ?? ""))' match none of \(scrum.attendees.map(\.name).joined(separator: ", ")); say it once with --as NAME (this clone remembers it), or add 'email:' to your attendee entry"
    )
  }

  // MARK: Writing

  /// What a write did.
  public struct Written: Sendable, Equatable {
    public var path: String
    public var subject: String
    public var entry: StandupEntry
  }

  /// Writes `entry` as its writer's entry for its day: a new file, or their existing one for
  /// that day updated with `update` applied (its comments and layout kept). Entries are
  /// checked against the scrum: the writer must be an attendee and every answer must answer
  /// one of its questions.
  public func write(
    for stored: StoredScrum, by writer: String, date: String,
    author: (name: String, email: String)? = nil,
    update: @escaping (inout StandupEntry) throws -> Void
  ) throws -> Written {
    guard let id = stored.scrum.id else {
      throw StorageError(
        "scrum '\(stored.scrum.title)' has no id yet; edit it once (dinger scrum edit) and try again"
      )
    }
    // NB: the writer's entry of that day where it is (a merge may have left it in the
    // scrum's old folder), else a new file in the scrum's folder.
    let existing = try entry(of: stored, by: writer, date: date)
    let path = existing?.path ?? StandupFiles.path(scrumSlug: stored.slug, date: date, by: writer)
    var written: Written?
    _ = try scrums.dependencies.commit { snapshot in
      guard try snapshot.read(stored.path) != nil else {
        throw StorageError(
          "scrum '\(stored.scrum.title)' was removed meanwhile; nothing was written")
      }
      var entry = StandupEntry(scrum: id, date: date, by: writer)
      var source: SourceText?
      if let bytes = try snapshot.read(path) {
        let file = RecordCodec.decode(bytes, path: path, kind: .standup)
        guard case .standup(let existing)? = file.record else {
          throw StorageError(
            "\(path) has errors as committed, so dinger does not write over it; fix it (dinger check \(path)) and try again"
          )
        }
        entry = existing
        source = file.source
      }
      let before = entry
      try update(&entry)
      try Self.validate(entry, against: stored.scrum)
      guard entry != before else { return nil }
      let text =
        try source.map { try RecordCodec.encode(.standup(entry), updating: $0).text }
        ?? RecordCodec.newFile(.standup(entry), at: path)
      let verb = source == nil ? "stand-up" : "edit stand-up"
      var change = Change(
        subject: "\(stored.scrum.title): \(verb) of \(entry.by) for \(entry.date)",
        trailers: [("Dinger-Action", "standup.write"), ("Dinger-Record", id.lowercased)])
      change.write(path, text)
      change.author = author
      written = Written(path: path, subject: change.subject, entry: entry)
      return change
    }
    guard let written else {
      throw StorageError("nothing to change: \(path) already says that")
    }
    return written
  }

  /// Refuses an entry dinger is about to write that breaks a rule.
  static func validate(_ entry: StandupEntry, against scrum: Scrum) throws {
    if let issue = entry.validate().first(where: { $0.severity == .error }) {
      throw StorageError(issue.message)
    }
    if let problem = StandupSettings.problems(of: entry, in: scrum).first {
      throw StorageError(problem.message)
    }
    for text in entry.answers.map(\.text) + entry.blockers.map(\.text) {
      if let problem = OneLineText.problem(text.replacingText("\n", with: " "), field: "answer") {
        throw StorageError(problem)
      }
    }
  }

  /// Answers, blockers and resolutions written as an entry's YAML (an editor's buffer, a
  /// `--file`): scrum, date and author lines may be left out (the command sets them).
  public static func decodeAnswers(_ bytes: [UInt8], name: String) -> Result<
    StandupEntry, DiagnosticList
  > {
    var text = AnswerProse.quoted(String(decoding: bytes, as: UTF8.self))
    let lines = text.split(separator: "\n")
    let missing = [
      ("scrum:", "scrum: 00000000-0000-0000-0000-000000000000"), ("date:", "date: 1970-01-01"),
      ("by:", "by: x"),
    ]
    .filter { key, _ in !lines.contains { $0.hasPrefix(key) } }
    // NB: added at the end, so that the buffer's line numbers stay the buffer's.
    if !missing.isEmpty {
      if !text.hasSuffix("\n") && !text.isEmpty { text += "\n" }
      text += missing.map { $0.1 + "\n" }.joined()
    }
    let file = RecordCodec.decode(Array(text.utf8), path: name, kind: .standup)
    let errors = file.diagnostics.filter { $0.severity == .error }
    guard errors.isEmpty, case .standup(let entry)? = file.record else {
      return .failure(DiagnosticList(items: errors))
    }
    return .success(entry)
  }

  /// Refuses blocker ids that no entry of the scrum opened, or that are resolved already, or
  /// that were opened after `date`: nothing is written then.
  public func checkResolvable(
    _ ids: [String], in stored: StoredScrum, by writer: String, on date: String,
    againAllowed: Bool = true
  ) throws {
    guard !ids.isEmpty else { return }
    let all = try blockers(of: stored)
    for raw in ids {
      let id = raw.trimmed.lowercased()
      guard let blocker = all.first(where: { $0.id == id }) else {
        throw StorageError(
          "no blocker \(OneLineText.excerpt(id)) in \(stored.scrum.title)\(Suggestions.hint(for: id, in: all.filter(\.isOpen).map(\.id))); 'dinger blockers \(stored.slug)' lists the open ones; nothing was written"
        )
      }
      // NB: an entry rewritten with its own resolution again is no new resolution.
      if let r = blocker.resolution,
        !(againAllowed && r.by.lowercased() == writer.lowercased() && r.date == date)
      {
        throw StorageError(
          "blocker \(id) ('\(OneLineText.excerpt(blocker.text))') was resolved by \(r.by) on \(r.date) already; nothing was written"
        )
      }
      if let opened = CivilDate(blocker.opened), let day = CivilDate(date), day < opened {
        throw StorageError(
          "blocker \(id) was opened on \(blocker.opened), after \(date); nothing was written")
      }
    }
  }

  /// Resolves the blocker `id` as `writer` on `date` (in their entry for that day). Refuses
  /// an id no entry opened, and one already resolved (saying by whom).
  public func resolve(
    _ id: String, in stored: StoredScrum, by writer: String, date: String, note: String?
  ) throws -> Written {
    try resolve([id], in: stored, by: writer, date: date, note: note)
  }

  /// Resolves several blockers in `writer`'s entry of `date`: one write, one commit.
  public func resolve(
    _ ids: [String], in stored: StoredScrum, by writer: String, date: String, note: String?
  ) throws -> Written {
    let ids = ids.map { $0.trimmed.lowercased() }
    try checkResolvable(ids, in: stored, by: writer, on: date, againAllowed: false)
    return try write(for: stored, by: writer, date: date) { entry in
      entry.resolved += ids.map { BlockerResolution(id: $0, note: note) }
    }
  }
}
