import Base
import FoundationEssentials
import Glibc
import Synchronization

/// One node of a parsed YAML document: a scalar, a sequence or a mapping, with the exact source
/// range it came from and the style it was written in.
///
/// A node is a light view into its document's `NodeStore` (an arena of flat records): copying a
/// node copies two words, and an alias shares the subtree of its anchor instead of copying it.
public struct Node: Sendable {
  let store: NodeStore
  let index: Int32

  init(store: NodeStore, index: Int32) {
    self.store = store
    self.index = index
  }

  /// Builds a standalone node from a value (for nodes that did not come from a parser).
  public init(
    _ value: Value, range: SourceRange = .init(start: .start, end: .start), tag: String? = nil
  ) {
    var builder = NodeStore.Builder()
    let index = builder.append(value, range: range, tag: tag)
    self.init(store: builder.finish(), index: index)
  }

  /// The content of a node.
  public enum Value: Sendable, Equatable {
    /// A scalar's text (escapes resolved, folding applied) and how it was written.
    case scalar(String, ScalarStyle)
    /// The items of a sequence, in order.
    case sequence([Node], CollectionStyle)
    /// The key-value pairs of a mapping, in source order.
    case mapping([Pair], CollectionStyle)
  }

  /// A mapping entry.
  public struct Pair: Sendable, Equatable {
    /// The key node (a scalar in every Dinger file).
    public var key: Node
    /// The value node.
    public var value: Node

    /// Creates a pair.
    public init(key: Node, value: Node) {
      self.key = key
      self.value = value
    }
  }

  /// Creates a plain or quoted scalar node.
  public static func scalar(_ text: String, _ style: ScalarStyle = .plain) -> Node {
    Node(.scalar(text, style))
  }

  var record: NodeStore.Record { store.records[Int(index)] }

  /// What the node holds (built on demand; the accessors below are cheaper).
  public var value: Value {
    let r = record
    switch r.kind {
    case .scalar: return .scalar(store.string(r), r.scalarStyle)
    case .sequence: return .sequence(children.map { store.node($0) }, r.collectionStyle)
    case .mapping:
      let c = Array(children)
      return .mapping(
        stride(from: 0, to: c.count, by: 2).map {
          Pair(key: store.node(c[$0]), value: store.node(c[$0 + 1]))
        }, r.collectionStyle)
    }
  }

  /// Where the node is in the source; synthesized nodes have an empty range at the start.
  public var range: SourceRange { record.range }

  /// The explicit tag (`!!str`, `!custom`), if the source had one.
  public var tag: String? {
    let t = record.tag
    return t < 0 ? nil : store.tags[Int(t)]
  }

  var children: ArraySlice<Int32> {
    let r = record
    return store.children[Int(r.first)..<Int(r.first + r.count)]
  }
}

/// How a scalar was written.
public enum ScalarStyle: String, Sendable, Equatable, Codable {
  case plain, singleQuoted, doubleQuoted, literal, folded
}

/// How a collection was written.
public enum CollectionStyle: String, Sendable, Equatable, Codable {
  case block, flow
}

extension Node: Equatable {
  /// Nodes are equal when they hold equal values with equal tags, wherever they came from.
  public static func == (lhs: Node, rhs: Node) -> Bool {
    lhs.tag == rhs.tag && lhs.value == rhs.value
  }
}

extension Node {
  /// True for a scalar.
  public var isScalar: Bool { record.kind == .scalar }

  /// The scalar text, or nil for a collection.
  public var scalarText: String? {
    let r = record
    return r.kind == .scalar ? store.string(r) : nil
  }

  /// The pairs of a mapping, or nil.
  public var pairs: [Pair]? {
    if case .mapping(let pairs, _) = value { return pairs }
    return nil
  }

  /// The items of a sequence, or nil.
  public var items: [Node]? {
    guard record.kind == .sequence else { return nil }
    return children.map { store.node($0) }
  }

  /// Number of items of a sequence or pairs of a mapping; 0 for a scalar.
  public var count: Int {
    let r = record
    switch r.kind {
    case .scalar: return 0
    case .sequence: return Int(r.count)
    case .mapping: return Int(r.count) / 2
    }
  }

  /// The value for a scalar key of a mapping.
  public subscript(key: String) -> Node? {
    keyAndValue(key)?.value
  }

  /// The `i`th item of a sequence, without making the others.
  public func item(_ i: Int) -> Node? {
    let r = record
    guard r.kind == .sequence, i >= 0, i < Int(r.count) else { return nil }
    return store.node(store.children[Int(r.first) + i])
  }

  /// The key node and value node for a scalar key of a mapping.
  public func keyAndValue(_ key: String) -> (key: Node, value: Node)? {
    let r = record
    guard r.kind == .mapping else { return nil }
    var i = Int(r.first)
    let end = i + Int(r.count)
    while i < end {
      let k = store.children[i]
      let kr = store.records[Int(k)]
      if kr.kind == .scalar && store.equals(kr, key) {
        return (store.node(k), store.node(store.children[i + 1]))
      }
      i += 2
    }
    return nil
  }

  /// The value for a scalar key of a mapping (big mappings through an index made once).
  public func value(forKey key: String) -> Node? {
    store.value(of: key, inMapping: index).map { store.node($0) }
  }

  /// The arena index of the value for a scalar key, without making nodes on the way.
  func valueIndex(forKey key: String) -> Int32? {
    let r = record
    guard r.kind == .mapping else { return nil }
    var key = key
    return key.withUTF8 { k in
      let records = store.records
      let children = store.children
      var i = Int(r.first)
      let end = i + Int(r.count)
      while i < end {
        let kr = records[Int(children[i])]
        if kr.kind == .scalar && store.equals(kr, k) { return children[i + 1] }
        i += 2
      }
      return nil
    }
  }

  /// True for a plain, untagged scalar: only those are resolved by the core schema.
  public var isPlainUntagged: Bool {
    let r = record
    return r.kind == .scalar && r.scalarStyle == .plain && r.tag < 0
  }

  /// True when the node is `null`, `~`, `Null`, `NULL` or an empty plain value.
  public var isNull: Bool {
    let r = record
    guard r.kind == .scalar, r.scalarStyle == .plain else { return false }
    if r.tag >= 0 { return store.tags[Int(r.tag)] == "tag:yaml.org,2002:null" }
    return store.withBytes(r) { CoreSchema.isNull(bytes: $0) }
  }

  /// A short description for "found ..." in messages: the scalar quoted, or the collection kind.
  public var foundDescription: String {
    switch record.kind {
    case .scalar:
      if isNull { return "nothing" }
      let text = scalarText ?? ""
      let shown = text.count > 40 ? String(text.prefix(37)) + "..." : text
      return "\"" + shown.replacingNewlines() + "\""
    case .sequence: return "a list"
    case .mapping: return "a mapping"
    }
  }
}

/// The arena behind the nodes of one document: flat records, the bytes of all scalar texts, and
/// child indices. Texts become `String`s only when asked for: keys are compared as bytes and
/// numbers, ids and dates are parsed from bytes.
/// Immutable once built, so nodes share it freely across threads.
final class NodeStore: Sendable {
  enum Kind: UInt8 { case scalar, sequence, mapping }

  struct Record {
    var kind: Kind
    var style: UInt8
    /// Scalars: byte offset into `text`. Collections: first index into `children`.
    var first: Int32
    /// Scalars: byte length. Collections: number of entries in `children` (mappings hold key,
    /// value, key, value...).
    var count: Int32
    /// Index into `tags`, or -1.
    var tag: Int32
    // NB: positions as Int32s, not `Location`s: records half the size made building and key
    // lookups measurably faster. Files are limited far below 2 GiB.
    var startLine, startColumn, startOffset, endLine, endColumn, endOffset: Int32

    init(
      kind: Kind, style: UInt8, first: Int32, count: Int32, tag: Int32, range: SourceRange
    ) {
      self.kind = kind
      self.style = style
      self.first = first
      self.count = count
      self.tag = tag
      startLine = Int32(truncatingIfNeeded: range.start.line)
      startColumn = Int32(truncatingIfNeeded: range.start.column)
      startOffset = Int32(truncatingIfNeeded: range.start.offset)
      endLine = Int32(truncatingIfNeeded: range.end.line)
      endColumn = Int32(truncatingIfNeeded: range.end.column)
      endOffset = Int32(truncatingIfNeeded: range.end.offset)
    }

    var range: SourceRange {
      SourceRange(
        start: Location(line: Int(startLine), column: Int(startColumn), offset: Int(startOffset)),
        end: Location(line: Int(endLine), column: Int(endColumn), offset: Int(endOffset)))
    }

    var scalarStyle: ScalarStyle {
      switch style {
      case 1: return .singleQuoted
      case 2: return .doubleQuoted
      case 3: return .literal
      case 4: return .folded
      default: return .plain
      }
    }
    var collectionStyle: CollectionStyle { style == 1 ? .flow : .block }

    static func code(_ style: ScalarStyle) -> UInt8 {
      switch style {
      case .plain: return 0
      case .singleQuoted: return 1
      case .doubleQuoted: return 2
      case .literal: return 3
      case .folded: return 4
      }
    }
  }

  let records: [Record]
  let text: [UInt8]
  let children: [Int32]
  let tags: [String]
  /// The values of big mappings by key, made on the first look-up into each (see `value(of:)`).
  private let keyIndexes = Mutex<[Int32: [String: Int32]]>([:])

  init(records: [Record], text: [UInt8], children: [Int32], tags: [String]) {
    self.records = records
    self.text = text
    self.children = children
    self.tags = tags
  }

  func node(_ index: Int32) -> Node { Node(store: self, index: index) }

  /// The value of `key` in the mapping record `index`: for a mapping of more than 32 keys,
  /// through an index made once, so that findings about each of 50,000 `moved:` days are not
  /// 50,000 scans of them.
  func value(of key: String, inMapping index: Int32) -> Int32? {
    let r = records[Int(index)]
    guard r.kind == .mapping else { return nil }
    guard r.count > 64 else { return node(index).valueIndex(forKey: key) }
    return keyIndexes.withLock { indexes -> Int32? in
      if let made = indexes[index] { return made[key] }
      var made: [String: Int32] = [:]
      var i = Int(r.first)
      let end = i + Int(r.count)
      while i < end {
        let k = records[Int(children[i])]
        if k.kind == .scalar, made[string(k)] == nil { made[string(k)] = children[i + 1] }
        i += 2
      }
      indexes[index] = made
      return made[key]
    }
  }

  /// A scalar record's bytes.
  @inline(__always)
  func withBytes<R>(_ r: Record, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
    try text.withUnsafeBufferPointer { all in
      try body(UnsafeBufferPointer(rebasing: all[Int(r.first)..<Int(r.first + r.count)]))
    }
  }

  /// A scalar record's text.
  func string(_ r: Record) -> String {
    withBytes(r) { String(decoding: $0, as: UTF8.self) }
  }

  /// True when a scalar record's text is `key`.
  func equals(_ r: Record, _ key: String) -> Bool {
    var key = key
    return key.withUTF8 { equals(r, $0) }
  }

  /// True when a scalar record's bytes are `key`.
  @inline(__always)
  func equals(_ r: Record, _ key: UnsafeBufferPointer<UInt8>) -> Bool {
    guard Int(r.count) == key.count else { return false }
    guard let k = key.baseAddress, key.count > 0 else { return true }
    return withBytes(r) { memcmp($0.baseAddress!, k, key.count) == 0 }
  }

  /// Collects records while a document is parsed or built. Children of a collection are pushed
  /// on a shared pending stack and moved into `children` when the collection ends, so no
  /// collection allocates an array of its own.
  struct Builder {
    var records: [Record] = []
    var text: [UInt8] = []
    var children: [Int32] = []
    var tags: [String] = []
    var pending: [Int32] = []

    init() {
      records.reserveCapacity(64)
      text.reserveCapacity(1024)
      children.reserveCapacity(64)
      pending.reserveCapacity(32)
    }

    mutating func tagIndex(_ tag: String?) -> Int32 {
      guard let tag else { return -1 }
      tags.append(tag)
      return Int32(tags.count - 1)
    }

    mutating func scalar(
      _ bytes: UnsafeBufferPointer<UInt8>, style: ScalarStyle, range: SourceRange, tag: String?
    ) -> Int32 {
      let offset = text.count
      text.append(contentsOf: bytes)
      records.append(
        Record(
          kind: .scalar, style: Record.code(style), first: Int32(offset), count: Int32(bytes.count),
          tag: tagIndex(tag), range: range))
      return Int32(records.count - 1)
    }

    mutating func scalar(_ string: String, style: ScalarStyle, range: SourceRange, tag: String?)
      -> Int32
    {
      var string = string
      return string.withUTF8 { scalar($0, style: style, range: range, tag: tag) }
    }

    /// A scalar's bytes while building.
    func bytes(of index: Int32) -> ArraySlice<UInt8> {
      let r = records[Int(index)]
      return text[Int(r.first)..<Int(r.first + r.count)]
    }

    /// Ends a collection whose children are the last `count` pending entries.
    mutating func collection(
      mapping: Bool, flow: Bool, childCount: Int, range: SourceRange, tag: String?
    ) -> Int32 {
      let first = children.count
      children.append(contentsOf: pending[(pending.count - childCount)...])
      pending.removeLast(childCount)
      records.append(
        Record(
          kind: mapping ? .mapping : .sequence, style: flow ? 1 : 0, first: Int32(first),
          count: Int32(childCount), tag: tagIndex(tag), range: range))
      return Int32(records.count - 1)
    }

    /// Appends a whole value (for nodes built in code).
    mutating func append(_ value: Node.Value, range: SourceRange, tag: String?) -> Int32 {
      switch value {
      case .scalar(let text, let style):
        return scalar(text, style: style, range: range, tag: tag)
      case .sequence(let items, let style):
        for item in items { pending.append(copy(item)) }
        return collection(
          mapping: false, flow: style == .flow, childCount: items.count, range: range, tag: tag)
      case .mapping(let pairs, let style):
        for pair in pairs {
          pending.append(copy(pair.key))
          pending.append(copy(pair.value))
        }
        return collection(
          mapping: true, flow: style == .flow, childCount: pairs.count * 2, range: range, tag: tag)
      }
    }

    private mutating func copy(_ node: Node) -> Int32 {
      append(node.value, range: node.range, tag: node.tag)
    }

    func finish() -> NodeStore {
      NodeStore(records: records, text: text, children: children, tags: tags)
    }
  }
}

extension String {
  func replacingNewlines() -> String {
    var out = ""
    for ch in unicodeScalars {
      switch ch {
      case "\n": out += "\\n"
      case "\t": out += "\\t"
      case "\r": out += "\\r"
      default: out.unicodeScalars.append(ch)
      }
    }
    return out
  }
}
