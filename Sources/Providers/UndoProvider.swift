import Foundation
import Storage

/// Undoing the newest dinger change.
public struct UndoProvider: Sendable {
  /// What undoing needs.
  public struct Dependencies: Sendable {
    /// Reverts the newest dinger change as a new commit; returns the new commit's subject.
    public var undo: @Sendable () throws -> String

    /// Creates dependencies.
    public init(undo: @escaping @Sendable () throws -> String) { self.undo = undo }
  }

  /// The verbs.
  public let dependencies: Dependencies

  /// Wraps dependencies.
  public init(_ dependencies: Dependencies) { self.dependencies = dependencies }

  /// Undo on a git-backed data repository.
  public static func live(repository: DataRepository) -> UndoProvider {
    UndoProvider(Dependencies { try repository.undoLast().subject })
  }

  /// Undo in memory: restores the files the last change touched.
  public static func inMemory(_ store: InMemoryStore) -> UndoProvider {
    UndoProvider(Dependencies { try store.undoLast() })
  }

  /// Undoes the newest change; returns what was done.
  public func undo() throws -> String { try dependencies.undo() }
}
