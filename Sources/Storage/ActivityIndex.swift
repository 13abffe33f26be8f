import Foundation
import Git
import Models
import YAML

/// The record changes of the first-parent history, kept in `.git/dinger/activity-v1.tsv` so
/// that `dinger log` does not diff every commit each time (libgit2 has no fast path-limited log).
/// Never committed. Brought up to date from the last commit it knows; rebuilt when it is
/// missing, from another version, or its last commit is no longer in the history. Updates go
/// through a temporary file and a rename under a lock, so two processes never see half a file.
public enum ActivityIndex {
  static let version = "dinger-activity v1"

  /// Every entry, oldest first, after bringing the index up to date with HEAD.
  public static func entries(_ repository: DataRepository) throws -> [ActivityEntry] {
    let folder = repository.git.gitDirectory.appendingPathComponent("dinger")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let file = folder.appendingPathComponent("activity-v1.tsv")
    let lock = try WriterLock(at: folder, name: "activity.lock")
    defer { lock.release() }
    guard let head = try repository.head() else { return [] }
    var (known, entries) = read(file)
    if known == head.hex { return entries }
    // Walk back from HEAD to the last commit the index knows.
    var fresh: [ObjectID] = []
    var cursor: ObjectID? = head
    while let id = cursor, id.hex != known {
      fresh.append(id)
      cursor = try repository.commitInfo(id).parents.first
    }
    if cursor == nil && known != nil { entries = [] }  // history rewritten: start over
    for id in fresh.reversed() { entries += try describe(id, in: repository) }
    write(entries, head: head.hex, to: file)
    return entries
  }

  static func describe(_ id: ObjectID, in repository: DataRepository) throws -> [ActivityEntry] {
    let info = try repository.commitInfo(id)
    let subject = info.message.split(separator: "\n").first.map(String.init) ?? ""
    let action = TrailerParser.value("Dinger-Action", in: info.message)
    let parent = info.parents.first
    var out: [ActivityEntry] = []
    for path in try repository.changedPaths(id) {
      guard let kind = RecordLayout.kind(ofPath: path), kind != .config else { continue }
      let new = try repository.file(path, in: id)
      let old = try parent.flatMap { try repository.file(path, in: $0) }
      let change = new == nil ? "D" : old == nil ? "A" : "M"
      let text = String(decoding: new ?? old ?? [], as: UTF8.self)
      let summary = Self.summary(
        kind: kind, change: change, action: action, subject: subject, old: old, new: new)
      out.append(
        ActivityEntry(
          commit: id.hex, time: Int(info.author.date.timeIntervalSince1970),
          author: info.author.name,
          subject: subject, path: path, record: field("id", in: text),
          scrum: kind == .meeting ? field("scrum", in: text) : nil, change: change, summary: summary
        ))
    }
    return out
  }

  static func summary(
    kind: RecordKind, change: String, action: String?, subject: String, old: [UInt8]?, new: [UInt8]?
  ) -> String {
    // NB: a line scan, not a decode: the cold build reads every meeting ever recorded.
    if kind == .meeting, change == "A", let new,
      let seconds = field("duration", in: String(decoding: new, as: UTF8.self)).flatMap({ Int($0) })
    {
      return "meeting recorded, \((seconds + 30) / 60) min"
    }
    if kind == .scrum, change == "M", let old, let new,
      case .scrum(let a)? = RecordCodec.decode(old, path: "s.yaml", kind: .scrum).record,
      case .scrum(let b)? = RecordCodec.decode(new, path: "s.yaml", kind: .scrum).record
    {
      let parts = ScrumDiff.describe(from: a, to: b)
      if !parts.isEmpty { return parts.joined(separator: "; ") }
    }
    if action == "undo" { return subject }
    switch change {
    case "A": return "added \(kind.noun)"
    case "D": return "removed \(kind.noun)"
    default: return "edited \(kind.noun)"
    }
  }

  /// The value of a top-level `key: value` line, without reading the YAML.
  static func field(_ key: String, in text: String) -> String? {
    for line in text.split(separator: "\n") where line.hasPrefix(key + ":") {
      let value =
        line.dropFirst(key.count + 1).split(separator: "#").first?
        .trimmingCharacters(in: .whitespaces) ?? ""
      return value.isEmpty ? nil : value.lowercased()
    }
    return nil
  }

  static func read(_ file: URL) -> (head: String?, entries: [ActivityEntry]) {
    guard let text = try? String(contentsOf: file, encoding: .utf8) else { return (nil, []) }
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    guard let header = lines.first, header.hasPrefix(version + " ") else { return (nil, []) }
    let head = String(header.dropFirst(version.count + 1))
    lines.removeFirst()
    var entries: [ActivityEntry] = []
    for line in lines where !line.isEmpty {
      let f = line.split(separator: "\t", omittingEmptySubsequences: false).map {
        unescape(String($0))
      }
      guard f.count == 9, let time = Int(f[1]) else { return (nil, []) }
      entries.append(
        ActivityEntry(
          commit: f[0], time: time, author: f[2], subject: f[3], path: f[4],
          record: f[5].isEmpty ? nil : f[5], scrum: f[6].isEmpty ? nil : f[6], change: f[7],
          summary: f[8]))
    }
    return (head, entries)
  }

  static func write(_ entries: [ActivityEntry], head: String, to file: URL) {
    var text = version + " " + head + "\n"
    for e in entries {
      text +=
        [
          e.commit, String(e.time), e.author, e.subject, e.path, e.record ?? "", e.scrum ?? "",
          e.change, e.summary,
        ]
        .map(escape).joined(separator: "\t") + "\n"
    }
    let temp = file.deletingLastPathComponent().appendingPathComponent(".activity-\(getpid()).tmp")
    if (try? text.write(to: temp, atomically: false, encoding: .utf8)) != nil {
      rename(temp.path, file.path)
    }
  }

  static func escape(_ s: String) -> String {
    s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\t", with: "\\t")
      .replacingOccurrences(of: "\n", with: "\\n")
  }

  static func unescape(_ s: String) -> String {
    guard s.contains("\\") else { return s }
    var out = ""
    var escaping = false
    for c in s {
      if escaping {
        out.append(c == "t" ? "\t" : c == "n" ? "\n" : c)
        escaping = false
      } else if c == "\\" {
        escaping = true
      } else {
        out.append(c)
      }
    }
    return out
  }
}
