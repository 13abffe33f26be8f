import Foundation
import Models

/// A data directory on disk, read as plain files (no git needed).
public struct DataDirectory: Sendable {
  /// The directory's root, where `.dinger/` and `scrums/` live.
  public let root: URL

  /// A data directory at `root`.
  public init(root: URL) { self.root = root.standardizedFileURL }

  /// The nearest enclosing directory that has `.dinger/` (starting at `start` itself).
  public static func enclosing(_ start: URL) -> DataDirectory? {
    var dir = start.standardizedFileURL
    while true {
      var isDir: ObjCBool = false
      let marker = dir.appendingPathComponent(".dinger").path
      if FileManager.default.fileExists(atPath: marker, isDirectory: &isDir), isDir.boolValue {
        return DataDirectory(root: dir)
      }
      let parent = dir.deletingLastPathComponent()
      if parent.path == dir.path { return nil }
      dir = parent
    }
  }

  /// The data directory holding a record file, judged by where record files live.
  public static func holding(file: URL) -> DataDirectory? {
    if let found = enclosing(file.deletingLastPathComponent()) { return found }
    let parts = file.standardizedFileURL.pathComponents
    for depth in [2, 3] where parts.count > depth {
      let root = NSString.path(withComponents: Array(parts.dropLast(depth)))
      let relative = parts.suffix(depth).joined(separator: "/")
      if RecordLayout.kind(ofPath: relative) != nil {
        return DataDirectory(root: URL(fileURLWithPath: root))
      }
    }
    return nil
  }

  /// The data-relative path of a file inside this directory.
  public func relativePath(_ file: URL) -> String? {
    let rootPath = root.path.hasSuffix("/") ? root.path : root.path + "/"
    let path = file.standardizedFileURL.path
    guard path.hasPrefix(rootPath) else { return nil }
    return String(path.dropFirst(rootPath.count))
  }

  /// The folder a kind of record lives under.
  static func folder(of kind: RecordKind) -> String? {
    switch kind {
    case .scrum: return "scrums"
    case .meeting: return "history"
    case .library: return "libraries"
    case .quiz: return "quizzes"
    case .config: return nil
    }
  }

  /// The data-relative paths of the record files of one kind, sorted, without reading them.
  // NB: plain directory listings (one level, or two for history and quizzes): Foundation's
  // recursive enumerator cost more than reading the files.
  public func recordPaths(of kind: RecordKind) throws -> [String] {
    guard let top = Self.folder(of: kind) else {
      let exists = FileManager.default.fileExists(
        atPath: root.appendingPathComponent(RecordLayout.configPath).path)
      return exists ? [RecordLayout.configPath] : []
    }
    let fm = FileManager.default
    let base = root.appendingPathComponent(top)
    guard let entries = try? fm.contentsOfDirectory(atPath: base.path) else { return [] }
    var out: [String] = []
    if kind == .scrum || kind == .library {
      for name in entries where name.hasSuffix(".yaml") { out.append(top + "/" + name) }
    } else {
      for folder in entries where !folder.hasPrefix(".") {
        guard
          let files = try? fm.contentsOfDirectory(atPath: base.appendingPathComponent(folder).path)
        else { continue }
        for name in files where name.hasSuffix(".yaml") { out.append("\(top)/\(folder)/\(name)") }
      }
    }
    return out.filter { RecordLayout.kind(ofPath: $0) == kind }.sorted()
  }

  /// The record files of one kind, with their bytes, sorted by path.
  public func recordFiles(of kind: RecordKind) throws -> [(path: String, bytes: [UInt8])] {
    try recordPaths(of: kind).map { path in
      (path, Array(try Data(contentsOf: root.appendingPathComponent(path))))
    }
  }

  /// Every record file (and stray `.yml` file) under the record folders, with its bytes.
  public func recordFiles() throws -> [(path: String, bytes: [UInt8])] {
    var out: [(String, [UInt8])] = []
    let fm = FileManager.default
    for top in ["scrums", "history", "libraries", "quizzes"] {
      let dir = root.appendingPathComponent(top)
      guard let walker = fm.enumerator(atPath: dir.path) else { continue }
      while let item = walker.nextObject() as? String {
        let path = top + "/" + item
        guard path.hasSuffix(".yaml") || path.hasSuffix(".yml") else { continue }
        let url = root.appendingPathComponent(path)
        out.append((path, Array(try Data(contentsOf: url))))
      }
    }
    let config = root.appendingPathComponent(RecordLayout.configPath)
    if let data = fm.contents(atPath: config.path) {
      out.append((RecordLayout.configPath, Array(data)))
    }
    return out
  }
}
