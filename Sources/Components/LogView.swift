import Base
import FoundationEssentials
import Glibc
import Models

/// `dinger log`: `2026-11-21 09:00  Ada Lovelace  scrums/design.yaml  length 10 -> 15 min`.
public struct LogView {
  /// The entries, newest first.
  public var entries: [ActivityEntry]
  /// The zone times are shown in.
  public var timeZone: any WallClockZone

  /// What to call a record instead of its path (a scrum's title, a library's name).
  public var titles: [String: String]

  /// Creates a view.
  public init(
    entries: [ActivityEntry], timeZone: any WallClockZone = FixedZone.utc,
    titles: [String: String] = [:]
  ) {
    (self.entries, self.timeZone, self.titles) = (entries, timeZone, titles)
  }

  /// What an entry says happened: the summary, or the commit's own subject where the summary
  /// says only that the file changed ("edited word library" against "Spanish basics: add agua").
  public static func text(of e: ActivityEntry) -> String {
    let generic =
      ["edited ", "added ", "removed "].contains { e.summary.hasPrefix($0) }
      && !e.summary.contains(":")
    return generic && !e.subject.isEmpty && e.change == "M" ? e.subject : e.summary
  }

  /// `name: what happened`, the name left out when the subject already starts with it.
  func line(_ e: ActivityEntry) -> String {
    let name = name(of: e)
    let text = Self.text(of: e)
    return text.hasPrefix(name + ": ") ? text : "\(name): \(text)"
  }

  /// What an entry's record is called: its title or name when known, else its path.
  public func name(of e: ActivityEntry) -> String {
    // NB: a scrum or library as it was called then: a renamed title does not rewrite the past.
    if let title = e.title, !title.isEmpty { return title }
    if let title = titles[e.path] { return title }
    // Meetings and quiz results are named after their folder's scrum or library.
    if let slash = e.path.lastIndex(of: "/"), let title = titles[String(e.path[...slash])] {
      return title
    }
    return e.path
  }

  /// The text.
  public func render() -> String {
    guard !entries.isEmpty else { return "no changes\n" }
    let authorWidth = min(24, entries.map(\.author.count).max() ?? 0)
    return entries.map { e in
      let date = HistoryView.dateText(
        Date(timeIntervalSince1970: TimeInterval(e.time)), in: timeZone)
      return
        "\(e.commit.prefix(7))  \(date)  \(e.author.padded(to: authorWidth))  \(line(e))\n"
    }.joined()
  }
}
