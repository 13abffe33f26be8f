import Base
import FoundationEssentials
import Glibc
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
      var isDir = false
      let marker = dir.appendingPathComponent(".dinger").path
      if FileManager.default.fileExists(atPath: marker, isDirectory: &isDir), isDir {
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
      let root = "/" + parts.dropLast(depth).dropFirst().joined(separator: "/")
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
    case .standup: return "standups"
    case .config: return nil
    }
  }

  /// The data-relative paths of the record files of one kind, sorted, without reading them.
  /// Links, and names that are not UTF-8, are left out (`recordFiles` reports them).
  // NB: plain directory listings (one level, or two for history and quizzes): Foundation's
  // recursive enumerator cost more than reading the files.
  public func recordPaths(of kind: RecordKind) throws -> [String] {
    scan(kind).paths
  }

  /// The record paths of a kind, sorted; and the files under the kind's folder that can't be
  /// read as records: symbolic links (never followed: a teammate's link could point anywhere)
  /// and names that are not UTF-8 (shown escaped).
  public func recordPathsAndProblems(of kind: RecordKind) -> (
    paths: [String], problems: [Diagnostic]
  ) {
    scan(kind)
  }

  /// The record paths in one folder of a nested kind (`history/design`), sorted: a scrum's
  /// meetings without listing every other scrum's.
  /// The names of the plain folders in `folder` (not links, not hidden).
  public func folders(in folder: String) -> [String] {
    Self.list(root.appendingPathComponent(folder).path)
      .filter { $0.kind == .folder && !$0.name.hasPrefix(".") }.map(\.name).sorted()
  }

  /// The data-relative paths of the files in `folder` whose names start with `prefix` (a day's
  /// entries: `2026-11-24-`), from the raw listing: no other name is turned into a string, so
  /// it costs the folder's size in bytes, not its records (31,000 entries: a few ms).
  public func paths(in folder: String, prefix: String) -> [String] {
    guard let dir = opendir(root.appendingPathComponent(folder).path) else { return [] }
    defer { closedir(dir) }
    let want = Array(prefix.utf8)
    var out: [String] = []
    while let entry = readdir(dir) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw -> String? in
        let bytes = raw.prefix { $0 != 0 }
        guard bytes.starts(with: want), bytes.count > want.count else { return nil }
        return String(validating: Array(bytes), as: UTF8.self)
      }
      if let name, name.hasSuffix(".yaml") { out.append(folder + "/" + name) }
    }
    return out.sorted()
  }

  public func recordPaths(in folder: String) -> [String] {
    var problems: [Diagnostic] = []
    let kind = RecordLayout.kind(ofPath: folder + "/x.yaml")
    guard let kind, kind == .meeting || kind == .quiz || kind == .standup else { return [] }
    return Self.list(root.appendingPathComponent(folder).path).flatMap {
      record(folder + "/" + $0.name, $0, kind, &problems)
    }.sorted()
  }

  static func unreadable(_ refusal: WorkTree.Refusal) -> String {
    switch refusal {
    case .link:
      return
        "this is a symbolic link, and dinger never follows links in a data repository (one a teammate commits could point anywhere); replace it with the file itself"
    default: return refusal.message
    }
  }

  /// The paths of one kind, and what was skipped while listing them.
  private func scan(_ kind: RecordKind) -> (paths: [String], problems: [Diagnostic]) {
    guard let top = Self.folder(of: kind) else {
      var st = stat()
      let exists = lstat(root.appendingPathComponent(RecordLayout.configPath).path, &st) == 0
      return (exists ? [RecordLayout.configPath] : [], [])
    }
    var out: [String] = []
    var problems: [Diagnostic] = []
    let nested = kind == .meeting || kind == .quiz || kind == .standup
    for entry in listing(top, &problems) {
      let path = top + "/" + entry.name
      if nested {
        guard !entry.name.hasPrefix(".") else { continue }
        if entry.kind == .link {
          problems.append(Diagnostic(.error, file: path, message: Self.unreadable(.link(path))))
          continue
        }
        guard entry.kind == .folder else { continue }
        for file in listing(path, &problems) {
          out.append(contentsOf: record(path + "/" + file.name, file, kind, &problems))
        }
      } else {
        out.append(contentsOf: record(path, entry, kind, &problems))
      }
    }
    return (out.sorted(), problems)
  }

  /// `path` when it is a record file of `kind`, with a problem noted for links and bad names.
  private func record(
    _ path: String, _ entry: ListedName, _ kind: RecordKind, _ problems: inout [Diagnostic]
  ) -> [String] {
    guard entry.name.hasSuffix(".yaml") || entry.kind == .badName else { return [] }
    switch entry.kind {
    case .badName:
      problems.append(
        Diagnostic(
          .error, file: path,
          message:
            "this file's name is not UTF-8, so dinger can't name it; rename it (git mv) to a UTF-8 name"
        ))
      return []
    case .link:
      problems.append(Diagnostic(.error, file: path, message: Self.unreadable(.link(path))))
      return []
    case .file:
      // NB: the scan only asks here for names at a record's place (top/name, top/folder/name),
      // so the path's shape needs no second look (that look was a third of `history S` at
      // 130,000 meetings).
      return [path]
    case .other:
      // NB: a FIFO, device or socket at a record's place is said, never opened (a FIFO hangs).
      problems.append(
        Diagnostic(.error, file: path, message: WorkTree.Refusal.notAFile(path).message))
      return []
    case .folder:
      return []
    }
  }

  /// A name in a folder and what it is.
  struct ListedName {
    enum Kind { case file, folder, link, other, badName }
    /// The name; for a `badName`, its bytes shown with `\xNN` escapes.
    var name: String
    var kind: Kind
  }

  /// A folder's names as the file system has them (raw bytes: a name that is not UTF-8 is
  /// reported, not lost or mangled), without following links. Empty when there is no folder.
  static func list(_ folder: String) -> [ListedName] {
    var error: Int32 = 0
    return list(folder, error: &error)
  }

  /// `list`, with a folder that is there but can't be read (permissions, I/O) noted in
  /// `problems` under its data-relative path: "no scrums yet" would be a lie.
  private func listing(_ relative: String, _ problems: inout [Diagnostic]) -> [ListedName] {
    var error: Int32 = 0
    let names = Self.list(root.appendingPathComponent(relative).path, error: &error)
    if error != 0 && error != ENOENT && error != ENOTDIR {
      problems.append(
        Diagnostic(
          .error, file: relative,
          message:
            "can't read this folder (\(String(cString: strerror(error)))), so the records in it can't be listed; give yourself read access (chmod u+rx \(relative)) or run dinger as the folder's owner"
        ))
    }
    return names
  }

  /// `list`, setting `error` to the errno when the folder can't be opened.
  static func list(_ folder: String, error: inout Int32) -> [ListedName] {
    guard let dir = opendir(folder) else {
      error = errno
      return []
    }
    defer { closedir(dir) }
    let fd = dirfd(dir)
    var out: [ListedName] = []
    while let entry = readdir(dir) {
      let bytes = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
      if bytes == [0x2E] || bytes == [0x2E, 0x2E] { continue }
      guard let name = String(validating: bytes, as: UTF8.self) else {
        out.append(ListedName(name: escaped(bytes), kind: .badName))
        continue
      }
      var type = Int32(entry.pointee.d_type)
      if type == Int32(DT_UNKNOWN) {
        var st = stat()
        if fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 {
          switch st.st_mode & S_IFMT {
          case S_IFREG: type = Int32(DT_REG)
          case S_IFDIR: type = Int32(DT_DIR)
          case S_IFLNK: type = Int32(DT_LNK)
          default: break
          }
        }
      }
      let kind: ListedName.Kind
      switch type {
      case Int32(DT_REG): kind = .file
      case Int32(DT_DIR): kind = .folder
      case Int32(DT_LNK): kind = .link
      default: kind = .other
      }
      out.append(ListedName(name: name, kind: kind))
    }
    return out
  }

  /// Bytes as text, with every byte that is not printable ASCII as `\xNN`.
  public static func escaped(_ bytes: [UInt8]) -> String {
    var out = ""
    for b in bytes {
      if b >= 0x20 && b < 0x7F && b != UInt8(ascii: "\\") {
        out.unicodeScalars.append(Unicode.Scalar(b))
      } else {
        out += String(cFormat: "\\x%02x", b)
      }
    }
    return out
  }

  /// The paths of every record file (all kinds, and `.yml` files, which check warns about), and
  /// what can't be read as one (links, names that are not UTF-8), without reading them.
  func recordFilePaths(parallelFrom: Int = 8) -> (paths: [String], problems: [Diagnostic]) {
    var paths: [String] = []
    var problems: [Diagnostic] = []
    var st = stat()
    if lstat(root.appendingPathComponent(RecordLayout.configPath).path, &st) == 0 {
      paths.append(RecordLayout.configPath)
    }
    // NB: in path order (`.dinger` first), as each folder's own names are.
    for top in ["history", "libraries", "quizzes", "scrums", "standups"] {
      var st = stat()
      let url = root.appendingPathComponent(top).path
      if lstat(url, &st) == 0 && st.st_mode & S_IFMT == S_IFLNK {
        problems.append(Diagnostic(.error, file: top, message: Self.unreadable(.link(top))))
        continue
      }
      let (found, seen) = walk(top, parallelFrom: parallelFrom)
      paths += found
      problems += seen
    }
    return (paths, problems)
  }

  /// The record files under `relative` and what can't be read there, each folder's files
  /// sorted and its subfolders taken in order, so that the paths come in path order wherever
  /// a folder holds files or folders, not both (the history; the caller's sort then only
  /// confirms it). With `parallelFrom` subfolders or more (a scrum's history each), they are
  /// listed on every core: listing 130,000 meetings and sorting them was a tenth of a warm
  /// `check`.
  private func walk(_ relative: String, parallelFrom: Int) -> (
    paths: [String], problems: [Diagnostic]
  ) {
    var paths: [String] = []
    var problems: [Diagnostic] = []
    var folders: [String] = []
    for entry in listing(relative, &problems) {
      let path = relative + "/" + entry.name
      let yaml = Self.hasSuffix(entry.name, ".yaml") || Self.hasSuffix(entry.name, ".yml")
      switch entry.kind {
      case .folder: folders.append(path)
      case .file where yaml: paths.append(path)
      case .link where yaml || !entry.name.utf8.contains(UInt8(ascii: ".")):
        problems.append(Diagnostic(.error, file: path, message: Self.unreadable(.link(path))))
      case .other where yaml:
        problems.append(
          Diagnostic(.error, file: path, message: WorkTree.Refusal.notAFile(path).message))
      case .badName:
        _ = record(path, entry, .scrum, &problems)
      default: continue
      }
    }
    paths.sort()
    // NB: "mid-1/..." sorts before "mid/...": folders are ordered as their paths' prefixes.
    folders.sort { ($0 + "/") < ($1 + "/") }
    let runs = Runs.split(folders.count, minimum: parallelFrom)
    let below = Runs.map(runs) { [self, folders] run in
      var found: (paths: [String], problems: [Diagnostic]) = ([], [])
      for folder in folders[run] {
        let (p, q) = walk(folder, parallelFrom: .max)
        found.paths += p
        found.problems += q
      }
      return found
    }
    for (p, q) in below {
      paths += p
      problems += q
    }
    return (paths, problems)
  }

  /// `name` ends in `suffix`, compared as bytes (String's `hasSuffix` weighs canonical
  /// equivalence, for every name of every folder).
  private static func hasSuffix(_ name: String, _ suffix: StaticString) -> Bool {
    let tail = UnsafeBufferPointer(start: suffix.utf8Start, count: suffix.utf8CodeUnitCount)
    return name.utf8.count >= tail.count && name.utf8.suffix(tail.count).elementsEqual(tail)
  }
}
