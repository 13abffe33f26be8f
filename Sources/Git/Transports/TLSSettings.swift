import Base
internal import CGit2
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

  /// Makes libgit2 trust these authorities (for the rest of the process: one command, one
  /// remote).
  func apply() {
    guard caFile != nil || caPath != nil else { return }
    _ = Check.initialized
    _ = dinger_git_set_ssl_cert_locations(caFile, caPath)
  }
}
