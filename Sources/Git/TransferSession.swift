import Base
internal import CGit2
import FoundationEssentials
import Glibc
import HTTP
import Processes

/// The callbacks of one fetch, push or clone: progress, credentials (ssh-agent and key files for
/// ssh; git's credential helpers for https; a bounded number of attempts), and the remote's
/// answer to each pushed reference. libgit2 checks host keys and certificates itself.
public final class TransferSession {
  /// Called as objects arrive.
  public var onProgress: ((TransferProgress) -> Void)?
  /// The remote's reason for refusing a pushed reference, if it did.
  public internal(set) var refused: String?
  /// How many times credentials may be offered before giving up.
  public var maxAttempts = 3

  /// Things the user must hear (certificate checks turned off).
  public internal(set) var warnings: [String] = []
  /// The branches the remote listed during a fetch.
  public internal(set) var remoteBranches: [String] = []
  /// What the remote's receive-pack (its hooks) said during a push, a line each.
  public internal(set) var remoteMessages: [String] = []
  /// The TLS settings of the transfer (set by the transfer from git's config).
  var tls = TLSSettings()

  private var attempts = 0
  private var passwordTries = 0
  var helperCredentials: [String: String]?
  private var lastKind = ""

  /// A session.
  public init(onProgress: ((TransferProgress) -> Void)? = nil) { self.onProgress = onProgress }

  /// Takes git's TLS settings of `repository` (nil for a clone: the user's config).
  func configure(for repository: Repository?, url: String? = nil) {
    // NB: URL-scoped settings too (`http.<url>.sslVerify`), as the transfer itself reads them.
    tls =
      url.map { url in
        HTTPSettings.read(
          config: { Repository.config($0, of: (try? repository?.raw) ?? nil) }, url: url
        ).tls
      } ?? TLSSettings.current(repository)
  }

  func install(_ callbacks: inout git_remote_callbacks) {
    callbacks.payload = Unmanaged.passUnretained(self).toOpaque()
    callbacks.credentials = { out, url, user, allowed, payload in
      let session = Unmanaged<TransferSession>.fromOpaque(payload!).takeUnretainedValue()
      return session.credentials(
        out, url: url.map { String(cString: $0) } ?? "", user: user.map { String(cString: $0) },
        allowed: allowed)
    }
    callbacks.transfer_progress = { stats, payload in
      let session = Unmanaged<TransferSession>.fromOpaque(payload!).takeUnretainedValue()
      if let s = stats?.pointee, let report = session.onProgress {
        if s.received_objects < s.total_objects || s.total_deltas == 0 {
          report(
            TransferProgress(
              received: Int(s.received_objects), total: Int(s.total_objects),
              bytes: Int(s.received_bytes)))
        } else {
          report(
            TransferProgress(
              received: Int(s.indexed_deltas), total: Int(s.total_deltas),
              bytes: Int(s.received_bytes), stage: .resolving))
        }
      }
      return 0
    }
    // A push's stages: counting and compressing objects, then sending them.
    callbacks.pack_progress = { stage, current, total, payload in
      let session = Unmanaged<TransferSession>.fromOpaque(payload!).takeUnretainedValue()
      session.onProgress?(
        TransferProgress(
          received: Int(current), total: Int(total), bytes: 0,
          stage: stage == Int32(GIT_PACKBUILDER_ADDING_OBJECTS.rawValue) ? .counting : .compressing)
      )
      return 0
    }
    callbacks.push_transfer_progress = { current, total, bytes, payload in
      let session = Unmanaged<TransferSession>.fromOpaque(payload!).takeUnretainedValue()
      session.onProgress?(
        TransferProgress(
          received: Int(current), total: Int(total), bytes: Int(bytes), stage: .writing))
      return 0
    }
    callbacks.certificate_check = { cert, valid, host, payload in
      let session = Unmanaged<TransferSession>.fromOpaque(payload!).takeUnretainedValue()
      return session.checkCertificate(
        cert, valid: valid != 0, host: host.map { String(cString: $0) } ?? "")
    }
    callbacks.push_update_reference = { ref, status, payload in
      let session = Unmanaged<TransferSession>.fromOpaque(payload!).takeUnretainedValue()
      if let status {
        session.refused = "\(ref.map { String(cString: $0) } ?? "?"): \(String(cString: status))"
      }
      return 0
    }
  }

  /// https: libgit2's verdict stands. (ssh goes through OpenSSH, which checks known_hosts
  /// itself; see `SSHTransport`.)
  func checkCertificate(_ cert: UnsafeMutablePointer<git_cert>?, valid: Bool, host: String)
    -> Int32
  {
    if valid { return 0 }
    if !tls.verify {
      let warning =
        "the TLS certificate of \(host) was not checked (http.sslVerify is false or GIT_SSL_NO_VERIFY is set): anyone between you and the server could read and change what is sent"
      if !warnings.contains(warning) { warnings.append(warning) }
      return 0
    }
    git_error_set_str(
      Int32(GIT_ERROR_NET.rawValue),
      "the TLS certificate of \(host) is not trusted; check the address, and name the server's certificate authority in git's config (git config http.sslCAInfo FILE, or GIT_SSL_CAINFO)"
    )
    return GIT_ECERTIFICATE.rawValue
  }

  func credentials(
    _ out: UnsafeMutablePointer<UnsafeMutablePointer<git_credential>?>?, url: String,
    user: String?, allowed: UInt32
  ) -> Int32 {
    attempts += 1
    guard attempts <= maxAttempts else {
      git_error_set_str(
        Int32(GIT_ERROR_NET.rawValue), "gave up after \(maxAttempts) attempts to authenticate")
      return GIT_EAUTH.rawValue
    }
    let user = user ?? "git"
    if allowed & GIT_CREDENTIAL_USERPASS_PLAINTEXT.rawValue != 0 {
      // NB: asked again means the last answer was refused: the helper forgets it (as git's
      // `credential reject`), and one more answer is tried (a prompt may give the right one).
      if let refused = helperCredentials {
        _ = Self.credentialHelper("reject", url: url, extra: refused)
        helperCredentials = nil
        passwordTries += 1
        guard passwordTries < 2 else {
          git_error_set_str(
            Int32(GIT_ERROR_NET.rawValue),
            "the server refused the user name and password for \(RemoteURL.redacted(url)) (asked twice); store the right ones with your git credential helper"
          )
          return GIT_EAUTH.rawValue
        }
      }
      guard let found = Self.credentialHelper("fill", url: url, extra: [:]),
        let name = found["username"], let password = found["password"]
      else {
        // NB: the helper had one, the server refused it (401), and the helper forgot it:
        // "no credentials" would blame the setup, not the password.
        if passwordTries > 0 {
          git_error_set_str(
            Int32(GIT_ERROR_NET.rawValue),
            "the server refused the saved user name and password for \(RemoteURL.redacted(url)) (HTTP 401), so your git credential helper was told to forget them, as git does; store the right ones (a git fetch asks for them) and try again"
          )
          return GIT_EAUTH.rawValue
        }
        git_error_set_str(
          Int32(GIT_ERROR_NET.rawValue),
          "no credentials for \(RemoteURL.redacted(url)); store them with a git credential helper (git config --global credential.helper store) and try again"
        )
        return GIT_EAUTH.rawValue
      }
      helperCredentials = found
      lastKind = "https"
      return git_credential_userpass_plaintext_new(out, name, password)
    }
    if allowed & GIT_CREDENTIAL_USERNAME.rawValue != 0 {
      return git_credential_username_new(out, user)
    }
    return GIT_PASSTHROUGH.rawValue
  }

  /// Runs `git credential fill|approve|reject` with the URL's parts; the helper's answer.
  static func credentialHelper(
    _ action: String, url: String, extra: [String: String],
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> [String: String]? {
    // NB: nothing that could end a line reaches the helper: it would read it as another field.
    guard (try? RemoteURL.check(url)) != nil,
      !extra.values.contains(where: {
        $0.containsText("\n") || $0.containsText("\0") || $0.containsText("\r")
      }
      ),
      let parts = URLComponents(string: url), let scheme = parts.scheme, let host = parts.host,
      !host.isEmpty
    else { return nil }
    var input = "protocol=\(scheme)\nhost=\(host)\(parts.port.map { ":\($0)" } ?? "")\n"
    if !parts.path.isEmpty { input += "path=\(parts.path.dropFirst())\n" }
    for (k, v) in extra.sorted(by: { $0.key < $1.key }) where k != "protocol" && k != "host" {
      input += "\(k)=\(v)\n"
    }
    input += "\n"
    var environment = environment
    // NB: git asks on the terminal when there is one (its prompt reads /dev/tty itself).
    if isatty(0) == 0 && isatty(2) == 0 { environment["GIT_TERMINAL_PROMPT"] = "0" }
    // NB: in dinger's own process group, so its prompt can read the terminal as under git;
    // its stderr is dropped (git's "fatal: could not read Username" would stand beside
    // dinger's own message).
    guard
      let result = try? ChildProcess.run(
        .init(
          ["git", "credential", action], environment: environment, errors: .null, group: .dingers),
        input: Array(input.utf8), limit: 1 << 20),
      result.termination.succeeded
    else { return nil }
    let data = result.output
    var out: [String: String] = [:]
    for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
      guard let eq = line.firstIndex(of: "=") else { continue }
      out[String(line[..<eq])] = String(line[line.index(after: eq)...])
    }
    return out
  }

  /// Tells the credential helper that the credentials it gave worked, or, only when the
  /// server refused them (HTTP 401: `code` is GIT_EAUTH), that they did not, as git does. A
  /// transfer that failed otherwise (killed, stalled, a server error) forgets nothing: a saved
  /// password must survive a network that went away.
  func settle(
    url: String, worked: Bool, code: Int32 = 0,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) {
    settledURL = url
    guard let used = helperCredentials else { return }
    if worked {
      _ = Self.credentialHelper("approve", url: url, extra: used, environment: environment)
    } else if code == GIT_EAUTH.rawValue {
      _ = Self.credentialHelper("reject", url: url, extra: used, environment: environment)
    }
    helperCredentials = nil
  }

  /// Turns a transfer's return code into a `GitError` whose message says what to do.
  /// The address of the transfer last settled (for messages).
  private var settledURL: String?

  func check(_ rc: Int32, _ operation: String) throws(GitError) {
    guard rc < 0 else { return }
    let raw =
      git_error_last().flatMap { $0.pointee.message.map { String(cString: $0) } } ?? "error \(rc)"
    // NB: git://, read by libgit2's own transport (not sniffed as http and ssh are): a shallow
    // repository's advertisement ("shallow" lines) is what it cannot parse. Named as the other
    // transports name it.
    if let url = settledURL, url.lowercased().hasPrefix("git://"),
      raw.containsText("error parsing REF pkt-line") || raw.containsText("invalid packet line")
    {
      throw GitError(
        code: rc, operation: operation, message: ShallowSniffer.refusal(RemoteURL.redacted(url)))
    }
    throw GitError(
      code: rc, operation: operation, message: Self.advice(rc, raw, attempts: attempts))
  }

  static func advice(_ rc: Int32, _ message: String, attempts: Int) -> String {
    let lower = message.lowercased()
    // NB: ssh's failures come from OpenSSH with their own advice (SSHConnection).
    if message.hasPrefix("ssh to ") || message.hasPrefix("could not run ssh") { return message }
    if rc == GIT_EAUTH.rawValue || lower.containsText("authentication") {
      if lower.containsText("credential helper") { return message }
      return message
        + "; the server refused the user name and password: store the right ones with your git credential helper (git credential reject forgets the old ones)"
    }
    if rc == GIT_ECERTIFICATE.rawValue || lower.containsText("certificate") {
      return message
    }
    if lower.containsText("could not find repository") || lower.containsText("not found")
      || lower.containsText("does not appear to be a git repository")
    {
      return message
        + "; check the address with 'dinger remote list' (the repository may have moved)"
    }
    if lower.containsText("connect") || lower.containsText("resolve")
      || lower.containsText("timed out")
      || lower.containsText("early eof") || lower.containsText("unexpected")
      || lower.containsText("socket")
    {
      return message
        + "; the remote could not be reached or stopped answering; nothing local changed, run 'dinger sync' again when it is back"
    }
    return message
  }
}
