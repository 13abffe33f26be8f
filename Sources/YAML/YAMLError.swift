/// A problem in a YAML file, located precisely: a syntax error, a limit that was exceeded, or a
/// value that does not fit the type it is decoded into.
public struct YAMLError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What kind of problem it is.
  public enum Kind: String, Sendable, Equatable {
    /// The text is not valid YAML (or not valid UTF-8).
    case syntax
    /// A size, depth or alias-expansion limit was exceeded.
    case limit
    /// A duplicate mapping key.
    case duplicateKey
    /// The value does not fit the schema: wrong type, missing key, bad value.
    case schema
  }

  /// What kind of problem it is.
  public var kind: Kind
  /// The message, lowercase, without a final period: `'length' must be a whole number, found "ten"`.
  public var message: String
  /// Where the problem is.
  public var location: Location
  /// The key path from the document root, as a dotted string (`attendees[2].name`), if known.
  public var path: String

  /// Creates an error.
  public init(_ kind: Kind, _ message: String, at location: Location, path: String = "") {
    self.kind = kind
    self.message = message
    self.location = location
    self.path = path
  }

  public var description: String { "\(location): error: \(message)" }
}

/// Bounds that keep parsing fast and memory bounded on hostile input.
public struct YAMLLimits: Sendable, Equatable {
  /// Largest file accepted, in bytes.
  public var maxBytes: Int
  /// Deepest nesting of collections accepted.
  public var maxDepth: Int
  /// Most nodes that aliases may add by expansion, over the whole document.
  public var maxAliasExpansion: Int

  /// Creates limits.
  public init(maxBytes: Int = 64 << 20, maxDepth: Int = 64, maxAliasExpansion: Int = 100_000) {
    // NB: node positions are stored as Int32; keep files well below 2 GiB.
    self.maxBytes = min(maxBytes, 1 << 30)
    self.maxDepth = maxDepth
    self.maxAliasExpansion = maxAliasExpansion
  }

  /// The limits Dinger reads record files with.
  public static let `default` = YAMLLimits()
}
