import Foundation
import Git

extension DataRepository {
  /// What `undo` did.
  public struct UndoResult: Sendable {
    /// The commit undone.
    public var undone: ObjectID
    /// Its subject.
    public var undoneSubject: String
    /// The new commit's subject.
    public var subject: String
  }

  /// Reverts the newest dinger commit as a new commit. Refuses when there is none, when it set
  /// up the repository, or when a later commit changed one of its files again (undoing would
  /// throw that later change away).
  public func undoLast() throws -> UndoResult {
    var result: UndoResult?
    // NB: worked out under the writer lock from the HEAD it commits on, so two undos at once
    // undo two changes, one each.
    try commit(on: { head throws -> Change? in
      let (change, undo) = try undoChange(at: head)
      result = undo
      return change
    })
    return result!
  }

  private func undoChange(at head: ObjectID?) throws -> (Change, UndoResult) {
    guard let head else {
      throw StorageError("nothing to undo: the repository has no commits")
    }
    var cursor: ObjectID? = head
    var later: [Repository.CommitInfo] = []
    var target: Repository.CommitInfo?
    var steps = 0
    while let id = cursor, steps < 1000 {
      let info = try commitInfo(id)
      if TrailerParser.value("Dinger-Action", in: info.message) != nil {
        target = info
        break
      }
      later.append(info)
      cursor = info.parents.first
      steps += 1
    }
    guard let target else {
      throw StorageError("nothing to undo: no commit made by dinger was found")
    }
    let subject = target.message.split(separator: "\n").first.map(String.init) ?? ""
    if TrailerParser.value("Dinger-Action", in: target.message) == "init" {
      throw StorageError("nothing to undo: the newest dinger change set up the repository")
    }
    guard target.parents.count == 1, let parent = target.parents.first else {
      throw StorageError(
        "can't undo '\(subject)': it is a merge; undo it with git (git revert -m 1 \(target.id.short))"
      )
    }
    // Undoing an undo redoes, and says so instead of nesting quotes (git says "Reapply").
    let newSubject: String
    if subject.hasPrefix("Undo \""), subject.hasSuffix("\"") {
      newSubject = "Redo " + subject.dropFirst("Undo ".count)
    } else if subject.hasPrefix("Redo \""), subject.hasSuffix("\"") {
      newSubject = "Undo " + subject.dropFirst("Redo ".count)
    } else {
      newSubject = "Undo \"\(subject)\""
    }
    var change = Change(
      subject: newSubject,
      body: "This reverts commit \(target.id.hex).",
      trailers: [("Dinger-Action", "undo"), ("Dinger-Undoes", target.id.hex)])
    for path in try changedPaths(target.id) {
      let after = try file(path, in: target.id)
      if try file(path, in: head) != after {
        let by = try later.first { try changedPaths($0.id).contains(path) }
        let what =
          by.map { " in \($0.id.short) (\($0.message.split(separator: "\n").first ?? ""))" } ?? ""
        throw StorageError(
          "can't undo '\(subject)': \(path) was changed again later\(what); undoing would lose that change"
        )
      }
      if let before = try file(path, in: parent) {
        change.writes[path] = before
      } else {
        change.remove(path)
      }
    }
    return (change, UndoResult(undone: target.id, undoneSubject: subject, subject: change.subject))
  }
}
