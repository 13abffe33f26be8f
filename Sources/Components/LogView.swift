import Foundation
import Models

/// `dinger log`: `2026-11-21 09:00  Ada Lovelace  scrums/design.yaml  length 10 -> 15 min`.
public struct LogView {
  /// The entries, newest first.
  public var entries: [ActivityEntry]
  /// The zone times are shown in.
  public var timeZone: TimeZone

  /// Creates a view.
  public init(entries: [ActivityEntry], timeZone: TimeZone = TimeZone(identifier: "UTC")!) {
    (self.entries, self.timeZone) = (entries, timeZone)
  }

  /// The text.
  public func render() -> String {
    guard !entries.isEmpty else { return "no changes\n" }
    let authorWidth = min(24, entries.map(\.author.count).max() ?? 0)
    return entries.map { e in
      let date = HistoryView.dateText(
        Date(timeIntervalSince1970: TimeInterval(e.time)), in: timeZone)
      return
        "\(e.commit.prefix(7))  \(date)  \(e.author.padding(toLength: authorWidth, withPad: " ", startingAt: 0))  \(e.path): \(e.summary)\n"
    }.joined()
  }
}
