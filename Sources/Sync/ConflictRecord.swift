import Base
import FoundationEssentials
import Glibc
import Models
import Storage
import YAML

/// A value a merge could not place in the data, kept in `.dinger/conflicts/<id8>.yaml` (committed
/// with the merge) until a person settles it with `dinger resolve`:
///
/// ```yaml
/// id: 1b2c3d4e-...
/// file: scrums/design-review.yaml
/// record: 6a4f0c1e-...
/// field: length
/// path: [length]
/// kind: edit                 # or delete: one side removed what the other changed
/// kept: 15                   # the value now in the data
/// kept_from: {side: ours, author: Ada Lovelace <ada@example.com>, commit: 4e1f...}
/// other: 20                  # the value not taken (null when that side deleted it)
/// other_from: {side: theirs, author: Grace Hopper <grace@example.com>, commit: 9ab2...}
/// recorded: 2026-11-21T09:00:00Z
/// ```
public struct ConflictRecord: Sendable {
  /// Who wrote a side's value, and in which commit.
  public struct Origin: Sendable, Equatable {
    public var side: Side
    public var author: String
    public var commit: String
  }

  public var id: UUID
  /// The record file, data-relative.
  public var file: String
  /// The record's id, when it has one.
  public var record: String?
  public var path: FieldPath
  public var kind: FieldConflict.Kind
  public var kept: Node?
  public var keptFrom: Origin
  public var other: Node?
  public var otherFrom: Origin
  public var recorded: Date

  /// The folder conflict records live in.
  public static let folder = ".dinger/conflicts"

  /// The first 8 hex digits of the id, as commands show it.
  public var shortID: String { String(id.uuidString.lowercased().prefix(8)) }

  /// Where this record is stored.
  public var storedPath: String { "\(Self.folder)/\(shortID).yaml" }

  /// The file text.
  public var text: String {
    func origin(_ o: Origin) -> Node {
      Node(
        .mapping(
          [
            pair("side", .scalar(o.side.rawValue)), pair("author", .scalar(o.author)),
            pair("commit", .scalar(o.commit)),
          ], .flow))
    }
    var pairs = [pair("id", .scalar(id.uuidString.lowercased())), pair("file", .scalar(file))]
    if let record { pairs.append(pair("record", .scalar(record))) }
    pairs += [
      pair("field", .scalar(path.description)),
      pair("path", Node(.sequence(path.stored.map { .scalar($0) }, .flow))),
      pair("kind", .scalar(kind.rawValue)),
      pair("kept", kept ?? .scalar("null")), pair("kept_from", origin(keptFrom)),
      pair("other", other ?? .scalar("null")), pair("other_from", origin(otherFrom)),
      pair("recorded", .scalar(ISODate.format(recorded))),
    ]
    return NodeWriter.text(Node(.mapping(pairs, .block)))
  }

  private func pair(_ key: String, _ value: Node) -> Node.Pair {
    Node.Pair(key: .scalar(key), value: value)
  }

  /// Creates a record.
  public init(
    id: UUID = UUID(), file: String, record: String?, conflict: FieldConflict, keptFrom: Origin,
    otherFrom: Origin, recorded: Date = Date()
  ) {
    self.id = id
    self.file = file
    self.record = record
    path = conflict.path
    kind = conflict.kind
    kept = conflict.kept
    other = conflict.other
    self.keptFrom = keptFrom
    self.otherFrom = otherFrom
    self.recorded = recorded
  }

  /// One segment of a stored path. Records written before item segments were quoted hold
  /// `- [text:hola]`, which YAML reads as a list: read back as the text it was.
  static func storedSegment(_ node: Node) -> String? {
    if let text = node.scalarText { return text }
    guard let items = node.items, items.allSatisfy({ $0.scalarText != nil }) else { return nil }
    return "[" + items.compactMap(\.scalarText).joined(separator: ", ") + "]"
  }

  /// What makes `text` not a conflict record dinger wrote (empty when it is one): `check`
  /// judges committed conflict records like any record, since `resolve` writes by them.
  public static func problems(_ text: String) -> [String] {
    guard let root = try? YAMLParser.parse(text), root.pairs != nil else {
      return ["this is not a YAML mapping, so not a conflict record"]
    }
    var out: [String] = []
    if root["id"]?.scalarText.flatMap(UUID.init(uuidString:)) == nil {
      out.append("'id' must be an id like 6a4f0c1e-3b7d-4e2a-9c1f-0d2b5e8a7c11")
    }
    let file = root["file"]?.scalarText ?? ""
    if RecordLayout.kind(ofPath: file) == nil || file.split(separator: "/").contains("..") {
      out.append("'file' must name a record file (scrums/NAME.yaml, history/..., libraries/...)")
    }
    if root["path"]?.items?.allSatisfy({ storedSegment($0) != nil }) != true {
      out.append("'path' must be a list of names")
    }
    if FieldConflict.Kind(rawValue: root["kind"]?.scalarText ?? "") == nil {
      out.append("'kind' must be edit, delete or rename")
    }
    for key in ["kept", "other"] where root[key] == nil { out.append("'\(key)' is missing") }
    for key in ["kept_from", "other_from"] {
      if Side(rawValue: root[key]?["side"]?.scalarText ?? "") == nil {
        out.append("'\(key).side' must be ours or theirs")
      }
    }
    if root["recorded"]?.scalarText.flatMap(ISODate.parse) == nil {
      out.append("'recorded' must be a date like 2026-11-21T09:00:00Z")
    }
    return out
  }

  /// Reads a stored record; nil when the file is not one.
  public init?(text: String) {
    guard let root = try? YAMLParser.parse(text), root.pairs != nil,
      let id = root["id"]?.scalarText.flatMap(UUID.init(uuidString:)),
      let file = root["file"]?.scalarText
    else { return nil }
    func origin(_ key: String) -> Origin {
      let n = root[key]
      return Origin(
        side: Side(rawValue: n?["side"]?.scalarText ?? "") ?? .ours,
        author: n?["author"]?.scalarText ?? "unknown", commit: n?["commit"]?.scalarText ?? "")
    }
    self.id = id
    self.file = file
    record = root["record"]?.scalarText
    path = FieldPath(stored: root["path"]?.items?.compactMap(Self.storedSegment) ?? [])
    kind = FieldConflict.Kind(rawValue: root["kind"]?.scalarText ?? "") ?? .edit
    kept = root["kept"].flatMap { $0.isNull ? nil : $0 }
    other = root["other"].flatMap { $0.isNull ? nil : $0 }
    keptFrom = origin("kept_from")
    otherFrom = origin("other_from")
    recorded = root["recorded"]?.scalarText.flatMap(ISODate.parse) ?? Date(timeIntervalSince1970: 0)
  }

  /// A one-line rendering of a value.
  public static func describe(_ node: Node?) -> String {
    guard let node else { return "(deleted)" }
    if let text = node.scalarText, text.isEmpty { return "(empty)" }
    let text = (node.scalarText ?? NodeWriter.text(node))
      .trimmed()
      .split(whereSeparator: \.isNewline).map { $0.trimmingSpaces() }
      .joined(separator: " ")
    return text.count > 60 ? String(text.prefix(57)) + "..." : text
  }
}
