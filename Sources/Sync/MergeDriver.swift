import Base
import FoundationEssentials
import Git
import Glibc
import Storage

/// `dinger merge-driver %O %A %B %P`: the record merge for teammates who use plain `git pull`.
///
/// Git's contract: the merged file goes into `%A`; exit 0 when the merge is clean. When values
/// conflicted, the file still holds a valid record (ours' values kept, no conflict markers) and
/// the other values are written as conflict records in `.dinger/conflicts/`; the exit status is 1
/// so that git stops before committing, and `git add -A && git commit` finishes the merge with
/// those records in it.
public enum MergeDriver {
  /// The outcome: the exit status for git, and lines for stderr.
  public struct Outcome: Sendable {
    public var status: Int32
    public var messages: [String]
  }

  /// Merges the files git handed over; `workdir` is the repository's top (git runs drivers there).
  public static func run(base: URL, ours: URL, theirs: URL, path: String, workdir: URL) -> Outcome {
    guard let o = FileManager.default.contents(atPath: ours.path),
      let t = FileManager.default.contents(atPath: theirs.path)
    else {
      return Outcome(
        status: 2, messages: ["dinger merge-driver: cannot read the versions of \(path) git passed"]
      )
    }
    let b = FileManager.default.contents(atPath: base.path)
    let result = RecordMerger.merge(
      base: b.map(Array.init), ours: Array(o), theirs: Array(t), path: path)
    do {
      try Data(result.bytes).write(to: ours)
    } catch {
      return Outcome(
        status: 2, messages: ["dinger merge-driver: cannot write \(ours.path): \(error)"])
    }
    guard !result.conflicts.isEmpty else { return Outcome(status: 0, messages: []) }
    let (oursFrom, theirsFrom) = origins(path: path, workdir: workdir)
    var messages: [String] = []
    for conflict in result.conflicts {
      let keptOurs = conflict.keptSide == .ours
      let record = ConflictRecord(
        file: path, record: result.recordID, conflict: conflict,
        keptFrom: keptOurs ? oursFrom : theirsFrom, otherFrom: keptOurs ? theirsFrom : oursFrom)
      // NB: never through a link: `.dinger/conflicts` comes from the teammates' commits.
      do {
        try WorkTree(root: workdir).write(record.storedPath, Array(record.text.utf8))
      } catch {
        return Outcome(
          status: 2,
          messages: ["dinger merge-driver: cannot write the conflict record: \(error)"])
      }
      messages.append(
        "dinger: \(path): \(conflict.path) kept \(ConflictRecord.describe(conflict.kept)), the other value (\(ConflictRecord.describe(conflict.other))) is in \(record.storedPath)"
      )
    }
    messages.append(
      "dinger: no conflict markers were written; finish the merge with 'git add -A && git commit', then settle the values with 'dinger conflicts' and 'dinger resolve'"
    )
    return Outcome(status: 1, messages: messages)
  }

  /// Who last changed the file on each side: HEAD's history for ours; for theirs the commit git
  /// names in `GITHEAD_<id>` (set by `git merge` and `git pull`), when it does.
  static func origins(path: String, workdir: URL) -> (ConflictRecord.Origin, ConflictRecord.Origin)
  {
    let unknown = { (side: Side) in ConflictRecord.Origin(side: side, author: "unknown", commit: "")
    }
    guard let git = Repository.discover(from: workdir), let head = try? git.head().commit else {
      return (unknown(.ours), unknown(.theirs))
    }
    let theirs = ProcessInfo.processInfo.environment.keys
      .first { $0.hasPrefix("GITHEAD_") }
      .flatMap { ObjectID(hex: String($0.dropFirst("GITHEAD_".count))) }
    let base = theirs.flatMap { try? git.mergeBase(head, $0) }
    func origin(_ side: Side, _ tip: ObjectID?) -> ConflictRecord.Origin {
      guard let tip, let commit = (try? git.lastChanges(of: [path], from: tip, stop: base))?[path],
        let info = try? git.commitInfo(commit)
      else { return unknown(side) }
      return ConflictRecord.Origin(
        side: side, author: "\(info.author.name) <\(info.author.email)>", commit: commit.hex)
    }
    return (origin(.ours, head), origin(.theirs, theirs))
  }
}

/// Configures a repository so plain `git pull` uses dinger's merge for record files.
public enum GitSetup {
  /// Sets `merge.dinger.name`, `merge.dinger.driver` and `diff.dinger.command` in the
  /// repository's own config, and adds `*.yaml merge=dinger diff=dinger` to `.gitattributes`
  /// (as a commit) when it is missing. Returns what it did.
  @discardableResult
  public static func configure(_ repository: DataRepository, executable: String) throws -> [String]
  {
    let git = repository.gitRepository
    var done: [String] = []
    let driver = "\(shellQuoted(executable)) merge-driver %O %A %B %P"
    if git.config("merge.dinger.driver") != driver {
      try git.setConfig("merge.dinger.name", "dinger record-aware merge")
      try git.setConfig("merge.dinger.driver", driver)
      done.append("set merge.dinger.driver in .git/config")
    }
    let differ = "\(shellQuoted(executable)) diff-driver"
    if git.config("diff.dinger.command") != differ {
      try git.setConfig("diff.dinger.command", differ)
      done.append("set diff.dinger.command in .git/config")
    }
    let current =
      repository.read(".gitattributes").map { String(decoding: $0, as: UTF8.self) } ?? ""
    if !current.containsText("merge=dinger") || !current.containsText("diff=dinger") {
      var change = Change(
        subject: "Use dinger's record merge and diff for YAML files",
        trailers: [("Dinger-Action", "setup-git")])
      let text =
        current.containsText("*.yaml merge=dinger\n")
        ? current.replacingText("*.yaml merge=dinger\n", with: "*.yaml merge=dinger diff=dinger\n")
        : current + (current.isEmpty || current.unicodeScalars.last == "\n" ? "" : "\n")
          + "*.yaml merge=dinger diff=dinger\n"
      change.write(".gitattributes", text)
      try repository.commit(change)
      done.append("added '*.yaml merge=dinger diff=dinger' to .gitattributes")
    }
    return done
  }

  static func shellQuoted(_ s: String) -> String {
    if s.allSatisfy({ $0.isLetter || $0.isNumber || "/._-+".contains($0) }) { return s }
    return "'" + s.replacingText("'", with: "'\\''") + "'"
  }
}
