import Base
import FoundationEssentials
import Glibc
import Synchronization

/// Every problem found while decoding one record, not just the first.
public struct RecordDecodingErrors: Error, Sendable {
  /// The problems, in the order found (any decoder's errors).
  public var errors: [any Error]
  /// The record as far as it decoded (bad fields hold placeholders), so that its validation rules
  /// can still report on the fields that were fine.
  public var partial: (any Sendable)?

  /// Flattens nested collections of errors.
  public init(_ errors: [any Error], partial: (any Sendable)? = nil) {
    self.errors = errors.flatMap { ($0 as? RecordDecodingErrors)?.errors ?? [$0] }
    self.partial = partial
  }
}

/// A key the schema does not know, found while decoding; the data is kept, this is the warning.
public struct UnknownKey: Hashable, Sendable {
  /// The mapping that holds the key.
  public var path: [PathComponent]
  /// The key as written.
  public var key: String
  /// The known key it most resembles.
  public var suggestion: String?
}

/// Collects unknown-key warnings while records decode; pass one in the decoder's `userInfo`
/// under `.unknownKeys`.
public final class UnknownKeyCollector: Sendable {
  private let found = Mutex<[UnknownKey]>([])

  /// An empty collector.
  public init() {}

  /// What was found so far.
  public var keys: [UnknownKey] { found.withLock { $0 } }

  func add(_ key: UnknownKey) { found.withLock { $0.append(key) } }
}

extension CodingUserInfoKey {
  /// Where decoding records unknown keys: an `UnknownKeyCollector`.
  public static let unknownKeys = CodingUserInfoKey(rawValue: "dinger.unknownKeys")!
  /// A decoder may put here a function `@Sendable (any Decoder) -> Int?` telling how many keys
  /// the mapping a decoder is at holds; records then look for unknown keys only when there are
  /// more than they read. The YAML decoder does (it names the same raw value); with other
  /// decoders records fall back to `allKeys`.
  public static let mappingKeyCount = CodingUserInfoKey(rawValue: "dinger.mappingKeyCount")!
}

extension [any CodingKey] {
  /// A coding path as path components.
  public var pathComponents: [PathComponent] {
    map { key in
      if let i = key.intValue { return .index(i) }
      return .key(key.stringValue)
    }
  }
}

/// Reads the fields of one record mapping, gathering every error instead of stopping at the first,
/// and keeping the keys it was not asked for as `UnknownFields`.
///
/// Records decode with it in `init(from:)`: ask for each field, then call `finish()`, which throws
/// all gathered errors at once.
public struct FieldReader {
  private let container: KeyedDecodingContainer<DynamicKey>
  private let decoder: any Decoder
  private let known: [String]
  private(set) var errors: [any Error] = []
  /// How many of the known keys were present in the mapping.
  private var present = 0

  /// Opens the record's mapping. `known` lists the schema's keys, in order.
  public init(_ decoder: any Decoder, known: [String]) throws {
    self.decoder = decoder
    self.container = try decoder.container(keyedBy: DynamicKey.self)
    self.known = known
  }

  /// True when the key is present (even if null).
  public func has(_ key: String) -> Bool { container.contains(DynamicKey(key)) }

  /// A field read a second time as another type (a theme's spelling beside the theme), counted and
  /// judged by the read that asks for it with `required` or `optional`; nil when it is not a `T`.
  public func peek<T: Decodable>(_ key: String, as type: T.Type = T.self) -> T? {
    try? Self.decodeIfPresent(T.self, DynamicKey(key), from: container)
  }

  /// A required field; nil (with the error kept) when missing or malformed.
  public mutating func required<T: Decodable>(_ key: String, as type: T.Type = T.self) -> T? {
    do {
      let value = try Self.decode(T.self, DynamicKey(key), from: container)
      present += 1
      return value
    } catch {
      if container.contains(DynamicKey(key)) { present += 1 }
      errors.append(error)
      return nil
    }
  }

  /// An optional field: nil when missing or null; a malformed value is an error.
  public mutating func optional<T: Decodable>(_ key: String, as type: T.Type = T.self) -> T? {
    do {
      if let value = try Self.decodeIfPresent(T.self, DynamicKey(key), from: container) {
        present += 1
        return value
      }
    } catch {
      errors.append(error)
    }
    if container.contains(DynamicKey(key)) { present += 1 }
    return nil
  }

  /// A list field, each item decoded on its own so that every bad item is reported; null is an
  /// empty list, and so is a missing key unless the list is `required`.
  public mutating func list<T: Decodable>(
    _ key: String, of type: T.Type = T.self, required: Bool = false
  ) -> [T] {
    let k = DynamicKey(key)
    guard container.contains(k) else {
      if required {
        errors.append(
          DecodingError.keyNotFound(k, .init(codingPath: decoder.codingPath, debugDescription: "")))
      }
      return []
    }
    present += 1
    do {
      var items: any UnkeyedDecodingContainer
      do {
        items = try container.nestedUnkeyedContainer(forKey: k)
      } catch {
        // Null is an empty list in every decoder, not only in those that say so themselves.
        if (try? container.decodeNil(forKey: k)) == true { return [] }
        throw error
      }
      var out: [T] = []
      while !items.isAtEnd {
        let before = items.currentIndex
        do {
          // NB: the String overload reaches decoders' non-generic fast path.
          out.append(
            T.self == String.self ? try items.decode(String.self) as! T : try items.decode(T.self))
        } catch {
          errors.append(error)
          // NB: a failed decode may not advance the container; skip the bad item by hand.
          if items.currentIndex == before { _ = try? items.decode(Skip.self) }
        }
      }
      return out
    } catch {
      errors.append(error)
      return []
    }
  }

  // NB: FieldReader's methods are specialized per type inside this module, so these checks fold
  // away and leaf fields use the containers' non-generic overloads, which decoders can serve
  // without a generic call (a few percent of YAML decode time).
  @inline(__always)
  static func decode<T: Decodable>(
    _ type: T.Type, _ key: DynamicKey, from c: KeyedDecodingContainer<DynamicKey>
  ) throws -> T {
    if T.self == String.self { return try c.decode(String.self, forKey: key) as! T }
    if T.self == Int.self { return try c.decode(Int.self, forKey: key) as! T }
    if T.self == Bool.self { return try c.decode(Bool.self, forKey: key) as! T }
    return try c.decode(T.self, forKey: key)
  }

  @inline(__always)
  static func decodeIfPresent<T: Decodable>(
    _ type: T.Type, _ key: DynamicKey, from c: KeyedDecodingContainer<DynamicKey>
  ) throws -> T? {
    if T.self == String.self { return try c.decodeIfPresent(String.self, forKey: key) as! T? }
    if T.self == Int.self { return try c.decodeIfPresent(Int.self, forKey: key) as! T? }
    if T.self == Bool.self { return try c.decodeIfPresent(Bool.self, forKey: key) as! T? }
    return try c.decodeIfPresent(T.self, forKey: key)
  }

  /// Records an error found by the record's own checks during decoding.
  public mutating func fail(_ key: String, _ message: String) {
    let path = decoder.codingPath + [DynamicKey(key)]
    errors.append(
      DecodingError.dataCorrupted(.init(codingPath: path, debugDescription: message)))
  }

  /// The keys not in `known`, kept in order; each is reported to the `UnknownKeyCollector`.
  public mutating func unknown() -> UnknownFields {
    var fields = UnknownFields()
    // NB: `allKeys` is costly in every decoder (the standard library boxes and casts each key);
    // skip it when the decoder says the mapping holds only the keys already read.
    if let keyCount = decoder.userInfo[.mappingKeyCount] as? @Sendable (any Decoder) -> Int?,
      keyCount(decoder) == present
    {
      return fields
    }
    for key in container.allKeys where !known.contains(key.stringValue) {
      if let value = try? container.decode(OpaqueValue.self, forKey: key) {
        fields.entries.append((key.stringValue, value))
      }
      if let collector = decoder.userInfo[.unknownKeys] as? UnknownKeyCollector {
        collector.add(
          UnknownKey(
            path: decoder.codingPath.pathComponents, key: key.stringValue,
            suggestion: Suggestions.closest(to: key.stringValue, in: known, limit: 1).first))
      }
    }
    return fields
  }

  /// Throws every error gathered, if any, with the record as far as it decoded.
  public func finish(_ partial: some Sendable) throws {
    if !errors.isEmpty { throw RecordDecodingErrors(errors, partial: partial) }
  }
}

/// Decodes anything and keeps nothing: used to step over a list item that failed.
private struct Skip: Decodable {
  init(from decoder: any Decoder) throws {}
}

/// Writes a record's fields in order, then its unknown fields.
public struct FieldWriter {
  private var container: KeyedEncodingContainer<DynamicKey>

  /// Opens the record's mapping.
  public init(_ encoder: any Encoder) {
    container = encoder.container(keyedBy: DynamicKey.self)
  }

  /// Writes a field.
  public mutating func write<T: Encodable>(_ key: String, _ value: T) throws {
    try container.encode(value, forKey: DynamicKey(key))
  }

  /// Writes a field unless it is nil.
  public mutating func write<T: Encodable>(_ key: String, _ value: T?) throws {
    if let value { try container.encode(value, forKey: DynamicKey(key)) }
  }

  /// Writes a list unless it is empty.
  public mutating func writeNonEmpty<T: Encodable>(_ key: String, _ value: [T]) throws {
    if !value.isEmpty { try container.encode(value, forKey: DynamicKey(key)) }
  }

  /// Writes the unknown fields last.
  public mutating func write(_ unknown: UnknownFields) throws {
    try unknown.encode(into: &container)
  }
}
