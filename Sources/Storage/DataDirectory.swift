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

  /// The record files of one kind, with their bytes, sorted by path.
  public func recordFiles(of kind: RecordKind) throws -> [(path: String, bytes: [UInt8])] {
    let top: String
    switch kind {
    case .scrum: top = "scrums"
    case .meeting: top = "history"
    case .library: top = "libraries"
    case .quiz: top = "quizzes"
    case .config:
      let data = FileManager.default.contents(atPath: root.appendingPathComponent(RecordLayout.configPath).path)
      return data.map { [(RecordLayout.configPath, Array($0))] } ?? []
    }
    var out: [(String, [UInt8])] = []
    guard let walker = FileManager.default.enumerator(atPath: root.appendingPathComponent(top).path)
    else { return [] }
    while let item = walker.nextObject() as? String {
      let path = top + "/" + item
      guard RecordLayout.kind(ofPath: path) == kind else { continue }
      out.append((path, Array(try Data(contentsOf: root.appendingPathComponent(path)))))
    }
    return out.sorted { $0.0 < $1.0 }
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
