import Base
import FoundationEssentials
import Glibc

/// git's settings for http and https remotes, read as git reads them: TLS (`TLSSettings`), the
/// proxy (`http.proxy`; curl reads `http_proxy`, `https_proxy` and `no_proxy` itself), and the
/// low-speed limit (`GIT_HTTP_LOW_SPEED_LIMIT` / `http.lowSpeedLimit` bytes a second over
/// `GIT_HTTP_LOW_SPEED_TIME` / `http.lowSpeedTime` seconds). git waits forever by default.
/// dinger, by default, waits for a server that is preparing its answer (nothing received yet:
/// a big fetch's pack being counted and compressed, a push's pack being checked) for up to
/// `preparingTime` (10 minutes), and gives up on an answer that has started to flow once less
/// than a byte a second comes for 60 seconds. A limit the user sets applies from the start, as
/// git applies it.
public struct HTTPSettings: Equatable, Sendable {
  public var tls = TLSSettings()
  public var proxy: String?
  public var lowSpeedLimit = 1
  public var lowSpeedTime = 60
  /// How long a server may stay silent before the first byte of its answer, in seconds.
  public var preparingTime = 600
  /// `http.extraHeader`: a header sent with every request (how CI systems pass a token).
  public var extraHeaders: [String] = []
  /// A deadline for the whole request, in seconds (a look-up's); nil: none, only the
  /// low-speed limit (a transfer's).
  public var totalTimeout: Double?

  /// The defaults.
  public init() {}

  /// The settings from `config` (a repository's, or the user's) and the environment. With
  /// `url`, git's URL-scoped settings come first: `http.<url>.<key>` for the longest `<url>`
  /// that is a prefix of the remote's address (scheme and host, then path by whole segments).
  /// `values` gives every value of a multi-valued key (`http.extraHeader`, which git sends
  /// all of; an empty value clears those before it, as in git).
  public static func read(
    config unscoped: @escaping (String) -> String?,
    values: (String) -> [String] = { _ in [] }, url: String? = nil,
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
    // NB: git sends every `http.extraHeader` (the plain key and each matching `http.<url>.`
    // one, in config order); an empty value resets the list. A header with a line break is
    // never sent (it would add a header of the config's choosing).
    var headers: [String] = []
    var all = values("http.extraHeader")
    all += prefixes.reversed().flatMap { values("http.\($0).extraHeader") }
    if all.isEmpty, let one = config("http.extraHeader") { all = [one] }
    for header in all {
      if header.isEmpty {
        headers = []
      } else if !header.containsText("\n"), !header.containsText("\r") {
        headers.append(header)
      }
    }
    settings.extraHeaders = headers
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
      // NB: as git (curl's low-speed limit), a time the user sets counts from the start.
      settings.preparingTime = time
    }
    return settings
  }
}

extension HTTPSettings {
  /// The `<url>`s of `http.<url>.*` that apply to `url`, longest first: the address without
  /// its user and password, cut at each `/` of its path (with and without the slash).
  public static func scopes(of url: String) -> [String] {
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
public struct HTTPRequest {
  public var url: String
  public var settings: HTTPSettings
  /// `Accept:` (the result type the protocol expects).
  public var accept: String?
  /// A POST's body and its type; nil for a GET.
  public var body: (bytes: UnsafeBufferPointer<UInt8>, contentType: String)?
  public var credentials: (String, String)?
  /// The user accepted a certificate that failed the check (the certificate callback said so).
  public var skipVerification = false
  /// Another method than GET or POST (`PUT`, with the body).
  public var method: String?

  /// A request.
  public init(
    url: String, settings: HTTPSettings, accept: String? = nil,
    body: (bytes: UnsafeBufferPointer<UInt8>, contentType: String)? = nil,
    credentials: (String, String)? = nil, skipVerification: Bool = false
  ) {
    self.url = url
    self.settings = settings
    self.accept = accept
    self.body = body
    self.credentials = credentials
    self.skipVerification = skipVerification
  }
}

/// Why an http exchange failed.
public enum HTTPFailure: Error, Equatable, Sendable {
  case noCurl(String)
  /// Nothing answers at the address, or the host is unknown.
  case unreachable(String)
  case local(String)
  case network(String)
  case certificate(String)
  case timedOut(String, seconds: Int)
  /// Nothing came for `seconds` before the answer started (`HTTPSettings.preparingTime`).
  case preparing(seconds: Int)
  case cancelled

  public var message: String {
    switch self {
    case .noCurl(let why):
      return
        "http and https remotes need libcurl, which could not be loaded (\(why)); install it: sudo apt-get install libcurl4"
    case .local(let why): return why
    case .unreachable(let why): return why
    case .network(let why): return why
    case .certificate(let why): return why
    case .timedOut(let why, let seconds):
      return
        "the server stopped answering (\(why)); dinger gives up after \(seconds) s with less than a byte a second (git config http.lowSpeedTime SECONDS changes it)"
    case .preparing(let seconds):
      return
        "the server stopped answering: it sent nothing for \(seconds) s while preparing its answer, and dinger gives up then (git config http.lowSpeedTime SECONDS sets a limit of your own; git itself waits forever)"
    case .cancelled: return "the transfer was stopped"
    }
  }
}
