import Base
import FoundationEssentials
import Git
import Glibc

extension DataRepository {
  /// What `undo` or `redo` did.
  public struct UndoResult: Sendable {
    /// The commit undone (for a redo: the undo commit reverted).
    public var undone: ObjectID
    /// Its subject.
    public var undoneSubject: String
    /// The new commit's subject.
    public var subject: String
    /// The authors of newer changes that were passed over (they stay), newest first.
    public var passedOver: [String]
  }

  /// How far back undo and redo look for the user's own changes.
  static let undoReach = 10_000

  /// Reverts the user's newest dinger change still in effect, as a new commit: the newest
  /// non-merge dinger commit of the history whose author is the user (git's identity), passing over teammates' changes, merges and changes already undone, so a
  /// second undo steps further back. Refuses when a later commit changed one of its files
  /// again (undoing would throw that change away), naming that commit and its author.
  public func undoLast() throws -> UndoResult {
    try revertOwn(redo: false)
  }

  /// Reverts the user's newest undo not yet redone, when nothing but undos (and teammates'
  /// changes) came after it: the change it undid is back.
  public func redoLast() throws -> UndoResult {
    try revertOwn(redo: true)
  }

  private func revertOwn(redo: Bool) throws -> UndoResult {
    guard let me = try git.identities()?.author else { throw StorageError.missingIdentity() }
    var result: UndoResult?
    // NB: worked out under the writer lock from the HEAD it commits on, so two undos at once
    // undo two changes, one each.
    try commit(on: { head throws -> Change? in
      let (change, undo) = try revertChange(at: head, me: me, redo: redo)
      result = undo
      return change
    })
    return result!
  }

  private func revertChange(at head: ObjectID?, me: Signature, redo: Bool) throws -> (
    Change, UndoResult
  ) {
    let verb = redo ? "redo" : "undo"
    guard let head else {
      throw StorageError("nothing to \(verb): the repository has no commits")
    }
    let (target, later, passedOver) = try findTarget(from: head, me: me, redo: redo)
    let subject = Self.subject(of: target)
    guard let parent = target.parents.first else {
      throw StorageError("nothing to \(verb): '\(subject)' has no parent")
    }
    let newSubject: String
    if redo, subject.hasPrefix("Undo \""), subject.hasSuffix("\"") {
      newSubject = "Redo " + subject.dropFirst("Undo ".count)
    } else {
      newSubject = "Undo \"\(subject)\""
    }
    var change = Change(
      subject: newSubject,
      body: "This reverts commit \(target.id.hex).",
      trailers: [("Dinger-Action", verb), ("Dinger-Undoes", target.id.hex)])
    for path in try changedPaths(target.id) {
      let after = try file(path, in: target.id)
      if try file(path, in: head) != after {
        let by = try later.first { try changedPaths($0.id).contains(path) }
        let what =
          by.map { " in \($0.id.short) by \($0.author.name) (\(Self.subject(of: $0)))" } ?? ""
        throw StorageError(
          "can't \(verb) '\(subject)': \(path) was changed again later\(what); \(verb)ing would lose that change"
        )
      }
      if let before = try file(path, in: parent) {
        change.writes[path] = before
      } else {
        change.remove(path)
      }
    }
    try refuseOrphans(change, at: head, verb: verb, subject: subject)
    return (
      change,
      UndoResult(
        undone: target.id, undoneSubject: subject, subject: change.subject, passedOver: passedOver)
    )
  }

  /// The user's newest change to undo (or, with `redo`, their newest undo to revert), walking
  /// every commit of the history newest first, not only the first parents (a sync that
  /// fast-forwards to a teammate's merge puts the user's own commits on its second parent).
  /// Also: the commits passed on the way (newest first) and the teammates whose changes were.
  private func findTarget(from head: ObjectID, me: Signature, redo: Bool) throws -> (
    target: Repository.CommitInfo, later: [Repository.CommitInfo], passedOver: [String]
  ) {
    let verb = redo ? "redo" : "undo"
    func mine(_ info: Repository.CommitInfo) -> Bool {
      me.email.isEmpty
        ? info.author.name == me.name
        : info.author.email.lowercased() == me.email.lowercased()
    }
    let history = try git.commits(from: [head], hiding: [], limit: Self.undoReach)
    var later: [Repository.CommitInfo] = []
    var passedOver: [String] = []
    var reverted = Set<String>()  // commits whose effect a newer commit of the user's reverted
    for id in history {
      let info = try commitInfo(id)
      let action = TrailerParser.value("Dinger-Action", in: info.message)
      // NB: merges are never undone: what they brought is teammates' work; nor is a sync's
      // fold of one record's second file (undoing it would bring the second file back).
      guard info.parents.count == 1, let action, action != "sync.fold" else {
        later.append(info)
        continue
      }
      guard mine(info) else {
        passedOver.append(info.author.name)
        later.append(info)
        continue
      }
      if reverted.contains(info.id.hex) {
        later.append(info)
        continue
      }
      let reverts = TrailerParser.value("Dinger-Undoes", in: info.message)
      switch (action, redo) {
      case ("init", _):
        throw StorageError(
          redo
            ? "nothing to redo: you have undone nothing since your last change"
            : "nothing to undo: your changes since the repository was set up are all undone")
      case ("undo", false), ("redo", false), ("redo", true):
        if let reverts { reverted.insert(reverts) }
        later.append(info)
      case ("undo", true), (_, false):
        return (info, later, passedOver)
      case (_, true):
        throw StorageError(
          "nothing to redo: your newest change ('\(Self.subject(of: info))') is not an undo")
      }
    }
    throw StorageError("nothing to \(verb): no change of yours (\(me.email)) was found")
  }

  /// An undo that would remove a scrum (or library) whose meetings (quiz results) were recorded
  /// since is refused, as `scrum rm` refuses: no meeting is left naming a scrum that is gone.
  private func refuseOrphans(_ change: Change, at head: ObjectID?, verb: String, subject: String)
    throws
  {
    guard let head else { return }
    for path in change.removals.sorted() {
      let folders: [String]
      switch RecordLayout.kind(ofPath: path) {
      // NB: a scrum's meetings, and its written stand-up entries.
      case .scrum?:
        folders = ["history/", "standups/"].map { $0 + RecordLayout.slug(ofPath: path) }
      case .library?: folders = ["quizzes/" + RecordLayout.slug(ofPath: path)]
      default: continue
      }
      for folder in folders {
        try refuseOrphans(of: path, in: folder, change, at: head, verb: verb, subject: subject)
      }
    }
  }

  private func refuseOrphans(
    of path: String, in folder: String, _ change: Change, at head: ObjectID, verb: String,
    subject: String
  ) throws {
    guard let bytes = try file(path, in: head),
      let id = ActivityIndex.unquotedField("id", in: bytes)
    else { return }
    let children = try git.names(in: folder, of: head).sorted().filter { name in
      let child = "\(folder)/\(name)"
      guard !change.removals.contains(child), let text = try file(child, in: head) else {
        return false
      }
      let parent =
        ActivityIndex.unquotedField("scrum", in: text)
        ?? ActivityIndex.unquotedField("library", in: text)
      return parent == id
    }
    guard let first = children.first else { return }
    let noun =
      folder.hasPrefix("history/")
      ? "meeting" : folder.hasPrefix("standups/") ? "stand-up entry" : "quiz result"
    throw StorageError(
      "can't \(verb) '\(subject)': it would remove \(path), and \(children.count) \(children.count == 1 ? noun : noun == "stand-up entry" ? "stand-up entries" : noun + "s") recorded for it since (\(folder)/\(first)\(children.count > 1 ? ", ..." : "")) would be left without it; remove \(children.count == 1 ? "it" : "them") first if that is what you want"
    )
  }

  static func subject(of info: Repository.CommitInfo) -> String {
    info.message.split(separator: "\n").first.map(String.init) ?? ""
  }
}
