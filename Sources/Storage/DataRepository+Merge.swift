import Foundation
import Git

extension DataRepository {
  /// The git repository underneath, for syncing with remotes.
  public var gitRepository: Repository { git }

  /// Moves the branch from `onto` forward to `commit` (which must contain it) and brings the
  /// working tree and index up to date for `files`, the paths that differ. Refuses, changing
  /// nothing, when one of those files has uncommitted edits.
  public func fastForward(to commit: ObjectID, from onto: ObjectID?, files: [ThreeWayFile]) throws {
    let lock = try WriterLock(at: git.gitDirectory.appendingPathComponent("dinger"))
    defer { lock.release() }
    let (branch, head) = try git.head()
    guard head == onto else { throw StorageError.branchMoved() }
    for file in files { try ensureUnchanged(file.path, since: head) }
    var writes: [String: [UInt8]] = [:]
    var removals: Set<String> = []
    var blobs: [(path: String, blob: ObjectID)] = []
    for file in files {
      if let blob = file.theirs {
        writes[file.path] = try git.blob(blob)
        blobs.append((file.path, blob))
      } else {
        removals.insert(file.path)
      }
    }
    do {
      try git.moveBranch(branch, to: commit, from: head, reflog: "dinger sync: fast-forward")
    } catch {
      if error.isModified { throw StorageError.branchMoved() }
      throw error
    }
    try updateWorkingTree(writes: writes, removals: removals, blobs: blobs)
  }
}
