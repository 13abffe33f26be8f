import Base
import FoundationEssentials
import Git
import Glibc

/// A storage failure a person can act on: what went wrong and how to fix it.
public struct StorageError: Error, Sendable, CustomStringConvertible, Equatable {
  /// What callers may branch on; the message is for people.
  public enum Kind: Sendable, Equatable {
    case other
    /// A lock file (its path) stayed held for longer than dinger waits.
    case lockBusy(String)
    /// The change was committed, but the working tree or index could not be brought up to
    /// date; the next dinger command finishes it.
    case savedNotCheckedOut(commit: String)
    /// A path on the way is a link, or a file where a folder should be (or the reverse).
    case unsafePath(String)
    /// A file has uncommitted edits dinger would overwrite.
    case uncommitted(String)
    /// No record answers to a name (what was asked for).
    case notFound(String)
    /// A name fits more than one record.
    case ambiguous(String)
    /// A name points at a record file (its path) that does not read.
    case unreadable(String)
  }

  /// Lowercase, no final period, with a fix where one is known.
  public var message: String
  /// What went wrong, for code.
  public var kind: Kind

  /// Creates an error.
  public init(_ message: String, kind: Kind = .other) {
    self.message = message
    self.kind = kind
  }

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
      "\(path) has changes that are not committed, and dinger would overwrite them; commit them (git commit -am \"...\") or undo them (git checkout HEAD -- \(path)), then run this again",
      kind: .uncommitted(path))
  }

  static func unsafe(_ refusal: WorkTree.Refusal) -> StorageError {
    switch refusal {
    case .link(let p), .notAFolder(let p), .isAFolder(let p), .badName(let p), .notAFile(let p):
      return StorageError(refusal.message, kind: .unsafePath(p))
    case .system, .unreadable, .tooLarge: return StorageError(refusal.message)
    }
  }

  static func savedNotCheckedOut(_ commit: ObjectID, subject: String, because error: any Error)
    -> StorageError
  {
    StorageError(
      "the change '\(subject)' was saved as commit \(commit.short), but the working tree could not be brought up to date (\(error)); the next dinger command finishes it",
      kind: .savedNotCheckedOut(commit: commit.hex))
  }
}
