import YAML

/// A value both sides changed differently (or one deleted while the other changed). The merge
/// kept one side's value in the data; the other is recorded so nothing is lost.
public struct FieldConflict: Sendable {
  /// What kind of disagreement.
  public enum Kind: String, Sendable, Codable {
    /// Both sides set a value, to different things.
    case edit
    /// One side removed what the other side changed; the changed value was kept.
    case delete
    /// Both sides moved the record's file, to different paths; `kept` and `other` are the
    /// paths, and the file is at `kept`.
    case rename
  }

  /// The field, by identity.
  public var path: FieldPath
  /// Edit or delete.
  public var kind: Kind
  /// The value now in the data; nil when that side's answer was "absent".
  public var kept: Node?
  /// The value not taken; nil when the other side deleted it.
  public var other: Node?
  /// Which side the kept value came from.
  public var keptSide: Side
}

/// The two sides of a merge: ours is the branch being merged into (the local one in `sync`,
/// `%A` for git's driver), theirs is the one merged in.
public enum Side: String, Sendable, Codable {
  case ours, theirs
}

/// Three-way merge of YAML node trees. Mappings merge key by key and lists item by item (matched
/// by `NodeIdentity`, so reordering and additions on both sides combine); a value changed on one
/// side only takes that side; changed on both to different values keeps ours and records theirs.
struct NodeMerge {
  private(set) var conflicts: [FieldConflict] = []

  mutating func merge(_ base: Node?, _ ours: Node, _ theirs: Node, at path: FieldPath) -> Node {
    if NodeWriter.same(ours, theirs) { return ours }
    if let base, NodeWriter.same(base, ours) { return theirs }
    if let base, NodeWriter.same(base, theirs) { return ours }
    switch (ours.value, theirs.value) {
    case (.mapping(let o, let style), .mapping(let t, _)):
      let b = base?.pairs.map { $0.map(Entry.init(pair:)) }
      let merged = mergeEntries(
        b, o.map(Entry.init(pair:)), t.map(Entry.init(pair:)), at: path, item: false)
      return Node(.mapping(merged.map { Node.Pair(key: $0.keyNode!, value: $0.value) }, style))
    case (.sequence(let o, let style), .sequence(let t, _)):
      let b = base?.items.map { $0.map(Entry.init(item:)) }
      let entries = (o.map(Entry.init(item:)), t.map(Entry.init(item:)))
      if Self.unique(entries.0), Self.unique(entries.1), b.map(Self.unique) ?? true {
        return Node(
          .sequence(mergeEntries(b, entries.0, entries.1, at: path, item: true).map(\.value), style)
        )
      }
    default:
      break
    }
    conflicts.append(
      FieldConflict(path: path, kind: .edit, kept: ours, other: theirs, keptSide: .ours))
    return ours
  }

  /// A mapping pair or list item under its identity.
  struct Entry {
    let key: String
    let keyNode: Node?
    let value: Node

    init(pair: Node.Pair) {
      key = pair.key.scalarText ?? NodeWriter.text(pair.key)
      keyNode = pair.key
      value = pair.value
    }

    init(item: Node) {
      key = NodeIdentity.of(item)
      keyNode = nil
      value = item
    }

    init(_ other: Entry, value: Node) {
      key = other.key
      keyNode = other.keyNode
      self.value = value
    }
  }

  private static func unique(_ entries: [Entry]) -> Bool {
    Set(entries.map(\.key)).count == entries.count
  }

  /// Ours' order; entries only theirs has go after their predecessor in theirs (and after any
  /// entries only ours added there), so additions on both sides both appear, in a stable order.
  private mutating func mergeEntries(
    _ base: [Entry]?, _ ours: [Entry], _ theirs: [Entry], at path: FieldPath, item: Bool
  ) -> [Entry] {
    let baseMap = Dictionary(base?.map { ($0.key, $0) } ?? [], uniquingKeysWith: { a, _ in a })
    let theirsMap = Dictionary(theirs.map { ($0.key, $0) }, uniquingKeysWith: { a, _ in a })
    let oursKeys = Set(ours.map(\.key))
    func step(_ key: String) -> FieldPath { path.appending(item ? .item(key) : .key(key)) }
    // An entry only one side has: that side added it (kept), or the other side deleted it and
    // this side left it alone (dropped), or changed it (kept, the deletion recorded).
    func keepsOneSided(_ e: Entry, _ side: Side) -> Bool {
      guard let b = baseMap[e.key] else { return true }
      if NodeWriter.same(b.value, e.value) { return false }
      conflicts.append(
        FieldConflict(path: step(e.key), kind: .delete, kept: e.value, other: nil, keptSide: side))
      return true
    }

    // Entries only theirs has, grouped under the nearest shared entry before them ("" = start).
    var inserted: [String: [Entry]] = [:]
    var anchor = ""
    for t in theirs {
      if oursKeys.contains(t.key) {
        anchor = t.key
        continue
      }
      if keepsOneSided(t, .theirs) { inserted[anchor, default: []].append(t) }
    }

    var out: [Entry] = []
    var pending = inserted[""] ?? []
    for o in ours {
      if let t = theirsMap[o.key] {
        out += pending
        pending = inserted[o.key] ?? []
        out.append(Entry(o, value: merge(baseMap[o.key]?.value, o.value, t.value, at: step(o.key))))
        continue
      }
      if keepsOneSided(o, .ours) { out.append(o) }
    }
    return out + pending
  }
}
