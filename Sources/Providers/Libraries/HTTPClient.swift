import Foundation
import Processes

#if canImport(Glibc)
  import Glibc
#endif

/// A small HTTP GET client for the dictionary look-ups, with one deadline for the whole request.
///
/// `http://` goes over a socket here; `https://` goes through the `curl` program, as git sends
/// https through a helper (linking libcurl through FoundationNetworking would cost every dinger
/// command ~6 ms of start-up for the one command that goes online).
public enum HTTPClient {
  /// An answer.
  public struct Response: Sendable, Equatable {
    /// Status code (200, 404, ...).
    public var status: Int
    /// The body.
    public var body: [UInt8]
  }

  /// Why there was no answer.
  public enum Failure: Error, Equatable, CustomStringConvertible {
    /// Nothing listens there, or the host is unknown.
    case unreachable(String)
    /// No complete answer within the timeout.
    case timedOut(Double)
    /// Something answered, but not HTTP.
    case badResponse(String)

    public var description: String {
      switch self {
      case .unreachable(let why): return why
      case .timedOut(let s): return "no answer within \(Self.seconds(s))"
      case .badResponse(let why): return "the answer was not HTTP (\(why))"
      }
    }

    static func seconds(_ s: Double) -> String {
      s == s.rounded() ? "\(Int(s)) s" : String(format: "%.1f s", s)
    }
  }

  /// The most an answer's body may hold.
  static let maxBody = 4 * 1024 * 1024

  /// GETs `url` within `timeout` seconds.
  public static func get(_ url: URL, timeout: Double) throws(Failure) -> Response {
    switch url.scheme?.lowercased() {
    case "http": return try plain(url, timeout: timeout)
    case "https": return try curl(url, timeout: timeout)
    default: throw .unreachable("'\(url.absoluteString)' is not an http:// or https:// address")
    }
  }

  // MARK: http over a socket

  static func plain(_ url: URL, timeout: Double) throws(Failure) -> Response {
    let deadline = Date().addingTimeInterval(timeout)
    guard let host = url.host, !host.isEmpty else { throw .unreachable("no host in \(url)") }
    let port = url.port ?? 80
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    var info: UnsafeMutablePointer<addrinfo>?
    guard getaddrinfo(host, String(port), &hints, &info) == 0, let first = info else {
      throw .unreachable("cannot find host '\(host)'")
    }
    defer { freeaddrinfo(info) }
    let fd = socket(first.pointee.ai_family, first.pointee.ai_socktype, first.pointee.ai_protocol)
    guard fd >= 0 else { throw .unreachable("cannot open a socket") }
    defer { close(fd) }
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    if connect(fd, first.pointee.ai_addr, first.pointee.ai_addrlen) != 0 && errno != EINPROGRESS {
      throw .unreachable("nothing answers at \(host):\(port) (\(String(cString: strerror(errno))))")
    }
    try wait(fd, for: Int16(POLLOUT), until: deadline, timeout: timeout)
    var error: Int32 = 0
    var length = socklen_t(MemoryLayout<Int32>.size)
    getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
    guard error == 0 else {
      throw .unreachable("nothing answers at \(host):\(port) (\(String(cString: strerror(error))))")
    }
    // NB: the path as encoded once (URLComponents), never the decoded text.
    let parts = URLComponents(url: url, resolvingAgainstBaseURL: false)
    var target = parts?.percentEncodedPath ?? "/"
    if target.isEmpty { target = "/" }
    if let query = parts?.percentEncodedQuery { target += "?" + query }
    guard !target.utf8.contains(where: { $0 <= 32 || $0 >= 127 }) else {
      throw .unreachable("'\(url.absoluteString)' is not a plain address")
    }
    let request = Array(
      "GET \(target) HTTP/1.1\r\nHost: \(host):\(port)\r\nAccept: application/json\r\nUser-Agent: dinger\r\nConnection: close\r\n\r\n"
        .utf8)
    var sent = 0
    while sent < request.count {
      try wait(fd, for: Int16(POLLOUT), until: deadline, timeout: timeout)
      let n = request[sent...].withUnsafeBytes {
        send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      guard n > 0 else { throw .unreachable("the connection to \(host):\(port) broke") }
      sent += n
    }
    var parser = HTTPResponseParser()
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      try wait(fd, for: Int16(POLLIN), until: deadline, timeout: timeout)
      let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      if n == 0 { break }
      if n < 0 {
        if errno == EAGAIN || errno == EINTR { continue }
        throw .unreachable("the connection to \(host):\(port) broke")
      }
      if let response = try parser.feed(buffer[..<n]) { return response }
    }
    return try parser.finish()
  }

  private static func wait(_ fd: Int32, for events: Int16, until deadline: Date, timeout: Double)
    throws(Failure)
  {
    while true {
      let left = deadline.timeIntervalSinceNow
      guard left > 0 else { throw .timedOut(timeout) }
      var p = pollfd(fd: fd, events: events, revents: 0)
      let rc = poll(&p, 1, Int32(min(left * 1000, 60_000)) + 1)
      if rc > 0 { return }
      if rc < 0 && errno != EINTR { throw .unreachable(String(cString: strerror(errno))) }
    }
  }

  // MARK: https through curl

  static func curl(_ url: URL, timeout: Double) throws(Failure) -> Response {
    // NB: -q first: no ~/.curlrc; only http(s), no redirects followed; the body is bounded
    // here too, whatever curl does with --max-filesize for a body of unknown length.
    let arguments = [
      "curl", "-q", "-sS", "--proto", "=http,https", "--max-time", String(timeout),
      "--max-filesize", String(maxBody), "-H", "Accept: application/json", "-A", "dinger",
      "-w", "\n%{http_code}", "--", url.absoluteString,
    ]
    let result: ChildProcess.Result
    do {
      result = try ChildProcess.run(
        .init(arguments), limit: maxBody + 16, timeout: timeout + 5)
    } catch {
      throw .unreachable("https:// look-ups need the curl program (apt-get install curl)")
    }
    if result.truncated && result.output.count > maxBody {
      throw .badResponse("the answer is over \(maxBody / 1024 / 1024) MiB")
    }
    if result.timedOut { throw .timedOut(timeout) }
    switch result.termination.status {
    case 0: break
    case 28: throw .timedOut(timeout)
    case 63: throw .badResponse("the answer is over \(maxBody / 1024 / 1024) MiB")
    default:
      throw .unreachable(String(result.errorText.prefix(4096)))
    }
    let data = result.output
    var bytes = [UInt8](data)
    guard let newline = bytes.lastIndex(of: 10),
      let code = Int(String(decoding: bytes[(newline + 1)...], as: UTF8.self))
    else { throw .badResponse("curl gave no status") }
    bytes.removeSubrange(newline...)
    return Response(status: code, body: bytes)
  }
}
