import Foundation
import Git
import Storage
import Sync

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
      _ remote: String, _ dryRun: Bool, _ progress: (@Sendable (TransferProgress) -> Void)?
    )
      throws -> Syncer.Report
  public var conflicts: @Sendable () -> (records: [ConflictRecord], unreadable: [String])
  /// Settles the conflict whose id starts with a prefix; returns it.
  public var resolve:
    @Sendable (_ id: String, _ choice: ConflictStore.Choice) throws -> ConflictRecord
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
      sync: { remote, dryRun, progress in
        try Syncer(repository).sync(remote: remote, dryRun: dryRun, onProgress: progress)
      },
      conflicts: { ConflictStore(repository).all() },
      resolve: { id, choice in
        let store = ConflictStore(repository)
        let record = try store.find(id)
        try store.resolve(record, choice)
        return record
      },
      setupGit: { executable in try GitSetup.configure(repository, executable: executable) }
    )
  }
}
