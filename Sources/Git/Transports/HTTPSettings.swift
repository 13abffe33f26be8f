import Foundation

/// git's settings for http and https remotes, read as git reads them: TLS (`TLSSettings`), the
/// proxy (`http.proxy`; curl reads `http_proxy`, `https_proxy` and `no_proxy` itself), and the
/// low-speed limit (`GIT_HTTP_LOW_SPEED_LIMIT` / `http.lowSpeedLimit` bytes a second over
/// `GIT_HTTP_LOW_SPEED_TIME` / `http.lowSpeedTime` seconds). git waits forever by default;
/// dinger gives up on a server that has sent less than a byte a second for 60 seconds.
struct HTTPSettings: Equatable {
  var tls = TLSSettings()
  var proxy: String?
  var lowSpeedLimit = 1
  var lowSpeedTime = 60
  /// `http.extraHeader`: a header sent with every request (how CI systems pass a token).
  var extraHeaders: [String] = []

  /// The settings from `config` (a repository's, or the user's) and the environment. With
  /// `url`, git's URL-scoped settings come first: `http.<url>.<key>` for the longest `<url>`
  /// that is a prefix of the remote's address (scheme and host, then path by whole segments).
  static func read(
    config unscoped: @escaping (String) -> String?, url: String? = nil,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> HTTPSettings {
    let prefixes = url.map(Self.scopes(of:)) ?? []
    let config: (String) -> String? = { key in
      if key.hasPrefix("http.") {
        let name = key.dropFirst("http.".count)
        for prefix in prefixes {
          if let value = unscoped("http.\(prefix).\(name)") { return value }
        }
      }
      return unscoped(key)
    }
    var settings = HTTPSettings()
    if let header = config("http.extraHeader"), !header.isEmpty, !header.contains("\n"),
      !header.contains("\r")
    {
      settings.extraHeaders = [header]
    }
    settings.tls = TLSSettings.read(config: config, environment: environment)
    settings.proxy = config("http.proxy").flatMap { $0.isEmpty ? nil : $0 }
    func positive(_ env: String, _ key: String) -> Int? {
      (environment[env].flatMap { Int($0) } ?? config(key).flatMap { Int($0) }).flatMap {
        $0 > 0 ? $0 : nil
      }
    }
    if let limit = positive("GIT_HTTP_LOW_SPEED_LIMIT", "http.lowSpeedLimit") {
      settings.lowSpeedLimit = limit
    }
    if let time = positive("GIT_HTTP_LOW_SPEED_TIME", "http.lowSpeedTime") {
      settings.lowSpeedTime = time
    }
    return settings
  }
}

extension HTTPSettings {
  /// The `<url>`s of `http.<url>.*` that apply to `url`, longest first: the address without
  /// its user and password, cut at each `/` of its path (with and without the slash).
  static func scopes(of url: String) -> [String] {
    guard var parts = URLComponents(string: url), let scheme = parts.scheme, let host = parts.host
    else { return [] }
    parts.user = nil
    parts.password = nil
    let base = "\(scheme)://\(host)" + (parts.port.map { ":\($0)" } ?? "")
    var out: [String] = []
    var path = parts.path
    while true {
      if !path.isEmpty {
        out.append(base + path)
        if path.hasSuffix("/") {
          out.append(base + String(path.dropLast()))
        } else {
          out.append(base + path + "/")
        }
      }
      guard let slash = path.dropLast().lastIndex(of: "/") else { break }
      path = String(path[...slash])
      if path == "/" { break }
    }
    out += [base + "/", base]
    var seen = Set<String>()
    return out.filter { seen.insert($0).inserted }
  }
}

/// One request of the smart http protocol.
struct HTTPRequest {
  var url: String
  var settings: HTTPSettings
  /// `Accept:` (the result type the protocol expects).
  var accept: String?
  /// A POST's body and its type; nil for a GET.
  var body: (bytes: UnsafeBufferPointer<UInt8>, contentType: String)?
  var credentials: (String, String)?
  /// The user accepted a certificate that failed the check (the certificate callback said so).
  var skipVerification = false
}

/// Why an http exchange failed.
enum HTTPFailure: Error, Equatable {
  case noCurl(String)
  case local(String)
  case network(String)
  case certificate(String)
  case timedOut(String, seconds: Int)
  case cancelled

  var message: String {
    switch self {
    case .noCurl(let why):
      return
        "http and https remotes need libcurl, which could not be loaded (\(why)); install it: sudo apt-get install libcurl4"
    case .local(let why): return why
    case .network(let why): return why
    case .certificate(let why): return why
    case .timedOut(let why, let seconds):
      return
        "the server stopped answering (\(why)); dinger gives up after \(seconds) s with less than a byte a second (git config http.lowSpeedTime SECONDS changes it)"
    case .cancelled: return "the transfer was stopped"
    }
  }
}
