/// One record file changed by one commit, as `dinger log` shows it.
public struct ActivityEntry: Sendable, Equatable, Codable {
  /// The commit (hex).
  public var commit: String
  /// When (seconds since 1970).
  public var time: Int
  /// Who (the author's name).
  public var author: String
  /// The author's email.
  public var email: String
  /// A scrum's title or a library's name as the file had it then (the log names records as
  /// they were called at the time, not by today's title).
  public var title: String?
  /// The commit's subject.
  public var subject: String
  /// The data-relative path.
  public var path: String
  /// The record's id, when the file has one.
  public var record: String?
  /// For meetings, their scrum's id.
  public var scrum: String?
  /// `A`dded, `M`odified or `D`eleted.
  public var change: String
  /// What happened, in words: "length 10 -> 15 min", "meeting recorded, 12 min".
  public var summary: String

  /// Creates an entry.
  public init(
    commit: String, time: Int, author: String, subject: String, path: String, record: String?,
    scrum: String?, change: String, summary: String, email: String = "", title: String? = nil
  ) {
    self.email = email
    self.title = title
    (self.commit, self.time, self.author, self.subject, self.path) = (
      commit, time, author, subject, path
    )
    (self.record, self.scrum, self.change, self.summary) = (record, scrum, change, summary)
  }
}

/// Which activity entries a log wants.
public enum ActivityFilter: Sendable, Equatable {
  /// Every entry.
  case all
  /// A scrum's own changes (by id, or by path for a file without one) and its meetings'.
  case scrum(id: String?, path: String)
  /// One record's changes, by id prefix (lowercase).
  case record(prefix: String)

  /// Whether `entry` is wanted.
  public func matches(_ entry: ActivityEntry) -> Bool {
    matches(path: entry.path, record: entry.record ?? "", scrum: entry.scrum ?? "")
  }

  /// Whether an entry with these fields ("" for none) is wanted.
  public func matches<S: StringProtocol>(path: S, record: S, scrum: S) -> Bool {
    switch self {
    case .all: return true
    case .scrum(let id, let own):
      if let id, !id.isEmpty, record == id || scrum == id { return true }
      return path == own
    case .record(let prefix): return !record.isEmpty && record.hasPrefix(prefix)
    }
  }
}
