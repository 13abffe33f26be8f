import Base
import FoundationEssentials
import Glibc
import Models
import Storage

/// The team's activity read from the commits (through the activity index).
public struct LogProvider: Sendable {
  /// What the log needs.
  public struct Dependencies: Sendable {
    /// The record changes a filter wants, oldest first; with a count, only that many of the
    /// newest (so `log -n 20` reads 20 lines of the index, not all of them).
    public var entries: @Sendable (ActivityFilter, Int?) throws -> [ActivityEntry]

    /// Creates dependencies.
    public init(entries: @escaping @Sendable (ActivityFilter, Int?) throws -> [ActivityEntry]) {
      self.entries = entries
    }
  }

  /// The verbs.
  public let dependencies: Dependencies

  /// Wraps dependencies.
  public init(_ dependencies: Dependencies) { self.dependencies = dependencies }

  /// The log of a git-backed data repository.
  public static func live(repository: DataRepository) -> LogProvider {
    LogProvider(
      Dependencies { filter, newest in
        try ActivityIndex.entries(repository, matching: filter, newest: newest)
      })
  }

  /// A log of given entries.
  public static func inMemory(_ entries: [ActivityEntry]) -> LogProvider {
    LogProvider(
      Dependencies { filter, newest in
        let all = entries.filter(filter.matches)
        return newest.map { Array(all.suffix($0)) } ?? all
      })
  }

  /// Newest first; only a scrum's own changes and its meetings' when `scrum` is given, only a
  /// record's (by id prefix) when `record` is; at most `limit`; none before `since`.
  public func log(
    scrum: StoredScrum? = nil, library: StoredLibrary? = nil, record: String? = nil,
    limit: Int? = nil, since: Date? = nil
  )
    throws -> [ActivityEntry]
  {
    let filter: ActivityFilter =
      if let scrum {
        .scrum(id: scrum.scrum.id?.lowercased, path: scrum.path)
      } else if let library {
        // A library's own changes and its quiz results (whose parent is the library).
        .scrum(id: library.library.id?.lowercased, path: library.path)
      } else if let record {
        .record(prefix: record.lowercased())
      } else {
        .all
      }
    // NB: without --since, the newest `limit` are all that is read.
    var out = try dependencies.entries(filter, since == nil ? limit : nil).reversed().filter {
      entry in
      guard let since else { return true }
      return Double(entry.time) >= since.timeIntervalSince1970
    }
    if let limit { out = Array(out.prefix(limit)) }
    return out
  }
}
