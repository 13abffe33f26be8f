import Base
internal import CGit2
import FoundationEssentials
import Glibc

/// ssh remotes (`ssh://`, `git+ssh://`, `ssh+git://` and scp-like `host:path`) through the
/// system's OpenSSH, as git does, instead of libgit2's libssh2: `~/.ssh/config` (Host aliases,
/// Port, User, IdentityFile, ProxyJump), agents, key files with passphrases (ssh asks on the
/// terminal itself), known_hosts with ports and hashed names, and modern key types then all
/// behave exactly as they do for `git`.
///
/// Registered once as a smart subtransport (libgit2 1.5 cannot run `ssh` itself; 1.7 can). It
/// runs `ssh [-p PORT] [USER@]HOST "git-upload-pack 'PATH'"` (or `git-receive-pack`), or the
/// command in `GIT_SSH_COMMAND` / `core.sshCommand` / `GIT_SSH`, with an argument array: the
/// host and path, which come from an untrusted URL, are arguments, never shell text of ours,
/// and a host or path starting with `-` is refused (git's CVE-2017-1000117). The smart protocol
/// flows over the child's pipes.
enum SSHTransport {
  /// Registers the transport with libgit2 (once per process).
  static let registered: Void = {
    // NB: libgit2 takes the scheme without "://" (its header says otherwise).
    for prefix in ["ssh", "ssh+git", "git+ssh"] {
      _ = git_transport_register(prefix, transportCallback, nil)
    }
  }()

  /// The subtransport definition libgit2's smart transport is built on (lives forever).
  nonisolated(unsafe) static let definition:
    UnsafeMutablePointer<git_smart_subtransport_definition> = {
      let d = UnsafeMutablePointer<git_smart_subtransport_definition>.allocate(capacity: 1)
      d.initialize(
        to: git_smart_subtransport_definition(callback: subtransportCallback, rpc: 0, param: nil))
      return d
    }()

  static let transportCallback: git_transport_cb = { out, owner, _ in
    // NB: the remote's repository tells core.sshCommand; kept for the subtransport.
    // NB: git_transport_smart makes the subtransport before it returns: the command waits
    // for it here.
    registry.leave(owner.flatMap { SSHTransport.configuredCommand(git_remote_owner($0)) })
    return git_transport_smart(out, owner, UnsafeMutableRawPointer(SSHTransport.definition))
  }

  static let subtransportCallback: git_smart_subtransport_cb = { out, _, _ in
    let raw = UnsafeMutablePointer<git_smart_subtransport>.allocate(capacity: 1)
    raw.initialize(
      to: git_smart_subtransport(action: actionCallback, close: closeCallback, free: freeCallback))
    registry.setSubtransport(Subtransport(command: registry.take()), for: raw)
    out?.pointee = raw
    return 0
  }

  static let actionCallback:
    @convention(c) (
      UnsafeMutablePointer<UnsafeMutablePointer<git_smart_subtransport_stream>?>?,
      UnsafeMutablePointer<git_smart_subtransport>?, UnsafePointer<CChar>?, git_smart_service_t
    ) -> Int32 = { out, subtransport, url, action in
      guard let subtransport, let url,
        let state = registry.subtransport(subtransport)
      else { return -1 }
      let service: String
      switch action {
      case GIT_SERVICE_UPLOADPACK_LS, GIT_SERVICE_UPLOADPACK: service = "git-upload-pack"
      default: service = "git-receive-pack"
      }
      if action == GIT_SERVICE_UPLOADPACK || action == GIT_SERVICE_RECEIVEPACK {
        // The natural progression: the stream the listing opened carries on.
        guard let current = state.current else {
          git_error_set_str(Int32(GIT_ERROR_NET.rawValue), "ssh: no connection to continue")
          return -1
        }
        out?.pointee = current
        return 0
      }
      do {
        let target = try SSHTarget(url: String(cString: url))
        let connection = try SSHConnection(target: target, service: service, command: state.command)
        let stream = UnsafeMutablePointer<git_smart_subtransport_stream>.allocate(capacity: 1)
        stream.initialize(
          to: git_smart_subtransport_stream(
            subtransport: subtransport, read: readCallback, write: writeCallback,
            free: streamFreeCallback))
        registry.setStream(connection, for: stream)
        state.current = stream
        out?.pointee = stream
        return 0
      } catch {
        git_error_set_str(Int32(GIT_ERROR_NET.rawValue), SSHError.describe(error))
        return -1
      }
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
      guard let stream, let buffer, let connection = registry.stream(stream)
      else { return -1 }
      do {
        read?.pointee = try connection.read(into: UnsafeMutableRawPointer(buffer), size: size)
        return 0
      } catch {
        git_error_set_str(Int32(GIT_ERROR_NET.rawValue), SSHError.describe(error))
        return -1
      }
    }

  static let writeCallback:
    @convention(c) (
      UnsafeMutablePointer<git_smart_subtransport_stream>?, UnsafePointer<CChar>?, Int
    )
      -> Int32 = { stream, buffer, size in
        guard let stream, let buffer,
          let connection = registry.stream(stream)
        else { return -1 }
        do {
          try connection.write(UnsafeRawBufferPointer(start: buffer, count: size))
          return 0
        } catch {
          git_error_set_str(Int32(GIT_ERROR_NET.rawValue), SSHError.describe(error))
          return -1
        }
      }

  static let streamFreeCallback:
    @convention(c) (UnsafeMutablePointer<git_smart_subtransport_stream>?) -> Void = {
      stream in
      guard let stream else { return }
      registry.removeStream(stream)?.finish()
      if let owner = stream.pointee.subtransport, let state = registry.subtransport(owner),
        state.current == stream
      {
        state.current = nil
      }
      stream.deallocate()
    }

  /// `core.sshCommand` of a repository, if set.
  static func configuredCommand(_ repository: OpaquePointer?) -> String? {
    guard let repository else { return nil }
    var config: OpaquePointer?
    guard git_repository_config_snapshot(&config, repository) == 0 else { return nil }
    defer { git_config_free(config) }
    var value: UnsafePointer<CChar>?
    guard git_config_get_string(&value, config, "core.sshCommand") == 0, let value else {
      return nil
    }
    return String(cString: value)
  }

  /// One subtransport's state: the ssh command it uses, and the stream it has open.
  final class Subtransport {
    let command: String?
    var current: UnsafeMutablePointer<git_smart_subtransport_stream>?
    init(command: String?) { self.command = command }
  }

  /// The Swift objects behind libgit2's C structs, by address.
  static let registry = TransportRegistry<String, Subtransport, SSHConnection>()
}

/// Where an ssh URL points: user, host, port and the repository's path on the server.
struct SSHTarget: Equatable {
  var user: String?
  var host: String
  var port: Int?
  var path: String

  init(user: String?, host: String, port: Int?, path: String) {
    (self.user, self.host, self.port, self.path) = (user, host, port, path)
  }

  /// Reads `ssh://[user@]host[:port]/path` (and `git+ssh://`, `ssh+git://`) or the scp-like
  /// `[user@]host:path`; refuses a host or path that starts with `-`.
  init(url: String) throws(SSHError) {
    var rest = Substring(url)
    var scpLike = true
    for scheme in ["ssh://", "git+ssh://", "ssh+git://"] where rest.hasPrefix(scheme) {
      rest = rest.dropFirst(scheme.count)
      scpLike = false
    }
    if scpLike {
      guard let colon = rest.firstIndex(of: ":") else { throw .badURL(url) }
      var hostPart = rest[..<colon]
      path = String(rest[rest.index(after: colon)...])
      if let at = hostPart.lastIndex(of: "@") {
        user = String(hostPart[..<at])
        hostPart = hostPart[hostPart.index(after: at)...]
      }
      host = String(hostPart)
    } else {
      let slash = rest.firstIndex(of: "/") ?? rest.endIndex
      var authority = rest[..<slash]
      var p = String(rest[slash...])
      // NB: ssh://host/~user/repo is relative to that user's home, as in git.
      if p.hasPrefix("/~") { p.removeFirst() }
      path = p.percentDecoded ?? p
      if let at = authority.lastIndex(of: "@") {
        user = String(authority[..<at]).percentDecoded
        authority = authority[authority.index(after: at)...]
      }
      if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
        host = String(authority[authority.index(after: authority.startIndex)..<close])
        let after = authority[authority.index(after: close)...]
        if after.hasPrefix(":") { port = Int(after.dropFirst()) }
      } else if let colon = authority.lastIndex(of: ":") {
        host = String(authority[..<colon])
        port = Int(authority[authority.index(after: colon)...])
      } else {
        host = String(authority)
      }
    }
    guard !host.isEmpty, !path.isEmpty else { throw .badURL(url) }
    if host.hasPrefix("-") || path.hasPrefix("-") || (user?.hasPrefix("-") ?? false) {
      throw .optionLike(url)
    }
  }

  /// `user@host`, or the host.
  var destination: String { user.map { "\($0)@\(host)" } ?? host }

  /// The command the server's shell runs: `git-upload-pack '/srv/team.git'`.
  func remoteCommand(_ service: String) -> String {
    "\(service) '" + path.replacingText("'", with: "'\\''") + "'"
  }
}

/// Why an ssh transfer could not go on.
enum SSHError: Error {
  case badURL(String)
  case optionLike(String)
  case cannotStart(String)
  case failed(String)

  static func describe(_ error: any Error) -> String {
    (error as? SSHError)?.message ?? "\(error)"
  }

  var message: String {
    switch self {
    case .badURL(let url): return "'\(url)' is not an ssh address (ssh://host/path or host:path)"
    case .optionLike(let url):
      return
        "'\(url)' names a host or path that starts with '-', which ssh would take for an option; dinger refuses it"
    case .cannotStart(let why): return "could not run ssh: \(why)"
    case .failed(let why): return why
    }
  }
}
