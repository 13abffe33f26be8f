internal import CGit2
import Foundation

/// git's TLS settings for https remotes, read as git reads them: `GIT_SSL_CAINFO` over
/// `http.sslCAInfo`, `GIT_SSL_CAPATH` over `http.sslCAPath` (where the trusted certificate
/// authorities are), and `GIT_SSL_NO_VERIFY` or `http.sslVerify=false` (no certificate check
/// at all: loudly warned about).
struct TLSSettings: Equatable {
  var caFile: String?
  var caPath: String?
  var verify = true
  /// A client certificate and its key (`http.sslCert`, `http.sslKey`).
  var certFile: String?
  var keyFile: String?

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

  /// The settings from `config` and the environment.
  static func read(config: (String) -> String?, environment: [String: String]) -> TLSSettings {
    var settings = TLSSettings()
    settings.caFile =
      environment["GIT_SSL_CAINFO"].flatMap { $0.isEmpty ? nil : $0 }
      ?? config("http.sslCAInfo")
    settings.caPath =
      environment["GIT_SSL_CAPATH"].flatMap { $0.isEmpty ? nil : $0 }
      ?? config("http.sslCAPath")
    settings.certFile =
      environment["GIT_SSL_CERT"].flatMap { $0.isEmpty ? nil : $0 }
      ?? config("http.sslCert")
    settings.keyFile =
      environment["GIT_SSL_KEY"].flatMap { $0.isEmpty ? nil : $0 }
      ?? config("http.sslKey")
    if environment["GIT_SSL_NO_VERIFY"] != nil {
      settings.verify = false
    } else if let value = config("http.sslVerify")?.lowercased() {
      settings.verify = !["false", "no", "off", "0"].contains(value)
    }
    return settings
  }

  /// Makes libgit2 trust these authorities (for the rest of the process: one command, one
  /// remote).
  func apply() {
    guard caFile != nil || caPath != nil else { return }
    _ = Check.initialized
    _ = dinger_git_set_ssl_cert_locations(caFile, caPath)
  }
}
