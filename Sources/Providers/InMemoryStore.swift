import Base
import FoundationEssentials
import Glibc
import Models
import Storage

/// Record files held in memory, for tests and previews: the same reads and commits as a data
/// repository, without git.
public final class InMemoryStore: @unchecked Sendable {
  // NB: recursive: a change's builder may read the store (`files(of:)`) while it is applied.
  private let lock = Lock(recursive: true)
  private var texts: [String: [UInt8]]
  private var log: [Change] = []
  private var before: [[String: [UInt8]?]] = []
  /// Undone changes, newest last, with the files as the change left them (for redo).
  private var undone: [(change: Change, after: [String: [UInt8]?])] = []

  /// Files by data-relative path.
  public init(files: [String: String] = [:]) {
    texts = files.mapValues { Array($0.utf8) }
  }

  /// The current text of a file.
  public func text(_ path: String) -> String? {
    lock.withLock { texts[path].map { String(decoding: $0, as: UTF8.self) } }
  }

  /// Every path, sorted.
  public var paths: [String] { lock.withLock { texts.keys.sorted() } }

  /// The changes applied, oldest first.
  public var changes: [Change] { lock.withLock { log } }

  func paths(of kind: RecordKind) -> [String] {
    lock.withLock { texts.keys.filter { RecordLayout.kind(ofPath: $0) == kind }.sorted() }
  }

  func files(of kind: RecordKind) -> [DecodedFile] {
    lock.withLock {
      texts.filter { RecordLayout.kind(ofPath: $0.key) == kind }.sorted { $0.key < $1.key }
        .map { RecordCodec.decode($0.value, path: $0.key, kind: kind) }
    }
  }

  func undoLast() throws -> String {
    try lock.withLock {
      guard let last = log.last, let previous = before.last else {
        throw StorageError("nothing to undo")
      }
      var after: [String: [UInt8]?] = [:]
      for path in previous.keys { after.updateValue(texts[path], forKey: path) }
      for (path, bytes) in previous { texts[path] = bytes }
      log.removeLast()
      before.removeLast()
      undone.append((last, after))
      return "Undo \"\(last.subject)\""
    }
  }

  func redoLast() throws -> String {
    try lock.withLock {
      guard let last = undone.popLast() else { throw StorageError("nothing to redo") }
      var previous: [String: [UInt8]?] = [:]
      for path in last.after.keys { previous.updateValue(texts[path], forKey: path) }
      for (path, bytes) in last.after { texts[path] = bytes }
      log.append(last.change)
      before.append(previous)
      return "Redo \"\(last.change.subject)\""
    }
  }

  /// Builds a change against the files as they are now and applies it, as one step.
  func apply(_ build: (Snapshot) throws -> Change?) throws -> String? {
    try lock.withLock {
      let now = texts
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
      var previous: [String: [UInt8]?] = [:]
      for path in change.paths { previous.updateValue(texts[path], forKey: path) }
      before.append(previous)
      undone = []
      for (path, bytes) in change.writes { texts[path] = bytes }
      for path in change.removals { texts.removeValue(forKey: path) }
      log.append(change)
      return String(cFormat: "%040x", log.count)
    }
  }
}
