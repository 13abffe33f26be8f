import Base
import FoundationEssentials
import Git
import Glibc
import Models
import Storage
import YAML

/// The conflict records of a data repository: listing them, and settling one as a commit.
public struct ConflictStore {
  let repository: DataRepository

  public init(_ repository: DataRepository) { self.repository = repository }

  /// How a conflict is settled.
  public enum Choice: Sendable, Equatable {
    /// Keep the value now in the data.
    case kept
    /// Take the other value (or apply the other side's deletion).
    case other
    /// Set this value (YAML: `15`, `Grace`, `[a, b]`).
    case value(String)
  }

  /// Every conflict record, oldest first; unreadable files are reported by path.
  public func all() -> (records: [ConflictRecord], unreadable: [String]) {
    let folder = repository.root.appendingPathComponent(ConflictRecord.folder)
    let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
      .filter { $0.hasSuffix(".yaml") }.sorted()
    var records: [ConflictRecord] = []
    var unreadable: [String] = []
    for name in names {
      let path = "\(ConflictRecord.folder)/\(name)"
      if let bytes = repository.read(path),
        let record = ConflictRecord(text: String(decoding: bytes, as: UTF8.self))
      {
        records.append(record)
      } else {
        unreadable.append(path)
      }
    }
    return (records.sorted { ($0.recorded, $0.file) < ($1.recorded, $1.file) }, unreadable)
  }

  /// How many conflict records there are (cheap: one directory listing).
  public static func count(in root: URL) -> Int {
    let folder = root.appendingPathComponent(ConflictRecord.folder)
    return ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
      .filter { $0.hasSuffix(".yaml") }.count
  }

  /// The record whose id starts with `prefix`.
  public func find(_ prefix: String) throws -> ConflictRecord {
    let records = all().records
    let p = prefix.lowercased()
    let matches = records.filter { $0.id.uuidString.lowercased().hasPrefix(p) }
    guard !p.isEmpty, matches.count == 1, let match = matches.first else {
      if matches.count > 1 {
        throw StorageError("'\(prefix)' matches \(matches.count) conflicts; give more of the id")
      }
      throw StorageError(
        records.isEmpty
          ? "there are no conflicts to resolve"
          : "no conflict has an id starting with '\(prefix)'; 'dinger conflicts' lists them")
    }
    return match
  }

  /// Settles a conflict: writes the chosen value into the record (validated like any edit) and
  /// removes the conflict record, in one commit.
  @discardableResult
  public func resolve(_ record: ConflictRecord, _ choice: Choice) throws -> ObjectID {
    var change = Change(
      subject: "",
      trailers: [
        ("Dinger-Action", "conflict.resolve"),
        ("Dinger-Conflict", record.id.uuidString.lowercased()),
      ])
    change.remove(record.storedPath)
    // NB: later syncs may have recorded the same field again; one decision settles them all,
    // so no stale record is left to undo it.
    let siblings = all().records.filter {
      $0.id != record.id && $0.file == record.file && $0.path == record.path
        && $0.record == record.record
    }
    // NB: worked out under the writer lock from the files as committed then, so a resolve
    // never writes back a record someone changed meanwhile, and one conflict is settled once.
    return try repository.commit { snapshot -> Change? in
      guard try snapshot.read(record.storedPath) != nil else {
        throw StorageError(
          "conflict \(record.shortID) was resolved meanwhile; 'dinger conflicts' lists those left")
      }
      // NB: the record may have moved since the conflict was written (a rename, a teammate's
      // git mv): the resolution goes where its id is now, never to a second file with one id.
      var record = record
      record.file = try Self.located(record, in: snapshot)
      var settled = try settled(record, choice, change, current: try snapshot.read(record.file))
      for sibling in siblings where try snapshot.read(sibling.storedPath) != nil {
        settled.remove(sibling.storedPath)
      }
      // A scrum (or library) removed by the resolution takes its meetings (or quiz results)
      // along, as `scrum rm --with-history` does: none is left naming a record that is gone.
      if record.path.segments.isEmpty, settled.removals.contains(record.file),
        let id = record.record
      {
        var taken = 0
        // NB: in every folder, not only the one named after the scrum: a teammate's `git mv`
        // of the scrum file leaves its meetings and entries where they were (seed 9403 left
        // them naming a scrum that was gone), as `scrum rm --with-history` finds them all.
        var folders: [String] = []
        for (folder, _) in Self.childFolders(of: record.file, movedTo: record.file) {
          let top = String(folder.prefix { $0 != "/" })
          folders += try snapshot.names(top).sorted().map { "\(top)/\($0)" }
        }
        for folder in folders {
          for name in try snapshot.names(folder).sorted() where name.hasSuffix(".yaml") {
            let path = "\(folder)/\(name)"
            guard let bytes = try snapshot.read(path) else { continue }
            let parent =
              ActivityIndex.unquotedField("scrum", in: bytes)
              ?? ActivityIndex.unquotedField("library", in: bytes)
              ?? (try? YAMLParser.parse(SourceText(bytes))).flatMap {
                ($0["scrum"] ?? $0["library"])?.scalarText
              }
            guard parent?.lowercased() == id.lowercased() else { continue }
            settled.remove(path)
            taken += 1
          }
        }
        if taken > 0 {
          settled.subject +=
            " (and its \(taken) \(record.file.hasPrefix("scrums/") ? "meeting" : "quiz result")\(taken == 1 ? "" : "s"))"
        }
      }
      // A scrum or library moved on resolve takes its meetings or quiz results along.
      if record.kind == .rename, choice == .other, let there = record.other?.scalarText {
        for (from, to) in Self.childFolders(of: record.file, movedTo: there) {
          for name in try snapshot.names(from).sorted() where name.hasSuffix(".yaml") {
            guard let bytes = try snapshot.read("\(from)/\(name)") else { continue }
            settled.writes["\(to)/\(name)"] = bytes
            settled.remove("\(from)/\(name)")
          }
        }
      }
      return settled
    }!
  }

  /// Where the conflicted record is now: its file when that still holds its id (or the conflict
  /// names no id), else the file of its kind that does. A file at the old path holding another
  /// record is never written over.
  static func located(_ record: ConflictRecord, in snapshot: Snapshot) throws -> String {
    // NB: a whole-record conflict recorded while one side's file was unreadable names no id;
    // the record it would write back still carries one (seed 9102: a second file with one id).
    let named =
      record.record
      ?? (record.path.segments.isEmpty
        ? (record.other?["id"] ?? record.kept?["id"])?.scalarText : nil)
    guard let id = named?.lowercased() else { return record.file }
    func holds(_ bytes: [UInt8]) -> Bool {
      if let node = try? YAMLParser.parse(SourceText(bytes)) {
        return node["id"]?.scalarText?.lowercased() == id
      }
      // NB: a file broken by hand still names its id on a top-level `id:` line.
      for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n")
      where line.hasPrefix("id:") {
        let value = line.dropFirst(3).filter { !" '\"\r".contains($0) }
        if value.lowercased() == id { return true }
      }
      return false
    }
    let old = try snapshot.read(record.file)
    if let old, holds(old) { return record.file }
    let folder = String(record.file.split(separator: "/").dropLast().joined(separator: "/"))
    for name in try snapshot.names(folder).sorted() where name.hasSuffix(".yaml") {
      let path = folder.isEmpty ? name : "\(folder)/\(name)"
      if path != record.file, let bytes = try snapshot.read(path), holds(bytes) { return path }
    }
    if old != nil, let node = try? YAMLParser.parse(SourceText(old!)), node["id"] != nil {
      throw StorageError(
        "\(record.file) now holds another record, and the one in conflict \(record.shortID) is nowhere; resolve it with --ours, or remove the conflict record by hand"
      )
    }
    return record.file
  }

  /// The change that settles a conflict, given the record's file as committed now.
  private func settled(
    _ record: ConflictRecord, _ choice: Choice, _ change: Change, current: [UInt8]?
  ) throws -> Change {
    var change = change
    if record.kind == .rename { return try settledMove(record, choice, change, current: current) }
    let chosen: Node?
    switch choice {
    case .kept:
      // NB: the value in the data now, which a later sync or edit may have changed since the
      // record was written: the message says what is kept, not what was.
      var now = record.kept
      if let current, let root = try? YAMLParser.parse(SourceText(current)) {
        now = NodeEditor.get(root, at: record.path.segments[...])
      }
      change.subject =
        "Resolve conflict in \(record.file) \(record.path): keep \(ConflictRecord.describe(now))"
      return change
    case .other:
      chosen = record.other
    case .value(let text):
      guard let node = try? YAMLParser.parse(text) else {
        throw StorageError("'\(text)' is not a YAML value; quote it, e.g. --value '\"\(text)\"'")
      }
      chosen = node
    }
    change.subject =
      "Resolve conflict in \(record.file) \(record.path): set \(ConflictRecord.describe(chosen))"
    if record.path.segments.isEmpty {
      if let chosen {
        change.write(record.file, NodeWriter.text(chosen))
      } else {
        change.remove(record.file)
      }
    } else {
      guard let current, let root = try? YAMLParser.parse(SourceText(current)) else {
        throw StorageError(
          "\(record.file) is missing or not YAML any more; fix it by hand, then 'dinger resolve \(record.shortID) --ours'"
        )
      }
      let updated = NodeEditor.set(root, at: record.path.segments[...], to: chosen)
      change.write(record.file, NodeWriter.text(updated))
    }
    if let text = change.writes[record.file], let kind = RecordLayout.kind(ofPath: record.file) {
      let decoded = RecordCodec.decode(text, path: record.file, kind: kind)
      guard let value = decoded.record else {
        let first = decoded.diagnostics.first.map { ": \($0.message)" } ?? ""
        throw StorageError("that value would make \(record.file) invalid\(first); nothing changed")
      }
      if let current, let written = try? RecordCodec.encode(value, updating: SourceText(current)) {
        change.writes[record.file] = Array(written.text.utf8)
      }
    }
    return change
  }
}

extension ConflictStore {
  /// The folder of meetings (or quiz results) that goes with a scrum (or library) moved from
  /// `here` to `there`.
  static func childFolders(of here: String, movedTo there: String) -> [(String, String)] {
    switch RecordLayout.kind(ofPath: here) {
    case .scrum?:
      // NB: its meetings and its written stand-up entries.
      return ["history/", "standups/"].map {
        ($0 + RecordLayout.slug(ofPath: here), $0 + RecordLayout.slug(ofPath: there))
      }
    case .library?:
      return [
        (
          "quizzes/" + RecordLayout.slug(ofPath: here),
          "quizzes/" + RecordLayout.slug(ofPath: there)
        )
      ]
    default: return []
    }
  }

  /// Settles a record moved to two places: `kept` leaves it where it is, `other` moves it (and,
  /// for a scrum or library, its meetings or quiz results) to the other side's path.
  fileprivate func settledMove(
    _ record: ConflictRecord, _ choice: Choice, _ change: Change, current: [UInt8]?
  ) throws -> Change {
    var change = change
    let here = record.kept?.scalarText ?? record.file
    switch choice {
    case .kept:
      change.subject = "Resolve conflict in \(record.file): keep it at \(here)"
      return change
    case .value:
      throw StorageError(
        "this conflict is about where \(record.file) lives; choose --ours (keep it at \(here)) or --theirs (move it to \(record.other?.scalarText ?? "the other path"))"
      )
    case .other:
      guard let there = record.other?.scalarText,
        RecordLayout.kind(ofPath: there) == RecordLayout.kind(ofPath: here),
        !there.split(separator: "/").contains("..")
      else {
        throw StorageError("the conflict record \(record.storedPath) names no path to move to")
      }
      guard let current else {
        throw StorageError(
          "\(here) is not there any more; 'dinger resolve \(record.shortID) --ours' drops the conflict"
        )
      }
      change.subject = "Resolve conflict in \(record.file): move it to \(there)"
      change.writes[there] = current
      change.remove(here)
      return change
    }
  }
}

/// Sets or removes the value at a path of identities in a node tree.
enum NodeEditor {
  /// The value at a path, or nil when there is none.
  static func get(_ node: Node, at path: ArraySlice<FieldPath.Segment>) -> Node? {
    guard let step = path.first else { return node }
    switch step {
    case .key(let key):
      return node.pairs?.first { $0.key.scalarText == key }.flatMap {
        get($0.value, at: path.dropFirst())
      }
    case .item(let identity):
      return node.items?.first { NodeIdentity.of($0) == identity }.flatMap {
        get($0, at: path.dropFirst())
      }
    }
  }

  static func set(_ node: Node, at path: ArraySlice<FieldPath.Segment>, to value: Node?) -> Node {
    guard let step = path.first else { return value ?? node }
    let rest = path.dropFirst()
    switch (step, node.value) {
    case (.key(let key), .mapping(var pairs, let style)):
      if let i = pairs.firstIndex(where: { $0.key.scalarText == key }) {
        if rest.isEmpty && value == nil {
          pairs.remove(at: i)
        } else {
          pairs[i].value = set(pairs[i].value, at: rest, to: value)
        }
      } else if rest.isEmpty, let value {
        pairs.append(Node.Pair(key: .scalar(key), value: value))
      }
      return Node(.mapping(pairs, style))
    case (.item(let identity), .sequence(var items, let style)):
      if let i = items.firstIndex(where: { NodeIdentity.of($0) == identity }) {
        if rest.isEmpty && value == nil {
          items.remove(at: i)
        } else {
          items[i] = set(items[i], at: rest, to: value)
        }
      } else if rest.isEmpty, let value {
        items.append(value)
      }
      return Node(.sequence(items, style))
    default:
      return node
    }
  }
}
