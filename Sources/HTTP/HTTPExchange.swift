import Base
internal import CCurl
import FoundationEssentials
import Glibc
import Synchronization

/// One http request of the smart protocol, made by libcurl on a thread of its own: the response
/// body flows through a pipe to whoever reads it, so a large pack is never held in memory and a
/// slow reader slows the download. The request body, if any, is complete before the request
/// starts (a push's pack is prepared before the connection is used, so a server that closes idle
/// connections never sees one sit idle).
///
/// A server that cannot be reached within the low-speed time, that stays silent before its
/// answer for longer than `HTTPSettings.preparingTime`, or whose answer slows below the
/// low-speed limit once it flows, ends the exchange with an error instead of a wait that never
/// ends. While it is silent, `onWait` hears how long it has been, every few seconds.
public final class HTTPExchange: @unchecked Sendable {
  // NB: @unchecked, with each field's owner: `shared` is a Monitor; `errorBody`, `sent`, the
  // `last…` fields, `handle` and `writeFD` belong to the transfer thread (`perform` and curl's
  // callbacks on it); `readFD` to the reader, whose `cancel` (or deinit) closes it after the
  // transfer has finished with the pipe. `onUpload` runs on the transfer thread while its
  // owner waits on this exchange (a request body is whole before the request starts).
  /// How the server answered, once it has.
  public struct Answer {
    /// The HTTP status (0 when no answer came).
    public var status: Int
    public var contentType: String?
    /// Where a redirect points (never followed by curl: the transport checks it first).
    public var location: String?
    /// curl's error, when the exchange failed below HTTP.
    public var failure: HTTPFailure?
    /// The first bytes of a body that was not passed on (an error page).
    public var errorBody: String
    /// `Retry-After:` in seconds, when the server said one (a 429's, a 503's).
    public var retryAfter: Double?
  }

  private let api: UnsafePointer<dinger_curl_api>
  /// What the transfer thread and the reader share.
  private struct Shared {
    var answer: Answer?
    var finished = false
    var cancelled = false
    /// `Retry-After:` of the latest response, in seconds (set by the header callback).
    var retryAfter: Double?
  }
  private let shared = Monitor(Shared())
  private var readFD: Int32 = -1
  private var writeFD: Int32 = -1
  private var errorBody: [UInt8] = []
  private var sent: (Int, Int) = (0, 0)
  private let onUpload: ((Int, Int) -> Void)?
  private let onWait: ((Int) -> Void)?
  private let request: HTTPRequest
  /// The transfer thread's watch on how fast the answer comes (`Pace`).
  private var pace: Pace
  /// Why the transfer thread stopped the transfer, when it was too slow.
  private var stalled: HTTPFailure?

  /// Starts `request`: its answer comes from `answered()`, its body from `read(into:size:)`.
  /// `onUpload` hears the request's bytes sent so far (of how many), `onWait` the seconds the
  /// server has been silent while preparing its answer.
  public init(
    _ request: HTTPRequest, onUpload: ((Int, Int) -> Void)? = nil, onWait: ((Int) -> Void)? = nil
  ) throws(HTTPFailure) {
    guard let api = HTTPExchange.api else {
      // NB: dlerror() is NULL when nothing failed in dlopen itself (a missing symbol, say).
      throw HTTPFailure.noCurl(
        dlerror().map { String(cString: $0) } ?? "libcurl.so.4 lacks what dinger needs")
    }
    self.api = api
    self.request = request
    self.onUpload = onUpload
    self.onWait = onWait
    self.pace = Pace(settings: request.settings, now: Pace.now())
    var fds: [Int32] = [0, 0]
    guard pipe(&fds) == 0 else { throw HTTPFailure.local(String(cString: strerror(errno))) }
    for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    (readFD, writeFD) = (fds[0], fds[1])
    Threads.start { [self] in perform() }
  }

  deinit {
    cancel()
    if readFD >= 0 { close(readFD) }
  }

  /// libcurl, loaded on first use.
  nonisolated(unsafe) private static let api: UnsafePointer<dinger_curl_api>? = {
    dinger_curl_load().map { UnsafePointer($0) }
  }()

  /// Waits until the server has answered (the body is starting) or the exchange has ended.
  public func answered() -> Answer {
    shared.wait(until: { $0.answer != nil }) { shared, _ in shared.answer! }
  }

  /// Waits until the exchange has ended: the answer with the first bytes of an error's body
  /// (`answered` returns as soon as the status is known, before that body has come).
  public func ended() -> Answer {
    shared.wait(until: { $0.finished }) { shared, _ in shared.answer! }
  }

  /// Up to `size` bytes of the body; 0 at its end. Throws when the transfer failed midway.
  public func read(into buffer: UnsafeMutableRawPointer, size: Int) throws(HTTPFailure) -> Int {
    while true {
      let n = Glibc.read(readFD, buffer, size)
      if n > 0 { return n }
      if n < 0 && errno == EINTR { continue }
      if n < 0 { throw HTTPFailure.local(String(cString: strerror(errno))) }
      let failure = shared.wait(until: { $0.finished }) { shared, _ in shared.answer?.failure }
      if let failure { throw failure }
      return 0
    }
  }

  /// Stops the transfer (within about a second) and waits for its thread to end.
  public func cancel() {
    // NB: a reader that stopped at the end of what it wanted (a listing's flush) is usually at
    // the end of the answer too: a moment for curl to finish lets its connection be kept for
    // the next request, where stopping it mid-way would close it.
    shared.wait(seconds: 0.2, until: { $0.finished }) { shared, _ in shared.cancelled = true }
    // NB: a writer blocked on a full pipe is freed by EPIPE.
    if readFD >= 0 {
      close(readFD)
      readFD = -1
    }
    shared.wait(until: { $0.finished }) { _, _ in }
  }

  // MARK: The transfer thread

  private func perform() {
    let failure = transfer()
    let body = String(decoding: errorBody, as: UTF8.self)
    let last = (lastStatus, lastContentType, lastURL)
    shared.change { shared in
      var answer =
        shared.answer
        ?? Answer(status: 0, contentType: nil, location: nil, failure: nil, errorBody: body)
      answer.failure = failure
      if answer.status == 0 {
        // No body came (a 401 or a redirect without one): the last response's headers.
        (answer.status, answer.contentType, answer.location) = last
      }
      answer.errorBody = body
      answer.retryAfter = shared.retryAfter
      shared.answer = answer
      shared.finished = true
    }
    close(writeFD)
  }

  private var lastStatus = 0
  private var lastContentType: String?
  private var lastURL: String?

  /// One idle handle kept between requests: its connection cache lets the next request to
  /// the same server reuse the connection (TCP and TLS set up once per transfer, as git does).
  /// Its address (0 when none is kept).
  private static let idle = Mutex<UInt>(0)

  private func takeHandle() -> UnsafeMutableRawPointer? {
    if api.pointee.easy_reset != nil,
      let kept = UnsafeMutableRawPointer(
        bitPattern: Self.idle.withLock { idle in
          defer { idle = 0 }
          return idle
        })
    {
      api.pointee.easy_reset(kept)
      return kept
    }
    return api.pointee.easy_init()
  }

  private func giveBack(_ curl: UnsafeMutableRawPointer, reusable: Bool) {
    guard reusable, api.pointee.easy_reset != nil else { return api.pointee.easy_cleanup(curl) }
    let address = UInt(bitPattern: Int(bitPattern: curl))
    let kept = Self.idle.withLock { idle in
      guard idle == 0 else { return false }
      idle = address
      return true
    }
    if !kept { api.pointee.easy_cleanup(curl) }
  }

  private func transfer() -> HTTPFailure? {
    guard let curl = takeHandle() else { return .local("curl could not start") }
    var reusable = false
    defer { giveBack(curl, reusable: reusable) }
    let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
    errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    defer { errorBuffer.deallocate() }
    var options = Options(api: api, curl: curl)
    defer { options.release() }
    configure(&options, errorBuffer: errorBuffer)
    handle = curl
    let rc = api.pointee.easy_perform(curl)
    (lastStatus, lastContentType, lastURL) = currentHandleStatus()
    // NB: the handle points at this exchange's callbacks and buffers until reset; it is kept
    // only after a clean end (a failed or stopped transfer's connection is not worth keeping).
    _ = dinger_curl_set_pointer(api, curl, CURLOPT_ERRORBUFFER, nil)
    handle = nil
    if rc == CURLE_OK {
      reusable = true
      return nil
    }
    let detail =
      errorBuffer.pointee != 0
      ? String(cString: errorBuffer)
      : (api.pointee.easy_strerror(rc).map { String(cString: $0) } ?? "curl error \(rc.rawValue)")
    switch rc {
    case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE:
      return .certificate(detail)
    case CURLE_OPERATION_TIMEDOUT:
      return .timedOut(detail, seconds: request.settings.lowSpeedTime)
    case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
      return .unreachable(detail)
    case CURLE_ABORTED_BY_CALLBACK where stalled != nil:
      return stalled
    case CURLE_WRITE_ERROR, CURLE_ABORTED_BY_CALLBACK:
      return .cancelled
    default:
      return .network(detail)
    }
  }

  /// A handle's options being set, with the strings curl was given kept until the transfer
  /// is over (and the header list, freed with them).
  private struct Options {
    let api: UnsafePointer<dinger_curl_api>
    let curl: UnsafeMutableRawPointer
    var strings: [UnsafeMutablePointer<CChar>] = []
    var headers: UnsafeMutablePointer<curl_slist>?

    mutating func text(_ option: CURLoption, _ value: String) {
      let copy = strdup(value)!
      strings.append(copy)
      _ = dinger_curl_set_pointer(api, curl, option, copy)
    }

    func number(_ option: CURLoption, _ value: Int) {
      _ = dinger_curl_set_long(api, curl, option, value)
    }

    func release() {
      strings.forEach { free($0) }
      if let headers { api.pointee.slist_free_all(headers) }
    }
  }

  /// Sets the request on the handle: address, timeouts, TLS as git configures it, the user
  /// and password, headers and body, and this exchange's callbacks.
  private func configure(_ options: inout Options, errorBuffer: UnsafeMutablePointer<CChar>) {
    let curl = options.curl
    let settings = request.settings
    options.text(CURLOPT_URL, request.url)
    options.text(CURLOPT_USERAGENT, "git/2.0 (dinger; libgit2 1.5)")
    _ = dinger_curl_set_pointer(api, curl, CURLOPT_ERRORBUFFER, errorBuffer)
    options.number(CURLOPT_NOSIGNAL, 1)
    if let total = settings.totalTimeout {
      options.number(CURLOPT_TIMEOUT_MS, max(1, Int(total * 1000)))
      options.number(CURLOPT_CONNECTTIMEOUT_MS, max(1, Int(total * 1000)))
    } else {
      options.number(CURLOPT_CONNECTTIMEOUT, settings.lowSpeedTime)
    }
    // NB: no CURLOPT_LOW_SPEED_*: curl's limit counts from the start, and a server preparing a
    // big pack is silent for longer than it (git waits); `Pace` applies it once the answer flows.
    options.text(CURLOPT_ACCEPT_ENCODING, "")
    options.text(CURLOPT_PROTOCOLS_STR, "http,https")
    if let proxy = settings.proxy { options.text(CURLOPT_PROXY, proxy) }
    // TLS as git configures it.
    if let file = settings.tls.caFile { options.text(CURLOPT_CAINFO, file) }
    if let path = settings.tls.caPath { options.text(CURLOPT_CAPATH, path) }
    if let cert = settings.tls.certFile { options.text(CURLOPT_SSLCERT, cert) }
    if let key = settings.tls.keyFile { options.text(CURLOPT_SSLKEY, key) }
    if !settings.tls.verify || request.skipVerification {
      options.number(CURLOPT_SSL_VERIFYPEER, 0)
      options.number(CURLOPT_SSL_VERIFYHOST, 0)
    }
    if let (user, password) = request.credentials {
      options.text(CURLOPT_USERNAME, user)
      options.text(CURLOPT_PASSWORD, password)
      options.number(CURLOPT_HTTPAUTH, 1)  // CURLAUTH_BASIC (a macro Swift cannot see)
    }
    var lines = ["Expect:"]  // no 100-continue round trip before a pack
    if let accept = request.accept { lines.append("Accept: \(accept)") }
    lines += settings.extraHeaders
    if let body = request.body {
      lines.append("Content-Type: \(body.contentType)")
      options.number(CURLOPT_POST, 1)
      _ = dinger_curl_set_size(api, curl, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.bytes.count))
      _ = dinger_curl_set_pointer(api, curl, CURLOPT_POSTFIELDS, body.bytes.baseAddress)
    }
    if let method = request.method { options.text(CURLOPT_CUSTOMREQUEST, method) }
    for line in lines { options.headers = api.pointee.slist_append(options.headers, line) }
    _ = dinger_curl_set_pointer(api, curl, CURLOPT_HTTPHEADER, options.headers)
    let me = Unmanaged.passUnretained(self).toOpaque()
    _ = dinger_curl_set_write(api, curl, CURLOPT_WRITEFUNCTION, HTTPExchange.received)
    // NB: headers pass through a callback of the same shape: `Retry-After:` is kept.
    _ = dinger_curl_set_write(api, curl, CURLOPT_HEADERFUNCTION, HTTPExchange.header)
    _ = dinger_curl_set_pointer(api, curl, CURLOPT_HEADERDATA, me)
    _ = dinger_curl_set_pointer(api, curl, CURLOPT_WRITEDATA, me)
    options.number(CURLOPT_NOPROGRESS, 0)
    _ = dinger_curl_set_progress(api, curl, HTTPExchange.progressed)
    _ = dinger_curl_set_pointer(api, curl, CURLOPT_XFERINFODATA, me)
  }

  /// curl's header callback: one header line a call; `Retry-After: N` (seconds) is kept.
  private static let header: curl_write_callback = { data, size, count, me in
    guard let data, let me else { return 0 }
    let n = size * count
    let line = String(
      decoding: UnsafeRawBufferPointer(start: UnsafeRawPointer(data), count: min(n, 256)),
      as: UTF8.self)
    if line.lowercased().hasPrefix("retry-after:") {
      let value = String(line.dropFirst("retry-after:".count)).trimmed()
      let exchange = Unmanaged<HTTPExchange>.fromOpaque(me).takeUnretainedValue()
      exchange.shared.withLock { $0.retryAfter = Double(value).map { max(0, $0) } }
    }
    return n
  }

  /// curl's body callback: the first call fixes the answer; a 2xx body flows to the reader,
  /// another status's body is kept (4 KiB) for the message.
  private static let received: curl_write_callback = { data, size, count, me in
    guard let data, let me else { return 0 }
    let exchange = Unmanaged<HTTPExchange>.fromOpaque(me).takeUnretainedValue()
    return exchange.deliver(UnsafeRawPointer(data), size * count)
  }

  private func deliver(_ data: UnsafeRawPointer, _ count: Int) -> Int {
    let seen = shared.change { shared -> (status: Int, stop: Bool)? in
      if shared.answer == nil {
        let curl = currentHandleStatus()
        // NB: a redirect's body (apache sends one) says nothing; its Location is known for sure
        // only once the transfer ends, where `perform` takes it (read here it could be missing,
        // and the redirect read as one "without saying where").
        if (300..<400).contains(curl.status) { return nil }
        shared.answer = Answer(
          status: curl.status, contentType: curl.contentType, location: curl.url,
          failure: nil, errorBody: "")
      }
      return (shared.answer!.status, shared.cancelled)
    }
    guard let (status, stop) = seen else { return count }
    if stop { return 0 }
    guard (200..<300).contains(status) else {
      errorBody += UnsafeRawBufferPointer(
        start: data, count: min(count, max(0, 4096 - errorBody.count)))
      return count
    }
    var offset = 0
    while offset < count {
      let n = write(writeFD, data + offset, count - offset)
      if n < 0 && errno == EINTR { continue }
      if n <= 0 { return 0 }  // the reader went away: curl stops
      offset += n
    }
    return count
  }

  /// The status, content type and address of the response curl is delivering.
  private var handle: UnsafeMutableRawPointer?
  private func currentHandleStatus() -> (status: Int, contentType: String?, url: String?) {
    guard let handle else { return (0, nil, nil) }
    return (
      dinger_curl_status(api, handle),
      dinger_curl_string_info(api, handle, CURLINFO_CONTENT_TYPE).map { String(cString: $0) },
      dinger_curl_string_info(api, handle, CURLINFO_REDIRECT_URL).map { String(cString: $0) }
    )
  }

  private static let progressed: curl_xferinfo_callback = { me, _, dlnow, ultotal, ulnow in
    guard let me else { return 1 }
    let exchange = Unmanaged<HTTPExchange>.fromOpaque(me).takeUnretainedValue()
    return exchange.progress(sent: Int(ulnow), of: Int(ultotal), received: Int(dlnow))
  }

  private func progress(sent now: Int, of total: Int, received: Int) -> Int32 {
    if shared.withLock({ $0.cancelled }) { return 1 }
    switch pace.observe(sent: now, of: total, received: received, at: Pace.now()) {
    case .fine: break
    case .waiting(let seconds): onWait?(seconds)
    case .stalled(let failure):
      stalled = failure
      return 1
    }
    if total > 0, now != sent.0 {
      sent = (now, total)
      onUpload?(now, total)
    }
    return 0
  }
}
