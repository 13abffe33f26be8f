import Foundation

/// Renders any encodable state as stable, pretty JSON for `--json`.
public enum JSONView {
  /// Sorted keys, ISO 8601 dates, a final newline.
  public static func render<T: Encodable>(_ value: T) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .iso8601
    return String(decoding: try encoder.encode(value), as: UTF8.self) + "\n"
  }
}
