import Base
import FoundationEssentials
import Glibc
import Models
import Storage

/// File names from titles.
public enum Slug {
  /// `Design Review!` -> `design-review`, `Café` -> `cafe`, `周会` -> `周会`: accents on Latin
  /// letters folded, the letters of other scripts kept (in NFC, so one title is the same bytes on
  /// every machine), anything else a dash; at most 60 characters and 180 bytes.
  public static func make(_ title: String) -> String {
    var out = ""
    var dash = false
    func add(_ piece: String) {
      if dash && !out.isEmpty { out += "-" }
      dash = false
      out += piece
    }
    for ch in title.lowercased() {
      let folded = String(ch).withoutMarks
      if !folded.isEmpty && folded.utf8.allSatisfy({ $0 < 0x80 }) {
        for scalar in folded.unicodeScalars {
          if scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
            add(String(scalar))
          } else {
            dash = true
          }
        }
      } else if ch.isLetter || ch.isNumber {
        add(String(ch).nfc)
      } else {
        dash = true
      }
    }
    // NB: a file name is at most 255 bytes; the slug leaves room for `-NN.yaml`.
    var kept = ""
    for ch in out.prefix(60) where kept.utf8.count + String(ch).utf8.count <= 180 {
      kept.append(ch)
    }
    while kept.hasSuffix("-") { kept.removeLast() }
    return kept
  }

  /// True for a slug `make` could give: lowercase ASCII letters, digits, dashes and the
  /// letters of other scripts, in NFC; 1 to 180 bytes, not starting with a dash.
  public static func isValid(_ slug: String) -> Bool {
    (1...180).contains(slug.utf8.count) && slug.first != "-" && slug.isNFC
      && slug.allSatisfy { ch in
        ch.isASCII
          ? (("a"..."z").contains(ch) || ("0"..."9").contains(ch) || ch == "-")
          : (ch.isLetter || ch.isNumber) && ch.lowercased() == String(ch)
      }
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
