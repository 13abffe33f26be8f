import Base
internal import CGit2
import FoundationEssentials
import Glibc
import HTTP

/// What the requests of one transfer share: the settings, the address after the first request's
/// redirect, the credentials that worked, the verdict on the certificate, and the transfer's
/// callbacks (libgit2's, through its smart transport, or a `TransferSession`'s directly).
final class HTTPSession {
  let settings: HTTPSettings
  /// The repository's address (no user or password in it), once known.
  var base: String?
  var credentials: (String, String)?
  var skipVerification = false
  var warned = false
  /// A user name and password for the URL's user (or none); throws when there are none.
  let askCredentials: (String?) throws(TransportFailure) -> (String, String)
  /// Whether the transfer accepts a certificate that was not trusted (or not checked).
  let certificateAccepted: (_ host: String, _ detail: String) throws(TransportFailure) -> Bool
  /// Bytes of a request sent so far, of how many.
  let uploaded: (Int, Int) -> Void
  /// Seconds the server has been silent preparing its answer (said every few seconds).
  var waited: (Int) -> Void = { _ in }

  init(
    settings: HTTPSettings,
    askCredentials: @escaping (String?) throws(TransportFailure) -> (String, String),
    certificateAccepted: @escaping (String, String) throws(TransportFailure) -> Bool,
    uploaded: @escaping (Int, Int) -> Void
  ) {
    self.settings = settings
    self.askCredentials = askCredentials
    self.certificateAccepted = certificateAccepted
    self.uploaded = uploaded
  }

  /// A session whose callbacks are those of libgit2's smart transport `owner`.
  convenience init(owner: UnsafeMutablePointer<git_transport>?, settings: HTTPSettings) {
    self.init(
      settings: settings,
      askCredentials: { (user) throws(TransportFailure) in
        var credential: UnsafeMutablePointer<git_credential>?
        let rc = git_transport_smart_credentials(
          &credential, owner, user, Int32(GIT_CREDENTIAL_USERPASS_PLAINTEXT.rawValue))
        return try HTTPSession.userAndPassword(rc, credential)
      },
      certificateAccepted: { (host, detail) throws(TransportFailure) in
        var cert = git_cert(cert_type: GIT_CERT_NONE)
        let rc = git_transport_smart_certificate_check(owner, &cert, 0, host)
        return try HTTPSession.verdict(rc, host: host, detail: detail)
      },
      uploaded: { sent, total in
        var options = git_remote_connect_options()
        guard git_transport_remote_connect_options(&options, owner) == 0 else { return }
        defer { git_remote_connect_options_dispose(&options) }
        if let payload = options.callbacks.payload, options.callbacks.push_transfer_progress != nil
        {
          Unmanaged<TransferSession>.fromOpaque(payload).takeUnretainedValue().onProgress?(
            TransferProgress(received: sent, total: total, bytes: sent, stage: .sending))
        }
      })
    waited = { seconds in
      var options = git_remote_connect_options()
      guard git_transport_remote_connect_options(&options, owner) == 0 else { return }
      defer { git_remote_connect_options_dispose(&options) }
      if let payload = options.callbacks.payload,
        options.callbacks.transfer_progress != nil
          || options.callbacks.push_transfer_progress != nil
      {
        Unmanaged<TransferSession>.fromOpaque(payload).takeUnretainedValue().onProgress?(
          TransferProgress(received: seconds, total: 0, bytes: 0, stage: .waiting))
      }
    }
  }

  /// The user name and password of a credential callback's answer (`rc`, `credential`).
  static func userAndPassword(_ rc: Int32, _ credential: UnsafeMutablePointer<git_credential>?)
    throws(TransportFailure) -> (String, String)
  {
    if rc == GIT_PASSTHROUGH.rawValue {
      throw TransportFailure(
        code: GIT_EAUTH.rawValue, message: "the server asks for a user name and password")
    }
    guard rc == 0, let credential else {
      throw TransportFailure(code: rc < 0 ? rc : -1, message: nil)
    }
    defer { git_credential_free(credential) }
    guard credential.pointee.credtype == GIT_CREDENTIAL_USERPASS_PLAINTEXT else {
      throw TransportFailure(
        code: GIT_EAUTH.rawValue, message: "the server asks for a user name and password")
    }
    let plain = UnsafeMutableRawPointer(credential).assumingMemoryBound(
      to: git_credential_userpass_plaintext.self)
    return (
      plain.pointee.username.map { String(cString: $0) } ?? "",
      plain.pointee.password.map { String(cString: $0) } ?? ""
    )
  }

  /// A certificate callback's answer `rc` as accepted (true) or a failure.
  static func verdict(_ rc: Int32, host: String, detail: String) throws(TransportFailure) -> Bool {
    if rc == 0 { return true }
    if rc == GIT_PASSTHROUGH.rawValue {
      throw TransportFailure(
        code: GIT_ECERTIFICATE.rawValue,
        message: "the TLS certificate of \(host) is not trusted (\(detail))")
    }
    throw TransportFailure(code: rc, message: nil)
  }
}

/// One exchange of the smart protocol over http: the listing (GET) or a round (POST).
final class HTTPStream {
  private let session: HTTPSession
  private let url: String
  private let service: String
  private let listing: Bool
  private var body: [UInt8] = []
  private var exchange: HTTPExchange?
  private var bodyBuffer: UnsafeMutableBufferPointer<UInt8>?

  init(session: HTTPSession, url: String, service: String, listing: Bool) {
    (self.session, self.url, self.service, self.listing) = (session, url, service, listing)
  }

  deinit { finish() }

  func write(_ bytes: UnsafeRawBufferPointer) throws(TransportFailure) {
    guard exchange == nil else {
      throw TransportFailure("http: a request was written after its answer")
    }
    body.append(contentsOf: bytes)
  }

  func read(into buffer: UnsafeMutableRawPointer, size: Int) throws(TransportFailure) -> Int {
    if exchange == nil { try start() }
    let n: Int
    do {
      n = try exchange!.read(into: buffer, size: size)
    } catch {
      throw TransportFailure(message(for: error))
    }
    if listing && !sniffer.done {
      sniffer.see(UnsafeRawBufferPointer(start: buffer, count: n))
      if sniffer.isShallow {
        throw TransportFailure(ShallowSniffer.refusal(RemoteURL.redacted(url)))
      }
    }
    return n
  }

  /// Looks for a shallow repository in the advertisement (a listing's answer).
  private var sniffer = ShallowSniffer()

  func finish() {
    exchange?.cancel()
    exchange = nil
    bodyBuffer?.deallocate()
    bodyBuffer = nil
  }

  // MARK: The request

  private func start() throws(TransportFailure) {
    let address = try RemoteAddress(url)
    let base = session.base ?? address.base
    if session.credentials == nil, let user = address.user, let password = address.password {
      session.credentials = (user, password)
    }
    if !session.settings.tls.verify && address.secure && !session.warned {
      session.warned = true
      _ = try session.certificateAccepted(address.host, "not checked")
    }
    var target = listing ? "\(base)/info/refs?service=\(service)" : "\(base)/\(service)"
    var redirects = 0
    if !listing {
      let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(body.count, 1))
      _ = buffer.initialize(from: body)
      bodyBuffer = buffer
      body = []
    }
    while true {
      let exchange = try send(to: target)
      let answer = exchange.answered()
      if case .certificate(let detail)? = answer.failure, !session.skipVerification {
        exchange.cancel()
        if try session.certificateAccepted(address.host, detail) {
          session.skipVerification = true
          continue
        }
      }
      if let failure = answer.failure {
        exchange.cancel()
        throw TransportFailure(message(for: failure))
      }
      if try settle(
        answer, of: exchange, address: address, base: base, target: &target,
        redirects: &redirects)
      {
        return
      }
    }
  }

  /// The request to `target`, started: the body (a round's) and what the session knows.
  private func send(to target: String) throws(TransportFailure) -> HTTPExchange {
    var request = HTTPRequest(
      url: target, settings: session.settings,
      accept: listing ? nil : "application/x-\(service)-result", body: nil,
      credentials: session.credentials, skipVerification: session.skipVerification)
    if let buffer = bodyBuffer {
      request.body = (UnsafeBufferPointer(buffer), "application/x-\(service)-request")
    }
    do {
      return try HTTPExchange(
        request, onUpload: listing ? nil : { [session] in session.uploaded($0, $1) },
        onWait: { [session] in session.waited($0) })
    } catch {
      throw TransportFailure(message(for: error))
    }
  }

  /// What an answer means: true when its body is the protocol's (the exchange is kept to read
  /// it), false when the request goes again (a redirect followed, credentials asked for); an
  /// error status throws, in words for the user.
  private func settle(
    _ answer: HTTPExchange.Answer, of exchange: HTTPExchange, address: RemoteAddress,
    base: String, target: inout String, redirects: inout Int
  ) throws(TransportFailure) -> Bool {
    switch answer.status {
    case 200..<300:
      try checkType(answer, address: address)
      if session.base == nil { session.base = base }
      self.exchange = exchange
      return true
    case 301, 302, 303, 307, 308:
      guard listing, redirects < 5 else {
        exchange.cancel()
        throw TransportFailure(
          "\(address.redacted) redirected \(redirects == 5 ? "too many times" : "a request that cannot follow it") (HTTP \(answer.status))"
        )
      }
      // Followed here, not by curl: only on the same host (and never from https to http).
      exchange.cancel()
      redirects += 1
      guard let location = answer.location else {
        throw TransportFailure("\(address.redacted) redirected without saying where")
      }
      session.base = try movedBase(location, from: address)
      target = location
      return false
    case 401:
      exchange.cancel()
      // A refused password: the callback forgets it and may ask once more (TransferSession).
      session.credentials = try session.askCredentials(address.user ?? session.credentials?.0)
      return false
    case 404:
      exchange.cancel()
      throw TransportFailure("could not find repository at \(address.redacted) (HTTP 404)")
    case 403:
      exchange.cancel()
      // NB: not GIT_EAUTH: a 403 is the server's rule (a token's scope, single sign-on, a
      // rate limit), not a wrong password, and git keeps the saved credential for it.
      throw TransportFailure(
        code: GIT_ERROR.rawValue,
        message:
          "the server refused access to \(address.redacted) (HTTP 403)\(Self.detail(answer.errorBody)); a saved password is kept: check that your account (or token) may use this repository"
      )
    default:
      exchange.cancel()
      throw TransportFailure(
        "the server answered HTTP \(answer.status) for \(address.redacted)\(Self.detail(answer.errorBody))"
      )
    }
  }

  /// A smart server answers with the protocol's own content type; anything else (a login page,
  /// a dumb http server) is not a git server dinger can use.
  private func checkType(_ answer: HTTPExchange.Answer, address: RemoteAddress)
    throws(TransportFailure)
  {
    let expected =
      listing ? "application/x-\(service)-advertisement" : "application/x-\(service)-result"
    let type = answer.contentType?.split(separator: ";").first.map {
      $0.trimmingSpaces().lowercased()
    }
    guard type == expected else {
      throw TransportFailure(
        "\(address.redacted) is not a git repository served over smart http (the server answered \(type ?? "no content type") where \(expected) was expected)"
      )
    }
  }

  /// The repository's new address when the listing was redirected to `location`, checked to
  /// be on the same host and no less secure (a password for one host never goes to another).
  private func movedBase(_ location: String, from address: RemoteAddress) throws(TransportFailure)
    -> String
  {
    let suffix = "/info/refs?service=\(service)"
    let target = try RemoteAddress(
      location.hasSuffix(suffix) ? String(location.dropLast(suffix.count)) : location)
    guard target.host.lowercased() == address.host.lowercased(), target.port == address.port,
      target.secure || !address.secure
    else {
      throw TransportFailure(
        "\(address.redacted) redirected to another host (\(target.redacted)); dinger does not follow it, so nothing is sent there. If the repository moved, point the remote at its new address: git remote set-url origin \(target.redacted)"
      )
    }
    guard location.hasSuffix(suffix) else {
      throw TransportFailure(
        "\(address.redacted) redirected to \(target.redacted), which is not a git repository")
    }
    return target.base
  }

  private func message(for failure: HTTPFailure) -> String {
    switch failure {
    case .timedOut, .noCurl: return failure.message
    default: return "\(RemoteURL.redacted(url)): \(failure.message)"
    }
  }

  private static func detail(_ body: String) -> String {
    // NB: an HTML error page says nothing in its first line: its text, tags dropped.
    var text = body
    if body.containsText("<") {
      var out = ""
      var inTag = false
      for c in body.unicodeScalars {
        if c == "<" {
          inTag = true
        } else if c == ">" {
          inTag = false; out += " "
        } else if !inTag {
          out.unicodeScalars.append(c)
        }
      }
      text = out.split(whereSeparator: { $0 == " " || $0 == "\t" || $0.isNewline }).joined(
        separator: " ")
    }
    let line = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
    let clean = String(
      line.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7f }.prefix(200))
    return clean.isEmpty ? "" : ": \(clean)"
  }
}

/// An http(s) remote's address, split: the user and password are never part of what is
/// requested or printed.
struct RemoteAddress {
  var base: String
  var host: String
  var port: Int?
  var secure: Bool
  var user: String?
  var password: String?

  init(_ url: String) throws(TransportFailure) {
    guard var parts = URLComponents(string: url), let scheme = parts.scheme?.lowercased(),
      scheme == "http" || scheme == "https", let host = parts.host, !host.isEmpty
    else { throw TransportFailure("'\(RemoteURL.redacted(url))' is not an http or https address") }
    self.host = host
    port = parts.port
    secure = scheme == "https"
    user = parts.percentEncodedUser.map { $0.percentDecoded ?? $0 }
    password = parts.percentEncodedPassword.map { $0.percentDecoded ?? $0 }
    parts.user = nil
    parts.password = nil
    parts.query = nil
    parts.fragment = nil
    var text = parts.string ?? url
    while text.hasSuffix("/") { text.removeLast() }
    base = text
  }

  var redacted: String { base }
}
