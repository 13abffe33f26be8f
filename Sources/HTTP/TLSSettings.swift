import Base
import FoundationEssentials
import Glibc

/// git's TLS settings for https remotes, read as git reads them: `GIT_SSL_CAINFO` over
/// `http.sslCAInfo`, `GIT_SSL_CAPATH` over `http.sslCAPath` (where the trusted certificate
/// authorities are), and `GIT_SSL_NO_VERIFY` or `http.sslVerify=false` (no certificate check
/// at all: loudly warned about).
public struct TLSSettings: Equatable, Sendable {
  public var caFile: String?
  public var caPath: String?
  public var verify = true
  /// A client certificate and its key (`http.sslCert`, `http.sslKey`).
  public var certFile: String?
  public var keyFile: String?

  /// Settings that change nothing.
  public init() {}

  /// The settings from `config` and the environment.
  public static func read(config: (String) -> String?, environment: [String: String]) -> TLSSettings
  {
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

}
