import Base
import FoundationEssentials
import Glibc

/// Decodes `Decodable` values from parsed YAML nodes.
///
/// Plain untagged scalars follow the YAML 1.2 core schema where the type asks for a number,
/// boolean or null; a `String` reads any scalar as its text, so `no`, `1.0` and `2026-01-01` stay
/// text. Every error is a `YAMLError` with the location of the offending node and its key path.
public struct YAMLDecoder: Sendable {
  /// Values passed to `Decoder.userInfo`.
  public var userInfo: [CodingUserInfoKey: any Sendable] = [:] {
    didSet { context = Context(userInfo) }
  }
  /// What every decoder of one decode shares, built once per change of `userInfo` rather than
  /// once per file.
  private var context = Context([:])

  final class Context: @unchecked Sendable {
    // NB: immutable after init; `Any` values came in as `any Sendable`.
    let userInfo: [CodingUserInfoKey: Any]

    init(_ userInfo: [CodingUserInfoKey: any Sendable]) {
      var info: [CodingUserInfoKey: Any] = userInfo
      info[YAMLDecoder.mappingKeyCount] = YAMLDecoder.keyCount
      self.userInfo = info
    }
  }
  /// Where the decoder puts a function `@Sendable (any Decoder) -> Int?` that tells how many keys
  /// the mapping a decoder is at holds; records use it to skip looking for unknown keys. The raw
  /// value and the function type are a convention shared with the record models, which cannot
  /// import this module.
  public static let mappingKeyCount = CodingUserInfoKey(rawValue: "dinger.mappingKeyCount")!

  /// The function stored under `mappingKeyCount`.
  static let keyCount: @Sendable (any Decoder) -> Int? = { decoder in
    guard let d = decoder as? NodeDecoder, d.node.record.kind == .mapping else { return nil }
    return d.node.count
  }

  /// Limits used when decoding from bytes.
  public var limits: YAMLLimits = .default

  /// Creates a decoder.
  public init() {}

  /// Decodes a value from a node.
  public func decode<T: Decodable>(_ type: T.Type, from node: Node) throws -> T {
    let decoder = NodeDecoder(root: node, context: context)
    do {
      return try decoder.decodeValue(T.self)
    } catch let error as DecodingError {
      throw YAMLDecoder.locate(error, in: node)
    }
  }

  /// Parses a single-document file and decodes it; an empty file decodes from an empty mapping.
  public func decode<T: Decodable>(_ type: T.Type, from source: SourceText) throws -> T {
    let node = try YAMLParser.parse(source, limits: limits) ?? Node(.mapping([], .block))
    return try decode(type, from: node)
  }

  /// Gives a `DecodingError` thrown by a type's own `init(from:)` the location of the node its
  /// coding path leads to.
  public static func locate(_ error: DecodingError, in root: Node) -> YAMLError {
    let context: DecodingError.Context
    var message: String
    switch error {
    case .typeMismatch(let type, let c):
      context = c
      message = c.debugDescription.isEmpty ? "expected \(type)" : c.debugDescription
    case .valueNotFound(let type, let c):
      context = c
      message = c.debugDescription.isEmpty ? "expected \(type)" : c.debugDescription
    case .keyNotFound(let key, let c):
      let node = root.lookup(c.codingPath) ?? root
      return YAMLError(
        .schema, "missing required key '\(key.stringValue)'", at: node.range.start,
        path: keyPath(c.codingPath + [key]))
    case .dataCorrupted(let c):
      context = c
      message = c.debugDescription
    @unknown default:
      return YAMLError(.schema, "\(error)", at: root.range.start)
    }
    if let underlying = context.underlyingError as? YAMLError { return underlying }
    let node = root.lookup(context.codingPath) ?? root
    let path = keyPath(context.codingPath)
    if message.isEmpty { message = "invalid value at '\(path)'" }
    return YAMLError(.schema, message, at: node.range.start, path: path)
  }

  /// `attendees[2].name` for a coding path.
  public static func keyPath(_ path: [any CodingKey]) -> String {
    var out = ""
    for key in path {
      if let i = key.intValue, key.stringValue.hasPrefix("Index ") || key.stringValue == "\(i)" {
        out += "[\(i)]"
      } else {
        if !out.isEmpty { out += "." }
        out += key.stringValue
      }
    }
    return out
  }
}

extension Node {
  /// The node a coding path leads to, or nil when the path leaves the document.
  public func lookup(_ path: [any CodingKey]) -> Node? {
    var node = self
    for key in path {
      switch node.record.kind {
      case .mapping:
        guard let next = node[key.stringValue] else { return nil }
        node = next
      case .sequence:
        guard let i = key.intValue, i >= 0, i < node.count else { return nil }
        node = node.store.node(node.children[node.children.startIndex + i])
      case .scalar:
        return nil
      }
    }
    return node
  }
}

/// A coding key for list indexes and arbitrary mapping keys.
// NB: an index key makes its text only when asked: formatting "Index 3" for every list item
// showed in decode profiles.
struct AnyKey: CodingKey {
  private let name: String?
  let intValue: Int?
  init(stringValue: String) {
    name = stringValue
    intValue = nil
  }
  init(intValue: Int) {
    name = nil
    self.intValue = intValue
  }
  var stringValue: String { name ?? "Index \(intValue ?? 0)" }
}

final class NodeDecoder: Decoder {
  let node: Node
  private let baseUserInfo: [CodingUserInfoKey: Any]
  // NB: the coding path is kept as a parent link and built only when asked for (errors, custom
  // inits); building an array for every field decoded was a large share of decode time.
  private let parent: NodeDecoder?
  private let key: (any CodingKey)?

  init(root node: Node, context: YAMLDecoder.Context) {
    self.node = node
    self.baseUserInfo = context.userInfo
    self.parent = nil
    self.key = nil
  }

  private init(node: Node, parent: NodeDecoder, key: any CodingKey) {
    self.node = node
    self.baseUserInfo = parent.baseUserInfo
    self.parent = parent
    self.key = key
  }

  var userInfo: [CodingUserInfoKey: Any] { baseUserInfo }

  var codingPath: [any CodingKey] {
    var path: [any CodingKey] = []
    var current: NodeDecoder? = self
    while let d = current, let key = d.key {
      path.append(key)
      current = d.parent
    }
    return path.reversed()
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    guard node.record.kind == .mapping else {
      if node.isNull { return KeyedDecodingContainer(KeyedNodeContainer(self)) }
      throw mismatch("a mapping of keys and values")
    }
    return KeyedDecodingContainer(KeyedNodeContainer(self))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    guard node.record.kind == .sequence else {
      if node.isNull { return UnkeyedNodeContainer(self) }
      throw mismatch("a list")
    }
    return UnkeyedNodeContainer(self)
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

  // MARK: Errors

  var pathString: String { YAMLDecoder.keyPath(codingPath) }

  var subject: String {
    guard let last = codingPath.last else { return "the document" }
    if last.intValue != nil && last.stringValue.hasPrefix("Index ") {
      return "item \(last.intValue! + 1) of '\(YAMLDecoder.keyPath(codingPath.dropLast()))'"
    }
    return "'\(last.stringValue)'"
  }

  func mismatch(_ expected: String) -> YAMLError {
    YAMLError(
      .schema, "\(subject) must be \(expected), found \(node.foundDescription)",
      at: node.range.start, path: pathString)
  }

  // MARK: Scalars

  func scalar(_ expected: String) throws -> (String, ScalarStyle) {
    let r = node.record
    guard r.kind == .scalar else { throw mismatch(expected) }
    return (node.store.string(r), r.scalarStyle)
  }

  /// Text of a scalar that the core schema resolves: plain and untagged, or tagged explicitly.
  func resolvable(_ expected: String, as kinds: [String]) throws -> String {
    let r = node.record
    guard r.kind == .scalar, Self.resolves(r, node.store, as: kinds) else {
      throw mismatch(expected)
    }
    return node.store.string(r)
  }

  /// Whether a scalar may be read as one of the core schema's `kinds` (`int`, `float`,
  /// `bool`): a plain scalar without a tag may, and one whose tag names one of them
  /// (`!!int 5`). A quoted one, or one tagged otherwise (`!!str 5` is text), may not.
  @inline(__always)
  static func resolves(_ r: NodeStore.Record, _ store: NodeStore, as kinds: [String]) -> Bool {
    if r.tag < 0 { return r.style == 0 }
    let tag = store.tags[Int(r.tag)]
    return kinds.contains { tag == "tag:yaml.org,2002:" + $0 }
  }

  func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
    if Self.isLeaf(T.self) {
      return try Self.leaf(T.self, node) { throw mismatch($0) }
    }
    if T.self == URL.self {
      let (text, _) = try scalar("a URL")
      guard let url = URL(string: text), url.scheme != nil else { throw mismatch("a URL") }
      return url as! T
    }
    return try T(from: self)
  }

  /// True for the types `leaf` decodes.
  @inline(__always)
  static func isLeaf<T>(_ type: T.Type) -> Bool {
    T.self == String.self || T.self == Int.self || T.self == UUID.self || T.self == Date.self
      || T.self == Bool.self || T.self == Double.self
  }

  /// Decodes strings, numbers, booleans, ids and dates straight from a node, without making a
  /// decoder for them; `fail` (given what was expected) throws when the value does not fit, and
  /// only then is a decoder made for the error's path. Call only when `isLeaf(T.self)`.
  // NB: same-type bit casts, no generic wrapper types: a dynamic cast, a generic enum's
  // metadata and a decoder object per field were each a large share of decode time.
  static func leaf<T>(_ type: T.Type, _ node: Node, fail: (String) throws -> Never) throws -> T {
    let r = node.record
    let store = node.store
    let isScalar = r.kind == .scalar
    if T.self == String.self {
      if !isScalar { try fail("text") }
      return unsafeBitCast(store.string(r), to: T.self)
    }
    if T.self == Int.self {
      guard isScalar, resolves(r, store, as: ["int"]),
        let i = store.withBytes(r, CoreSchema.int(bytes:))
      else {
        try fail("a whole number")
      }
      return unsafeBitCast(i, to: T.self)
    }
    if T.self == UUID.self {
      guard isScalar, let id = store.withBytes(r, FastUUID.parse(bytes:)) else {
        try fail("an id like 6a4f0c1e-3b7d-4e2a-9c1f-0d2b5e8a7c11")
      }
      return unsafeBitCast(id, to: T.self)
    }
    if T.self == Date.self {
      guard isScalar, let date = store.withBytes(r, ISODate.parse(bytes:)) else {
        try fail("a date and time like 2026-11-21T09:00:00Z")
      }
      return unsafeBitCast(date, to: T.self)
    }
    if T.self == Bool.self {
      guard isScalar, resolves(r, store, as: ["bool"]),
        let b = store.withBytes(r, CoreSchema.bool(bytes:))
      else {
        try fail("true or false")
      }
      return unsafeBitCast(b, to: T.self)
    }
    let text = isScalar ? store.string(r) : ""
    guard isScalar, resolves(r, store, as: ["int", "float"]),
      let d = CoreSchema.int(text).map(Double.init) ?? CoreSchema.float(text)
    else { try fail("a number") }
    return unsafeBitCast(d, to: T.self)
  }

  func child(_ node: Node, _ key: any CodingKey) -> NodeDecoder {
    NodeDecoder(node: node, parent: self, key: key)
  }
}

extension NodeDecoder: SingleValueDecodingContainer {
  func decodeNil() -> Bool { node.isNull }

  func decode(_ type: Bool.Type) throws -> Bool {
    guard let b = CoreSchema.bool(try resolvable("true or false", as: ["bool"])) else {
      throw mismatch("true or false")
    }
    return b
  }

  func decode(_ type: String.Type) throws -> String {
    try scalar("text").0
  }

  func decode(_ type: Double.Type) throws -> Double {
    let text = try resolvable("a number", as: ["int", "float"])
    if let i = CoreSchema.int(text) { return Double(i) }
    guard let d = CoreSchema.float(text) else { throw mismatch("a number") }
    return d
  }

  func decode(_ type: Float.Type) throws -> Float { Float(try decode(Double.self)) }

  func decode(_ type: Int.Type) throws -> Int {
    let text = try resolvable("a whole number", as: ["int"])
    guard let i = CoreSchema.int(text) else { throw mismatch("a whole number") }
    return i
  }

  func decode<T: FixedWidthInteger & Decodable>(integer: T.Type) throws -> T {
    let i = try decode(Int.self)
    guard let v = T(exactly: i) else { throw mismatch("a whole number from \(T.min) to \(T.max)") }
    return v
  }

  func decode(_ type: Int8.Type) throws -> Int8 { try decode(integer: type) }
  func decode(_ type: Int16.Type) throws -> Int16 { try decode(integer: type) }
  func decode(_ type: Int32.Type) throws -> Int32 { try decode(integer: type) }
  func decode(_ type: Int64.Type) throws -> Int64 { try decode(integer: type) }
  func decode(_ type: UInt.Type) throws -> UInt { try decode(integer: type) }
  func decode(_ type: UInt8.Type) throws -> UInt8 { try decode(integer: type) }
  func decode(_ type: UInt16.Type) throws -> UInt16 { try decode(integer: type) }
  func decode(_ type: UInt32.Type) throws -> UInt32 { try decode(integer: type) }
  func decode(_ type: UInt64.Type) throws -> UInt64 { try decode(integer: type) }

  func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeValue(type) }
}

// NB: one reference only: the standard library's box copies the container on every call.
struct KeyedNodeContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let decoder: NodeDecoder

  init(_ decoder: NodeDecoder) { self.decoder = decoder }

  /// The mapping, or nil when the node is null (an empty container).
  var mapping: Node? { decoder.node.record.kind == .mapping ? decoder.node : nil }

  var codingPath: [any CodingKey] { decoder.codingPath }

  var allKeys: [Key] {
    guard let mapping else { return [] }
    var keys: [Key] = []
    keys.reserveCapacity(mapping.count)
    let c = mapping.children
    var i = c.startIndex
    while i < c.endIndex {
      if let text = mapping.store.node(c[i]).scalarText, let key = Key(stringValue: text) {
        keys.append(key)
      }
      i += 2
    }
    return keys
  }

  func find(_ key: Key) -> Node? {
    let node = decoder.node
    // NB: a big mapping (50,000 `moved:` days) is looked up through an index made once.
    guard let i = node.store.value(of: key.stringValue, inMapping: node.index) else { return nil }
    return node.store.node(i)
  }

  func contains(_ key: Key) -> Bool { find(key) != nil }

  func child(_ key: Key) throws -> NodeDecoder {
    guard let node = find(key) else {
      throw YAMLError(
        .schema, "missing required key '\(key.stringValue)'",
        at: decoder.node.range.start, path: YAMLDecoder.keyPath(decoder.codingPath + [key]))
    }
    return decoder.child(node, key)
  }

  func decodeNil(forKey key: Key) throws -> Bool { find(key)?.isNull ?? true }

  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    guard let node = find(key) else { return try child(key).decodeValue(type) }
    return try value(type, node, key)
  }

  func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
    guard let node = find(key), !node.isNull else { return nil }
    return try value(type, node, key)
  }

  // Non-generic overloads: callers that know the type statically reach these without the
  // generic witness.
  func decode(_ type: String.Type, forKey key: Key) throws -> String { try leafValue(key) }
  func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try leafValue(key) }
  func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try leafValue(key) }
  func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try leafValue(key) }
  func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
    try leafValueIfPresent(key)
  }
  func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
    try leafValueIfPresent(key)
  }
  func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
    try leafValueIfPresent(key)
  }
  func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
    try leafValueIfPresent(key)
  }

  @inline(__always)
  private func leafValue<T: Decodable>(_ key: Key) throws -> T {
    guard let node = find(key) else { return try child(key).decodeValue(T.self) }
    return try NodeDecoder.leaf(T.self, node) { throw decoder.child(node, key).mismatch($0) }
  }

  @inline(__always)
  private func leafValueIfPresent<T: Decodable>(_ key: Key) throws -> T? {
    guard let node = find(key), !node.isNull else { return nil }
    return try NodeDecoder.leaf(T.self, node) { throw decoder.child(node, key).mismatch($0) }
  }

  private func value<T: Decodable>(_ type: T.Type, _ node: Node, _ key: Key) throws -> T {
    if NodeDecoder.isLeaf(T.self) {
      return try NodeDecoder.leaf(T.self, node) { throw decoder.child(node, key).mismatch($0) }
    }
    return try decoder.child(node, key).decodeValue(type)
  }

  func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type, forKey key: Key
  ) throws -> KeyedDecodingContainer<NestedKey> {
    try child(key).container(keyedBy: type)
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    try child(key).unkeyedContainer()
  }

  func superDecoder() throws -> any Decoder { decoder }

  func superDecoder(forKey key: Key) throws -> any Decoder { try child(key) }
}

// NB: kept to two words so that `any UnkeyedDecodingContainer` holds it inline instead of in a
// heap box; the items are read from the decoder's node.
struct UnkeyedNodeContainer: UnkeyedDecodingContainer {
  let decoder: NodeDecoder
  var currentIndex = 0

  init(_ decoder: NodeDecoder) { self.decoder = decoder }

  var itemCount: Int { decoder.node.record.kind == .sequence ? decoder.node.count : 0 }

  func item(_ i: Int) -> Node {
    let store = decoder.node.store
    return store.node(store.children[Int(decoder.node.record.first) + i])
  }

  var codingPath: [any CodingKey] { decoder.codingPath }
  var count: Int? { itemCount }
  var isAtEnd: Bool { currentIndex >= itemCount }

  mutating func next() throws -> NodeDecoder {
    guard !isAtEnd else {
      throw YAMLError(
        .schema, "'\(decoder.pathString)' has too few items", at: decoder.node.range.end,
        path: decoder.pathString)
    }
    defer { currentIndex += 1 }
    return decoder.child(item(currentIndex), AnyKey(intValue: currentIndex))
  }

  mutating func decodeNil() throws -> Bool {
    guard !isAtEnd, item(currentIndex).isNull else { return false }
    currentIndex += 1
    return true
  }

  mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
    guard !isAtEnd, NodeDecoder.isLeaf(T.self) else { return try next().decodeValue(type) }
    let node = item(currentIndex)
    let value = try NodeDecoder.leaf(T.self, node) { expected in
      throw decoder.child(node, AnyKey(intValue: currentIndex)).mismatch(expected)
    }
    currentIndex += 1
    return value
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type
  ) throws -> KeyedDecodingContainer<NestedKey> {
    try next().container(keyedBy: type)
  }

  mutating func decode(_ type: String.Type) throws -> String { try leafItem() }
  mutating func decode(_ type: Int.Type) throws -> Int { try leafItem() }

  @inline(__always)
  private mutating func leafItem<T: Decodable>() throws -> T {
    guard !isAtEnd else { return try next().decodeValue(T.self) }
    let node = item(currentIndex)
    let value = try NodeDecoder.leaf(T.self, node) { expected in
      throw decoder.child(node, AnyKey(intValue: currentIndex)).mismatch(expected)
    }
    currentIndex += 1
    return value
  }

  mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
    try next().unkeyedContainer()
  }

  mutating func superDecoder() throws -> any Decoder { try next() }
}
