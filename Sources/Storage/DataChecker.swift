import Base
import FoundationEssentials
import Git
import Glibc
import Models

/// Validates record files one by one and against each other: ids used twice, meetings of scrums
/// that do not exist, records filed under the wrong folder.
public enum DataChecker {
  /// Checks `files` (data-relative path and bytes). Only findings about paths in `only` are kept
  /// when it is given; the other files still serve as references.
  public static func check(
    files: [(path: String, bytes: [UInt8])], problems: [Diagnostic] = [], only: Set<String>? = nil
  ) -> CheckReport {
    check(files: files, problems: problems, only: only, parallelFrom: 4_096)
  }

  /// `check(files:)`, decoding on every core from `parallelFrom` files.
  static func check(
    files: [(path: String, bytes: [UInt8])], problems: [Diagnostic], only: Set<String>?,
    parallelFrom: Int
  ) -> CheckReport {
    var inputs = files.map { (path: $0.path, input: Input.bytes($0.bytes)) }
    inputs.sort { $0.path < $1.path }
    let byPath = Dictionary(files.map { ($0.path, $0.bytes) }, uniquingKeysWith: { a, _ in a })
    return judge(&inputs, problems: problems, only: only, parallelFrom: parallelFrom) {
      path, line in byPath[path].flatMap { sourceLine(line, of: $0) }
    }
  }

  /// Checks every record file of a data directory, through the record cache when the directory
  /// is the top of a git working tree.
  public static func check(directory: DataDirectory, problems: [Diagnostic], only: Set<String>?)
    -> CheckReport
  {
    let gitDirectory = try? Repository.openLater(directory.root).gitDirectory
    return check(
      directory: directory, cache: gitDirectory.flatMap { RecordCache.of(gitDirectory: $0) },
      problems: problems, only: only
    ).report
  }

  /// Checks every record file of a data directory, taking from the record cache (when there is
  /// one) what the cross-file pass needs of files that have not changed since they were cached
  /// clean; the others are read, decoded, and cached when clean.
  static func check(
    directory: DataDirectory, cache: RecordCache?, problems extra: [Diagnostic],
    only: Set<String>?, now: Int64 = FileStamp.now(), parallelFrom: Int = 4_096
  ) -> (report: CheckReport, fromCache: Int) {
    var (paths, problems) = directory.recordFilePaths()
    // NB: the paths are sorted, not the inputs made from them (moving each file's slim form
    // about was most of the sort), and read in that order, which keeps each folder's files
    // together; the inputs then come in path order as they are made.
    paths.sort()
    // NB: one array of inputs, each file's bytes or slim form held once and let go of as soon
    // as it is judged (three copies of it made `check` take 426 MB over 130,000 meetings).
    var inputs: [(path: String, input: Input)] = []
    inputs.reserveCapacity(paths.count)
    var unreadable: [Diagnostic] = []
    var fromCache = 0
    for (path, found) in zip(
      paths, statAll(paths, root: directory.root, cache: cache, parallelFrom: parallelFrom))
    {
      switch found {
      case .slim(let hit):
        inputs.append(
          (
            path,
            .slim(
              SlimFile(
                path: path, kind: hit.kind, id: hit.id, parent: hit.parent, places: hit.places))
          ))
        fromCache += 1
      case .read(let bytes, let stamp, let stale):
        if stale { cache?.drop(path) }
        inputs.append((path, .stamped(bytes, stamp)))
      case .missing: continue
      case .refused(let error):
        unreadable.append(Diagnostic(.error, file: path, message: DataDirectory.unreadable(error)))
      }
    }
    Trace.mark("checking \(paths.count) files, \(fromCache) of them from the record cache")
    defer { cache?.save() }
    let tree = WorkTree(root: directory.root)
    let report = judge(
      &inputs, problems: problems + unreadable + extra, only: only, parallelFrom: parallelFrom,
      now: now,
      lineOf: { path, line in
        // NB: a finding's line is read again only when there is a finding to show.
        let reads = tree.read([path], unless: { _, _ in false })
        guard case .read(let bytes, _)? = try? reads.first?.get() else { return nil }
        return sourceLine(line, of: bytes)
      }
    ) { file, stamp in
      guard let cache, let record = file.record, file.diagnostics.isEmpty else { return }
      cache.remember(
        file.path, stamp: stamp, record: record, places: SlimFile.places(of: file), now: now)
    }
    return (report, fromCache)
  }

  /// What `statAll` found of a file: what the cache kept of it (its stamp the cached one), its
  /// bytes (`stale` when the cache had it with another stamp), no file, or a refusal.
  enum Found: Sendable {
    case slim(Hit)
    case read([UInt8], FileStamp, stale: Bool)
    case missing
    case refused(WorkTree.Refusal)
  }

  /// What the cache kept of a clean file, for `SlimFile`.
  struct Hit: Sendable {
    var kind: RecordKind
    var id: UUID?
    var parent: UUID?
    var places: CachedRecord.SlimPlaces
  }

  /// Stats every path (sorted) and reads the ones the cache cannot answer for, a big tree on
  /// every core, as git's preload-index stats its index: a warm check is a stat per file and
  /// a cache lookup, and both halve on two cores. The workers only look the cache up (through
  /// folder views made here first); what they find stale is dropped here after. Fewer than
  /// `parallelFrom` paths are done on this thread alone.
  static func statAll(_ paths: [String], root: URL, cache: RecordCache?, parallelFrom: Int)
    -> [Found]
  {
    var views: [Substring: RecordCache.FolderView] = [:]
    if let cache {
      var last: Substring?
      for path in paths {
        let dir = path.lastIndex(ofASCII: UInt8(ascii: "/")).map { path[..<$0] } ?? ""
        if let last, last.utf8.elementsEqual(dir.utf8) { continue }
        last = dir
        if views[dir] == nil { views[dir] = cache.view(ofFolder: String(dir)) }
      }
    }
    let runs = Runs.split(paths.count, minimum: parallelFrom)
    return Runs.map(runs) { [views] run in
      var found: [Found] = []
      found.reserveCapacity(run.count)
      var hits: [Hit] = []
      var stale = false
      var last: (dir: Substring, view: RecordCache.FolderView?)?
      WorkTree(root: root).read(Array(paths[run])) { path, stamp in
        // NB: scrums are always read: the title check between them needs their titles, which
        // the cache's slim form does not keep (and scrums are few).
        guard !views.isEmpty, let kind = RecordLayout.kind(ofPath: path), kind != .scrum else {
          return false
        }
        let slash = path.lastIndex(ofASCII: UInt8(ascii: "/"))
        let dir = slash.map { path[..<$0] } ?? ""
        // NB: folders compared as bytes (String's == weighs canonical equivalence).
        if last == nil || !last!.dir.utf8.elementsEqual(dir.utf8) { last = (dir, views[dir]) }
        let name = slash.map { String(path[path.utf8.index(after: $0)...]) } ?? path
        guard let kept = last?.view?.slim(name, stamp: stamp, stale: &stale),
          kept.kind == CachedRecord.tag(of: kind)
        else { return false }
        hits.append(Hit(kind: kind, id: kept.id, parent: kept.parent, places: kept.places))
        return true
      } each: { _, result in
        switch result {
        case .success(.known): found.append(.slim(hits.removeLast()))
        case .success(.read(let bytes, let stamp)):
          found.append(.read(bytes, stamp, stale: stale))
        case .success(.missing): found.append(.missing)
        case .failure(let error): found.append(.refused(error))
        }
        stale = false
        return true
      }
      return found
    }.flatMap { $0 }
  }

  /// A file to judge: its bytes, its bytes and stamp (to cache what it gives), or what the
  /// cache kept of it.
  enum Input {
    case bytes([UInt8])
    case stamped([UInt8], FileStamp)
    case slim(SlimFile)
  }

  /// Judges `inputs` (sorted by path), taking each out of the array as it goes.
  private static func judge(
    _ inputs: inout [(path: String, input: Input)], problems: [Diagnostic], only: Set<String>?,
    parallelFrom: Int = 4_096, now: Int64 = FileStamp.now(), lineOf: (String, Int) -> String?,
    clean: (DecodedFile, FileStamp) -> Void = { _, _ in }
  ) -> CheckReport {
    var ahead = DecodeAhead(count: inputs.count, parallelFrom: parallelFrom)
    // NB: each file is decoded, judged on its own, and kept only as what the cross-file pass
    // needs (its ids and the places of its `id:` and parent keys): holding every file's nodes
    // and source until the end took 715 MB over 130,000 meetings.
    var slim: [SlimFile] = []
    slim.reserveCapacity(inputs.count)
    var diagnostics: [Diagnostic] = problems
    // NB: scrums sort before stand-up entries (`scrums/` < `standups/`) and are always read
    // whole: an entry is judged against its scrum as it is decoded.
    var scrums: [UUID: Scrum] = [:]
    var entriesByScrum: [UUID: [StandupEntry]] = [:]
    var entryFiles: [(DecodedFile, StandupEntry)] = []
    for i in inputs.indices {
      let path = inputs[i].path
      ahead.prepare(i, inputs)
      // NB: moved out, not copied (a copy of a slim form is a retain per field of it).
      var input = Input.bytes([])
      swap(&input, &inputs[i].input)
      if case .slim(let kept) = input {
        slim.append(kept)
        continue
      }
      if let kind = RecordLayout.kind(ofPath: path) {
        switch input {
        case .slim(let kept): slim.append(kept)
        case .bytes(let bytes), .stamped(let bytes, _):
          let file = ahead.take(i) ?? RecordCodec.decode(bytes, path: path, kind: kind)
          diagnostics += file.diagnostics
          slim.append(SlimFile(file))
          switch file.record {
          case .scrum(let scrum)?: if let id = scrum.id { scrums[id] = scrum }
          case .standup(let entry)?:
            diagnostics += StandupChecks.judge(
              entry, in: file, scrum: scrums[entry.scrum], now: now)
            entriesByScrum[entry.scrum, default: []].append(entry)
            entryFiles.append((file, entry))
          default: break
          }
          if case .stamped(_, let stamp) = input { clean(file, stamp) }
        }
      } else if path.hasSuffix(".yml") {
        diagnostics.append(
          Diagnostic(
            .warning, file: path,
            message: "dinger reads only '.yaml' files; rename this one to end in '.yaml'"))
      }
    }
    inputs = []
    diagnostics += StandupChecks.resolutions(entryFiles, entriesByScrum)
    entryFiles = []
    diagnostics += crossFiles(slim, lineOf)
    if let only { diagnostics = diagnostics.filter { only.contains($0.file) } }
    diagnostics.sort { $0.file < $1.file }
    let count = only.map { o in slim.filter { o.contains($0.path) }.count } ?? slim.count
    return CheckReport(files: count, diagnostics: stableByFile(diagnostics))
  }

  /// Files decoded ahead of `judge`, a window at a time on every core (a sync's check of the
  /// 20,000 files a catch-up brought ran beside the push and outlasted it); `judge` still takes
  /// them one by one, in path order. A window bounds what is held decoded at once.
  struct DecodeAhead {
    /// A window's bounds: files, and bytes of them (a teammate's big libraries decode to
    /// several times their size; the window ends after the file that reaches this, so one file
    /// bigger than it still makes a window of one).
    static let window = 8_192
    static let windowBytes = 32 << 20
    let parallel: Bool
    var start = 0
    var files: [DecodedFile?] = []

    init(count: Int, parallelFrom: Int) { parallel = count >= parallelFrom }

    /// Decodes the window starting at `i` unless `i` is in the window decoded last; called
    /// before input `i` is taken out of `inputs`.
    mutating func prepare(_ i: Int, _ inputs: [(path: String, input: Input)]) {
      guard parallel, i >= start + files.count || i < start else { return }
      start = i
      var work: [(path: String, kind: RecordKind, bytes: [UInt8])?] = []
      var size = 0
      for item in inputs[i..<min(i + Self.window, inputs.count)] where size < Self.windowBytes {
        guard let kind = RecordLayout.kind(ofPath: item.path) else {
          work.append(nil)
          continue
        }
        switch item.input {
        case .bytes(let bytes), .stamped(let bytes, _):
          work.append((item.path, kind, bytes))
          size += bytes.count
        case .slim: work.append(nil)
        }
      }
      let runs = Runs.split(work.count, minimum: 0)
      files = Runs.map(runs) { [work] run in
        run.map { j in work[j].map { RecordCodec.decode($0.bytes, path: $0.path, kind: $0.kind) } }
      }.flatMap { $0 }
    }

    /// The decoded file at `i` (once), nil when this judge decodes on one thread or the input
    /// is not bytes of a record.
    mutating func take(_ i: Int) -> DecodedFile? {
      guard parallel, i >= start, i < start + files.count else { return nil }
      defer { files[i - start] = nil }
      return files[i - start]
    }
  }

  /// What the cross-file checks need of a file.
  /// A class, not a struct: it is passed about whole (into the cross-file index, through the
  /// findings), and a copy of a struct of this many Strings was a retain and a release per
  /// field (an eighth of a warm check over 130,000 files).
  final class SlimFile {
    var path: String
    var kind: RecordKind
    var id: UUID?
    /// The keys a parent file (scrum, library) answers to: its id as decoded, as its node
    /// says, and as its raw line says (a file with errors still names its id).
    var ownerKeys: [String] = []
    /// A meeting's scrum or a quiz's library, and the key that names it.
    var parent: (id: UUID, key: String, kind: RecordKind, folder: String)?
    /// Where `id:` and the parent key are, for findings.
    var idPlace: Place?
    var parentPlace: Place?
    /// A scrum's title, trimmed and lowercased (titles name scrums, so no two may share one),
    /// and where it is.
    var titleKey: String?
    var titlePlace: Place?

    /// A place in the file, kept small (a whole `Diagnostic` per place was most of what a
    /// clean file cost `check` over 130,000 meetings): made into a finding only when there is one.
    struct Place {
      var line: Int32
      var column: Int32
      var key: String

      init(line: Int32, column: Int32, key: String) {
        (self.line, self.column, self.key) = (line, column, key)
      }

      init?(_ d: Diagnostic?) {
        guard let d, let line = d.line, let column = d.column else { return nil }
        (self.line, self.column, key) = (Int32(line), Int32(column), d.path)
      }

      func diagnostic(file: String, sourceLine: String?) -> Diagnostic {
        Diagnostic(
          .error, file: file, line: Int(line), column: Int(column), path: key, message: "",
          sourceLine: sourceLine)
      }
    }

    init(_ file: DecodedFile) {
      path = file.path
      kind = file.kind
      // NB: a file with an error of its own still takes part in the checks between files, by
      // what its text says: a duplicate id must not wait until the other error is fixed.
      id = file.record?.id ?? file.root?["id"]?.scalarText.flatMap { UUID(uuidString: $0) }
      if id != nil {
        idPlace = Place(file.diagnostic(.error, at: [.key("id")], ""))
      }
      if kind == .scrum {
        var title: String?
        if case .scrum(let scrum)? = file.record { title = scrum.title }
        title = title ?? file.root?["title"]?.scalarText
        if let title = title?.trimmingSpaces().lowercased(), !title.isEmpty {
          titleKey = title
          titlePlace = Place(file.diagnostic(.error, at: [.key("title")], ""))
        }
      }
      if kind == .scrum || kind == .library {
        ownerKeys = [
          file.record?.id?.uuidString.lowercased(), file.root?["id"]?.scalarText?.lowercased(),
          ActivityIndex.field("id", in: file.source.bytes),
        ].compactMap { $0 }
      }
      switch file.record {
      case .meeting(let meeting)?: parent = (meeting.scrum, "scrum", .scrum, "history")
      case .quiz(let quiz)?: parent = (quiz.library, "library", .library, "quizzes")
      case .standup(let entry)?: parent = (entry.scrum, "scrum", .scrum, "standups")
      default: break
      }
      if let parent { parentPlace = Place(file.diagnostic(.error, at: [.key(parent.key)], "")) }
    }

    /// What the cache keeps of a clean file for this pass: the places of `id:` and of the
    /// parent key.
    static func places(of file: DecodedFile) -> CachedRecord.Places {
      let slim = SlimFile(file)
      return CachedRecord.Places(
        id: slim.idPlace.map { _ in file.diagnostic(.error, at: [.key("id")], "") },
        parent: slim.parent.map { file.diagnostic(.error, at: [.key($0.key)], "") })
    }

    /// A clean file as the cache kept it (a clean file's id is its id as written, so it is the
    /// one key it answers to). `parent` is a meeting's scrum (quizzes are not cached).
    init(
      path: String, kind: RecordKind, id: UUID?, parent: UUID?, places: CachedRecord.SlimPlaces
    ) {
      self.path = path
      self.kind = kind
      self.id = id
      if kind == .scrum || kind == .library {
        ownerKeys = id.map { [$0.uuidString.lowercased()] } ?? []
      }
      if kind == .meeting, let parent { self.parent = (parent, "scrum", .scrum, "history") }
      idPlace = places.id.map { Place(line: $0.line, column: $0.column, key: $0.key) }
      parentPlace = places.parent.map { Place(line: $0.line, column: $0.column, key: $0.key) }
    }

    func finding(
      _ place: Place?, _ severity: Severity, _ message: String, _ lineOf: (String, Int) -> String?
    ) -> Diagnostic {
      var d =
        place.map { $0.diagnostic(file: path, sourceLine: lineOf(path, Int($0.line))) }
        ?? Diagnostic(.error, file: path, message: "")
      d.severity = severity
      d.message = message
      return d
    }
  }

  /// Keeps each file's findings in line order after the sort by file.
  private static func stableByFile(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
    Dictionary(grouping: diagnostics, by: \.file).sorted { $0.key < $1.key }.flatMap { _, list in
      list.sorted { ($0.line ?? 0, $0.column ?? 0) < ($1.line ?? 0, $1.column ?? 0) }
    }
  }

  /// What the cross-file checks look up, built once over the files in path order: which
  /// earlier file each id, title and owner key was first seen in, as positions in that order
  /// (they were scans of every file for every file: 25 s over 10,000 records; then paths, whose
  /// copies and comparisons were a sixth of a warm check over 130,000).
  struct CrossIndex {
    /// Each file that uses an id an earlier file used, with that earlier file, in file order.
    var repeatedIDs: [(file: Int, first: Int)] = []
    var firstByTitle: [String: Int] = [:]
    var owners: [RecordKind: [String: Int]] = [:]
    /// The scrums and libraries by the UUID their key spells, with their slug: a meeting's scrum
    /// found without spelling its id (130,000 UUIDs formatted and lowercased were a tenth of a
    /// warm check). One table per kind: a table of tables was copied out for each look-up.
    var scrums: [UUID: (file: Int, slug: String)] = [:]
    var libraries: [UUID: (file: Int, slug: String)] = [:]

    init(_ files: [SlimFile]) {
      var firstByID: [UUID: Int] = [:]
      firstByID.reserveCapacity(files.count)
      for (i, file) in files.enumerated() {
        // NB: one hash of the id: the access through `default:` stores `i` when it is new.
        if let id = file.id, case let first = Self.first(&firstByID[id, default: i]), first != i {
          repeatedIDs.append((i, first))
        }
        if let title = file.titleKey, firstByTitle[title] == nil { firstByTitle[title] = i }
        for key in file.ownerKeys where owners[file.kind, default: [:]][key] == nil {
          owners[file.kind, default: [:]][key] = i
          guard let uuid = UUID(uuidString: key) else { continue }
          let owner = (i, RecordLayout.slug(ofPath: file.path))
          switch file.kind {
          case .scrum: if scrums[uuid] == nil { scrums[uuid] = owner }
          case .library: if libraries[uuid] == nil { libraries[uuid] = owner }
          default: break
          }
        }
      }
    }

    private static func first(_ stored: inout Int) -> Int { stored }

    /// The file of `kind` whose key names `id`, with its slug.
    func owner(_ kind: RecordKind, _ id: UUID, in files: [SlimFile]) -> (file: Int, slug: String)? {
      switch kind {
      case .scrum: if let found = scrums[id] { return found }
      case .library: if let found = libraries[id] { return found }
      default: break
      }
      guard let file = owners[kind]?[id.uuidString.lowercased()] else { return nil }
      return (file, RecordLayout.slug(ofPath: files[file].path))
    }
  }

  /// Line `line` (1-based) of `bytes`, without its line end; past 1,000 bytes cut there with
  /// a `…` (the places these findings point at, `id:` and the parent key, begin a line).
  static func sourceLine(_ line: Int, of bytes: [UInt8]) -> String? {
    var n = 1
    var start = 0
    if line > 1 {
      for (i, b) in bytes.enumerated() where b == 10 {
        n += 1
        if n == line {
          start = i + 1
          break
        }
      }
      guard n == line else { return nil }
    }
    guard start < bytes.count else { return nil }
    var end = start
    while end < bytes.count && bytes[end] != 10 && end - start < 1_000 { end += 1 }
    let cut = end < bytes.count && bytes[end] != 10
    while cut && end > start && bytes[end] & 0xC0 == 0x80 { end -= 1 }
    return text(bytes[start..<end]) + (cut ? "…" : "")
  }

  private static func text(_ bytes: ArraySlice<UInt8>) -> String {
    String(decoding: bytes.last == 13 ? bytes.dropLast() : bytes, as: UTF8.self)
  }

  /// The findings between `files` (in path order): ids used twice, titles used twice, parents
  /// that do not exist, records filed under another parent's folder.
  private static func crossFiles(_ files: [SlimFile], _ lineOf: (String, Int) -> String?)
    -> [Diagnostic]
  {
    let index = CrossIndex(files)
    var found: [Diagnostic] = []
    var repeated = index.repeatedIDs[...]
    for (i, file) in files.enumerated() {
      if let (at, first) = repeated.first, at == i, let id = file.id {
        repeated = repeated.dropFirst()
        found.append(
          file.finding(
            file.idPlace, .error,
            "id \(id.uuidString.lowercased()) is also used by \(files[first].path); each record needs its own id (delete this 'id' line and dinger adds a new one)",
            lineOf))
      }
      if let title = file.titleKey, let first = index.firstByTitle[title], first < i {
        found.append(
          file.finding(
            file.titlePlace, .error,
            "the scrum \(files[first].path) has this title too, and a title names one scrum; give one of them another (dinger scrum edit \(RecordLayout.slug(ofPath: file.path)) --title NEW)",
            lineOf))
      }
      guard let parent = file.parent else { continue }
      guard let (owner, slug) = index.owner(parent.kind, parent.id, in: files) else {
        let idText = parent.id.uuidString.lowercased()
        found.append(
          file.finding(
            file.parentPlace, .error,
            "no \(parent.kind.noun) has id \(idText); check the id against the \(parent.kind.noun) files",
            lineOf))
        continue
      }
      guard !RecordLayout.folder(ofPath: file.path).utf8.elementsEqual(slug.utf8) else {
        continue
      }
      let name = URL(fileURLWithPath: file.path).lastPathComponent
      found.append(
        file.finding(
          file.parentPlace, .warning,
          "this belongs to \(files[owner].path) but is filed under \(parent.folder)/\(RecordLayout.slug(ofPath: file.path))/; move it to \(parent.folder)/\(slug)/\(name)",
          lineOf))
    }
    return found
  }
}
