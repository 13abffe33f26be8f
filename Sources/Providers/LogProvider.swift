import Foundation
import Models
import Storage

/// The team's activity read from the commits (through the activity index).
public struct LogProvider: Sendable {
  /// What the log needs.
  public struct Dependencies: Sendable {
    /// Every record change, oldest first.
    public var entries: @Sendable () throws -> [ActivityEntry]

    /// Creates dependencies.
    public init(entries: @escaping @Sendable () throws -> [ActivityEntry]) {
      self.entries = entries
    }
  }

  /// The verbs.
  public let dependencies: Dependencies

  /// Wraps dependencies.
  public init(_ dependencies: Dependencies) { self.dependencies = dependencies }

  /// The log of a git-backed data repository.
  public static func live(repository: DataRepository) -> LogProvider {
    LogProvider(Dependencies { try ActivityIndex.entries(repository) })
  }

  /// A log of given entries.
  public static func inMemory(_ entries: [ActivityEntry]) -> LogProvider {
    LogProvider(Dependencies { entries })
  }

  /// Newest first; only a scrum's own changes and its meetings' when `scrum` is given, only a
  /// record's (by id prefix) when `record` is; at most `limit`; none before `since`.
  public func log(
    scrum: StoredScrum? = nil, record: String? = nil, limit: Int? = nil, since: Date? = nil
  )
    throws -> [ActivityEntry]
  {
    var out = try dependencies.entries().reversed().filter { entry in
      if let since, Double(entry.time) < since.timeIntervalSince1970 { return false }
      if let scrum {
        let id = scrum.scrum.id?.lowercased
        return (id != nil && (entry.record == id || entry.scrum == id)) || entry.path == scrum.path
      }
      if let record { return entry.record?.hasPrefix(record.lowercased()) == true }
      return true
    }
    if let limit { out = Array(out.prefix(limit)) }
    return out
  }
}
