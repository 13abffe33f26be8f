import Base
import Dispatch
import FoundationEssentials
import Git
import Glibc
import Models
import Synchronization
import YAML

/// The record changes of the first-parent history, kept in `.git/dinger/activity-v3.tsv` so
/// that `dinger log` does not diff every commit each time (libgit2 has no fast path-limited log).
/// Never committed. Brought up to date from the last commit it knows; rebuilt when it is
/// missing, from another version, or its last commit is no longer in the history. Updates go
/// through a temporary file and a rename under a lock, so two processes never see half a file.
public enum ActivityIndex {
  static let version = "dinger-activity v4"

  /// The entries `filter` wants, oldest first, after bringing the index up to date with HEAD.
  public static func entries(
    _ repository: DataRepository, matching filter: ActivityFilter = .all, newest: Int? = nil
  ) throws -> [ActivityEntry] {
    if case .scrum(_, let path) = filter, let slug = RecordLayout.slug(ofScrumPath: path) {
      let all = try scrumEntries(repository, matching: filter, slug: slug)
      return newest.map { Array(all.suffix($0)) } ?? all
    }
    let folder = repository.git.gitDirectory.appendingPathComponent("dinger")
    // NB: git reads a repository it may not write (a read-only mount, another user's clone
    // opened for reading): so does `log`, describing the commits without keeping an index.
    guard Self.mayWrite(folder) else { return try uncached(repository, filter, newest: newest) }
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let file = folder.appendingPathComponent("activity-v3.tsv")
    let lock = try WriterLock(at: folder, name: "activity.lock")
    defer { lock.release() }
    guard let head = try repository.head() else { return [] }
    // NB: `log -n N` over an up-to-date index reads its first line and its end only (reading
    // 35 MB of index for 20 lines was most of a warm `log -n 20` over 130,000 meetings).
    if let newest, filter == .all, let tail = IndexFile.tail(of: file.path, lines: newest),
      tail.index.head == head.hex, let entries = tail.index.entries(matching: .all, newest: newest),
      entries.count == newest || tail.whole
    {
      Trace.mark("read the end of the activity index (\(tail.index.bytes.count) bytes)")
      return entries
    }
    var index = IndexFile(bytes: RegularFile.read(file.path) ?? [])
    Trace.mark("read the activity index (\(index.bytes.count) bytes)")
    if index.head == head.hex, let entries = index.entries(matching: filter, newest: newest) {
      return entries
    }
    if index.head == head.hex { index = IndexFile(bytes: []) }  // a broken line: start over
    if let newest, filter == .all, index.head == nil {
      // NB: no index yet (a first run after a clone): `log -n N` describes commits from HEAD
      // back until it has N entries, and leaves the index to the first full log (building it
      // for 130,000 commits took 18 s before 20 lines were shown).
      return try newestEntries(newest, from: head, in: repository.git)
    }
    // Walk back from HEAD to the last commit the index knows.
    let (fresh, reachedRoot) = try walk(from: head, until: index.head, in: repository.git)
    if reachedRoot { index = IndexFile(bytes: []) }  // none, broken, or history rewritten
    Trace.mark("walked \(fresh.count) new commits")
    let new = try describe(fresh.reversed(), in: repository.git)
    Trace.mark("described them")
    index.append(new, head: head.hex)
    try? AtomicFile.write(index.bytes, to: file.path, durability: .cache)
    Trace.mark("wrote the activity index")
    return index.entries(matching: filter, newest: newest) ?? []
  }

  /// The commits from `head` back along first parents to the one whose id is `known` (not
  /// included), newest first, each merge followed by the commits it brought in; and whether
  /// the walk ran out of history before it found `known`.
  static func walk(from head: ObjectID, until known: String?, in git: Repository) throws -> (
    [Repository.CommitInfo], reachedRoot: Bool
  ) {
    var fresh: [Repository.CommitInfo] = []
    var cursor: ObjectID? = head
    while let id = cursor, id.hex != known {
      let info = try git.commitInfo(id)
      fresh.append(info)
      if info.parents.count > 1 {
        // A merge: the commits it brought in are told as they were made, by their authors
        // (the merge itself is not; its changes are theirs).
        for side in try git.commits(
          from: Array(info.parents.dropFirst()), hiding: [info.parents[0]])
        {
          fresh.append(try git.commitInfo(side))
        }
      }
      cursor = info.parents.first
    }
    return (fresh, cursor == nil)
  }

  /// Whether the index folder (or, before it exists, the nearest folder above it) may be
  /// written by this process.
  static func mayWrite(_ folder: URL) -> Bool {
    // NB: through a link at `.git/dinger` the index would be written outside the repository.
    if OwnFolder.notAFolder(folder) != nil { return false }
    var url = folder
    while !FileManager.default.fileExists(atPath: url.path), url.pathComponents.count > 1 {
      url = url.deletingLastPathComponent()
    }
    return access(url.path, W_OK) == 0
  }

  /// The entries `filter` wants from every commit, described in memory (nothing is written).
  static func uncached(_ repository: DataRepository, _ filter: ActivityFilter, newest: Int?)
    throws -> [ActivityEntry]
  {
    guard let head = try repository.head() else { return [] }
    if let newest, filter == .all {
      return try newestEntries(newest, from: head, in: repository.git)
    }
    let (fresh, _) = try walk(from: head, until: nil, in: repository.git)
    var index = IndexFile(bytes: [])
    index.append(try describe(fresh.reversed(), in: repository.git), head: head.hex)
    return index.entries(matching: filter, newest: newest) ?? []
  }

  /// The newest `count` entries of the history from `head`, oldest first, as a full index would
  /// give them: commits walked as the index walks them (first parents, a merge's side commits
  /// after it), described a few dozen at a time until there are enough.
  static func newestEntries(_ count: Int, from head: ObjectID, in git: Repository) throws
    -> [ActivityEntry]
  {
    var chunks: [[ActivityEntry]] = []  // newest chunk first, each oldest first
    var found = 0
    var cursor: ObjectID? = head
    // NB: most commits make one entry: the first batch is the count asked for (a batch of 16
    // then 32 described 48 commits for `-n 20`).
    var batch = max(count, 4)
    while found < count, cursor != nil {
      var walked: [Repository.CommitInfo] = []
      while walked.count < batch, let id = cursor {
        let info = try git.commitInfo(id)
        walked.append(info)
        if info.parents.count > 1 {
          for side in try git.commits(
            from: Array(info.parents.dropFirst()), hiding: [info.parents[0]])
          {
            walked.append(try git.commitInfo(side))
          }
        }
        cursor = info.parents.first
      }
      let described = try describe(walked.reversed(), in: git)
      chunks.append(described)
      found += described.count
      batch = min(batch * 2, 1024)
    }
    Trace.mark("described the newest commits for \(count) entries")
    return Array(chunks.reversed().flatMap { $0 }.suffix(count))
  }

  /// One scrum's entries, from an index of its own (`activity-v3/<slug>.tsv`) brought up to
  /// date by a walk that reads only the trees on the way to `scrums/<slug>.yaml` and
  /// `history/<slug>/`, as `git log -- PATH` does: a cold `log S` no longer describes every
  /// commit of the repository. (Its meetings are the ones in the scrum's folder.)
  static func scrumEntries(
    _ repository: DataRepository, matching filter: ActivityFilter, slug: String
  )
    throws -> [ActivityEntry]
  {
    let folder = repository.git.gitDirectory.appendingPathComponent("dinger/activity-v3")
    guard Self.mayWrite(folder) else { return try uncached(repository, filter, newest: nil) }
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let file = folder.appendingPathComponent("\(slug).tsv")
    let lock = try WriterLock(at: folder.deletingLastPathComponent(), name: "activity.lock")
    defer { lock.release() }
    guard let head = try repository.head() else { return [] }
    var index = IndexFile(bytes: RegularFile.read(file.path) ?? [])
    if index.head == head.hex, let entries = index.entries(matching: filter) { return entries }
    if index.head == head.hex { index = IndexFile(bytes: []) }
    // NB: commits since the index's head that touch no scrum or meeting (a commit of notes, a
    // library, an entry) leave it as it is, and it is not rewritten: the calendar after such
    // a push read and rewrote 1,000 indexes (0.64 s against 0.11 s warm). Past 64 commits it is
    // brought up to date below, so the walk stays short.
    if let old = index.head.flatMap({ ObjectID(hex: $0) }),
      let changed = try Self.changedRecordPaths(repository, from: old, to: head),
      !changed.contains(where: {
        $0 == "scrums/\(slug).yaml" || $0.hasPrefix("history/\(slug)/") || $0 == "history/\(slug)"
      }),
      let entries = index.entries(matching: filter)
    {
      return entries
    }
    var paths = ["scrums/\(slug).yaml", "history/\(slug)"]
    let walker = ChangeWalker(repository.git)
    var fresh: [ActivityEntry] = []  // newest first
    func add(_ commit: ObjectID, parent: ObjectID?) throws {
      var changes = try walker.changes(in: commit, parent: parent, limitedTo: paths)
      guard !changes.isEmpty else { return }
      // NB: the scrum's file was added here: if another scrum file with its id went away in
      // the same commit, this is a rename (dinger's or a `git mv`), and older commits are
      // followed under the old name too, as `git log --follow` does.
      if let added = changes.first(where: { $0.path == paths[0] && $0.old == nil }) {
        let scrums = try walker.changes(in: commit, parent: parent, limitedTo: ["scrums"])
        if let from = try renames(in: scrums, reader: walker.reader)[added.path] {
          let old = RecordLayout.slug(ofPath: from)
          paths = [from, "history/\(old)"] + paths
          changes = try walker.changes(in: commit, parent: parent, limitedTo: paths)
          paths = [from, "history/\(old)"]
        }
      }
      let info = try repository.git.commitInfo(commit)
      fresh += try describe(info, changes: changes, walker: walker).reversed()
    }
    var cursor: ObjectID? = head
    while let id = cursor, id.hex != index.head {
      let parents = try walker.parents(of: id)
      if parents.count > 1 {
        // A merge: the commits it brought in are told as they were made (see `entries`).
        for side in try repository.git.commits(
          from: Array(parents.dropFirst()), hiding: [parents[0]])
        {
          try add(side, parent: try walker.parents(of: side).first)
        }
      } else {
        try add(id, parent: parents.first)
      }
      cursor = parents.first
    }
    if cursor == nil { index = IndexFile(bytes: []) }
    index.append(fresh.reversed(), head: head.hex)
    try? AtomicFile.write(index.bytes, to: file.path, durability: .cache)
    return index.entries(matching: filter) ?? []
  }

  /// The paths under `scrums/` and `history/` the commits after `old` up to `head` change
  /// (each against its first parent), or nil when `old` is not in `head`'s history or more
  /// than `limit` commits came since. Worked out once per pair in a process: every scrum's
  /// index asks the same question.
  static func changedRecordPaths(
    _ repository: DataRepository, from old: ObjectID, to head: ObjectID, limit: Int = 64
  ) throws -> Set<String>? {
    let key = old.hex + ".." + head.hex
    if let known = changedPaths.withLock({ $0[key] }) { return known }
    let git = repository.git
    var found: Set<String>? = nil
    let commits = try git.commits(from: [head], hiding: [old], limit: limit + 1)
    if commits.count <= limit, try git.commits(from: [old], hiding: [head], limit: 1).isEmpty {
      let walker = ChangeWalker(git)
      var paths = Set<String>()
      for commit in commits {
        let parent = try walker.parents(of: commit).first
        for change in try walker.changes(
          in: commit, parent: parent, limitedTo: ["scrums", "history"])
        {
          paths.insert(change.path)
        }
      }
      found = paths
    }
    changedPaths.withLock { $0[key] = .some(found) }
    return found
  }

  private static let changedPaths = Mutex<[String: Set<String>?]>([:])

  /// The entries of `commits` (oldest first), described on every core: each worker opens its
  /// own handle and walks a contiguous run of commits, so its walker reuses trees between them.
  static func describe(_ commits: [Repository.CommitInfo], in git: Repository) throws
    -> [ActivityEntry]
  {
    let results = Runs.map(Runs.split(commits.count, minimum: 256)) { run in
      Result { () throws -> [ActivityEntry] in
        let handle = try Repository.open(git.gitDirectory)
        let walker = ChangeWalker(handle)
        return try commits[run].flatMap { try describe($0, walker: walker) }
      }
    }
    return try results.flatMap { try $0.get() }
  }

  static func describe(_ info: Repository.CommitInfo, walker: ChangeWalker)
    throws -> [ActivityEntry]
  {
    if info.parents.count > 1 { return [] }
    return try describe(info, changes: try walker.changes(in: info), walker: walker)
  }

  /// The entries of the record files among `changes`, which `info` made.
  static func describe(_ info: Repository.CommitInfo, changes: [ChangedFile], walker: ChangeWalker)
    throws -> [ActivityEntry]
  {
    let subject = info.message.split(separator: "\n").first.map(String.init) ?? ""
    let action = TrailerParser.value("Dinger-Action", in: info.message)
    var out: [ActivityEntry] = []
    let renames = try Self.renames(in: changes, reader: walker.reader)
    let movedAway = Set(renames.values)
    for file in changes {
      let path = file.path
      guard let kind = RecordLayout.kind(ofPath: path), kind != .config else { continue }
      // NB: a renamed record is one entry ("renamed from ..."); meetings and quiz results
      // moved along with their parent's rename are not entries of their own.
      if movedAway.contains(path) { continue }
      if let from = renames[path] {
        if kind == .meeting || kind == .quiz || kind == .standup { continue }
        let text = try file.new.map { try walker.reader.read($0).bytes } ?? []
        out.append(
          ActivityEntry(
            commit: info.id.hex, time: Int(info.author.date.timeIntervalSince1970),
            author: info.author.name, subject: subject, path: path, record: field("id", in: text),
            scrum: nil, change: "R",
            summary:
              "renamed \(RecordLayout.slug(ofPath: from)) -> \(RecordLayout.slug(ofPath: path))",
            email: info.author.email, title: Self.title(of: text, kind: kind)))
        continue
      }
      let reader = walker.reader
      let new = try file.new.map { try reader.read($0).bytes }
      // NB: the old bytes are only needed to diff a scrum edit.
      let old = try ((kind == .scrum || kind == .standup) && new != nil ? file.old : nil).map {
        try reader.read($0).bytes
      }
      let change = file.new == nil ? "D" : file.old == nil ? "A" : "M"
      let gone = try new == nil ? file.old.map { try reader.read($0).bytes } : nil
      let text = new ?? gone ?? []
      let summary = Self.summary(
        kind: kind, change: change, action: action, subject: subject, old: old, new: new)
      out.append(
        ActivityEntry(
          commit: info.id.hex, time: Int(info.author.date.timeIntervalSince1970),
          author: info.author.name,
          subject: subject, path: path, record: field("id", in: text),
          // NB: a quiz result's library stands where a meeting's scrum does (its parent).
          scrum: kind == .meeting || kind == .standup
            ? field("scrum", in: text) : kind == .quiz ? field("library", in: text) : nil,
          change: change, summary: summary, email: info.author.email,
          title: kind == .scrum || kind == .library ? Self.title(of: text, kind: kind) : nil
        ))
    }
    return out
  }

  /// A scrum's title or a library's name in a file's bytes, nil when it does not decode.
  static func title(of bytes: [UInt8], kind: RecordKind) -> String? {
    switch RecordCodec.decode(bytes, path: "x.yaml", kind: kind).record {
    case .scrum(let scrum)?: return scrum.title
    case .library(let library)?: return library.name
    default: return nil
    }
  }

  /// Renames among `changes`: new path -> old path, for a record file removed and one of the
  /// same kind added with the same content (a moved meeting), or for scrums and libraries,
  /// the same id (a renamed file that was also edited, as by `git mv` and an edit).
  static func renames(in changes: [ChangedFile], reader: ObjectReader) throws -> [String: String] {
    let removed = changes.filter { $0.new == nil && $0.old != nil }
    let added = changes.filter { $0.old == nil && $0.new != nil }
    guard !removed.isEmpty, !added.isEmpty else { return [:] }
    var out: [String: String] = [:]
    var taken = Set<String>()
    var ids: [String: String] = [:]  // removed path -> id
    for file in added {
      let kind = RecordLayout.kind(ofPath: file.path)
      guard kind != nil, kind != .config else { continue }
      let sameKind = removed.filter {
        RecordLayout.kind(ofPath: $0.path) == kind && !taken.contains($0.path)
      }
      if let same = sameKind.first(where: { $0.old == file.new }) {
        out[file.path] = same.path
        taken.insert(same.path)
        continue
      }
      guard kind == .scrum || kind == .library, let new = file.new,
        let id = field("id", in: try reader.read(new).bytes)
      else { continue }
      for candidate in sameKind {
        if ids[candidate.path] == nil, let old = candidate.old {
          ids[candidate.path] = field("id", in: try reader.read(old).bytes) ?? ""
        }
        if ids[candidate.path] == id {
          out[file.path] = candidate.path
          taken.insert(candidate.path)
          break
        }
      }
    }
    return out
  }

  /// What a change of the record file at `path` from `old` to `new` (nil: absent) did, as
  /// the log says it; nil for a file that is not a record.
  public static func describe(path: String, old: [UInt8]?, new: [UInt8]?) -> String? {
    guard let kind = RecordLayout.kind(ofPath: path), kind != .config, old != nil || new != nil
    else {
      return nil
    }
    let change = new == nil ? "D" : old == nil ? "A" : "M"
    return summary(kind: kind, change: change, action: nil, subject: "", old: old, new: new)
  }

  static func summary(
    kind: RecordKind, change: String, action: String?, subject: String, old: [UInt8]?, new: [UInt8]?
  ) -> String {
    // NB: a line scan, not a decode: the cold build reads every meeting ever recorded.
    if kind == .meeting, change == "A", let new,
      let seconds = field("duration", in: new).flatMap({ Int($0) })
    {
      return "meeting recorded, " + (seconds < 60 ? "\(seconds) s" : "\((seconds + 30) / 60) min")
    }
    if kind == .scrum, change == "M", let old, let new,
      case .scrum(let a)? = RecordCodec.decode(old, path: "s.yaml", kind: .scrum).record,
      case .scrum(let b)? = RecordCodec.decode(new, path: "s.yaml", kind: .scrum).record
    {
      let parts = ScrumDiff.describe(from: a, to: b)
      if !parts.isEmpty { return parts.joined(separator: "; ") }
    }
    // NB: "stand-up of ada lovelace for 2026-11-27" (field() lowercases).
    // NB: an entry is small: decoded for its author's name as written.
    if kind == .standup, change != "D", let new,
      case .standup(let entry)? = RecordCodec.decode(new, path: "e.yaml", kind: .standup).record
    {
      if change == "M", let old,
        case .standup(let before)? = RecordCodec.decode(old, path: "e.yaml", kind: .standup).record
      {
        let parts = StandupEntry.describe(from: before, to: entry)
        if !parts.isEmpty {
          return "\(entry.by)'s stand-up for \(entry.date): " + parts.joined(separator: "; ")
        }
      }
      let verb = change == "A" ? "wrote" : "edited"
      return "\(verb) the stand-up entry of \(entry.by) for \(entry.date)"
    }
    if action == "undo" { return subject }
    switch change {
    case "A": return "added \(kind.noun)"
    case "D": return "removed \(kind.noun)"
    default: return "edited \(kind.noun)"
    }
  }

  /// The value of a top-level `key: value` line, lowercased, without reading the YAML (for a
  /// file whose YAML does not parse, too).
  public static func field(_ key: String, in bytes: [UInt8]) -> String? {
    let key = Array(key.utf8) + [UInt8(ascii: ":")]
    var start = 0
    while start < bytes.count {
      var end = start
      while end < bytes.count && bytes[end] != UInt8(ascii: "\n") { end += 1 }
      if end - start >= key.count && bytes[start..<start + key.count].elementsEqual(key) {
        var value = bytes[(start + key.count)..<end]
        if let hash = value.firstIndex(of: UInt8(ascii: "#")) { value = value[..<hash] }
        // NB: trimmed as bytes: Foundation's trimming was a tenth of the cold rebuild.
        let blank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0d }
        while let first = value.first, blank(first) { value = value.dropFirst() }
        while let last = value.last, blank(last) { value = value.dropLast() }
        return value.isEmpty ? nil : String(decoding: value, as: UTF8.self).lowercased()
      }
      start = end + 1
    }
    return nil
  }

  /// `field`, without the quotes around a quoted value (`id: '6a4f...'`): what a record file
  /// that does not parse still says of its id, title or parent.
  public static func unquotedField(_ key: String, in bytes: [UInt8]) -> String? {
    guard var value = field(key, in: bytes) else { return nil }
    if value.count >= 2, let q = value.first, q == "'" || q == "\"", value.last == q {
      value = String(value.dropFirst().dropLast())
    }
    return value.isEmpty ? nil : value
  }

  static func escape(_ s: String) -> String {
    let special = s.utf8.contains { $0 == UInt8(ascii: "\\") || $0 == 9 || $0 == 10 }
    guard special else { return s }
    return s.replacingText("\\", with: "\\\\").replacingText(
      "\t", with: "\\t"
    )
    .replacingText("\n", with: "\\n")
  }

  static func unescape(_ s: String) -> String {
    // NB: a byte test: `String.contains` (Foundation's range search) was most of a warm
    // `log -n 20` over 130,000 lines.
    guard s.utf8.contains(92) else { return s }
    var out = ""
    var escaping = false
    for c in s {
      if escaping {
        out.append(c == "t" ? "\t" : c == "n" ? "\n" : c)
        escaping = false
      } else if c == "\\" {
        escaping = true
      } else {
        out.append(c)
      }
    }
    return out
  }

  /// The index file's bytes: a header line naming the commit it is up to date with, then one
  /// tab-separated line per entry, fields escaped (`\\`, `\t`, `\n`).
  // NB: read as bytes and only wanted lines become entries: a 40,000-commit history makes an
  // 8 MB file, and splitting it into Swift strings took longer than git's own log.
  struct IndexFile {
    var bytes: [UInt8]
    /// The commit the entries are up to date with; nil for a missing or unknown file.
    var head: String?
    static let fieldCount = 11

    init(bytes: [UInt8]) {
      self.bytes = bytes
      let prefix = Array((version + " ").utf8)
      guard let newline = bytes.firstIndex(of: 10), newline == prefix.count + 40,
        bytes[..<prefix.count].elementsEqual(prefix)
      else {
        self.bytes = []
        return
      }
      head = String(decoding: bytes[prefix.count..<newline], as: UTF8.self)
    }

    /// The header line and the last lines of the index at `path` (about `lines` of them, whole
    /// lines only), as an index of its own; `whole` when that is the entire file.
    static func tail(of path: String, lines: Int) -> (index: IndexFile, whole: Bool)? {
      let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
      guard fd >= 0 else { return nil }
      defer { close(fd) }
      var st = stat()
      guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { return nil }
      let size = Int(st.st_size)
      func read(_ offset: Int, _ count: Int) -> [UInt8]? {
        FileDescriptor.read(fd, count: count, at: offset).flatMap { $0.count == count ? $0 : nil }
      }
      let headerSize = Array((version + " ").utf8).count + 41
      guard size >= headerSize, let header = read(0, headerSize), header.last == 10 else {
        return nil
      }
      let want = min(max(64 << 10, lines * 1024), size - headerSize)
      let start = size - want
      guard var body = read(start, want) else { return nil }
      if start > headerSize {
        // The chunk starts inside a line: drop that part.
        guard let newline = body.firstIndex(of: 10) else { return nil }
        body.removeSubrange(...newline)
      }
      return (IndexFile(bytes: header + body), start <= headerSize)
    }

    /// Adds entries and moves the header to `head`.
    mutating func append(_ entries: [ActivityEntry], head: String) {
      var text = ""
      text.reserveCapacity(entries.count * 200)
      for e in entries {
        text +=
          [
            e.commit, String(e.time), e.author, e.subject, e.path, e.record ?? "", e.scrum ?? "",
            e.change, e.summary, e.email, e.title ?? "",
          ]
          .map(escape).joined(separator: "\t") + "\n"
      }
      let body = self.head == nil ? [] : bytes[(bytes.firstIndex(of: 10)! + 1)...]
      bytes = Array((version + " " + head + "\n").utf8) + body + Array(text.utf8)
      self.head = head
    }

    /// The entries `filter` wants, oldest first; with `newest`, only that many of the last ones
    /// (lines are then read from the end, and reading stops there). Nil when a line cannot be
    /// read.
    func entries(matching filter: ActivityFilter, newest: Int? = nil) -> [ActivityEntry]? {
      guard head != nil else { return nil }
      return bytes.withUnsafeBufferPointer { buffer -> [ActivityEntry]? in
        let first = buffer.firstIndex(of: 10)! + 1
        var out: [ActivityEntry] = []
        var tabs = [Int](repeating: 0, count: Self.fieldCount + 1)
        /// The entry on the line `start..<end`: nil (with `bad`) when it cannot be read, nil
        /// when the filter does not want it.
        func entry(_ start: Int, _ end: Int, bad: inout Bool) -> ActivityEntry? {
          var n = 0
          tabs[0] = start - 1
          var i = start
          while i < end {
            if buffer[i] == 9 {
              n += 1
              if n < Self.fieldCount { tabs[n] = i }
            }
            i += 1
          }
          tabs[Self.fieldCount] = end
          guard n == Self.fieldCount - 1 else {
            bad = true
            return nil
          }
          func raw(_ i: Int) -> Substring {
            let bytes = UnsafeBufferPointer(rebasing: buffer[(tabs[i] + 1)..<tabs[i + 1]])
            return Substring(String(decoding: bytes, as: UTF8.self))
          }
          func field(_ i: Int) -> String { unescape(String(raw(i))) }
          guard let time = Int(raw(1)) else {
            bad = true
            return nil
          }
          guard filter == .all || filter.matches(path: field(4), record: field(5), scrum: field(6))
          else { return nil }
          let (record, scrum) = (field(5), field(6))
          return ActivityEntry(
            commit: field(0), time: time, author: field(2), subject: field(3), path: field(4),
            record: record.isEmpty ? nil : record, scrum: scrum.isEmpty ? nil : scrum,
            change: field(7), summary: field(8), email: field(9),
            title: raw(10).isEmpty ? nil : field(10))
        }
        var bad = false
        if let newest {
          // From the end: each line ends at a newline (the last one too).
          var end = buffer.count
          if end > first && buffer[end - 1] == 10 { end -= 1 }
          while end > first && out.count < newest {
            var start = end
            while start > first && buffer[start - 1] != 10 { start -= 1 }
            if let e = entry(start, end, bad: &bad) { out.append(e) }
            if bad { return nil }
            end = start - 1
          }
          return out.reversed()
        }
        var start = first
        while start < buffer.count {
          var end = start
          while end < buffer.count && buffer[end] != 10 { end += 1 }
          if let e = entry(start, end, bad: &bad) { out.append(e) }
          if bad { return nil }
          start = end + 1
        }
        return out
      }
    }
  }
}
