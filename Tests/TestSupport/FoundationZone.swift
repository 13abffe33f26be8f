import Foundation
import Models

/// A `WallClockZone` answered by Foundation's `TimeZone` (ICU's data): what tests compare
/// dinger's own zone handling with. `dinger` itself links no ICU.
public struct FoundationZone: WallClockZone {
  public let zone: TimeZone

  /// The zone called `identifier` in ICU's data.
  public init(_ identifier: String) { zone = TimeZone(identifier: identifier)! }

  public var name: String { zone.identifier }

  public func offset(at utc: Int64) -> Int {
    zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(utc)))
  }

  public func abbreviation(at utc: Int64) -> String {
    zone.abbreviation(for: Date(timeIntervalSince1970: TimeInterval(utc))) ?? zone.identifier
  }

  /// The offset before a change applies to the hour it skips; a repeated hour is the first.
  public func utc(forLocal local: Int64) -> Int64 {
    let before = offset(at: local - 86_400)
    let after = offset(at: local + 86_400)
    let first = local - Int64(before)
    return offset(at: first) == before ? first : local - Int64(after)
  }
}
