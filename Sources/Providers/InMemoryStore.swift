import Base
import FoundationEssentials
import Glibc
import Models
import Storage
import Synchronization

/// Record files held in memory, for tests and previews: the same reads and commits as a data
/// repository, without git.
public final class InMemoryStore: Sendable {
  private struct State {
    var texts: [String: [UInt8]]
    var log: [Change] = []
    var before: [[String: [UInt8]?]] = []
    /// Undone changes, newest last, with the files as the change left them (for redo).
    var undone: [(change: Change, after: [String: [UInt8]?])] = []
  }
  private let state: Mutex<State>

  /// Files by data-relative path.
  public init(files: [String: String] = [:]) {
    state = Mutex(State(texts: files.mapValues { Array($0.utf8) }))
  }

  /// The current text of a file.
  public func text(_ path: String) -> String? {
    state.withLock { $0.texts[path].map { String(decoding: $0, as: UTF8.self) } }
  }

  /// Every path, sorted.
  public var paths: [String] { state.withLock { $0.texts.keys.sorted() } }

  /// The changes applied, oldest first.
  public var changes: [Change] { state.withLock { $0.log } }

  func paths(of kind: RecordKind) -> [String] {
    state.withLock { $0.texts.keys.filter { RecordLayout.kind(ofPath: $0) == kind }.sorted() }
  }

  func files(of kind: RecordKind) -> [DecodedFile] {
    let texts = state.withLock { $0.texts }
    return texts.filter { RecordLayout.kind(ofPath: $0.key) == kind }.sorted { $0.key < $1.key }
      .map { RecordCodec.decode($0.value, path: $0.key, kind: kind) }
  }

  func undoLast() throws -> String {
    try state.withLock { state throws -> String in
      guard let last = state.log.last, let previous = state.before.last else {
        throw StorageError("nothing to undo")
      }
      var after: [String: [UInt8]?] = [:]
      for path in previous.keys { after.updateValue(state.texts[path], forKey: path) }
      for (path, bytes) in previous { state.texts[path] = bytes }
      state.log.removeLast()
      state.before.removeLast()
      state.undone.append((last, after))
      return "Undo \"\(last.subject)\""
    }
  }

  func redoLast() throws -> String {
    try state.withLock { state throws -> String in
      guard let last = state.undone.popLast() else { throw StorageError("nothing to redo") }
      var previous: [String: [UInt8]?] = [:]
      for path in last.after.keys { previous.updateValue(state.texts[path], forKey: path) }
      for (path, bytes) in last.after { state.texts[path] = bytes }
      state.log.append(last.change)
      state.before.append(previous)
      return "Redo \"\(last.change.subject)\""
    }
  }

  /// Builds a change against the files as they are now and applies it, as one step: the
  /// builder runs without the lock (it may read the store), and its change is applied only
  /// if no other change came in meanwhile, else it is built again, as a commit's
  /// compare-and-swap of the branch.
  func apply(_ build: (Snapshot) throws -> Change?) throws -> String? {
    while true {
      let (now, applied) = state.withLock { ($0.texts, $0.log.count + $0.undone.count) }
      let snapshot = Snapshot(
        read: { now[$0] },
        names: { folder in
          Set(
            now.keys.compactMap { key in
              guard key.hasPrefix(folder + "/") else { return nil }
              return key.dropFirst(folder.count + 1).split(separator: "/").first.map(String.init)
            })
        })
      guard let change = try build(snapshot) else { return nil }
      let done = state.withLock { state -> String? in
        guard state.log.count + state.undone.count == applied, state.texts == now else {
          return nil
        }
        var previous: [String: [UInt8]?] = [:]
        for path in change.paths { previous.updateValue(state.texts[path], forKey: path) }
        state.before.append(previous)
        state.undone = []
        for (path, bytes) in change.writes { state.texts[path] = bytes }
        for path in change.removals { state.texts.removeValue(forKey: path) }
        state.log.append(change)
        return String(cFormat: "%040x", state.log.count)
      }
      if let done { return done }
    }
  }
}
