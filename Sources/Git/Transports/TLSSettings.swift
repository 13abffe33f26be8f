import Base
import FoundationEssentials
import Glibc
import HTTP

extension TLSSettings {
  /// The settings in force for a repository (nil: the user's and the system's config only).
  static func current(
    _ repository: Repository?, environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> TLSSettings {
    read(
      config: { key in
        if let repository { return repository.config(key) }
        return Repository.userConfig(key)
      }, environment: environment)
  }
}
