import Base
import FoundationEssentials
import Glibc

/// Renders any encodable state as stable, pretty JSON for `--json`.
public enum JSONView {
  /// Sorted keys, ISO 8601 dates, a final newline.
  public static func render<T: Encodable>(_ value: T) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .iso8601
    return String(decoding: try encoder.encode(value), as: UTF8.self) + "\n"
  }

  /// A list under its name: every `--json` output is one object (docs/json.md), so that a
  /// field can be added later without breaking anyone's parser.
  public static func render<T: Encodable>(_ key: String, _ items: [T]) throws -> String {
    try render([key: items])
  }
}
