import Base
import FoundationEssentials
import Git
import Glibc
import Models
import Processes
import Storage

/// `dinger sync`: fetch the remote branch, fast-forward or merge record by record, push; when
/// the remote moved in between, start over (a bounded number of times). The local branch only
/// ever moves to a commit that contains it, so a failure at any step leaves the local data as
/// it was, or merged and not yet pushed; the next sync carries on from there.
public struct Syncer {
  let repository: DataRepository
  /// Merge a remote history that shares no commit with ours (git's --allow-unrelated-histories).
  public var allowUnrelatedHistories = false
  /// Called on the syncing thread each time the branch took in what came (a fast-forward or a
  /// merge), with the branch's new commit, before the push goes out.
  public var onIntegrated: ((ObjectID) -> Void)?
  /// Called on the syncing thread earlier, once a fast-forward's or merge's commit is built,
  /// with what it writes, before the files are written and the branch moves (which may yet
  /// fail: a caller that keeps what it started checks the branch later).
  public var onBuilt: ((PlannedWrite) -> Void)?
  var git: Repository { repository.gitRepository }

  /// What a sync did (or, with a dry run, would do).
  public struct Report: Sendable {
    public enum Step: Sendable, Equatable {
      /// Nothing to fetch, nothing to push.
      case upToDate
      /// The remote had new commits and ours had none: files updated.
      case fastForwarded(files: Int)
      /// Both had new commits: merged.
      case merged(taken: Int, merged: Int)
      /// Local commits sent.
      case pushed
    }
    public var remote: String
    public var branch: String
    public var steps: [Step] = []
    public var conflicts: [ConflictRecord] = []
    /// How many rounds it took (more than one when the remote moved during a round).
    public var rounds = 0
    public var dryRun = false
    /// What the user must hear (a certificate that was not checked).
    public var warnings: [String] = []
    /// What the remote's hooks said during the push, a line each (git shows `remote: ...`).
    public var remoteMessages: [String] = []
    /// What a merge did that a person should know (a twin scrum moved to another file name).
    public var mergeNotes: [String] = []

    mutating func note(_ more: [String]) {
      for warning in more where !warnings.contains(warning) { warnings.append(warning) }
    }
  }

  public init(_ repository: DataRepository) { self.repository = repository }

  /// Runs a sync with `remote`, in rounds of four named steps: fetch, check what came in,
  /// integrate it (fast-forward or merge), push. A push the remote rejected because it moved
  /// meanwhile starts another round.
  public func sync(
    remote: String = "origin", dryRun: Bool = false, maxRounds: Int = 3,
    onProgress: ((TransferProgress) -> Void)? = nil
  ) throws -> Report {
    Repository.cacheTrees(upTo: 1 << 20)
    let source = Endpoint(try fetchURL(of: remote))
    let (ref, _) = try git.head()
    let branch = ref.hasPrefix("refs/heads/") ? String(ref.dropFirst("refs/heads/".count)) : ref
    var report = Report(remote: remote, branch: branch, dryRun: dryRun)
    git.removeStaleTemporaryPacks()
    // NB: a ref lock a killed dinger left is dinger's to clear (another program's is named).
    if !dryRun { report.note(git.clearDingersStaleRefLocks()) }
    while true {
      report.rounds += 1
      let theirs = try fetch(from: source, remote: remote, into: &report, onProgress: onProgress)
      guard let ours = try repository.head() else {
        throw StorageError("this repository has no commits yet; run 'dinger init' first")
      }
      report.steps = []
      // NB: the check runs beside the integration's reading, building and writing (the merge
      // plan, the uncommitted-edit checks, the commit's objects, the working files), on a
      // repository handle of its own, and is waited for before the index or the branch moves
      // (a refusal puts the files back). The merge base and the list of what came are found
      // first, here: the two walks share this handle's reads (the check's own walk read the
      // 20,000 commits of a catch-up again, on the other core, while the merge base did).
      let base = try theirs.flatMap { $0 != ours ? try git.mergeBase(ours, $0) : nil }
      let check = try theirs.flatMap {
        $0 != ours
          ? IncomingCheck(
            repository.root, try git.commits(from: [$0], hiding: [ours], oldestFirst: true))
          : nil
      }
      let toPush: Bool
      do {
        toPush = try integrate(
          theirs, ours: ours, base: base, dryRun: dryRun,
          hooks: WriteHooks(
            built: { onBuilt?($0) }, beforePublishing: { try check?.wait() }),
          into: &report)
      } catch {
        // NB: what came in is the first thing wrong, as when the check ran first.
        try check?.wait()
        throw error
      }
      try check?.wait()
      if !dryRun, let onIntegrated, let now = try repository.head(), now != ours {
        onIntegrated(now)
      }
      if !toPush || dryRun {
        if !dryRun && theirs != nil { git.setUpstreamIfUnset(remote: remote, branch: branch) }
        if toPush { report.steps.append(.pushed) }
        if report.steps.isEmpty { report.steps = [.upToDate] }
        return report
      }
      switch try push(remote: remote, into: &report, onProgress: onProgress) {
      case .pushed:
        report.steps.append(.pushed)
        return report
      case .rejected(let reason):
        guard report.rounds < maxRounds else {
          throw StorageError(
            "the remote kept changing while syncing (\(reason)); your commits are safe here, run 'dinger sync' again"
          )
        }
      }
    }
  }

  /// Where a remote is, which decides how it is spoken to: a repository on this machine
  /// (objects copied directly, a push through git's receive-pack so its hooks run), or a
  /// server (libgit2's transports and dinger's own ssh and https).
  enum Endpoint {
    case path(URL)
    case server(String)

    init(_ url: String) {
      self = Repository.localPath(of: url).map(Endpoint.path) ?? .server(url)
    }
  }

  /// The remote's fetch address; a missing remote is named with how to add it.
  func fetchURL(of remote: String) throws -> String {
    let remotes = try git.remotes()
    guard let url = remotes.first(where: { $0.name == remote })?.url else {
      let known = remotes.map(\.name)
      throw StorageError(
        known.isEmpty
          ? "this data repository has no remote; add one with 'dinger remote add origin URL' (or 'dinger clone URL' a shared one)"
          : "no remote named '\(remote)' (remotes: \(known.joined(separator: ", "))); add it with 'dinger remote add \(remote) URL'"
      )
    }
    return url
  }

  /// Step 1: the remote branch's commit (nil when the remote has no such branch), its objects
  /// fetched. A remote with other branches and not ours is noted: a push would start a second
  /// line of history beside the team's.
  func fetch(
    from source: Endpoint, remote: String, into report: inout Report,
    onProgress: ((TransferProgress) -> Void)?
  ) throws -> ObjectID? {
    let branch = report.branch
    let session = TransferSession(onProgress: onProgress)
    let theirs: ObjectID?
    switch source {
    case .path(let path):
      theirs = try git.fetchLocal(from: path, remote: remote, branch: branch) { report.note([$0]) }
    case .server:
      theirs = try git.fetch(remote, branch: branch, session: session)
    }
    Trace.mark("sync: fetched")
    report.note(session.warnings)
    guard theirs == nil, report.rounds == 1 else { return theirs }
    let others: [String]
    switch source {
    case .path(let path): others = (try? Repository.branchNames(inRepositoryAt: path)) ?? []
    case .server: others = session.remoteBranches
    }
    if !others.isEmpty {
      report.note([
        "\(remote) has no branch '\(branch)' but has \(others.map { "'\($0)'" }.joined(separator: ", ")): this sync starts '\(branch)' there beside them. If the team's data is on '\(others[0])', use that branch instead (git branch -m \(branch) \(others[0]) before syncing)"
      ])
    }
    return theirs
  }

  /// Step 2, before anything moves: trees git frowns on, or a submodule, stop the sync. It
  /// runs on a thread and a repository handle of its own (libgit2's handles are one thread's),
  /// beside step 3's reading; `wait` gives its outcome.
  final class IncomingCheck: Sendable {
    private let outcome = Monitor<Result<Void, any Error>?>(nil)

    /// Starts the check of `commits` (what came, oldest first).
    init(_ root: URL, _ commits: [ObjectID]) {
      Threads.start { [outcome] in
        let result = Result<Void, any Error> {
          do {
            try Repository.open(root).checkIncomingTrees(commits)
          } catch let problem as IncomingTreeProblem {
            throw StorageError(problem.description)
          }
          Trace.mark("sync: incoming trees checked")
        }
        outcome.change { $0 = result }
      }
    }

    /// Waits for the check; throws what it found.
    func wait() throws {
      try outcome.wait(until: { $0 != nil }) { result, _ in result! }.get()
    }
  }

  /// Step 3: takes in what came (fast-forward, or a record-by-record merge; `base` is the
  /// merge base of `ours` and `theirs`); true when there is something to push. `hooks.built`
  /// hears the new commit before its files are written; `hooks.beforePublishing` runs once
  /// they are, before the index or the branch moves, and throws when step 2 found a problem (a
  /// dry run writes nothing, and `sync` waits for the check after this step anyway).
  func integrate(
    _ theirs: ObjectID?, ours: ObjectID, base: ObjectID?, dryRun: Bool,
    hooks: WriteHooks, into report: inout Report
  ) throws -> Bool {
    guard let theirs else { return true }
    if theirs == ours { return false }
    // NB: one walk (the merge base) answers all three questions (ours behind, ahead, or both
    // moved): two ancestry checks and a merge base walked a 20,000-commit catch-up three times.
    if base == ours {
      return try fastForward(
        to: theirs, from: ours, dryRun: dryRun, hooks: hooks, into: &report)
    }
    if base == theirs { return true }
    try merge(theirs, into: ours, base: base, dryRun: dryRun, hooks: hooks, report: &report)
    return true
  }

  /// The branch moved to `theirs` with the working tree; true when a record arriving in two
  /// files had to be folded into one (a commit of ours to push back).
  func fastForward(
    to theirs: ObjectID, from ours: ObjectID, dryRun: Bool,
    hooks: WriteHooks, into report: inout Report
  ) throws -> Bool {
    let files = try git.filesToMerge(base: ours, ours: ours, theirs: theirs)
    // NB: a dry run refuses where the real one would (uncommitted edits in the way).
    if dryRun {
      try repository.ensureWritable(files.map(\.path))
    } else {
      try repository.fastForward(
        to: theirs, from: ours, files: files, hooks: hooks)
    }
    report.steps.append(.fastForwarded(files: files.count))
    // NB: a plain-git teammate's merge can bring one record in two files; that is folded here
    // and pushed back, as a merge would.
    guard !dryRun, let fold = try TreeMerger(git).foldAfterFastForward(from: ours, to: theirs)
    else { return false }
    try repository.commit(fold.change)
    report.conflicts += fold.conflicts
    return true
  }

  /// Both sides have commits since `base` (nil: none in common): merged record by record and
  /// committed.
  func merge(
    _ theirs: ObjectID, into ours: ObjectID, base: ObjectID?, dryRun: Bool,
    hooks: WriteHooks, report: inout Report
  ) throws {
    // NB: as git: two histories with no commit in common are two teams' data, or a remote
    // pointed at the wrong repository; merging them is the user's call.
    if base == nil && !allowUnrelatedHistories {
      throw StorageError(
        "refusing to merge unrelated histories: this data repository (\(ours.short)) and \(report.remote)/\(report.branch) (\(theirs.short)) share no commit; check that '\(report.remote)' is your team's remote (dinger remote list), or run 'dinger sync --allow-unrelated-histories' to combine both; nothing changed"
      )
    }
    let plan = try TreeMerger(git).plan(
      base: base, ours: ours, theirs: theirs,
      subject: "Merge \(report.remote)/\(report.branch)")
    Trace.mark("sync: merge planned (\(plan.taken + plan.merged) files)")
    if dryRun {
      try repository.ensureWritable(plan.change.paths)
    } else {
      try repository.commit(plan.change, hooks: hooks)
    }
    report.steps.append(.merged(taken: plan.taken, merged: plan.merged))
    report.mergeNotes += plan.notes
    // NB: added up: a round whose push lost a race has already committed its conflicts.
    report.conflicts += plan.conflicts
  }

  /// Step 4: sends our commits to the remote's push address.
  func push(
    remote: String, into report: inout Report, onProgress: ((TransferProgress) -> Void)?
  ) throws -> PushOutcome {
    let branch = report.branch
    let session = TransferSession(onProgress: onProgress)
    let target = Endpoint(try git.pushURL(of: remote))
    let outcome: PushOutcome
    switch target {
    case .path(let path):
      // NB: through git's receive-pack when git is here, so the remote's hooks run; else the
      // objects and the ref are written directly, and the user is told.
      if ChildProcess.resolve("git", path: ProcessInfo.processInfo.environment["PATH"]) == nil {
        report.note(["git is not installed here: pushed to \(path.path) without running its hooks"])
        outcome = try git.pushLocal(to: path, remote: remote, branch: branch)
      } else {
        outcome = try git.pushThroughReceivePack(
          to: path, remote: remote, branch: branch, session: session)
      }
    case .server:
      outcome = try git.push(remote, branch: branch, session: session)
    }
    report.note(session.warnings)
    report.remoteMessages += session.remoteMessages
    if case .pushed = outcome {
      Trace.mark("sync: pushed")
      if case .path(let path) = target {
        Repository.pointHeadIfDangling(ofRepositoryAt: path, at: "refs/heads/\(branch)")
      }
      git.setUpstreamIfUnset(remote: remote, branch: branch)
    }
    return outcome
  }
}
