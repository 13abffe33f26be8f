import Base
import Dispatch
import FoundationEssentials
import Git
import Glibc
import Models
import Synchronization
import YAML

/// The data repository: a git repository whose working tree holds Dinger's record files.
/// Reads come from the working tree (so hand edits show at once); every change is one commit.
public final class DataRepository: Sendable {
  /// The working tree's root, where `.dinger/` and `scrums/` live.
  public let root: URL
  let git: Repository
  /// What changes after opening: notes for the command, and what tests set.
  private struct Mutable {
    var beforeMovingBranch: (@Sendable () throws -> Void)?
    var notes: [String] = []
    var clock: @Sendable () -> Int64 = FileStamp.now
    var cacheHits = 0
  }
  private let mutable = Mutex(Mutable())

  /// Runs between building a commit and moving the branch (tests use it to move the branch
  /// underneath, as a concurrent plain-git user would).
  var beforeMovingBranch: (@Sendable () throws -> Void)? {
    get { mutable.withLock { $0.beforeMovingBranch } }
    set { mutable.withLock { $0.beforeMovingBranch = newValue } }
  }
  /// Things the user should hear about the repository (an interrupted write that was
  /// finished), for the command to print.
  public internal(set) var notes: [String] {
    get { mutable.withLock { $0.notes } }
    set { mutable.withLock { $0.notes = newValue } }
  }
  /// The wall clock the record cache judges settled files by (tests move it on).
  var clock: @Sendable () -> Int64 {
    get { mutable.withLock { $0.clock } }
    set { mutable.withLock { $0.clock = newValue } }
  }
  /// How many records the last read took from the record cache.
  var cacheHits: Int {
    get { mutable.withLock { $0.cacheHits } }
    set { mutable.withLock { $0.cacheHits = newValue } }
  }

  /// The working tree as a plain data directory.
  public var directory: DataDirectory { DataDirectory(root: root) }

  /// A value of git's effective configuration for this repository (`core.editor`), or nil.
  public func gitConfig(_ key: String) -> String? { git.config(key) }

  init(root: URL, git: Repository) {
    // NB: one spelling of the root (no trailing slash) so paths and comparisons agree.
    self.root = URL(fileURLWithPath: root.standardizedFileURL.path)
    self.git = git
  }

  /// Opens the data repository at `root`: a git working tree with `.dinger/`.
  public static func open(_ root: URL) throws -> DataRepository {
    let root = root.standardizedFileURL
    var isDir = false
    guard FileManager.default.fileExists(atPath: root.path, isDirectory: &isDir), isDir
    else {
      throw StorageError(
        "'\(root.path)' does not exist; run 'dinger init \(root.path)' to make a data repository there"
      )
    }
    guard FileManager.default.fileExists(atPath: root.appendingPathComponent(".dinger").path) else {
      throw StorageError(
        "'\(root.path)' is not a dinger data repository (it has no .dinger/ folder); run 'dinger init \(root.path)' to make it one"
      )
    }
    let git: Repository
    do {
      git = try Repository.openLater(root)
    } catch {
      if error.message.hasPrefix("unable to access") { throw StorageError(error.message) }
      if error.isDubiousOwnership { throw StorageError(error.message) }
      throw StorageError(
        "'\(root.path)' has .dinger/ but is not the top of a git repository; run 'git init' there, or 'dinger init' to set it up"
      )
    }
    let repository = DataRepository(root: root, git: git)
    repository.finishInterruptedWriteIfAny()
    return repository
  }

  // MARK: Reading

  /// Every record file of a kind in the working tree, decoded, with its diagnostics.
  public func files(of kind: RecordKind) throws -> [DecodedFile] {
    let (paths, problems) = directory.recordPathsAndProblems(of: kind)
    return try files(kind, at: paths)
      + problems.map {
        DecodedFile(
          path: $0.file, kind: kind, record: nil, diagnostics: [$0], root: nil,
          source: SourceText([]))
      }
  }

  /// Some files of a kind, decoded (a link or a missing file is reported in its diagnostics).
  /// Records come from the record cache when their files have not changed since it was filled;
  /// those come without their text and parsed document (`source` is empty, `root` nil), which
  /// only a file with findings needs.
  public func files(_ kind: RecordKind, at paths: [String]) throws -> [DecodedFile] {
    let cache = RecordCache.of(gitDirectory: git.gitDirectory)
    defer { cache?.save() }
    let now = clock()
    var hits: [String: AnyRecord] = [:]
    let read = WorkTree(root: root).read(paths) { path, stamp in
      guard let record = cache?.record(path, stamp: stamp) else { return false }
      hits[path] = record
      return true
    }
    cacheHits = hits.count
    Trace.mark(
      "read \(paths.count) \(kind.noun) files, \(hits.count) of them from the record cache")
    return zip(paths, read).map { path, result in
      switch result {
      case .success(.known):
        return DecodedFile(
          path: path, kind: kind, record: hits[path], diagnostics: [], root: nil,
          source: SourceText([]))
      case .success(.read(let bytes, let stamp)):
        let file = RecordCodec.decode(bytes, path: path, kind: kind)
        if let record = file.record, file.diagnostics.isEmpty {
          cache?.remember(
            path, stamp: stamp, record: record, places: DataChecker.SlimFile.places(of: file),
            now: now)
        }
        return file
      case .success(.missing):
        return DecodedFile(
          path: path, kind: kind, record: nil,
          diagnostics: [Diagnostic(.error, file: path, message: "the file is gone")], root: nil,
          source: SourceText([]))
      case .failure(let error):
        return DecodedFile(
          path: path, kind: kind, record: nil,
          diagnostics: [Diagnostic(.error, file: path, message: DataDirectory.unreadable(error))],
          root: nil, source: SourceText([]))
      }
    }
  }

  /// The bytes of a working-tree file, or nil (also for one behind a symbolic link, which
  /// dinger never follows).
  public func read(_ path: String) -> [UInt8]? {
    (try? WorkTree(root: root).read(path)) ?? nil
  }

  /// The bytes of many working-tree files (each folder on the way opened once for the files
  /// in it), with their paths; files that are missing or can't be read are left out.
  public func read(_ paths: [String]) -> [(path: String, bytes: [UInt8])] {
    let reads = WorkTree(root: root).read(paths, unless: { _, _ in false })
    return zip(paths, reads).compactMap { path, read in
      guard case .success(.read(let bytes, _)) = read else { return nil }
      return (path, bytes)
    }
  }

  // MARK: History

  /// The commit HEAD points at, or nil before the first commit.
  public func head() throws -> ObjectID? { try git.head().commit }

  /// A commit's message, parents and author.
  public func commitInfo(_ id: ObjectID) throws -> Repository.CommitInfo { try git.commitInfo(id) }

  /// The bytes of a file in a commit.
  public func file(_ path: String, in commit: ObjectID) throws -> [UInt8]? {
    try git.file(path, in: commit)
  }

  /// The paths a commit changed against its first parent.
  public func changedPaths(_ commit: ObjectID) throws -> [String] { try git.changedPaths(commit) }
}

/// Phase timings on stderr when `DINGER_TRACE` is set: `dinger: 12.3 ms commit: branch moved`.
public enum Trace {
  /// The previous mark's time (a sync marks from two threads).
  private static let last = Atomic<UInt64>(DispatchTime.now().uptimeNanoseconds)
  private static let enabled = getenv("DINGER_TRACE") != nil

  /// Prints the time since the previous mark.
  public static func mark(_ what: String) {
    guard enabled else { return }
    let now = DispatchTime.now().uptimeNanoseconds
    let previous = last.exchange(now, ordering: .acquiringAndReleasing)
    // NB: the first mark starts the clock (`last` is made on first use, after `now`).
    let since =
      now > previous ? String(cFormat: "%7.1f ms", Double(now - previous) / 1e6) : "  start   "
    StandardError.write("dinger: \(since) \(what)\n")
  }
}
