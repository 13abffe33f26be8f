import Base
import FoundationEssentials
import Glibc
import Models
import Storage
import Sync

/// Validates the records of a data directory, for `dinger check`.
public struct CheckProvider: Sendable {
  /// What checking needs.
  public struct Dependencies: Sendable {
    /// Checks every record file, or, given data-relative paths, only those (the rest still serve
    /// as references for cross-file rules).
    public var check: @Sendable (_ only: [String]?) throws -> CheckReport

    /// Creates dependencies.
    public init(check: @escaping @Sendable (_ only: [String]?) throws -> CheckReport) {
      self.check = check
    }
  }

  /// The verbs.
  public let dependencies: Dependencies

  /// Wraps dependencies.
  public init(_ dependencies: Dependencies) { self.dependencies = dependencies }

  /// Checks a data directory on disk.
  public static func live(directory: DataDirectory) -> CheckProvider {
    CheckProvider(
      Dependencies { only in
        DataChecker.check(
          directory: directory, problems: conflictRecordProblems(directory),
          only: only.map(Set.init))
      })
  }

  /// One place `check PATH...` checks: a data directory's root, its provider, and the files
  /// asked for (nil: all of them).
  public struct Target: Sendable {
    public var root: URL
    public var provider: CheckProvider
    public var only: [String]?
  }

  /// The targets of `dinger check PATH...`: each folder as a data directory (the enclosing one
  /// when the folder is its top), each file with the others of its data directory.
  public static func targets(_ paths: [String]) throws -> [Target] {
    var result: [(DataDirectory, [String]?)] = []
    for path in paths {
      var isDir = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else {
        throw StorageError("'\(path)' does not exist")
      }
      let url = URL(fileURLWithPath: path)
      if isDir {
        // NB: a folder with none of the layout is a mistake (a CI step pointed at the wrong
        // folder must fail, not pass having checked nothing).
        let layout = [".dinger", "scrums", "history", "libraries", "quizzes"]
        guard
          layout.contains(where: {
            FileManager.default.fileExists(atPath: url.appendingPathComponent($0).path)
          })
        else {
          throw StorageError(
            "'\(path)' is not a dinger data directory: it has none of .dinger/, scrums/, history/, libraries/ or quizzes/; name a data repository's folder, or record files (e.g. \(path)/scrums/*.yaml)"
          )
        }
        result.append(
          (
            DataDirectory.enclosing(url).flatMap { $0.root == url.standardizedFileURL ? $0 : nil }
              ?? DataDirectory(root: url), nil
          ))
        continue
      }
      guard let directory = DataDirectory.holding(file: url),
        let relative = directory.relativePath(url), RecordLayout.kind(ofPath: relative) != nil
      else {
        throw StorageError(
          "can't tell what kind of record '\(path)' is; record files live in \(RecordLayout.folders) or .dinger/config.yaml"
        )
      }
      if let index = result.firstIndex(where: { $0.0.root == directory.root && $0.1 != nil }) {
        result[index].1?.append(relative)
      } else {
        result.append((directory, [relative]))
      }
    }
    return result.map { Target(root: $0.0.root, provider: live(directory: $0.0), only: $0.1) }
  }

  /// The target of a plain `dinger check`: the whole data directory.
  public static func target(_ directory: DataDirectory) -> Target {
    Target(root: directory.root, provider: live(directory: directory), only: nil)
  }

  /// Conflict records that are not what dinger writes (`resolve` writes by them).
  static func conflictRecordProblems(_ directory: DataDirectory) -> [Diagnostic] {
    let tree = WorkTree(root: directory.root)
    let folder = ConflictRecord.folder
    var out: [Diagnostic] = []
    var st = stat()
    if lstat(directory.root.appendingPathComponent(folder).path, &st) == 0,
      st.st_mode & S_IFMT == S_IFLNK
    {
      return [Diagnostic(.error, file: folder, message: WorkTree.Refusal.link(folder).message)]
    }
    let names =
      (try? FileManager.default.contentsOfDirectory(
        atPath: directory.root.appendingPathComponent(folder).path)) ?? []
    for name in names.sorted() where name.hasSuffix(".yaml") {
      let path = "\(folder)/\(name)"
      do {
        guard let bytes = try tree.read(path) else { continue }
        for problem in ConflictRecord.problems(String(decoding: bytes, as: UTF8.self)) {
          out.append(
            Diagnostic(
              .error, file: path,
              message:
                "\(problem); this conflict record is damaged: restore it from git history, or remove it (git rm \(path)) and settle the field by hand"
            ))
        }
      } catch {
        out.append(Diagnostic(.error, file: path, message: error.message))
      }
    }
    return out
  }

  /// Checks files held in memory: data-relative path to text.
  public static func inMemory(files: [String: String]) -> CheckProvider {
    CheckProvider(
      Dependencies { only in
        DataChecker.check(
          files: files.map { ($0.key, Array($0.value.utf8)) }, only: only.map(Set.init))
      })
  }

  /// Checks the whole directory, or only the given files.
  public func check(only: [String]? = nil) throws -> CheckReport {
    try dependencies.check(only)
  }
}
