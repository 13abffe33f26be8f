import Base
import FoundationEssentials
import Glibc

/// Encodes `Encodable` values as canonical, readable YAML: block style, keys in the order the type
/// encodes them, quotes only where needed, literal blocks for multi-line text, identical bytes for
/// identical values.
public struct YAMLEncoder: Sendable {
  /// Paths written in flow style when they fit on one line, e.g. `attendees` (a list written as
  /// `[a, b]`) or `speakers[]` (each item of `speakers` written as `{name: a, seconds: 1}`).
  public var flowPaths: Set<String> = []
  /// Values passed to `Encoder.userInfo`.
  public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

  /// Creates an encoder.
  public init(flowPaths: Set<String> = []) { self.flowPaths = flowPaths }

  /// Encodes a value as YAML text ending in a newline.
  public func encode<T: Encodable>(_ value: T) throws -> String {
    let encoder = ValueEncoder(codingPath: [], userInfo: userInfo)
    try encoder.encodeValue(value)
    var emitter = Emitter(flowPaths: flowPaths)
    return emitter.document(encoder.target.value)
  }

  /// The text of a single scalar as the encoder would write it in block context (quoted when a
  /// parser could read it as anything but this string).
  public static func scalarText(_ string: String) -> String {
    Emitter.scalar(string, flow: false)
  }
}

/// A value being encoded: a tree of boxes so nested containers can write into their parents.
indirect enum Encoded {
  case empty
  case raw(String)  // numbers, booleans, null, dates: written as is
  case string(String)  // text: the emitter chooses plain, quoted or literal
  case sequence([Box])
  case mapping([(String, Box)])

  final class Box {
    var value: Encoded = .empty
  }

  /// True when two encoded values would be written the same.
  static func same(_ a: Encoded, _ b: Encoded) -> Bool {
    switch (a, b) {
    case (.empty, .empty): return true
    case (.raw(let x), .raw(let y)), (.string(let x), .string(let y)): return x == y
    case (.sequence(let x), .sequence(let y)):
      return x.count == y.count && zip(x, y).allSatisfy { same($0.value, $1.value) }
    case (.mapping(let x), .mapping(let y)):
      return x.count == y.count
        && zip(x, y).allSatisfy { $0.0 == $1.0 && same($0.1.value, $1.1.value) }
    default: return false
    }
  }
}

final class ValueEncoder: Encoder {
  // NB: the path is worked out when asked for (rarely), from the parent: copying it into
  // every child was an allocation per encoded value.
  private let parent: ValueEncoder?
  private let key: (any CodingKey)?
  private let rootPath: [any CodingKey]
  let userInfo: [CodingUserInfoKey: Any]
  /// Where this encoder writes its value.
  let target: Encoded.Box

  var codingPath: [any CodingKey] {
    guard let parent else { return rootPath }
    return parent.codingPath + (key.map { [$0] } ?? [])
  }

  init(codingPath: [any CodingKey], userInfo: [CodingUserInfoKey: Any], box: Encoded.Box = .init())
  {
    self.rootPath = codingPath
    self.parent = nil
    self.key = nil
    self.userInfo = userInfo
    self.target = box
  }

  private init(parent: ValueEncoder, key: any CodingKey, box: Encoded.Box) {
    self.parent = parent
    self.key = key
    self.rootPath = []
    self.userInfo = parent.userInfo
    self.target = box
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    if case .mapping = target.value {} else { target.value = .mapping([]) }
    return KeyedEncodingContainer(KeyedValueContainer<Key>(encoder: self))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    if case .sequence = target.value {} else { target.value = .sequence([]) }
    return UnkeyedValueContainer(encoder: self)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer { self }

  func encodeValue<T: Encodable>(_ value: T) throws {
    switch value {
    case let v as String: target.value = .string(v)
    case let v as Bool: target.value = .raw(v ? "true" : "false")
    case let v as Int: target.value = .raw(String(v))
    case let v as Double: target.value = .raw(Self.format(v))
    case let v as UUID: target.value = .raw(v.uuidString.lowercased())
    case let v as Date: target.value = .raw(ISODate.format(v))
    case let v as URL: target.value = .string(v.absoluteString)
    default: try value.encode(to: self)
    }
  }

  static func format(_ v: Double) -> String {
    if v.isNaN { return ".nan" }
    if v.isInfinite { return v < 0 ? "-.inf" : ".inf" }
    if v == v.rounded() && abs(v) < 1e15 { return String(Int(v)) + ".0" }
    var text = "\(v)"
    // NB: YAML 1.1 parsers only read a float with a dot and a signed exponent ("1.0e-05").
    if let e = text.firstIndex(of: "e"), !text[..<e].contains(".") {
      text.insert(contentsOf: ".0", at: e)
    }
    return text
  }

  func child(_ key: any CodingKey, _ box: Encoded.Box) -> ValueEncoder {
    ValueEncoder(parent: self, key: key, box: box)
  }
}

extension ValueEncoder: SingleValueEncodingContainer {
  func encodeNil() { target.value = .raw("null") }
  func encode(_ value: Bool) { target.value = .raw(value ? "true" : "false") }
  func encode(_ value: String) { target.value = .string(value) }
  func encode(_ value: Double) { target.value = .raw(Self.format(value)) }
  func encode(_ value: Float) { target.value = .raw(Self.format(Double(value))) }
  func encode(_ value: Int) { target.value = .raw(String(value)) }
  func encode(_ value: Int8) { target.value = .raw(String(value)) }
  func encode(_ value: Int16) { target.value = .raw(String(value)) }
  func encode(_ value: Int32) { target.value = .raw(String(value)) }
  func encode(_ value: Int64) { target.value = .raw(String(value)) }
  func encode(_ value: UInt) { target.value = .raw(String(value)) }
  func encode(_ value: UInt8) { target.value = .raw(String(value)) }
  func encode(_ value: UInt16) { target.value = .raw(String(value)) }
  func encode(_ value: UInt32) { target.value = .raw(String(value)) }
  func encode(_ value: UInt64) { target.value = .raw(String(value)) }
  func encode<T: Encodable>(_ value: T) throws { try encodeValue(value) }
}

struct KeyedValueContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let encoder: ValueEncoder
  var codingPath: [any CodingKey] { encoder.codingPath }

  func slot(_ key: Key) -> Encoded.Box {
    guard case .mapping(var pairs) = encoder.target.value else { return Encoded.Box() }
    if let existing = pairs.first(where: { $0.0 == key.stringValue }) { return existing.1 }
    let box = Encoded.Box()
    encoder.target.value = .empty  // NB: `pairs` is then the array's only owner: no copy
    pairs.append((key.stringValue, box))
    encoder.target.value = .mapping(pairs)
    return box
  }

  mutating func encodeNil(forKey key: Key) { slot(key).value = .raw("null") }

  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    try encoder.child(key, slot(key)).encodeValue(value)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    encoder.child(key, slot(key)).container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    encoder.child(key, slot(key)).unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder { encoder }
  mutating func superEncoder(forKey key: Key) -> any Encoder { encoder.child(key, slot(key)) }
}

struct UnkeyedValueContainer: UnkeyedEncodingContainer {
  let encoder: ValueEncoder
  var codingPath: [any CodingKey] { encoder.codingPath }
  var count: Int {
    if case .sequence(let items) = encoder.target.value { return items.count }
    return 0
  }

  func append() -> Encoded.Box {
    let box = Encoded.Box()
    if case .sequence(var items) = encoder.target.value {
      // NB: `items` is then the array's only owner, so appending does not copy it (appending
      // n items stays linear: a 100,000-attendee scrum took seconds).
      encoder.target.value = .empty
      items.append(box)
      encoder.target.value = .sequence(items)
    }
    return box
  }

  mutating func encodeNil() { append().value = .raw("null") }

  mutating func encode<T: Encodable>(_ value: T) throws {
    let key = AnyKey(intValue: count)
    try encoder.child(key, append()).encodeValue(value)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type
  ) -> KeyedEncodingContainer<NestedKey> {
    let key = AnyKey(intValue: count)
    return encoder.child(key, append()).container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    let key = AnyKey(intValue: count)
    return encoder.child(key, append()).unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder {
    encoder.child(AnyKey(intValue: count), append())
  }
}
