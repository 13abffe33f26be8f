import Base
import FoundationEssentials
import Glibc
import Models
import Storage

/// File names from titles.
public enum Slug {
  /// `Design Review!` -> `design-review`; accents folded, anything else a dash.
  public static func make(_ title: String) -> String {
    let folded = title.withoutMarks
      .lowercased()
    var out = ""
    for scalar in folded.unicodeScalars {
      if scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)) {
        out.unicodeScalars.append(scalar)
      } else if !out.isEmpty && !out.hasSuffix("-") {
        out += "-"
      }
    }
    while out.hasSuffix("-") { out.removeLast() }
    return String(out.prefix(60))
  }

  /// `folder/slug.yaml`, with `-2`, `-3` ... when the snapshot (committed or working tree)
  /// has that name already.
  public static func uniquePath(
    folder: String, title: String, in snapshot: Snapshot, fallback: String
  ) throws -> String {
    let taken = Set(try snapshot.names(folder).map { "\(folder)/\($0)" })
    return uniquePath(folder: folder, title: title, taken: taken, fallback: fallback)
  }

  /// `folder/slug.yaml`, with `-2`, `-3` ... when taken.
  public static func uniquePath(folder: String, title: String, taken: Set<String>, fallback: String)
    -> String
  {
    let base = make(title).isEmpty ? fallback : make(title)
    var candidate = "\(folder)/\(base).yaml"
    var n = 2
    while taken.contains(candidate) {
      candidate = "\(folder)/\(base)-\(n).yaml"
      n += 1
    }
    return candidate
  }
}
