/// A value under a key the schema does not know. Dinger keeps such values so that nothing a person
/// wrote is lost when it writes the record back.
public indirect enum OpaqueValue: Hashable, Sendable, Codable {
  case null
  case bool(Bool)
  case int(Int)
  case double(Double)
  case string(String)
  case list([OpaqueValue])
  case map(UnknownFields)

  public init(from decoder: any Decoder) throws {
    if let keyed = try? decoder.container(keyedBy: DynamicKey.self), !Self.isScalar(decoder) {
      var fields = UnknownFields()
      for key in keyed.allKeys {
        fields.entries.append((key.stringValue, try keyed.decode(OpaqueValue.self, forKey: key)))
      }
      self = .map(fields)
      return
    }
    if var list = try? decoder.unkeyedContainer(), !Self.isScalar(decoder) {
      var items: [OpaqueValue] = []
      while !list.isAtEnd { items.append(try list.decode(OpaqueValue.self)) }
      self = .list(items)
      return
    }
    let single = try decoder.singleValueContainer()
    if single.decodeNil() {
      self = .null
    } else if let b = try? single.decode(Bool.self) {
      self = .bool(b)
    } else if let i = try? single.decode(Int.self) {
      self = .int(i)
    } else if let d = try? single.decode(Double.self) {
      self = .double(d)
    } else {
      self = .string(try single.decode(String.self))
    }
  }

  /// Decoders hand an empty container for null; a scalar is told apart by decoding it as one.
  private static func isScalar(_ decoder: any Decoder) -> Bool {
    guard let single = try? decoder.singleValueContainer() else { return false }
    return single.decodeNil() || (try? single.decode(String.self)) != nil
  }

  public func encode(to encoder: any Encoder) throws {
    switch self {
    case .null:
      var c = encoder.singleValueContainer()
      try c.encodeNil()
    case .bool(let b):
      var c = encoder.singleValueContainer()
      try c.encode(b)
    case .int(let i):
      var c = encoder.singleValueContainer()
      try c.encode(i)
    case .double(let d):
      var c = encoder.singleValueContainer()
      try c.encode(d)
    case .string(let s):
      var c = encoder.singleValueContainer()
      try c.encode(s)
    case .list(let items):
      var c = encoder.unkeyedContainer()
      for item in items { try c.encode(item) }
    case .map(let fields):
      var c = encoder.container(keyedBy: DynamicKey.self)
      try fields.encode(into: &c)
    }
  }
}

/// Keys and values a record holds that its schema does not know, in the order they were written.
public struct UnknownFields: Hashable, Sendable {
  /// The entries, in source order.
  public var entries: [(key: String, value: OpaqueValue)] = []

  /// No unknown fields.
  public init() {}

  /// True when there are none.
  public var isEmpty: Bool { entries.isEmpty }

  /// The keys, in order.
  public var keys: [String] { entries.map(\.key) }

  /// Writes the entries after a record's known keys.
  public func encode(into container: inout KeyedEncodingContainer<DynamicKey>) throws {
    for (key, value) in entries { try container.encode(value, forKey: DynamicKey(key)) }
  }

  public static func == (lhs: UnknownFields, rhs: UnknownFields) -> Bool {
    lhs.entries.count == rhs.entries.count
      && zip(lhs.entries, rhs.entries).allSatisfy { $0.key == $1.key && $0.value == $1.value }
  }

  public func hash(into hasher: inout Hasher) {
    for (key, value) in entries {
      hasher.combine(key)
      hasher.combine(value)
    }
  }
}

/// A coding key made from any string: how records read and write keys they may not know.
// NB: only a String inside, so it fits an existential's inline buffer; the standard library
// boxes every key of `allKeys` as `any CodingKey`, and a bigger key costs a heap box each.
public struct DynamicKey: CodingKey, Hashable, Sendable {
  public var stringValue: String
  public var intValue: Int? { nil }

  /// A key with this name.
  public init(_ name: String) { self.stringValue = name }
  public init(stringValue: String) { self.stringValue = stringValue }
  public init(intValue: Int) { self.stringValue = "\(intValue)" }
}
