import Foundation

/// A storage failure a person can act on: what went wrong and how to fix it.
public struct StorageError: Error, Sendable, CustomStringConvertible, Equatable {
  /// Lowercase, no final period, with a fix where one is known.
  public var message: String

  /// Creates an error.
  public init(_ message: String) { self.message = message }

  public var description: String { message }

  static func missingIdentity() -> StorageError {
    StorageError(
      "git does not know who you are, and every dinger change is a commit; set your name and email: git config --global user.name \"Your Name\" && git config --global user.email you@example.com"
    )
  }

  static func branchMoved() -> StorageError {
    StorageError(
      "the branch moved while dinger was merging (another commit was made meanwhile); nothing was lost, run 'dinger sync' again"
    )
  }

  static func uncommitted(_ path: String) -> StorageError {
    StorageError(
      "\(path) has changes that are not committed, and dinger would overwrite them; commit them (git commit -am \"...\") or undo them (git checkout -- \(path)), then run this again"
    )
  }
}
