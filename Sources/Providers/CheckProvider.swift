import Foundation
import Models
import Storage

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
        let (files, problems) = try directory.recordFiles()
        return DataChecker.check(files: files, problems: problems, only: only.map(Set.init))
      })
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
