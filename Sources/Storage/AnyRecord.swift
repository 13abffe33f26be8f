import Base
import FoundationEssentials
import Glibc
import Models
import Schedules

/// A decoded record of any kind.
public enum AnyRecord: Hashable, Sendable {
  case scrum(Scrum)
  case meeting(Meeting)
  case library(Library)
  case quiz(QuizResult)
  case config(RepoConfig)
  case standup(StandupEntry)

  /// Wraps a record value of any kind; nil for anything else.
  public init?(partial value: Any) {
    switch value {
    case let r as Scrum: self = .scrum(r)
    case let r as Meeting: self = .meeting(r)
    case let r as Library: self = .library(r)
    case let r as QuizResult: self = .quiz(r)
    case let r as RepoConfig: self = .config(r)
    case let r as StandupEntry: self = .standup(r)
    default: return nil
    }
  }

  /// The record's id, if it has one.
  public var id: UUID? {
    switch self {
    case .scrum(let r): return r.id
    case .meeting(let r): return r.id
    case .library(let r): return r.id
    case .quiz(let r): return r.id
    case .config, .standup: return nil
    }
  }

  /// The record's own validation rules (time zones against the system's zone data).
  public func validate() -> [ValidationIssue] {
    switch self {
    case .scrum(let r): return r.validate(zones: ZoneDatabase.system)
    case .meeting(let r): return r.validate()
    case .library(let r): return r.validate()
    case .quiz(let r): return r.validate()
    case .config(let r): return r.validate()
    case .standup(let r): return r.validate()
    }
  }
}
