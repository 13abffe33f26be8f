import Base
import FoundationEssentials

/// Dinger's records as RFC 4180 tables for spreadsheets (`dinger export csv`): one table per
/// kind, a header row, CRLF line ends, a field quoted when it holds a comma, a quote, CR or LF.
/// A list (attendees, speakers) is one field with an item per line; names are one line each,
/// so the list reads back exactly.
public enum CSVTables {
  /// The tables `export csv` writes.
  public enum Table: String, CaseIterable, Sendable {
    case scrums, meetings, entries
  }

  /// One scrum, its meetings and its written entries, with its file name.
  public struct Source: Sendable {
    public var slug: String
    public var scrum: Scrum
    public var meetings: [Meeting]
    public var entries: [StandupEntry]
    public init(slug: String, scrum: Scrum, meetings: [Meeting], entries: [StandupEntry]) {
      (self.slug, self.scrum, self.meetings, self.entries) = (slug, scrum, meetings, entries)
    }
  }

  /// The table; unless `raw`, a spreadsheet opens it safely: it starts with UTF-8's byte order
  /// mark (what makes Excel, and LibreOffice's import, read it as UTF-8 rather than garble every
  /// name that is not ASCII), and a cell that a spreadsheet would take for a formula is guarded
  /// (`guarded`).
  public static func render(_ table: Table, _ sources: [Source], raw: Bool = false) -> String {
    var out = raw ? "" : "\u{FEFF}"
    for row in rows(table, sources) {
      out += row.map { raw ? field($0) : field(guarded($0)) }.joined(separator: ",") + "\r\n"
    }
    return out
  }

  /// OWASP's rule for CSV injection: a cell that starts with `=`, `+`, `-`, `@`, a tab or a CR
  /// and is not a number gets a `'` before it, so that a spreadsheet shows it as text instead
  /// of running it (`=HYPERLINK(...)`, `+cmd|...`, `@SUM(...)`). `unguarded` undoes it.
  public static func guarded(_ text: String) -> String {
    guard let first = text.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first),
      Double(text) == nil
    else { return text }
    return "'" + text
  }

  /// A cell as it was before `guarded` (a cell of a table dinger wrote, read back).
  public static func unguarded(_ text: String) -> String {
    let scalars = Array(text.unicodeScalars.prefix(2))
    guard scalars.count == 2, scalars[0] == "'", "=+-@\t\r".unicodeScalars.contains(scalars[1])
    else { return text }
    return String(text.dropFirst())
  }

  static func rows(_ table: Table, _ sources: [Source]) -> [[String]] {
    var rows: [[String]]
    switch table {
    case .scrums:
      rows = [["id", "title", "file", "theme", "length_minutes", "attendees", "schedule"]]
      for s in sources {
        rows.append([
          s.scrum.id?.lowercased ?? "", s.scrum.title, s.slug, s.scrum.effectiveTheme.rawValue,
          String(s.scrum.length), s.scrum.attendees.map(\.name).joined(separator: "\n"),
          s.scrum.schedule?.plan?.summary ?? "",
        ])
      }
    case .meetings:
      rows = [
        [
          "id", "scrum_id", "scrum", "date", "length_minutes", "duration_seconds", "attendees",
          "speakers", "transcript", "imported",
        ]
      ]
      for s in sources {
        for m in s.meetings.sorted(by: { $0.date < $1.date }) {
          rows.append([
            m.id?.lowercased ?? "", m.scrum.lowercased, s.scrum.title, isoDate(m.date),
            m.length.map(String.init) ?? "", m.duration.map(String.init) ?? "",
            m.attendees.joined(separator: "\n"),
            m.speakers.map { "\($0.name)=\($0.seconds)" }.joined(separator: "\n"),
            m.transcript ?? "", m.imported ?? "",
          ])
        }
      }
    case .entries:
      rows = [["scrum_id", "scrum", "date", "by", "kind", "key", "text"]]
      for s in sources {
        for e in s.entries.sorted(by: { ($0.date, $0.by) < ($1.date, $1.by) }) {
          let front = [e.scrum.lowercased, s.scrum.title, e.date, e.by]
          for a in e.answers { rows.append(front + ["answer", a.key, a.text]) }
          for b in e.blockers { rows.append(front + ["blocker", b.id ?? "", b.text]) }
          for r in e.resolved { rows.append(front + ["resolved", r.id, r.note ?? ""]) }
        }
      }
    }
    return rows
  }

  /// A field as RFC 4180 writes it.
  public static func field(_ text: String) -> String {
    guard text.utf8.contains(where: { $0 == 44 || $0 == 34 || $0 == 13 || $0 == 10 }) else {
      return text
    }
    return "\"" + text.replacingText("\"", with: "\"\"") + "\""
  }

  /// `2026-11-21T09:00:00Z`.
  static func isoDate(_ date: Date) -> String {
    let s = Int64(date.timeIntervalSince1970.rounded(.down))
    let day = CivilDate(dayNumber: Int((s - ((s % 86400) + 86400) % 86400) / 86400))
    let t = ((s % 86400) + 86400) % 86400
    return "\(day)T"
      + String(cFormat: "%02d:%02d:%02dZ", Int(t / 3600), Int(t / 60 % 60), Int(t % 60))
  }
}
