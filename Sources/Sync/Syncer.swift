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

    mutating func note(_ more: [String]) {
      for warning in more where !warnings.contains(warning) { warnings.append(warning) }
    }
  }

  public init(_ repository: DataRepository) { self.repository = repository }

  /// Runs a sync with `remote`.
  public func sync(
    remote: String = "origin", dryRun: Bool = false, maxRounds: Int = 3,
    onProgress: ((TransferProgress) -> Void)? = nil
  ) throws -> Report {
    Repository.cacheTrees(upTo: 1 << 20)
    let remotes = try git.remotes()
    guard let url = remotes.first(where: { $0.name == remote })?.url else {
      let known = remotes.map(\.name)
      throw StorageError(
        known.isEmpty
          ? "this data repository has no remote; add one with 'dinger remote add origin URL' (or 'dinger clone URL' a shared one)"
          : "no remote named '\(remote)' (remotes: \(known.joined(separator: ", "))); add it with 'dinger remote add \(remote) URL'"
      )
    }
    let (ref, _) = try git.head()
    let branch = ref.hasPrefix("refs/heads/") ? String(ref.dropFirst("refs/heads/".count)) : ref
    var report = Report(remote: remote, branch: branch, dryRun: dryRun)
    git.removeStaleTemporaryPacks()
    while true {
      report.rounds += 1
      let session = TransferSession(onProgress: onProgress)
      let local = Repository.localPath(of: url)
      let theirs =
        try local.map { path throws(GitError) in
          try git.fetchLocal(from: path, remote: remote, branch: branch) { report.note([$0]) }
        } ?? git.fetch(remote, branch: branch, session: session)
      Trace.mark("sync: fetched")
      report.note(session.warnings)
      let others =
        theirs != nil || report.rounds > 1
        ? []
        : local.map { (try? Repository.branchNames(inRepositoryAt: $0)) ?? [] }
          ?? session.remoteBranches
      if !others.isEmpty {
        // NB: pushing would start a second line of history beside the team's.
        report.note([
          "\(remote) has no branch '\(branch)' but has \(others.map { "'\($0)'" }.joined(separator: ", ")): this sync starts '\(branch)' there beside them. If the team's data is on '\(others[0])', use that branch instead (git branch -m \(branch) \(others[0]) before syncing)"
        ])
      }
      guard let ours = try repository.head() else {
        throw StorageError("this repository has no commits yet; run 'dinger init' first")
      }
      report.steps = []
      var toPush = false
      if let theirs, theirs != ours {
        // NB: before anything moves: trees git frowns on, or a submodule, stop the sync here.
        do {
          try git.checkIncomingTrees(from: theirs, hiding: [ours])
        } catch let problem as IncomingTreeProblem {
          throw StorageError(problem.description)
        }
        if try git.contains(theirs, ancestor: ours) {
          let files = try git.filesToMerge(base: ours, ours: ours, theirs: theirs)
          // NB: a dry run refuses where the real one would (uncommitted edits in the way).
          if dryRun { try repository.ensureWritable(files.map(\.path)) }
          if !dryRun { try repository.fastForward(to: theirs, from: ours, files: files) }
          report.steps.append(.fastForwarded(files: files.count))
          // NB: a plain-git teammate's merge can bring one record in two files; that is folded
          // here and pushed back, as a merge would.
          if !dryRun, let fold = try TreeMerger(git).foldAfterFastForward(from: ours, to: theirs) {
            try repository.commit(fold.change)
            report.conflicts += fold.conflicts
            toPush = true
          }
        } else if try git.contains(ours, ancestor: theirs) {
          toPush = true
        } else {
          let base = try git.mergeBase(ours, theirs)
          // NB: as git: two histories with no commit in common are two teams' data, or a
          // remote pointed at the wrong repository; merging them is the user's call.
          if base == nil && !allowUnrelatedHistories {
            throw StorageError(
              "refusing to merge unrelated histories: this data repository (\(ours.short)) and \(remote)/\(branch) (\(theirs.short)) share no commit; check that '\(remote)' is your team's remote (dinger remote list), or run 'dinger sync --allow-unrelated-histories' to combine both; nothing changed"
            )
          }
          let plan = try TreeMerger(git).plan(
            base: base, ours: ours, theirs: theirs,
            subject: "Merge \(remote)/\(branch)")
          Trace.mark("sync: merge planned (\(plan.taken + plan.merged) files)")
          if dryRun { try repository.ensureWritable(plan.change.paths) }
          if !dryRun { try repository.commit(plan.change) }
          report.steps.append(.merged(taken: plan.taken, merged: plan.merged))
          // NB: added up: a round whose push lost a race has already committed its conflicts.
          report.conflicts += plan.conflicts
          toPush = true
        }
      } else if theirs == nil {
        toPush = true
      }
      if !toPush || dryRun {
        if !dryRun && theirs != nil { git.setUpstreamIfUnset(remote: remote, branch: branch) }
        if toPush { report.steps.append(.pushed) }
        if report.steps.isEmpty { report.steps = [.upToDate] }
        return report
      }
      let pushSession = TransferSession(onProgress: onProgress)
      let pushTo = Repository.localPath(of: try git.pushURL(of: remote))
      let outcome =
        try pushTo.map { path throws(GitError) in
          // NB: through git's receive-pack when git is here, so the remote's hooks run; else
          // the objects and the ref are written directly, and the user is told.
          guard
            ChildProcess.resolve("git", path: ProcessInfo.processInfo.environment["PATH"]) != nil
          else {
            report.note([
              "git is not installed here: pushed to \(path.path) without running its hooks"
            ])
            return try git.pushLocal(to: path, remote: remote, branch: branch)
          }
          return try git.pushThroughReceivePack(
            to: path, remote: remote, branch: branch, session: pushSession)
        } ?? git.push(remote, branch: branch, session: pushSession)
      report.note(pushSession.warnings)
      report.remoteMessages += pushSession.remoteMessages
      switch outcome {
      case .pushed:
        Trace.mark("sync: pushed")
        if let pushTo {
          Repository.pointHeadIfDangling(ofRepositoryAt: pushTo, at: "refs/heads/\(branch)")
        }
        git.setUpstreamIfUnset(remote: remote, branch: branch)
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
}
