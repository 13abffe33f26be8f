import Base
import FoundationEssentials
import Git
import Glibc
import YAML

/// The user's own settings, `${XDG_CONFIG_HOME:-~/.config}/dinger/config.yaml`, apart from any
/// data repository:
/// ```yaml
/// repository: ~/standups   # the data repository used outside any other (created on first use)
/// ```
public struct UserSettings: Decodable, Sendable, Equatable {
  /// The default data repository's path (`~` is the home folder), or nil: none chosen.
  public var repository: String?

  /// The settings file's place.
  public static func file(environment: [String: String]) -> URL {
    let base =
      environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
      ?? URL(
        fileURLWithPath: environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path
      )
      .appendingPathComponent(".config")
    return base.appendingPathComponent("dinger/config.yaml")
  }

  /// The settings; empty when the file does not exist. A file that cannot be read or parsed is
  /// an error naming it (a default the user chose is never silently ignored).
  public static func load(environment: [String: String]) throws -> UserSettings {
    let url = file(environment: environment)
    guard let data = RegularFile.read(url.path, limit: 1 << 20) else {
      var st = stat()
      if lstat(url.path, &st) == 0 {
        throw StorageError(
          "\(url.path): cannot read your dinger settings (a regular file of at most 1 MiB that you may read)"
        )
      }
      return UserSettings()
    }
    var settings: UserSettings
    do {
      settings = try YAMLDecoder().decode(UserSettings.self, from: SourceText(data))
    } catch {
      throw StorageError("\(url.path):\(error)")
    }
    if let path = settings.repository {
      let home = environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path
      if path == "~" {
        settings.repository = home
      } else if path.hasPrefix("~/") {
        settings.repository = home + path.dropFirst(1)
      } else if !path.hasPrefix("/") {
        // NB: relative to the settings file's folder, never to wherever dinger runs.
        settings.repository = url.deletingLastPathComponent().appendingPathComponent(path).path
      }
    }
    return settings
  }

  public init(repository: String? = nil) { self.repository = repository }
}
