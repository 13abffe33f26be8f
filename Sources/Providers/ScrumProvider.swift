import Foundation
import Models
import Storage

/// A scrum as stored: where its file is, and what it holds.
public struct StoredScrum: Sendable, Equatable {
  /// Data-relative path (`scrums/design.yaml`).
  public var path: String
  /// The scrum.
  public var scrum: Scrum

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
    /// Records a change as one commit; returns the commit id.
    public var commit: @Sendable (Change) throws -> String

    /// Creates dependencies.
    public init(
      load: @escaping @Sendable (RecordKind) throws -> [DecodedFile],
      paths: @escaping @Sendable (RecordKind) throws -> [String],
      commit: @escaping @Sendable (Change) throws -> String
    ) {
      self.load = load
      self.paths = paths
      self.commit = commit
    }
  }

  /// The verbs.
  public let dependencies: Dependencies

  /// Wraps dependencies.
  public init(_ dependencies: Dependencies) { self.dependencies = dependencies }

  /// Scrums of a git-backed data repository.
  public static func live(repository: DataRepository) -> ScrumProvider {
    ScrumProvider(
      Dependencies(
        load: { try repository.files(of: $0) },
        paths: { try repository.directory.recordPaths(of: $0) },
        commit: { try repository.commit($0).hex }))
  }

  /// Scrums held in memory (data-relative path to text); changes apply to `store`.
  public static func inMemory(_ store: InMemoryStore) -> ScrumProvider {
    ScrumProvider(
      Dependencies(
        load: { store.files(of: $0) }, paths: { store.paths(of: $0) }, commit: { store.apply($0) }))
  }

  // MARK: Reading

  /// Every scrum that reads cleanly, by title, and the diagnostics of the files that do not.
  public func list() throws -> (scrums: [StoredScrum], problems: [Diagnostic]) {
    var scrums: [StoredScrum] = []
    var problems: [Diagnostic] = []
    for file in try dependencies.load(.scrum) {
      if case .scrum(let scrum) = file.record {
        scrums.append(StoredScrum(path: file.path, scrum: scrum))
      }
      problems += file.diagnostics.filter { $0.severity == .error }
    }
    scrums.sort { ($0.scrum.title.lowercased(), $0.path) < ($1.scrum.title.lowercased(), $1.path) }
    return (scrums, problems)
  }

  /// The scrum a person means by `query`: its slug, its title (any case) or a unique prefix of
  /// its id. The error suggests close matches.
  public func find(_ query: String) throws -> StoredScrum {
    let (scrums, problems) = try list()
    let q = query.trimmingCharacters(in: .whitespaces)
    if let bySlug = scrums.first(where: { $0.slug == q }) { return bySlug }
    let byTitle = scrums.filter { $0.scrum.title.lowercased() == q.lowercased() }
    if byTitle.count == 1 { return byTitle[0] }
    if byTitle.count > 1 {
      throw StorageError(
        "\(byTitle.count) scrums are titled '\(q)'; name one by its file: \(byTitle.map(\.slug).joined(separator: ", "))"
      )
    }
    if q.count >= 4, q.allSatisfy(\.isHexDigit) || q.contains("-") {
      let byID = scrums.filter {
        $0.scrum.id?.uuidString.lowercased().hasPrefix(q.lowercased()) == true
      }
      if byID.count == 1 { return byID[0] }
      if byID.count > 1 {
        throw StorageError("id prefix '\(q)' matches \(byID.count) scrums; give more of it")
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
    if let broken = problems.first(where: { RecordLayout.slug(ofPath: $0.file) == q }) {
      message = "scrum '\(q)' has errors; run 'dinger check \(broken.file)'"
    }
    throw StorageError(message)
  }

  /// The paths of the meetings recorded for a scrum.
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
  /// Without a theme it gets the first one no scrum uses yet.
  public func add(_ scrum: Scrum) throws -> ScrumCommit {
    var scrum = scrum
    try validated(scrum)
    if scrum.id == nil { scrum.id = UUID() }
    if scrum.theme == nil {
      // NB: only here are the other scrums read; naming the file needs their paths alone.
      let used = Set(try list().scrums.compactMap(\.scrum.theme))
      scrum.theme = Theme.allCases.first { !used.contains($0) } ?? .default
    }
    let taken = Set(try dependencies.paths(.scrum))
    let path = Slug.uniquePath(
      folder: "scrums", title: scrum.title, taken: taken, fallback: "scrum")
    var change = Change(
      subject: "Add scrum \(scrum.title)",
      trailers: [("Dinger-Action", "scrum.add"), ("Dinger-Record", scrum.id!.lowercased)])
    change.write(path, try RecordCodec.encode(.scrum(scrum)))
    let commit = try dependencies.commit(change)
    return ScrumCommit(
      stored: StoredScrum(path: path, scrum: scrum), subject: change.subject, commit: commit)
  }

  /// Writes a changed scrum back to its file as one commit whose subject says what changed
  /// ("Design: add attendee Bob; length 10 -> 15 min"). Nothing changed: no commit.
  public func update(_ stored: StoredScrum, to new: Scrum) throws -> ScrumCommit {
    var new = new
    try validated(new)
    let parts = ScrumDiff.describe(from: stored.scrum, to: new)
    if parts.isEmpty && stored.scrum.id != nil {
      return ScrumCommit(stored: stored, subject: "nothing to change", commit: nil)
    }
    var body: String?
    if new.id == nil {
      new.id = UUID()
      body = "Gives the scrum the id dinger uses to recognise it."
    }
    let subject =
      "\(stored.scrum.title): " + (parts.isEmpty ? "add id" : parts.joined(separator: "; "))
    var change = Change(
      subject: subject, body: body,
      trailers: [("Dinger-Action", "scrum.edit"), ("Dinger-Record", new.id!.lowercased)])
    var warnings: [String] = []
    if let before = try dependencies.load(.scrum).first(where: { $0.path == stored.path }) {
      // NB: edit the file in place so comments and layout stay; canonical only as a fallback.
      let edited = try RecordCodec.encode(.scrum(new), updating: before.source)
      change.write(stored.path, edited.text)
      if edited.fellBack && CommentDetector.hasComments(before.source.bytes) {
        warnings.append(
          "dinger could not keep the layout of \(stored.path) and rewrote it in its canonical form; its comments are not in the new version (they stay in git history, and 'dinger undo' brings them back)"
        )
      }
    } else {
      change.write(stored.path, try RecordCodec.encode(.scrum(new)))
    }
    let commit = try dependencies.commit(change)
    var result = ScrumCommit(
      stored: StoredScrum(path: stored.path, scrum: new), subject: subject, commit: commit)
    result.warnings = warnings
    return result
  }

  /// Replaces a scrum's file with text a person wrote (in their editor), kept byte for byte so
  /// comments and layout stay; an `id` line is added when the text has none. The text must
  /// decode cleanly: the diagnostics come back otherwise, and nothing is written.
  public func replace(_ stored: StoredScrum, with written: String) throws -> Result<
    ScrumCommit, DiagnosticList
  > {
    let new: Scrum
    let text: String
    switch Self.scrum(from: written, path: stored.path) {
    case .failure(let errors): return .failure(errors)
    case .success(let read): (new, text) = read
    }
    let parts = ScrumDiff.describe(from: stored.scrum, to: new)
    let subject =
      "\(stored.scrum.title): " + (parts.isEmpty ? "edit by hand" : parts.joined(separator: "; "))
    var change = Change(
      subject: subject,
      trailers: [("Dinger-Action", "scrum.edit"), ("Dinger-Record", new.id!.lowercased)])
    change.write(stored.path, text)
    let commit = try dependencies.commit(change)
    return .success(
      ScrumCommit(
        stored: StoredScrum(path: stored.path, scrum: new), subject: subject, commit: commit))
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
    let taken = Set(try dependencies.paths(.scrum))
    let path = Slug.uniquePath(folder: "scrums", title: new.title, taken: taken, fallback: "scrum")
    var change = Change(
      subject: "Add scrum \(new.title)",
      trailers: [("Dinger-Action", "scrum.add"), ("Dinger-Record", new.id!.lowercased)])
    change.write(path, text)
    let commit = try dependencies.commit(change)
    return .success(
      ScrumCommit(
        stored: StoredScrum(path: path, scrum: new), subject: change.subject, commit: commit))
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
  /// unless asked to take them along.
  public func remove(_ stored: StoredScrum, withHistory: Bool) throws -> ScrumCommit {
    let meetings = try meetingPaths(of: stored)
    if !meetings.isEmpty && !withHistory {
      throw StorageError(
        "scrum '\(stored.scrum.title)' has \(meetings.count) recorded meeting\(meetings.count == 1 ? "" : "s"); pass --with-history to remove them too"
      )
    }
    var subject = "Remove scrum \(stored.scrum.title)"
    if !meetings.isEmpty {
      subject += " and its \(meetings.count) meeting\(meetings.count == 1 ? "" : "s")"
    }
    var change = Change(subject: subject, trailers: [("Dinger-Action", "scrum.remove")])
    if let id = stored.scrum.id { change.trailers.append(("Dinger-Record", id.lowercased)) }
    change.remove(stored.path)
    for path in meetings { change.remove(path) }
    let commit = try dependencies.commit(change)
    return ScrumCommit(stored: stored, subject: subject, commit: commit)
  }

  private func validated(_ scrum: Scrum) throws {
    if let issue = scrum.validate().first(where: { $0.severity == .error }) {
      throw StorageError(issue.message)
    }
  }
}

/// Diagnostics returned as a value.
public struct DiagnosticList: Error, Sendable {
  /// The diagnostics.
  public var items: [Diagnostic]
}

/// Adds an `id:` line to hand-written text without touching anything else.
enum IDLine {
  /// Inserts `id: <uuid>` as the first key: after leading comments, blank lines and a `---`.
  static func insert(_ id: String, into text: String) -> String {
    var lines = text.components(separatedBy: "\n")
    var at = 0
    while at < lines.count {
      let trimmed = lines[at].trimmingCharacters(in: .whitespaces)
      if trimmed.isEmpty || trimmed.hasPrefix("#") || trimmed.hasPrefix("%") || trimmed == "---" {
        at += 1
        continue
      }
      break
    }
    let ending = text.contains("\r\n") ? "\r" : ""
    lines.insert("id: \(id)" + ending, at: min(at, lines.count))
    return lines.joined(separator: "\n")
  }
}

extension UUID {
  /// The lowercase form record files use.
  public var lowercased: String { uuidString.lowercased() }
}
