/// One record file changed by one commit, as `dinger log` shows it.
public struct ActivityEntry: Sendable, Equatable, Codable {
  /// The commit (hex).
  public var commit: String
  /// When (seconds since 1970).
  public var time: Int
  /// Who.
  public var author: String
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
    scrum: String?, change: String, summary: String
  ) {
    (self.commit, self.time, self.author, self.subject, self.path) = (
      commit, time, author, subject, path
    )
    (self.record, self.scrum, self.change, self.summary) = (record, scrum, change, summary)
  }
}
