import Base
import FoundationEssentials
import Glibc
import Storage

/// Undoing and redoing the user's own changes.
public struct UndoProvider: Sendable {
  /// What one undo or redo did.
  public struct Outcome: Sendable, Equatable {
    /// The new commit's subject (`Undo "..."`, `Redo "..."`).
    public var subject: String
    /// The short id of the commit reverted.
    public var reverted: String
    /// Authors of newer changes passed over (they stay), newest first.
    public var passedOver: [String]

    public init(subject: String, reverted: String = "", passedOver: [String] = []) {
      (self.subject, self.reverted, self.passedOver) = (subject, reverted, passedOver)
    }
  }

  /// What undoing needs.
  public struct Dependencies: Sendable {
    /// Reverts the user's newest change still in effect, as a new commit.
    public var undo: @Sendable () throws -> Outcome
    /// Reverts the user's newest undo, as a new commit.
    public var redo: @Sendable () throws -> Outcome

    /// Creates dependencies.
    public init(
      undo: @escaping @Sendable () throws -> Outcome,
      redo: @escaping @Sendable () throws -> Outcome
    ) {
      self.undo = undo
      self.redo = redo
    }
  }

  /// The verbs.
  public let dependencies: Dependencies

  /// Wraps dependencies.
  public init(_ dependencies: Dependencies) { self.dependencies = dependencies }

  /// Undo on a git-backed data repository.
  public static func live(repository: DataRepository) -> UndoProvider {
    @Sendable func outcome(_ r: DataRepository.UndoResult) -> Outcome {
      Outcome(subject: r.subject, reverted: r.undone.short, passedOver: r.passedOver)
    }
    return UndoProvider(
      Dependencies(
        undo: { outcome(try repository.undoLast()) }, redo: { outcome(try repository.redoLast()) }))
  }

  /// Undo in memory: restores the files the last change touched; redo puts them back.
  public static func inMemory(_ store: InMemoryStore) -> UndoProvider {
    UndoProvider(
      Dependencies(
        undo: { Outcome(subject: try store.undoLast()) },
        redo: { Outcome(subject: try store.redoLast()) }))
  }

  /// Undoes the user's newest change still in effect.
  public func undo() throws -> Outcome { try dependencies.undo() }

  /// Redoes the user's newest undo.
  public func redo() throws -> Outcome { try dependencies.redo() }
}
