import Base
import FoundationEssentials
import Glibc
import Storage
import Sync

/// What plain git runs of dinger, and the setting up of a data repository: the commands reach
/// them here, not in Storage and Sync.
public enum GitIntegration {
  /// Makes `url` a data repository (scaffold and first commit) and configures git's merge and
  /// diff drivers to run `executable`; returns the repository's folder.
  public static func initialize(at url: URL, executable: String) throws -> URL {
    let repository = try DataRepository.initialize(at: url)
    // Plain-git teammates' `git pull` uses the record merge too (see `dinger setup-git`).
    try GitSetup.configure(repository, executable: executable)
    return repository.root
  }

  /// git's merge driver contract: the exit status and what to say on stderr.
  public static func merge(base: URL, ours: URL, theirs: URL, path: String, workdir: URL)
    -> (status: Int32, messages: [String])
  {
    let outcome = MergeDriver.run(
      base: base, ours: ours, theirs: theirs, path: path, workdir: workdir)
    return (outcome.status, outcome.messages)
  }

  /// git's external diff contract: what to show for `path` changing from `old` to `new`.
  public static func diff(path: String, old: String, new: String) -> String {
    DiffDriver.render(path: path, old: old, new: new)
  }
}
