import Base
import FoundationEssentials
import Glibc
import HTTP

/// HTTP requests with one deadline for the whole request: the dictionary look-ups (GET), and
/// the digests, reminders and Matrix messages posted to chat services (POST, PUT). It goes
/// through the HTTP module's libcurl exchange (loaded on first use, so commands that never go
/// online pay nothing), the same one git's http remotes use, with git's TLS and proxy settings
/// when the caller gives them (`settings`).
public enum HTTPClient {
  /// An answer.
  public struct Response: Sendable, Equatable {
    /// Status code (200, 404, ...).
    public var status: Int
    /// The body.
    public var body: [UInt8]
    /// `Retry-After:` in seconds, when the server said one.
    public var retryAfter: Double? = nil
  }

  /// Why there was no answer.
  public enum Failure: Error, Equatable, CustomStringConvertible {
    /// Nothing listens there, or the host is unknown.
    case unreachable(String)
    /// No complete answer within the timeout.
    case timedOut(Double)
    /// Something answered, but not HTTP.
    case badResponse(String)
    /// The server's certificate was not trusted (trying again cannot help).
    case certificate(String)

    public var description: String {
      switch self {
      case .unreachable(let why): return why
      case .timedOut(let s): return "no answer within \(Self.seconds(s))"
      case .badResponse(let why): return "the answer was not HTTP (\(why))"
      case .certificate(let why): return "its certificate is not trusted (\(why))"
      }
    }

    static func seconds(_ s: Double) -> String {
      s == s.rounded() ? "\(Int(s)) s" : String(cFormat: "%.1f s", s)
    }
  }

  /// The most an answer's body may hold.
  static let maxBody = 4 * 1024 * 1024

  /// POSTs `body` (JSON) to `url` within `timeout` seconds, with `headers` (`Authorization:
  /// Bearer ...`); the answer's body bounded as a GET's. No redirect is followed.
  /// With `bodyOf2xx` false, a 2xx answer is returned as soon as its status is known: the
  /// message was taken, whatever its body then does (a slow or huge body must not make a
  /// caller post it again).
  public static func post(
    _ url: URL, json body: [UInt8], headers: [String] = [], method: String? = nil,
    timeout: Double, settings: HTTPSettings? = nil, bodyOf2xx: Bool = true
  ) throws(Failure) -> Response {
    try get(
      url, timeout: timeout, post: body, headers: headers, method: method, settings: settings,
      bodyOf2xx: bodyOf2xx)
  }

  /// git's TLS and proxy settings for `url` (`http.sslCAInfo`, `http.sslVerify`, `http.proxy`,
  /// their `http.<url>.` forms and git's environment variables), read through `config`. Never
  /// `http.extraHeader`: a header meant for the git host (a CI token) is not sent elsewhere.
  public static func settings(for url: URL, config: @escaping (String) -> String?)
    -> HTTPSettings
  {
    var settings = HTTPSettings.read(config: config, url: url.absoluteString)
    settings.extraHeaders = []
    return settings
  }

  /// GETs `url` within `timeout` seconds, through the HTTP module's libcurl exchange (the one
  /// git's http remotes use): no redirect followed, the body bounded to `maxBody`.
  public static func get(
    _ url: URL, timeout: Double, post: [UInt8]? = nil, headers: [String] = [],
    method: String? = nil, settings given: HTTPSettings? = nil, bodyOf2xx: Bool = true
  ) throws(Failure) -> Response {
    guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
      throw .unreachable("'\(url.absoluteString)' is not an http:// or https:// address")
    }
    guard let host = url.host, !host.isEmpty else { throw .unreachable("no host in \(url)") }
    let place = host + (url.port.map { ":\($0)" } ?? "")
    var settings = given ?? HTTPSettings()
    settings.totalTimeout = timeout
    // NB: git's TLS variables (a company CA: GIT_SSL_CAINFO) apply to look-ups too, and curl's
    // own CURL_CA_BUNDLE, which look-ups honoured when they ran the curl program.
    let environment = ProcessInfo.processInfo.environment
    if given == nil {
      settings.tls = TLSSettings.read(config: { _ in nil }, environment: environment)
    }
    if settings.tls.caFile == nil, let bundle = environment["CURL_CA_BUNDLE"], !bundle.isEmpty {
      settings.tls.caFile = bundle
    }
    // NB: a header with a line break would add a header of the caller's data's choosing.
    settings.extraHeaders = headers.filter { !$0.containsText("\n") && !$0.containsText("\r") }
    // NB: the body is read by curl's thread while the exchange runs: it lives until the
    // exchange is cancelled (the defers run in the reverse order).
    let sent = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(1, post?.count ?? 0))
    defer { sent.deallocate() }
    if let post { _ = sent.initialize(from: post) }
    let exchange: HTTPExchange
    do {
      var request = HTTPRequest(
        url: url.absoluteString, settings: settings, accept: "application/json",
        body: post.map { (UnsafeBufferPointer(rebasing: sent[0..<$0.count]), "application/json") })
      request.method = method
      exchange = try HTTPExchange(request)
    } catch {
      throw failure(error, place: place, timeout: timeout)
    }
    defer { exchange.cancel() }
    let answer = exchange.answered()
    if let failure = answer.failure, answer.status == 0 {
      throw Self.failure(failure, place: place, timeout: timeout)
    }
    if !bodyOf2xx, (200..<300).contains(answer.status) {
      return Response(status: answer.status, body: [])
    }
    guard (200..<300).contains(answer.status) else {
      let ended = exchange.ended()
      return Response(
        status: answer.status, body: Array(ended.errorBody.utf8), retryAfter: ended.retryAfter)
    }
    var body: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let n: Int
      do {
        n = try buffer.withUnsafeMutableBytes { raw in
          try exchange.read(into: raw.baseAddress!, size: raw.count)
        }
      } catch let error as HTTPFailure {
        throw failure(error, place: place, timeout: timeout)
      } catch {
        throw .unreachable("\(error)")
      }
      if n == 0 { break }
      guard body.count + n <= maxBody else {
        throw .badResponse("the answer is over \(maxBody / 1024 / 1024) MiB")
      }
      body += buffer[..<n]
    }
    return Response(status: answer.status, body: body)
  }

  /// A failure of the exchange as the look-up says it.
  static func failure(_ f: HTTPFailure, place: String, timeout: Double) -> Failure {
    switch f {
    case .timedOut: return .timedOut(timeout)
    case .unreachable(let why):
      return why.containsText("resolve")
        ? .unreachable("cannot find host '\(place)'") : .unreachable("nothing answers at \(place)")
    case .network(let why): return .badResponse(why)
    case .certificate(let why): return .certificate(why)
    default: return .unreachable(f.message)
    }
  }
}
