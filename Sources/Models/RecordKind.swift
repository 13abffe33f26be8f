import Base
import FoundationEssentials
import Glibc

/// The kinds of file in a data repository.
public enum RecordKind: String, Sendable, Codable, CaseIterable {
  case scrum, meeting, library, quiz, config, standup

  /// How people call one of these in messages.
  public var noun: String {
    switch self {
    case .scrum: return "scrum"
    case .meeting: return "meeting"
    case .library: return "word library"
    case .quiz: return "quiz result"
    case .config: return "config"
    case .standup: return "stand-up entry"
    }
  }
}

extension UUID {
  /// The all-zero id: a placeholder while a record with a missing id field reports its error.
  public static let `nil` = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))

  /// The lowercase form record files use.
  public var lowercased: String { uuidString.lowercased() }
}
