import Base
import FoundationEssentials
import Git
import Glibc
import Models
import Storage
import Sync
import YAML

/// The data repository a command works on, as the commands see it: where it is, its settings,
/// its template, its notes. The providers are made from it (`ScrumProvider.live(repository:)`);
/// what lies below (git, the YAML layer, the storage) stays behind them.
public struct Workspace: Sendable {
  let repository: DataRepository

  /// How the repository was found (`dinger where` says so).
  public enum Origin: Sendable, Equatable {
    case option, environment, enclosing
    /// The per-user default, and whether this run created it.
    case userDefault(created: Bool)
  }

  /// The data repository's folder.
  public var root: URL { repository.root }
  /// What opening it repaired or noticed (an interrupted write finished).
  public var notes: [String] { repository.notes }
  /// How many sync conflicts wait to be settled.
  public var conflictCount: Int { ConflictStore.count(in: repository.root) }

  /// Finishes (or with `abandon`, gives up) a dinger write whose process was killed.
  public func repair(abandon: Bool) throws -> String { try repository.repair(abandon: abandon) }

  /// A value of git's effective configuration for the repository (`core.editor`), or nil.
  public func gitConfig(_ key: String) -> String? { repository.gitConfig(key) }

  /// Lists a file written into the working tree for the user (a report) in this clone's
  /// `.git/info/exclude`; the pattern added, or nil (outside the tree, or listed already).
  public func keepOutOfGit(_ path: String) throws -> String? { try repository.keepOutOfGit(path) }

  /// The commented template for a new record of a kind.
  public func template(for kind: RecordKind) -> String? { repository.template(for: kind) }

  /// The repository's settings; defaults when the file is missing or broken (check reports it).
  public func config() throws -> RepoConfig {
    for file in try repository.files(of: .config) {
      if case .config(let config) = file.record { return config }
    }
    return RepoConfig()
  }

  /// The user's own settings (`~/.config/dinger/config.yaml`): the default repository they chose.
  public static func userSettings(environment: [String: String]) throws -> UserSettings {
    try UserSettings.load(environment: environment)
  }

  /// `--repo`, else `DINGER_REPO`, else the enclosing data repository, else the default the
  /// user chose in their settings (created on first use), else an error.
  public static func locate(option: String?, environment: [String: String], workingDirectory: URL)
    throws -> (Workspace, Origin)
  {
    let (repository, origin) = try DataRepository.locate(
      option: option, environment: environment, workingDirectory: workingDirectory)
    let mapped: Origin =
      switch origin {
      case .option: .option
      case .environment: .environment
      case .enclosing: .enclosing
      case .userDefault(let created): .userDefault(created: created)
      }
    return (Workspace(repository: repository), mapped)
  }

  /// What `check` checks without paths: `--repo`, `DINGER_REPO`, or the enclosing data
  /// directory (which need not be a git repository); nil when there is none.
  public static func checkTarget(
    option: String?, environment: [String: String], workingDirectory: URL
  )
    throws -> CheckProvider.Target?
  {
    func existing(_ path: String, from source: String) throws -> DataDirectory {
      var isDir = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir), isDir
      else {
        throw StorageError("\(source) '\(path)' is not a directory")
      }
      return DataDirectory(root: URL(fileURLWithPath: path, relativeTo: workingDirectory))
    }
    if let option { return CheckProvider.target(try existing(option, from: "--repo")) }
    if let env = environment["DINGER_REPO"], !env.isEmpty {
      return CheckProvider.target(try existing(env, from: "DINGER_REPO"))
    }
    return DataDirectory.enclosing(workingDirectory).map(CheckProvider.target)
  }

  /// Marks a moment for `DINGER_TRACE` timings.
  public static func trace(_ moment: String) { Trace.mark(moment) }

  /// Whether `error` is libgit2 refusing the repository itself (an unknown format, a damaged
  /// config): the command ends with git's status for that, 128.
  public static func refusesRepository(_ error: any Error) -> Bool {
    (error as? GitError)?.refusesRepository == true
  }

  /// The message of an error dinger explains (a refused write, a git failure, a broken record),
  /// nil for others.
  public static func message(of error: any Error) -> String? {
    switch error {
    case let e as StorageError: e.message
    case let e as GitError: e.description
    default: nil
    }
  }

  /// An ISO 8601 date as record files hold them (`2026-11-19T09:00:00Z`, `2026-11-19`).
}

extension ScrumProvider {
  public static func live(repository: Workspace) -> ScrumProvider {
    live(repository: repository.repository)
  }
}
extension LibraryProvider {
  public static func live(repository: Workspace) -> LibraryProvider {
    live(repository: repository.repository)
  }
}
extension MeetingProvider {
  public static func live(repository: Workspace) -> MeetingProvider {
    live(repository: repository.repository)
  }
}
extension LogProvider {
  public static func live(repository: Workspace) -> LogProvider {
    live(repository: repository.repository)
  }
}
extension UndoProvider {
  public static func live(repository: Workspace) -> UndoProvider {
    live(repository: repository.repository)
  }
}
extension SyncProvider {
  public static func live(repository: Workspace) -> SyncProvider {
    live(repository: repository.repository)
  }
}
extension ScheduleProvider {
  public static func live(repository: Workspace) -> ScheduleProvider {
    live(repository: repository.repository)
  }
}
