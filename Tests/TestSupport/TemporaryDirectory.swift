import Foundation

/// A directory under the system's temporary folder, removed when the value is released.
public final class TemporaryDirectory: @unchecked Sendable {
  /// The directory.
  public let url: URL

  /// Creates an empty directory.
  public init(_ prefix: String = "dinger-test") throws {
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("\(prefix)-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  // NB: DINGER_TEST_KEEP=1 keeps every temporary folder, to look at after a failure.
  deinit {
    guard ProcessInfo.processInfo.environment["DINGER_TEST_KEEP"] == nil else { return }
    try? FileManager.default.removeItem(at: url)
  }

  /// Writes a file (creating folders), given its path relative to the directory.
  public func write(_ relative: String, _ text: String) throws {
    try write(relative, bytes: Array(text.utf8))
  }

  /// Writes raw bytes.
  public func write(_ relative: String, bytes: [UInt8]) throws {
    let file = url.appendingPathComponent(relative)
    try FileManager.default.createDirectory(
      at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(bytes).write(to: file)
  }

  /// Reads a file back as text.
  public func read(_ relative: String) throws -> String {
    String(decoding: try Data(contentsOf: url.appendingPathComponent(relative)), as: UTF8.self)
  }

  /// The path of a file inside.
  public func path(_ relative: String = "") -> String {
    relative.isEmpty ? url.path : url.appendingPathComponent(relative).path
  }
}

/// The package's root folder, found from this source file.
public let packageRoot: URL = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
