import Base
import FoundationEssentials
import Git
import Glibc
import Models
import Storage
import Sync
import YAML

/// Remotes, sync, and the conflicts syncs record: what the `remote`, `sync`, `conflicts`,
/// `resolve` and `setup-git` commands do, over a data repository. Only a live variant: syncing
/// is git's network and object plumbing through and through (the merge rules themselves are
/// tested on their own in SyncTests).
public struct SyncProvider: Sendable {
  public var remotes: @Sendable () throws -> [RemoteInfo]
  public var addRemote: @Sendable (_ name: String, _ url: String) throws -> Void
  public var removeRemote: @Sendable (_ name: String) throws -> Void
  public var sync:
    @Sendable (
      _ remote: String, _ dryRun: Bool, _ allowUnrelated: Bool,
      _ progress: (@Sendable (SyncProgress) -> Void)?
    )
      throws -> SyncSummary
  public var conflicts: @Sendable () -> (records: [ConflictInfo], unreadable: [String])
  /// Settles the conflict whose id starts with a prefix; returns it.
  public var resolve: @Sendable (_ id: String, _ choice: ConflictChoice) throws -> ConflictInfo
  /// How many conflicts are recorded.
  public var conflictCount: @Sendable () -> Int
  /// Configures git's merge driver to run `executable`; what it did.
  public var setupGit: @Sendable (_ executable: String) throws -> [String]

  /// The provider over a data repository on disk.
  public static func live(repository: DataRepository) -> SyncProvider {
    SyncProvider(
      // NB: a password in an address is never shown back.
      remotes: {
        try repository.gitRepository.remotes().map {
          RemoteInfo(name: $0.name, url: RemoteURL.redacted($0.url))
        }
      },
      addRemote: { name, url in
        if let existing = try repository.gitRepository.remotes().first(where: { $0.name == name }) {
          throw StorageError(
            "a remote named '\(name)' already exists (\(RemoteURL.redacted(existing.url))); remove it first with 'dinger remote rm \(name)'"
          )
        }
        try repository.gitRepository.addRemote(name, url: url)
      },
      removeRemote: { name in
        let known = try repository.gitRepository.remotes().map(\.name)
        guard known.contains(name) else {
          throw StorageError(
            "no remote named '\(name)'"
              + (known.isEmpty ? "" : " (remotes: \(known.joined(separator: ", ")))"))
        }
        try repository.gitRepository.removeRemote(name)
      },
      sync: { remote, dryRun, allowUnrelated, progress in
        var syncer = Syncer(repository)
        syncer.allowUnrelatedHistories = allowUnrelated
        let before = try? repository.gitRepository.head().commit
        // NB: what came in is checked on a thread of its own while the push goes out (it
        // reads only the working tree); a later round's merge starts it again.
        let arrivals = ArrivalCheck(repository, since: before)
        if !dryRun {
          syncer.onBuilt = { arrivals.start(at: $0.commit, planned: $0) }
          syncer.onIntegrated = { arrivals.start(at: $0) }
        }
        let report = try syncer.sync(
          remote: remote, dryRun: dryRun,
          onProgress: progress.map { show in { show(Self.progress($0)) } })
        var summary = Self.summary(report)
        if !dryRun {
          summary.warnings += arrivals.lines()
          Trace.mark("sync: arrivals checked")
        }
        return summary
      },
      conflicts: {
        let (records, unreadable) = ConflictStore(repository).all()
        return (records.map(Self.info), unreadable)
      },
      resolve: { id, choice in
        let store = ConflictStore(repository)
        let record = try store.find(id)
        let settle: ConflictStore.Choice =
          switch choice {
          case .kept: .kept
          case .other: .other
          case .value(let text): .value(text)
          }
        try store.resolve(record, settle)
        return Self.info(record)
      },
      conflictCount: { ConflictStore.count(in: repository.root) },
      setupGit: { executable in try GitSetup.configure(repository, executable: executable) }
    )
  }

  /// The errors in the record files a sync brought in or changed (a teammate's bad
  /// indentation, committed conflict markers), one line each: said at the sync, not at the
  /// next command.
  static func brokenArrivals(_ repository: DataRepository, since before: ObjectID?) -> [String] {
    guard let after = try? repository.gitRepository.head().commit else { return [] }
    return brokenArrivals(repository, paths: arrivedPaths(repository, from: before, to: after))
  }

  /// The record files that differ from `before` at `after` and are there at `after` (asked of
  /// git, so on the thread that owns the repository's handle).
  static func arrivedPaths(_ repository: DataRepository, from before: ObjectID?, to after: ObjectID)
    -> Set<String>
  {
    guard after != before,
      let changed = try? repository.gitRepository.filesChanged(from: before, to: after)
    else { return [] }
    return Set(
      changed.filter { $0.theirs != nil && RecordLayout.kind(ofPath: $0.path) != nil }.map(\.path))
  }

  /// `brokenArrivals` of the files at `paths`: the working tree alone is read (no git), so it
  /// may run beside a push. With `planned`, the write of a sync that is under way: its files
  /// are taken as its bytes and its removals as gone, and only files it leaves alone are read
  /// (so it may run while that write goes on).
  static func brokenArrivals(
    _ repository: DataRepository, paths: Set<String>, planned: PlannedWrite? = nil
  ) -> [String] {
    guard !paths.isEmpty else { return [] }
    // NB: only the files that came in are read, with the scrums (and, for a quiz result, the
    // libraries) they refer to, not the whole repository: a sync costs what it brought. The
    // scrums are judged too: a scrum that came in with another's title puts the error on
    // whichever file sorts second, which may be one this side already had.
    var references = (try? repository.directory.recordPaths(of: .scrum)) ?? []
    if paths.contains(where: { RecordLayout.kind(ofPath: $0) == .quiz }) {
      references += (try? repository.directory.recordPaths(of: .library)) ?? []
    }
    let wanted = paths.union(references)
    let known = (planned?.files ?? []).filter { wanted.contains($0.path) }
    let settled = Set(known.map(\.path)).union(planned?.removals ?? [])
    let unread = wanted.filter { !settled.contains($0) }
    let read = (known + repository.read(unread.sorted())).sorted { $0.path < $1.path }
    let changedScrums = paths.filter { RecordLayout.kind(ofPath: $0) == .scrum }
    let report = DataChecker.check(files: read, only: paths.union(references))
    let errors = report.diagnostics.filter { d in
      guard d.severity == .error else { return false }
      if paths.contains(d.file) { return true }
      return RecordLayout.kind(ofPath: d.file) == .scrum
        && changedScrums.contains { d.message.containsText($0) }
    }
    guard !errors.isEmpty else { return [] }
    var lines = errors.prefix(10).map { d -> String in
      let place = [d.file, d.line.map(String.init), d.column.map(String.init)].compactMap { $0 }
        .joined(separator: ":")
      return "\(place): this sync brought in an error: \(d.message)"
    }
    if errors.count > 10 { lines.append("... and \(errors.count - 10) more errors") }
    let files = Set(errors.map(\.file)).sorted()
    lines.append(
      "\(files.count == 1 ? "a file has" : "\(files.count) files have") errors since this sync (\(files.prefix(5).joined(separator: ", "))); a file that can't be read is left out until it is fixed: fix them and commit, or ask who wrote them ('dinger log' names the commit), then 'dinger check'"
    )
    return lines
  }

  /// `brokenArrivals` started when a sync has merged (or fast-forwarded), on a thread of its
  /// own, and collected when the sync is over: the files a teammate sent are read and judged
  /// while the push goes out. A merge of a later round starts it again; the lines are those
  /// of the newest start, and when the branch is not where that start saw it (or none was
  /// made), they are worked out at the end as before.
  final class ArrivalCheck: Sendable {
    private struct Started {
      var at: ObjectID
      var lines: [String]?
    }
    private let repository: DataRepository
    private let before: ObjectID?
    private let state = Monitor<Started?>(nil)

    init(_ repository: DataRepository, since before: ObjectID?) {
      (self.repository, self.before) = (repository, before)
    }

    /// Starts judging what differs from `before` at `after` (the branch's new commit, or the
    /// one `planned` is writing); nothing new when already judging that one.
    func start(at after: ObjectID, planned: PlannedWrite? = nil) {
      guard state.withLock({ $0?.at != after }) else { return }
      // NB: a write on the commit the sync started from says what arrives without a walk of
      // both trees (20,000 files, on the write's thread).
      let paths =
        planned.flatMap { planned in
          planned.onto == before
            ? Set(planned.written.filter { RecordLayout.kind(ofPath: $0) != nil }) : nil
        } ?? SyncProvider.arrivedPaths(repository, from: before, to: after)
      state.withLock { $0 = Started(at: after) }
      Threads.start { [repository, state] in
        let lines = SyncProvider.brokenArrivals(repository, paths: paths, planned: planned)
        state.change { started in
          if started?.at == after { started?.lines = lines }
        }
      }
    }

    /// The lines for the branch as it is now, waiting for the thread when it judged it.
    func lines() -> [String] {
      guard let now = try? repository.gitRepository.head().commit else { return [] }
      let started = state.wait(until: { $0 == nil || $0?.at != now || $0?.lines != nil }) {
        started, _ in started
      }
      if let started, started.at == now, let lines = started.lines { return lines }
      return SyncProvider.brokenArrivals(
        repository,
        paths: SyncProvider.arrivedPaths(
          repository, from: before, to: now))
    }
  }

  /// A transfer's progress in the terms the views use.
  static func progress(_ p: TransferProgress) -> SyncProgress {
    let stage: SyncProgress.Stage =
      switch p.stage {
      case .receiving: .receiving
      case .resolving: .resolving
      case .counting: .counting
      case .compressing: .compressing
      case .writing: .writing
      case .sending: .sending
      case .waiting: .waiting
      }
    return SyncProgress(stage: stage, done: p.received, total: p.total, bytes: p.bytes)
  }

  /// A conflict record in the terms the views use.
  static func info(_ r: ConflictRecord) -> ConflictInfo {
    func yaml(_ node: Node?) -> String? {
      node.map { NodeWriter.text($0).trimming(\.isLineEnd) }
    }
    var info = ConflictInfo(
      id: r.id.uuidString.lowercased(), shortID: r.shortID, file: r.file, record: r.record,
      field: r.path.description, deleted: r.kind == .delete, kept: ConflictRecord.describe(r.kept),
      other: ConflictRecord.describe(r.other), keptYAML: yaml(r.kept), otherYAML: yaml(r.other),
      keptBy: r.keptFrom.author, keptCommit: r.keptFrom.commit, otherBy: r.otherFrom.author,
      otherCommit: r.otherFrom.commit)
    info.kind = r.kind.rawValue
    return info
  }

  /// A sync's report in the terms the views use.
  static func summary(_ report: Syncer.Report) -> SyncSummary {
    var summary = SyncSummary(
      remote: report.remote, branch: report.branch,
      steps: report.steps.map {
        switch $0 {
        case .upToDate: .upToDate
        case .fastForwarded(let files): .fastForwarded(files: files)
        case .merged(let taken, let merged): .merged(taken: taken, merged: merged)
        case .pushed: .pushed
        }
      },
      conflicts: report.conflicts.map {
        SyncSummary.Conflict(
          shortID: $0.shortID, file: $0.file, field: $0.path.description,
          kept: ConflictRecord.describe($0.kept), other: ConflictRecord.describe($0.other),
          otherAuthor: $0.otherFrom.author)
      },
      rounds: report.rounds, dryRun: report.dryRun, warnings: report.warnings)
    summary.remoteMessages = report.remoteMessages
    summary.mergeNotes = report.mergeNotes
    return summary
  }

  /// Clones `url` into `target` (which must not exist or be empty), checks that it is a data
  /// repository, and sets git's drivers up to run `executable`. Warnings (a certificate not
  /// checked) come back; a failure leaves nothing behind and says so.
  public static func clone(
    _ url: String, into target: URL, executable: String,
    progress: (@Sendable (SyncProgress) -> Void)?
  ) throws -> [String] {
    if let local = Repository.localPath(of: url),
      !FileManager.default.fileExists(atPath: local.path)
    {
      throw StorageError(
        "there is no repository at \(local.path); check the path (or the URL's scheme)")
    }
    if let local = Repository.localPath(of: url), let source = try? Repository.open(local) {
      do {
        try source.refuseShallow(operation: "clone", shown: local.path)
      } catch {
        throw StorageError(
          "could not clone \(RemoteURL.redacted(url)): \(error.message); nothing was created")
      }
    }
    let session = TransferSession(onProgress: progress.map { show in { show(Self.progress($0)) } })
    // NB: into a hidden folder beside the target, renamed into place once whole: a clone
    // stopped by Ctrl-C, a kill or a power cut leaves no folder that blocks the retry (the
    // retry removes the leftover), where git removes its folder on Ctrl-C only.
    let parent = target.deletingLastPathComponent()
    removeInterruptedClones(of: target)
    let staging = parent.appendingPathComponent(
      ".\(target.lastPathComponent)\(Self.stagingMark)\(getpid())")
    try? FileManager.default.removeItem(at: staging)
    do {
      _ = try Repository.clone(url, to: staging, session: session)
    } catch {
      try? FileManager.default.removeItem(at: staging)
      // NB: the transfer's advice speaks of syncing; here nothing exists yet to sync.
      throw StorageError(
        "could not clone \(RemoteURL.redacted(url)): "
          + error.message.replacingText(
            "; nothing local changed, run 'dinger sync' again when it is back",
            with: "; nothing was created, run 'dinger clone' again when it is back"))
    }
    StopPoint.reached("clone-fetched")
    guard rename(staging.path, target.path) == 0 else {
      let why = String(cString: strerror(errno))
      try? FileManager.default.removeItem(at: staging)
      throw StorageError(
        "could not clone \(RemoteURL.redacted(url)): \(target.path): \(why); nothing was created")
    }
    guard FileManager.default.fileExists(atPath: target.appendingPathComponent(".dinger").path)
    else {
      throw StorageError(
        "cloned \(RemoteURL.redacted(url)) into \(target.path), but it has no .dinger/ folder: it is not a dinger data repository (run 'dinger init \(target.path)' to make it one)"
      )
    }
    let repository = try DataRepository.open(target)
    try GitSetup.configure(repository, executable: executable)
    return session.warnings
  }

  /// What the hidden folder a clone is made in is named by: `.<target><mark><pid>`.
  static let stagingMark = ".dinger-clone-"

  /// Removes the hidden folders of clones into `target` whose process is gone.
  static func removeInterruptedClones(of target: URL) {
    let parent = target.deletingLastPathComponent()
    let prefix = ".\(target.lastPathComponent)\(stagingMark)"
    for name in (try? FileManager.default.contentsOfDirectory(atPath: parent.path)) ?? []
    where name.hasPrefix(prefix) {
      guard let pid = pid_t(name.dropFirst(prefix.count)) else { continue }
      if pid != getpid(), kill(pid, 0) == 0 || errno == EPERM { continue }
      try? FileManager.default.removeItem(at: parent.appendingPathComponent(name))
    }
  }

  /// An address with any password in it replaced by `***`, for messages.
  public static func redacted(_ url: String) -> String { RemoteURL.redacted(url) }
}
