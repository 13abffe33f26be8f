/// A position in a source file: 1-based line and column (in Unicode scalars, as editors count),
/// and the 0-based UTF-8 byte offset that in-place edits use.
public struct Location: Hashable, Sendable, Comparable, CustomStringConvertible {
  /// 1-based line number.
  public var line: Int
  /// 1-based column, counted in Unicode scalars.
  public var column: Int
  /// 0-based UTF-8 byte offset from the start of the file.
  public var offset: Int

  /// Creates a location.
  public init(line: Int, column: Int, offset: Int) {
    self.line = line
    self.column = column
    self.offset = offset
  }

  /// The start of a file.
  public static let start = Location(line: 1, column: 1, offset: 0)

  public static func < (lhs: Location, rhs: Location) -> Bool { lhs.offset < rhs.offset }

  public var description: String { "\(line):\(column)" }
}

/// The half-open byte range a node occupies, with both ends as locations.
public struct SourceRange: Hashable, Sendable {
  /// Where the node starts (its first character, or its tag or anchor when it has one).
  public var start: Location
  /// Just past the node's last character.
  public var end: Location

  /// Creates a range.
  public init(start: Location, end: Location) {
    self.start = start
    self.end = end
  }

  /// The byte offsets of this range.
  public var bytes: Range<Int> { start.offset..<end.offset }
}
