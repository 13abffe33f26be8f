import Base
import FoundationEssentials
import Git
import Models

/// The title of each committed scrum file, remembered by its blob. `scrum new` and a title
/// change compare a title with every other scrum's under the writer lock; a blob's title never
/// changes, so each blob is read and decoded once in a clone's life instead of once per change
/// (1,000 scrums were 1,000 blobs inflated and scanned for each `scrum new`).
///
/// Kept beside the record cache (`.git/dinger/records-v1/scrum-titles-vN`, N the cache's version; never committed, not
/// kept with `DINGER_RECORD_CACHE=off`), with the same guards: no link followed, no file with
/// holes or past the cache's bound read. A line per blob: its id, a space, then `=` and the
/// trimmed title `%`-escaped (`%`, line ends), or `-` for a file that does not decode as a
/// scrum. A line that does not read so is skipped; only the blobs at the newest HEAD asked
/// about are written back, so it never grows past the scrums there are.
enum ScrumTitles {
  /// Named with the record cache's version: a blob's title is what this dinger's decoder makes
  /// of it, and a newer decoder must not take an older one's word for it.
  static let fileName = "scrum-titles-v\(CachedRecord.version)"

  /// The titles a memo file holds, by blob id (hex); nil for a file that did not decode.
  static func parse(_ bytes: [UInt8]) -> [String: String?] {
    var out: [String: String?] = [:]
    for line in bytes.split(separator: 10) {
      guard line.count >= 42, line[line.startIndex + 40] == 32 else { continue }
      let hex = String(decoding: line.prefix(40), as: UTF8.self)
      guard hex.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else {
        continue
      }
      let rest = line.dropFirst(41)
      switch rest.first {
      case UInt8(ascii: "-") where rest.count == 1: out.updateValue(nil, forKey: hex)
      case UInt8(ascii: "="):
        guard let title = unescape(String(decoding: rest.dropFirst(), as: UTF8.self)) else {
          continue
        }
        out.updateValue(title, forKey: hex)
      default: continue
      }
    }
    return out
  }

  /// The memo file for `titles` (sorted by blob, so it is the same for the same scrums).
  static func serialize(_ titles: [String: String?]) -> [UInt8] {
    var text = ""
    for (hex, title) in titles.sorted(by: { $0.key < $1.key }) {
      text += hex + " " + (title.map { "=" + escape($0) } ?? "-") + "\n"
    }
    return Array(text.utf8)
  }

  static func escape(_ title: String) -> String {
    var out = ""
    for scalar in title.unicodeScalars {
      switch scalar {
      case "%": out += "%25"
      case "\n": out += "%0A"
      case "\r": out += "%0D"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  static func unescape(_ text: String) -> String? {
    guard text.contains("%") else { return text }
    var out = ""
    var rest = Substring(text)
    while let percent = rest.firstIndex(of: "%") {
      out += rest[..<percent]
      let code = rest[percent...].dropFirst().prefix(2)
      switch code {
      case "25": out += "%"
      case "0A": out += "\n"
      case "0D": out += "\r"
      default: return nil
      }
      rest = rest[percent...].dropFirst(3)
    }
    return out + rest
  }
}

extension DataRepository {
  /// Each scrum file committed at `head`, by file name in order, with its trimmed title (nil
  /// when the file does not decode as a scrum): from the memo by blob, else read and decoded
  /// once and remembered.
  func committedScrumTitles(at head: ObjectID?) throws -> [(name: String, title: String?)] {
    guard let head else { return [] }
    let cache = RecordCache.of(gitDirectory: git.gitDirectory)
    let memo = cache.map { ScrumTitles.parse($0.file(named: ScrumTitles.fileName) ?? []) } ?? [:]
    var now: [String: String?] = [:]
    var out: [(name: String, title: String?)] = []
    for name in try git.names(in: "scrums", of: head).sorted() where name.hasSuffix(".yaml") {
      let path = "scrums/\(name)"
      guard let blob = try git.blobID(at: path, in: head) else { continue }
      let title: String?
      if let known = memo[blob.hex] {
        title = known
      } else {
        let file = RecordCodec.decode(try git.blob(blob), path: path, kind: .scrum)
        if case .scrum(let scrum)? = file.record {
          title = scrum.title.trimmingSpaces()
        } else {
          title = nil
        }
      }
      now.updateValue(title, forKey: blob.hex)
      out.append((name, title))
    }
    if let cache, now.count != memo.count || now.keys.contains(where: { memo[$0] == nil }) {
      cache.writeFile(named: ScrumTitles.fileName, ScrumTitles.serialize(now))
    }
    return out
  }
}
