import Base
import FoundationEssentials
import Glibc
import Models
import Storage
import Sync
import YAML

/// A scrum as stored: where its file is, and what it holds.
public struct StoredScrum: Sendable, Equatable {
  /// Data-relative path (`scrums/design.yaml`).
  public var path: String
  /// The scrum.
  public var scrum: Scrum
  /// The text it was read from, when it was read from a file: a change committed on the same
  /// text does not decode it again.
  var source: SourceText? = nil

  /// A scrum at a path.
  public init(path: String, scrum: Scrum) { (self.path, self.scrum) = (path, scrum) }

  public static func == (a: StoredScrum, b: StoredScrum) -> Bool {
    a.path == b.path && a.scrum == b.scrum
  }

  /// The file name without `.yaml`: how commands name it.
  public var slug: String { RecordLayout.slug(ofPath: path) }
}

/// What `add`, `update` and `remove` did.
public struct ScrumCommit: Sendable, Equatable {
  /// The scrum after the change.
  public var stored: StoredScrum
  /// The commit's subject.
  public var subject: String
  /// The commit id (hex), or nil when there was nothing to change.
  public var commit: String?
  /// Things the user should know (for example, comments that were not kept).
  public var warnings: [String] = []
}

/// Scrums: listing, finding by slug, title or id prefix, and changes as commits.
public struct ScrumProvider: Sendable {
  /// The storage verbs the provider needs.
  public struct Dependencies: Sendable {
    /// Reads every file of a kind from the data (decoded, with diagnostics).
    public var load: @Sendable (RecordKind) throws -> [DecodedFile]
    /// Lists the data-relative paths of every file of a kind, without reading them.
    public var paths: @Sendable (RecordKind) throws -> [String]
    /// Reads some files of a kind (decoded, with diagnostics).
    public var read: @Sendable (RecordKind, [String]) throws -> [DecodedFile]
    /// Lists the record paths in one folder (`history/design`), without reading them.
    public var pathsIn: @Sendable (String) throws -> [String]
    /// Records a change as one commit; returns the commit id, or nil when the builder found
    /// nothing to do. The builder is an operation: it runs under the writer lock, against the
    /// data as committed then, so concurrent writers never undo each other.
    public var commit: @Sendable (_ build: (Snapshot) throws -> Change?) throws -> String?
    /// Every library as packed listing rows, when that can be had without decoding words (a
    /// repository's record cache); nil: use `load`.
    public var listings: @Sendable () -> [LibraryListing]? = { nil }
    /// The names of the folders in a folder (`history` -> each scrum's meeting folder).
    public var folders: @Sendable (String) throws -> [String] = { _ in [] }
    /// The record paths in one folder whose file names start with a prefix, listed without
    /// reading the rest (a day's entries); nil: filter `pathsIn`.
    public var pathsWithPrefix: (@Sendable (String, String) throws -> [String])? = nil

    /// Creates dependencies.
    public init(
      load: @escaping @Sendable (RecordKind) throws -> [DecodedFile],
      paths: @escaping @Sendable (RecordKind) throws -> [String],
      read: @escaping @Sendable (RecordKind, [String]) throws -> [DecodedFile],
      pathsIn: @escaping @Sendable (String) throws -> [String],
      commit: @escaping @Sendable (_ build: (Snapshot) throws -> Change?) throws -> String?
    ) {
      self.load = load
      self.paths = paths
      self.read = read
      self.pathsIn = pathsIn
      self.commit = commit
    }
  }

  /// The verbs.
  public private(set) var dependencies: Dependencies

  /// The same provider listing folders with `folders`.
  func withFolders(_ folders: @escaping @Sendable (String) throws -> [String]) -> ScrumProvider {
    var copy = self
    copy.dependencies.folders = folders
    return copy
  }

  /// Wraps dependencies.
  public init(_ dependencies: Dependencies) { self.dependencies = dependencies }

  /// Scrums of a git-backed data repository.
  public static func live(repository: DataRepository) -> ScrumProvider {
    var dependencies = Dependencies(
      load: { try repository.files(of: $0) },
      paths: { try repository.directory.recordPaths(of: $0) },
      read: { kind, paths in try repository.files(kind, at: paths) },
      pathsIn: { folder in repository.directory.recordPaths(in: folder) },
      commit: { build in try repository.commit(build)?.hex })
    dependencies.listings = { repository.libraryListings() }
    dependencies.folders = { repository.directory.folders(in: $0) }
    dependencies.pathsWithPrefix = { repository.directory.paths(in: $0, prefix: $1) }
    return ScrumProvider(dependencies)
  }

  /// Scrums held in memory (data-relative path to text); changes apply to `store`.
  public static func inMemory(_ store: InMemoryStore) -> ScrumProvider {
    ScrumProvider(
      Dependencies(
        load: { store.files(of: $0) }, paths: { store.paths(of: $0) },
        read: { kind, paths in store.files(of: kind).filter { Set(paths).contains($0.path) } },
        pathsIn: { folder in
          (store.paths(of: .meeting) + store.paths(of: .quiz) + store.paths(of: .standup)).filter {
            $0.hasPrefix(folder + "/")
          }
        },
        commit: { build in try store.apply(build) })
    )
    .withFolders { folder in
      Set(
        (store.paths(of: .meeting) + store.paths(of: .quiz) + store.paths(of: .standup)).compactMap
        {
          path -> String? in
          guard path.hasPrefix(folder + "/") else { return nil }
          return path.dropFirst(folder.count + 1).split(separator: "/").first.map(String.init)
        }
      ).sorted()
    }
  }

  // MARK: Reading

  /// Every scrum that reads cleanly, by title, and the diagnostics of the files that do not.
  public func list() throws -> (scrums: [StoredScrum], problems: [Diagnostic]) {
    let (scrums, problems, _) = try listWithUnreadable()
    return (scrums, problems)
  }

  /// `list`, and the files that do not read, as names can point at them.
  private func listWithUnreadable() throws -> (
    scrums: [StoredScrum], problems: [Diagnostic], unreadable: [UnreadableRecord]
  ) {
    var scrums: [StoredScrum] = []
    var problems: [Diagnostic] = []
    let files = try dependencies.load(.scrum)
    for file in files {
      if case .scrum(let scrum) = file.record {
        var stored = StoredScrum(path: file.path, scrum: scrum)
        stored.source = file.source
        scrums.append(stored)
      }
      problems += file.diagnostics.filter { $0.severity == .error }
    }
    scrums.sort { ($0.scrum.title.lowercased(), $0.path) < ($1.scrum.title.lowercased(), $1.path) }
    return (scrums, problems, UnreadableRecord.all(in: files, titleKey: "title"))
  }

  /// The scrum a person means by `query`: its slug, its title (any case) or a unique prefix of
  /// its id. The error suggests close matches.
  public func find(_ query: String) throws -> StoredScrum {
    let (scrums, _, unreadable) = try listWithUnreadable()
    let q = query.trimmingSpaces()
    try UnreadableRecord.refuse(
      q, kind: "scrum", among: unreadable, readableSlug: scrums.contains { $0.slug == q },
      readableTitle: scrums.contains { $0.scrum.title.lowercased() == q.lowercased() },
      looksLikeID: q.count >= 4 && (q.allSatisfy(\.isHexDigit) || q.containsText("-")))
    if let bySlug = scrums.first(where: { $0.slug == q }) { return bySlug }
    let byTitle = scrums.filter { $0.scrum.title.lowercased() == q.lowercased() }
    if byTitle.count == 1 { return byTitle[0] }
    if byTitle.count > 1 {
      throw StorageError(
        "\(byTitle.count) scrums are titled '\(q)'; name one by its file: \(byTitle.map(\.slug).joined(separator: ", "))",
        kind: .ambiguous(q))
    }
    if q.count >= 4, q.allSatisfy(\.isHexDigit) || q.containsText("-") {
      let byID = scrums.filter {
        $0.scrum.id?.uuidString.lowercased().hasPrefix(q.lowercased()) == true
      }
      if byID.count == 1 { return byID[0] }
      if byID.count > 1 {
        throw StorageError(
          "id prefix '\(q)' matches \(byID.count) scrums; give more of it", kind: .ambiguous(q))
      }
    }
    var message = "no scrum '\(q)'"
    let names = scrums.flatMap { [$0.slug, $0.scrum.title] }
    var seen = Set<String>()
    let close = Suggestions.closest(to: q, in: names, limit: 6).filter {
      seen.insert($0.lowercased()).inserted
    }
    .prefix(3)
    if !close.isEmpty {
      message += "; did you mean " + close.map { "'\($0)'" }.joined(separator: " or ") + "?"
    } else if scrums.isEmpty {
      message += "; there are no scrums yet (add one with 'dinger scrum new TITLE')"
    } else {
      message += "; 'dinger scrum list' shows them all"
    }
    throw StorageError(message, kind: .notFound(q))
  }

  /// The paths of the meetings recorded for a scrum.
  /// The records kept with a scrum: its meetings and its written stand-up entries.
  public func dependentPaths(of stored: StoredScrum) throws -> [String] {
    guard let id = stored.scrum.id else { return [] }
    let entries = try dependencies.load(.standup).compactMap { file -> String? in
      if case .standup(let e) = file.record, e.scrum == id { return file.path }
      if file.record == nil,
        file.root?["scrum"]?.scalarText?.lowercased() == id.uuidString.lowercased()
      {
        return file.path
      }
      return nil
    }
    return try meetingPaths(of: stored) + entries
  }

  public func meetingPaths(of stored: StoredScrum) throws -> [String] {
    guard let id = stored.scrum.id else { return [] }
    return try dependencies.load(.meeting).compactMap { file in
      if case .meeting(let m) = file.record, m.scrum == id { return file.path }
      // A meeting that does not decode still names its scrum; keep it with its scrum.
      if file.record == nil,
        file.root?["scrum"]?.scalarText?.lowercased() == id.uuidString.lowercased()
      {
        return file.path
      }
      return nil
    }
  }

  // MARK: Changes

  /// Adds a scrum: gives it an id, a file named after its title, and commits "Add scrum ...".
  /// Without a theme it gets the first one no scrum uses yet. The file name is picked under the
  /// writer lock, so scrums added at once with one title get `same.yaml`, `same-2.yaml` ...
  public func add(_ scrum: Scrum) throws -> ScrumCommit {
    var scrum = scrum
    try validated(scrum)
    if scrum.id == nil { scrum.id = UUID() }
    if scrum.theme == nil {
      // NB: only here are the other scrums read; naming the file needs their paths alone.
      let used = Set(try list().scrums.compactMap(\.scrum.theme))
      scrum.theme = Theme.allCases.first { !used.contains($0) } ?? .default
    }
    // NB: every scrum file is scrums/<slug>.yaml: the schema line is the same for any slug.
    let text = try RecordCodec.newFile(.scrum(scrum), at: "scrums/new.yaml")
    let (path, subject, commit) = try addFile(text, title: scrum.title, id: scrum.id!)
    return ScrumCommit(
      stored: StoredScrum(path: path, scrum: scrum), subject: subject, commit: commit)
  }

  /// Commits a new scrum file under a free name made from its title.
  private func addFile(_ text: String, title: String, id: UUID) throws -> (
    path: String, subject: String, commit: String?
  ) {
    var path = ""
    let subject = "Add scrum \(title)"
    let commit = try dependencies.commit { snapshot in
      // Two scrums with one title could not be told apart by name afterwards: refused, under
      // the lock (a scrum added meanwhile by another process counts).
      let key = title.trimmingSpaces().lowercased()
      if let (name, other) = try Self.scrum(titled: key, in: snapshot) {
        throw StorageError(
          "a scrum titled '\(other)' already exists (scrums/\(name)); choose another title, or rename that one first: dinger scrum edit \(name.dropLast(5)) --title NEW"
        )
      }
      path = try Slug.uniquePath(folder: "scrums", title: title, in: snapshot, fallback: "scrum")
      var change = Change(
        subject: subject,
        trailers: [("Dinger-Action", "scrum.add"), ("Dinger-Record", id.lowercased)])
      change.write(path, text)
      return change
    }
    return (path, subject, commit)
  }

  /// The committed scrum file whose title is `key` (trimmed, lowercased), with its title as
  /// written: from the store's titles when it keeps them, else each file read (a file whose
  /// `title:` line cannot hold the key is not decoded).
  static func scrum(titled key: String, in snapshot: Snapshot) throws -> (
    name: String, title: String
  )? {
    if let titles = snapshot.scrumTitles {
      return try titles().lazy.compactMap { name, title in
        title.flatMap { $0.lowercased() == key ? (name, $0) : nil }
      }.first
    }
    for name in try snapshot.names("scrums").sorted() where name.hasSuffix(".yaml") {
      guard let bytes = try snapshot.read("scrums/\(name)"),
        Self.mayHaveTitle(key, bytes),
        case .scrum(let other)? = RecordCodec.decode(bytes, path: "scrums/\(name)", kind: .scrum)
          .record,
        other.title.trimmingSpaces().lowercased() == key
      else { continue }
      return (name, other.title)
    }
    return nil
  }

  /// False only when a file's `title:` line plainly cannot hold `key` (lowercased): its one-line
  /// value lacks the text and has no quoting, escape, tag, anchor or continuation line that
  /// could hide it. Everything else is decoded. Decoding every scrum to compare titles was most
  /// of `scrum new` in a repository of a thousand scrums.
  static func mayHaveTitle(_ key: String, _ bytes: [UInt8]) -> Bool {
    let prefix = Array("title:".utf8)
    var start = 0
    while start < bytes.count {
      let end = bytes[start...].firstIndex(of: 10) ?? bytes.count
      if bytes[start..<end].starts(with: prefix) {
        let value = String(decoding: bytes[(start + prefix.count)..<end], as: UTF8.self)
          .trimmingSpaces()
        let next = end + 1 < bytes.count ? bytes[end + 1] : 0
        // NB: a continuation (an indented next line), a block scalar, quotes, escapes, tags,
        // anchors and aliases could all spell the title otherwise: those are decoded.
        if value.isEmpty || next == 32 || next == 9
          || value.contains(where: { "\"'\\|>!&*%@`".contains($0) })
        {
          return true
        }
        // NB: a comment starts at " #"; a '#' inside a word is part of the value (C#).
        let plain = value.firstRange(ofText: " #").map { String(value[..<$0.lowerBound]) } ?? value
        return plain.lowercased().containsText(key) || plain.unicodeScalars.contains { !$0.isASCII }
      }
      start = end + 1
    }
    return true
  }

  /// Changes a scrum as one commit whose subject says what changed ("Design: add attendee Bob;
  /// length 10 -> 15 min"). `operation` is applied under the writer lock to the scrum as
  /// committed at that moment (not as it was read before), so concurrent changes all stay; the
  /// file is edited in place, so comments and layout stay too. Nothing changed: no commit.
  public func update(_ stored: StoredScrum, _ operation: (inout Scrum) throws -> Void) throws
    -> ScrumCommit
  {
    var result = ScrumCommit(stored: stored, subject: "nothing to change", commit: nil)
    result.commit = try dependencies.commit { snapshot in
      let (current, source) = try Self.committed(stored, in: snapshot)
      var new = current
      try operation(&new)
      // NB: attendees as committed were valid already; only a changed list is checked again.
      var probe = new
      if new.attendees == current.attendees { probe.attendees = Array(new.attendees.prefix(1)) }
      try validated(probe, changedFrom: current)
      let parts = ScrumDiff.describe(from: current, to: new)
      if parts.isEmpty && current.id != nil {
        result = ScrumCommit(
          stored: StoredScrum(path: stored.path, scrum: current), subject: "nothing to change",
          commit: nil)
        return nil
      }
      var body: String?
      if new.id == nil {
        new.id = UUID()
        body = "Gives the scrum the id dinger uses to recognise it."
      }
      let subject =
        "\(current.title): " + (parts.isEmpty ? "add id" : parts.joined(separator: "; "))
      var change = Change(
        subject: subject, body: body,
        trailers: [("Dinger-Action", "scrum.edit"), ("Dinger-Record", new.id!.lowercased)])
      // NB: edit the file in place so comments and layout stay; canonical only as a fallback.
      let edited = try RecordCodec.encode(.scrum(new), updating: source)
      change.write(stored.path, edited.text)
      result = ScrumCommit(stored: StoredScrum(path: stored.path, scrum: new), subject: subject)
      if edited.fellBack && YAMLComments.exist(in: source.bytes) {
        result.warnings.append(
          "dinger could not keep the layout of \(stored.path) and rewrote it in its canonical form; its comments are not in the new version (they stay in git history, and 'dinger undo' brings them back)"
        )
      }
      return change
    }
    return result
  }

  /// The scrum as committed now at `stored`'s path, with its text.
  static func committed(_ stored: StoredScrum, in snapshot: Snapshot) throws -> (Scrum, SourceText)
  {
    guard let bytes = try snapshot.read(stored.path) else {
      throw StorageError(
        "scrum '\(stored.scrum.title)' (\(stored.path)) is not committed: it was removed meanwhile, or is new and not committed yet; 'dinger scrum list' shows the scrums there are"
      )
    }
    // NB: most often the committed text is the one the scrum was found in: no second decode.
    if let source = stored.source, source.bytes == bytes { return (stored.scrum, source) }
    let file = RecordCodec.decode(bytes, path: stored.path, kind: .scrum)
    guard case .scrum(let scrum) = file.record else {
      throw StorageError(
        "\(stored.path) has errors as committed; run 'dinger check \(stored.path)'")
    }
    if let want = stored.scrum.id, let have = scrum.id, want != have {
      throw StorageError(
        "\(stored.path) holds another scrum since it was read (id \(have.lowercased)); run this again"
      )
    }
    return (scrum, file.source)
  }

  /// Replaces a scrum's file with text a person wrote (in their editor), kept byte for byte so
  /// comments and layout stay; an `id` line is added when the text has none. The text must
  /// decode cleanly: the diagnostics come back otherwise, and nothing is written.
  ///
  /// `original` is the text the editor started from. When the committed file changed while the
  /// person was editing (a teammate's sync, another dinger), their edit is merged into it
  /// record by record, as sync merges; when both changed the same field, nothing is written
  /// and `EditConflict` says which fields, so the caller can keep the text.
  public func replace(_ stored: StoredScrum, with written: String, original: String) throws
    -> Result<ScrumCommit, DiagnosticList>
  {
    let new: Scrum
    let text: String
    switch Self.scrum(from: written, path: stored.path) {
    case .failure(let errors): return .failure(errors)
    case .success(let read): (new, text) = read
    }
    var result = ScrumCommit(stored: stored, subject: "", commit: nil)
    result.commit = try dependencies.commit { snapshot in
      let (current, source) = try Self.committed(stored, in: snapshot)
      var bytes = Array(text.utf8)
      var merged = new
      if source.bytes != Array(original.utf8) {
        let merge = RecordMerger.merge(
          base: Array(original.utf8), ours: bytes, theirs: source.bytes, path: stored.path)
        guard merge.conflicts.isEmpty,
          case .scrum(let scrum)? = RecordCodec.decode(merge.bytes, path: stored.path, kind: .scrum)
            .record
        else {
          throw EditConflict(
            path: stored.path, fields: merge.conflicts.map { $0.path.description })
        }
        (bytes, merged) = (merge.bytes, scrum)
      }
      let parts = ScrumDiff.describe(from: current, to: merged)
      let subject =
        "\(current.title): " + (parts.isEmpty ? "edit by hand" : parts.joined(separator: "; "))
      if bytes == source.bytes { return nil }
      var change = Change(
        subject: subject,
        trailers: [("Dinger-Action", "scrum.edit"), ("Dinger-Record", merged.id!.lowercased)])
      change.writes[stored.path] = bytes
      result = ScrumCommit(stored: StoredScrum(path: stored.path, scrum: merged), subject: subject)
      return change
    }
    return .success(result)
  }

  /// Adds a scrum from text a person wrote (from the commented template), kept byte for byte
  /// with an `id` line added; the diagnostics come back when it does not decode cleanly.
  public func add(text written: String) throws -> Result<ScrumCommit, DiagnosticList> {
    let new: Scrum
    let text: String
    switch Self.scrum(from: written, path: "scrums/new.yaml") {
    case .failure(let errors): return .failure(errors)
    case .success(let read): (new, text) = read
    }
    let (path, subject, commit) = try addFile(text, title: new.title, id: new.id!)
    return .success(
      ScrumCommit(stored: StoredScrum(path: path, scrum: new), subject: subject, commit: commit))
  }

  /// Decodes hand-written scrum text; adds an `id` line when it has none.
  static func scrum(from text: String, path: String) -> Result<(Scrum, String), DiagnosticList> {
    let file = RecordCodec.decode(Array(text.utf8), path: path, kind: .scrum)
    let errors = file.diagnostics.filter { $0.severity == .error }
    guard errors.isEmpty, case .scrum(var scrum) = file.record else {
      return .failure(DiagnosticList(items: errors))
    }
    var text = text
    if scrum.id == nil {
      scrum.id = UUID()
      text = IDLine.insert(scrum.id!.lowercased, into: text)
    }
    return .success((scrum, text))
  }

  /// Removes a scrum; with `withHistory`, its meetings too. Refuses while it has meetings
  /// unless asked to take them along (counted under the writer lock, so a meeting recorded
  /// meanwhile is not left without its scrum).
  public func remove(_ stored: StoredScrum, withHistory: Bool) throws -> ScrumCommit {
    let (subject, commit) = try dependencies.remove(
      stored.path, id: stored.scrum.id, kind: "scrum", title: stored.scrum.title,
      // NB: its history is its meetings and its written stand-up entries.
      dependents: (noun: "recorded meeting", shortNoun: "meeting", flag: "--with-history"),
      allowed: withHistory
    ) { snapshot in
      _ = try Self.committed(stored, in: snapshot)
      return try dependentPaths(of: stored)
    }
    return ScrumCommit(stored: stored, subject: subject, commit: commit)
  }

  /// Refuses a scrum dinger is about to write that breaks a rule; a title or name holding a
  /// control character is refused too when it is new (a teammate's old one only warns).
  private func validated(_ scrum: Scrum, changedFrom old: Scrum? = nil) throws {
    if let issue = scrum.validate().first(where: { $0.severity == .error }) {
      throw StorageError(issue.message)
    }
    if scrum.title != old?.title, let problem = OneLineText.problem(scrum.title, field: "title") {
      throw StorageError(problem)
    }
    let known = Set(old?.attendees.map(\.name) ?? [])
    for a in scrum.attendees where !known.contains(a.name) {
      if let problem = OneLineText.problem(a.name, field: "name") { throw StorageError(problem) }
    }
  }
}

extension ScrumProvider.Dependencies {
  /// Removes a record's file and the files that depend on it (a scrum's meetings, a library's
  /// quiz results) as one commit: "Remove scrum Design and its 3 meetings". The dependents are
  /// listed under the writer lock (`dependents` also checks the record is still there), so one
  /// added meanwhile is not left behind; while there are some, `allowed` must be true.
  func remove(
    _ path: String, id: UUID?, kind: String, title: String,
    dependents names: (noun: String, shortNoun: String, flag: String), allowed: Bool,
    dependents: (Snapshot) throws -> [String]
  ) throws -> (subject: String, commit: String?) {
    var subject = ""
    let commit = try self.commit { snapshot in
      let files = try dependents(snapshot)
      // NB: stand-up entries are counted apart from the dependents named (a scrum's meetings).
      let entries = files.filter { $0.hasPrefix("standups/") }.count
      let n = files.count - entries
      var counted: [String] = []
      if n > 0 { counted.append("\(n) \(names.noun)\(n == 1 ? "" : "s")") }
      if entries > 0 { counted.append("\(entries) stand-up entr\(entries == 1 ? "y" : "ies")") }
      if !files.isEmpty && !allowed {
        throw StorageError(
          "\(kind) '\(title)' has \(counted.joined(separator: " and ")); pass \(names.flag) to remove them too"
        )
      }
      subject = "Remove \(kind) \(title)"
      var short: [String] = []
      if n > 0 { short.append("\(n) \(names.shortNoun)\(n == 1 ? "" : "s")") }
      if entries > 0 { short.append("\(entries) stand-up entr\(entries == 1 ? "y" : "ies")") }
      if !short.isEmpty { subject += " and its " + short.joined(separator: " and ") }
      var change = Change(subject: subject, trailers: [("Dinger-Action", "\(kind).remove")])
      if let id { change.trailers.append(("Dinger-Record", id.lowercased)) }
      change.remove(path)
      for file in files { change.remove(file) }
      return change
    }
    return (subject, commit)
  }
}

/// A hand edit that could not be merged into the file, which changed meanwhile.
public struct EditConflict: Error, Sendable {
  /// The file.
  public var path: String
  /// The fields both sides changed (`attendees[Bob].name`); empty when the merge could not tell.
  public var fields: [String]
}

/// Diagnostics returned as a value.
public struct DiagnosticList: Error, Sendable {
  /// The diagnostics.
  public var items: [Diagnostic]

  /// A list of these diagnostics.
  public init(items: [Diagnostic]) { self.items = items }
}

/// Adds an `id:` line to hand-written text without touching anything else.
enum IDLine {
  /// Inserts `id: <uuid>` as the first key: after leading comments, blank lines and a `---`.
  static func insert(_ id: String, into text: String) -> String {
    var lines = text.parts(separatedBy: "\n")
    var at = 0
    while at < lines.count {
      let trimmed = lines[at].trimmingSpaces()
      if trimmed.isEmpty || trimmed.hasPrefix("#") || trimmed.hasPrefix("%") || trimmed == "---" {
        at += 1
        continue
      }
      break
    }
    let ending = text.containsText("\r\n") ? "\r" : ""
    lines.insert("id: \(id)" + ending, at: min(at, lines.count))
    return lines.joined(separator: "\n")
  }
}
