import Base
import FoundationEssentials
import Glibc
import Models

/// Small pieces of HTML: escaping (every byte from the data goes through `esc`), dates, colours.
enum HTML {
  /// Text or an attribute value made inert: `&`, `<`, `>`, quotes escaped; control characters
  /// (a teammate's file may hold any) shown as U+FFFD.
  static func esc(_ s: String) -> String {
    var out = ""
    out.reserveCapacity(s.utf8.count)
    for u in s.unicodeScalars {
      switch u {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&#39;"
      case "\n", "\t": out.unicodeScalars.append(u)
      default:
        if u.value < 0x20 || u.value == 0x7F || (0x80...0x9F).contains(u.value) {
          out += "\u{FFFD}"
        } else {
          out.unicodeScalars.append(u)
        }
      }
    }
    return out
  }

  /// An id or file name part from a slug: only `[a-z0-9-_]`.
  static func anchor(_ s: String) -> String {
    String(
      s.lowercased().unicodeScalars.map {
        ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "_"
          ? Character($0) : "-"
      })
  }

  /// `2026-11-20`.
  static func day(_ d: Date) -> String { String(ISO8601.format(d).prefix(10)) }

  /// `#ee80d1`.
  static func hex(_ theme: Theme) -> String {
    let (r, g, b) = theme.rgb
    return "#"
      + [r, g, b].map { v in
        let n = Int((v * 255).rounded())
        return (n < 16 ? "0" : "") + String(n, radix: 16)
      }.joined()
  }

  /// `12 min 5 s`, `1 h 3 min`.
  static func duration(_ seconds: Int) -> String {
    if seconds >= 3600 { return "\(seconds / 3600) h \(seconds % 3600 / 60) min" }
    if seconds >= 60 {
      return "\(seconds / 60) min" + (seconds % 60 == 0 ? "" : " \(seconds % 60) s")
    }
    return "\(seconds) s"
  }

  /// `38%`.
  static func percent(_ share: Double) -> String {
    // NB: a share of nothing (0/0) from a teammate's odd file says so instead of trapping.
    guard share.isFinite, abs(share) < 1e12 else { return "-" }
    return "\(Int((share * 100).rounded()))%"
  }
}

/// ISO 8601 in UTC without Foundation's formatter (one per call was slow).
enum ISO8601 {
  static func format(_ d: Date) -> String {
    let t = Int(d.timeIntervalSince1970.rounded(.down))
    let day = t >= 0 ? t / 86_400 : (t - 86_399) / 86_400
    let s = t - day * 86_400
    return CivilDate(dayNumber: day).description + "T" + CivilDate.pad(s / 3600, 2) + ":"
      + CivilDate.pad(s % 3600 / 60, 2) + ":" + CivilDate.pad(s % 60, 2) + "Z"
  }
}
