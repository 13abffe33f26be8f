import Foundation

/// A real OpenSSH server on 127.0.0.1 with its own config, host key and authorized_keys,
/// started for a test and stopped afterwards. OpenSSH reads the user's files from the passwd
/// home, not $HOME, so clients here are pointed at the test's own `ssh_config` (through
/// GIT_SSH_COMMAND, core.sshCommand or a Host alias), never at ~/.ssh.
public final class SSHServer: @unchecked Sendable {
  public let folder: TemporaryDirectory
  public let port: Int
  public let pid: pid_t

  /// Paths of the server's host public key and the client files.
  public var hostPublicKey: String { folder.path("host_ed25519.pub") }
  public var knownHosts: String { folder.path("known_hosts") }
  public var clientConfig: String { folder.path("ssh_config") }

  public static var available: Bool {
    FileManager.default.isExecutableFile(atPath: "/usr/sbin/sshd")
      && ProcessRunner.which("ssh-keygen") != nil
  }

  /// Starts sshd accepting the public keys of `keys` (made with `makeKey`).
  public init(authorizing keys: [String] = ["ed25519"]) throws {
    folder = try TemporaryDirectory("dinger-sshd")
    try Self.keygen(["-t", "ed25519", "-f", folder.path("host_ed25519")])
    var authorized = ""
    for type in keys {
      let file = folder.path("id_\(type)")
      try Self.keygen(["-t", type] + (type == "rsa" ? ["-b", "3072"] : []) + ["-f", file])
      authorized += try String(contentsOfFile: file + ".pub", encoding: .utf8)
    }
    try folder.write("authorized_keys", authorized)
    try FileManager.default.createDirectory(atPath: "/run/sshd", withIntermediateDirectories: true)
    var started: (Int, pid_t)?
    for _ in 0..<5 {
      let port = GitDaemon.freePort()
      try folder.write(
        "sshd_config",
        """
        Port \(port)
        ListenAddress 127.0.0.1
        HostKey \(folder.path("host_ed25519"))
        PidFile \(folder.path("sshd.pid"))
        AuthorizedKeysFile \(folder.path("authorized_keys"))
        StrictModes no
        PasswordAuthentication no
        KbdInteractiveAuthentication no
        PubkeyAuthentication yes
        PermitRootLogin prohibit-password
        UsePAM no
        LogLevel ERROR

        """)
      let pid = try ProcessRunner.start(
        "/usr/sbin/sshd", ["-D", "-e", "-f", folder.path("sshd_config")])
      if GitDaemon.waitListening(port) {
        started = (port, pid)
        break
      }
      ProcessRunner.stop(pid)
    }
    guard let started else { throw CancellationError() }
    (port, pid) = started
    let hostKey = try String(contentsOfFile: hostPublicKey, encoding: .utf8)
      .split(separator: " ").prefix(2).joined(separator: " ")
    try folder.write("known_hosts", "[127.0.0.1]:\(port) \(hostKey)\n")
    try writeClientConfig(identity: "id_\(keys[0])")
  }

  /// The client's config: this server's known_hosts, one identity, no agent, no prompts.
  public func writeClientConfig(identity: String?, alias: String? = nil) throws {
    var text = ""
    if let alias {
      text += "Host \(alias)\n  HostName 127.0.0.1\n  Port \(port)\n  User root\n"
    }
    text += "Host *\n  UserKnownHostsFile \(knownHosts)\n  GlobalKnownHostsFile /dev/null\n"
    text += "  StrictHostKeyChecking yes\n  BatchMode yes\n  IdentityAgent none\n"
    if let identity {
      text += "  IdentityFile \(folder.path(identity))\n  IdentitiesOnly yes\n"
    }
    try folder.write("ssh_config", text)
  }

  /// `ssh://root@127.0.0.1:PORT/PATH`.
  public func url(_ path: String) -> String { "ssh://root@127.0.0.1:\(port)\(path)" }

  public static func keygen(_ arguments: [String]) throws {
    let r = try ProcessRunner.run("/usr/bin/ssh-keygen", ["-q", "-N", ""] + arguments)
    guard r.status == 0 else { throw CancellationError() }
  }

  deinit { ProcessRunner.stop(pid) }
}
