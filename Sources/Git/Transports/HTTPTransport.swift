import Base
internal import CGit2
import FoundationEssentials
import Glibc
import HTTP

/// http and https remotes through libcurl, as git does, instead of libgit2 1.5's own client:
/// git's TLS settings, IP-address hosts (their certificates' IP SANs are checked), proxies,
/// a low-speed limit so a server that stops answering fails instead of hanging, and a push
/// whose pack is complete before the request starts (a server that closes idle connections
/// while the pack is prepared no longer kills it).
///
/// Registered once as a stateless (rpc) smart subtransport: each exchange of the protocol is
/// one request, `GET …/info/refs?service=S` for the listing, `POST …/S` for each round after.
/// Writes collect the request body; the first read sends it and streams the answer
/// (`HTTPExchange`). Credentials come from the transfer's credential callback (git's helpers,
/// `TransferSession`) when the server answers 401; a redirect of the first request is followed
/// only on the same host, so a password never goes to another one.
enum HTTPTransport {
  /// Registers the transport with libgit2 (once per process).
  static let registered: Void = {
    for scheme in ["http", "https"] {
      _ = git_transport_register(scheme, transportCallback, nil)
    }
  }()

  nonisolated(unsafe) static let definition:
    UnsafeMutablePointer<git_smart_subtransport_definition> = {
      let d = UnsafeMutablePointer<git_smart_subtransport_definition>.allocate(capacity: 1)
      d.initialize(
        to: git_smart_subtransport_definition(callback: subtransportCallback, rpc: 1, param: nil))
      return d
    }()

  static let transportCallback: git_transport_cb = { out, owner, _ in
    let repository = owner.flatMap { git_remote_owner($0) }
    let url = owner.flatMap { git_remote_url($0) }.map { String(cString: $0) }
    registry.leave(
      HTTPSettings.read(
        config: { Repository.config($0, of: repository) },
        values: { Repository.configValues($0, of: repository) }, url: url))
    return git_transport_smart(out, owner, UnsafeMutableRawPointer(HTTPTransport.definition))
  }

  static let subtransportCallback: git_smart_subtransport_cb = { out, owner, _ in
    let raw = UnsafeMutablePointer<git_smart_subtransport>.allocate(capacity: 1)
    raw.initialize(
      to: git_smart_subtransport(action: actionCallback, close: closeCallback, free: freeCallback))
    let settings = registry.take() ?? HTTPSettings()
    registry.setSubtransport(HTTPSession(owner: owner, settings: settings), for: raw)
    out?.pointee = raw
    return 0
  }

  static let actionCallback:
    @convention(c) (
      UnsafeMutablePointer<UnsafeMutablePointer<git_smart_subtransport_stream>?>?,
      UnsafeMutablePointer<git_smart_subtransport>?, UnsafePointer<CChar>?, git_smart_service_t
    ) -> Int32 = { out, subtransport, url, action in
      guard let subtransport, let url,
        let session = registry.subtransport(subtransport)
      else { return -1 }
      let service =
        action == GIT_SERVICE_UPLOADPACK_LS || action == GIT_SERVICE_UPLOADPACK
        ? "git-upload-pack" : "git-receive-pack"
      let listing = action == GIT_SERVICE_UPLOADPACK_LS || action == GIT_SERVICE_RECEIVEPACK_LS
      let stream = UnsafeMutablePointer<git_smart_subtransport_stream>.allocate(capacity: 1)
      stream.initialize(
        to: git_smart_subtransport_stream(
          subtransport: subtransport, read: readCallback, write: writeCallback,
          free: streamFreeCallback))
      registry.setStream(
        HTTPStream(session: session, url: String(cString: url), service: service, listing: listing),
        for: stream)
      out?.pointee = stream
      return 0
    }

  static let closeCallback:
    @convention(c) (UnsafeMutablePointer<git_smart_subtransport>?) -> Int32 = { _ in 0 }

  static let freeCallback: @convention(c) (UnsafeMutablePointer<git_smart_subtransport>?) -> Void =
    { raw in
      guard let raw else { return }
      registry.setSubtransport(nil, for: raw)
      raw.deallocate()
    }

  static let readCallback:
    @convention(c) (
      UnsafeMutablePointer<git_smart_subtransport_stream>?, UnsafeMutablePointer<CChar>?, Int,
      UnsafeMutablePointer<Int>?
    ) -> Int32 = { stream, buffer, size, read in
      guard let stream, let buffer, let http = registry.stream(stream)
      else { return -1 }
      do {
        read?.pointee = try http.read(into: UnsafeMutableRawPointer(buffer), size: size)
        return 0
      } catch {
        return error.report()
      }
    }

  static let writeCallback:
    @convention(c) (
      UnsafeMutablePointer<git_smart_subtransport_stream>?, UnsafePointer<CChar>?, Int
    )
      -> Int32 = { stream, buffer, size in
        guard let stream, let buffer, let http = registry.stream(stream)
        else { return -1 }
        do {
          try http.write(UnsafeRawBufferPointer(start: buffer, count: size))
          return 0
        } catch {
          return error.report()
        }
      }

  static let streamFreeCallback:
    @convention(c) (UnsafeMutablePointer<git_smart_subtransport_stream>?) -> Void = {
      stream in
      guard let stream else { return }
      registry.removeStream(stream)?.finish()
      stream.deallocate()
    }

  /// The Swift objects behind libgit2's C structs, by address.
  static let registry = TransportRegistry<HTTPSettings, HTTPSession, HTTPStream>()
}

/// A failure to hand to libgit2: its return code, and the message (nil when a callback of the
/// transfer already set it).
struct TransportFailure: Error {
  var code: Int32 = -1
  var message: String?

  init(_ message: String) { self.message = message }
  init(code: Int32, message: String?) { (self.code, self.message) = (code, message) }
}

extension Error {
  /// Sets libgit2's error message for this thread and returns its code.
  func report() -> Int32 {
    let failure = self as? TransportFailure ?? TransportFailure("\(self)")
    if let message = failure.message { git_error_set_str(Int32(GIT_ERROR_NET.rawValue), message) }
    return failure.code
  }
}
