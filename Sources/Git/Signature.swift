import Base
import FoundationEssentials
import Glibc

/// Who made a commit, and when.
public struct Signature: Sendable, Equatable {
  /// `user.name`.
  public var name: String
  /// `user.email`.
  public var email: String
  /// When.
  public var date: Date
  /// Minutes east of UTC.
  public var offsetMinutes: Int

  /// Creates a signature.
  public init(name: String, email: String, date: Date, offsetMinutes: Int = 0) {
    self.name = name
    self.email = email
    self.date = date
    self.offsetMinutes = offsetMinutes
  }
}
