import Foundation
import Models
import Providers
import Storage
import TestSupport
import Testing

/// The two backends a provider runs on: the in-memory store, and a real data repository in a
/// temporary folder (`.live`: libgit2, the write protocol, the record cache).
enum Backend: String, CaseIterable, CustomTestStringConvertible, Sendable {
  case inMemory, live

  var testDescription: String { rawValue }

  /// A scrum provider over `files`, and what the test reads back. Keep the world for as long as
  /// the provider is used: for `.live` it owns the temporary folder.
  func world(_ files: [String: String]) throws -> (ScrumProvider, World) {
    switch self {
    case .inMemory:
      let store = InMemoryStore(files: files)
      return (.inMemory(store), World(memory: store))
    case .live:
      let box = try Sandbox()
      try FileManager.default.createDirectory(at: box.data, withIntermediateDirectories: true)
      try box.git("init", "-q", "-b", "main")
      try box.git("config", "user.name", "Ada Lovelace")
      try box.git("config", "user.email", "ada@example.com")
      _ = try DataRepository.initialize(at: box.data)
      for (path, text) in files { try box.write(path, text) }
      try box.git("add", "-A")
      try box.git("commit", "-q", "--allow-empty", "-m", "the test's files")
      let repository = try DataRepository.open(box.data)
      return (.live(repository: repository), try World(box: box, repository: repository))
    }
  }
}

extension Backend {
  /// A check over `files` on this backend (for `.live`, files in a temporary folder, which
  /// the returned value owns: keep it while checking).
  func checker(_ files: [String: String]) throws -> (CheckProvider, TemporaryDirectory?) {
    switch self {
    case .inMemory: return (.inMemory(files: files), nil)
    case .live:
      let dir = try TemporaryDirectory()
      for (path, text) in files { try dir.write(path, text) }
      return (.live(directory: DataDirectory(root: dir.url)), dir)
    }
  }
}

/// What a test reads back from either backend: files, the changes made since the start, undo.
final class World: @unchecked Sendable {
  /// A change as the test sees it.
  struct Made {
    var subject: String
    var trailerKeys: [String]
  }

  private let memory: InMemoryStore?
  private let box: Sandbox?
  private let repository: DataRepository?
  private let start: String

  init(memory: InMemoryStore) {
    self.memory = memory
    (box, repository, start) = (nil, nil, "")
  }

  init(box: Sandbox, repository: DataRepository) throws {
    memory = nil
    (self.box, self.repository) = (box, repository)
    start = try box.head()
  }

  /// A record file's text, or nil when there is none.
  func text(_ path: String) -> String? {
    if let memory { return memory.text(path) }
    return try? box!.read(path)
  }

  /// The record files there are.
  var paths: [String] {
    if let memory { return memory.paths }
    let listed = (try? box!.git("ls-files", "scrums", "history", "libraries", "quizzes")) ?? ""
    return listed.split(separator: "\n").map(String.init).sorted()
  }

  /// The changes made since the world was set up, oldest first.
  var changes: [Made] {
    if let memory {
      return memory.changes.map { Made(subject: $0.subject, trailerKeys: $0.trailers.map(\.key)) }
    }
    let log = (try? box!.git("log", "--reverse", "--format=%B%x00", "\(start)..HEAD")) ?? ""
    return log.components(separatedBy: "\0").map { $0.trimmingCharacters(in: .newlines) }
      .filter { !$0.isEmpty }.map { message in
        let lines = message.split(separator: "\n", omittingEmptySubsequences: false)
        let keys = lines.compactMap { line -> String? in
          guard line.hasPrefix("Dinger-"), let colon = line.firstIndex(of: ":") else { return nil }
          return String(line[..<colon])
        }
        return Made(subject: String(lines.first ?? ""), trailerKeys: keys)
      }
  }

  /// Undo and redo over this world.
  var undoing: UndoProvider {
    if let memory { return .inMemory(memory) }
    return .live(repository: repository!)
  }

  /// Undoes the newest change; its subject.
  func undo() throws -> String {
    if let memory { return try UndoProvider.inMemory(memory).undo().subject }
    return try UndoProvider.live(repository: repository!).undo().subject
  }
}
