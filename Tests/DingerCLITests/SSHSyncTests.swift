import Foundation
import TestSupport
import Testing

/// `dinger sync` and `clone` over ssh through the system's OpenSSH, as git uses it.
@Suite(
  .enabled(
    if: Prerequisite.met(SSHServer.available), "needs openssh-server (make deps installs it)"))
struct SSHSyncTests {
  /// A data repository with a scrum, and a bare remote beside it.
  func team(_ server: SSHServer) throws -> (Sandbox, remote: URL) {
    let box = try Sandbox()
    let remote = box.home.url.appendingPathComponent("remote.git")
    try box.git("init", "-q", "--bare", "-b", "main", remote.path, in: box.home.url)
    #expect(try box.dinger("init").status == 0)
    #expect(try box.dinger("scrum", "new", "Design", "--attendee", "Ada").status == 0)
    return (box, remote)
  }

  /// Two teammates over ssh: one pushes, one clones, both change different fields, both sync.
  func roundTrip(
    _ box: Sandbox, url: String, env: [String: String],
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    var r = try box.dinger(["remote", "add", "origin", url], env: env)
    #expect(r.status == 0, "\(r.stderr)", sourceLocation: sourceLocation)
    r = try box.dinger(["sync"], env: env)
    #expect(r.status == 0, "sync: \(r.stderr)", sourceLocation: sourceLocation)
    let copy = box.home.url.appendingPathComponent("copy")
    r = try box.dinger(["clone", url, copy.path], in: box.home.url, env: env)
    #expect(r.status == 0, "clone: \(r.stderr)", sourceLocation: sourceLocation)
    #expect(try box.dinger(["scrum", "edit", "design", "--length", "25"], in: copy).status == 0)
    #expect(
      try box.dinger(["sync"], in: copy, env: env).status == 0, sourceLocation: sourceLocation)
    #expect(try box.dinger(["scrum", "edit", "design", "--theme", "sky"]).status == 0)
    r = try box.dinger(["sync"], env: env)
    #expect(r.status == 0, "\(r.stderr)", sourceLocation: sourceLocation)
    let text = try box.read("scrums/design.yaml")
    #expect(
      text.contains("length: 25") && text.contains("theme: sky"), sourceLocation: sourceLocation)
  }

  @Test func aKeyFileWithoutAnAgent() throws {
    let server = try SSHServer()
    let (box, remote) = try team(server)
    try roundTrip(
      box, url: server.url(remote.path),
      env: ["GIT_SSH_COMMAND": "ssh -F \(server.clientConfig)", "SSH_AUTH_SOCK": ""])
  }

  @Test func anRSAKey() throws {
    let server = try SSHServer(authorizing: ["rsa"])
    let (box, remote) = try team(server)
    try roundTrip(
      box, url: server.url(remote.path), env: ["GIT_SSH_COMMAND": "ssh -F \(server.clientConfig)"])
  }

  @Test func aKeyInAnAgent() throws {
    let server = try SSHServer()
    try server.writeClientConfig(identity: nil)
    // The agent config: no IdentityFile, the agent's socket instead.
    let config = try String(contentsOfFile: server.clientConfig, encoding: .utf8)
      .replacingOccurrences(of: "  IdentityAgent none\n", with: "")
    try config.write(toFile: server.clientConfig, atomically: true, encoding: .utf8)
    let socket = server.folder.path("agent.sock")
    let agent = try ProcessRunner.start("/usr/bin/ssh-agent", ["-D", "-a", socket])
    defer { ProcessRunner.stop(agent) }
    for _ in 0..<100 where !FileManager.default.fileExists(atPath: socket) { usleep(20_000) }
    let added = try ProcessRunner.run(
      "/usr/bin/ssh-add", [server.folder.path("id_ed25519")], environment: ["SSH_AUTH_SOCK": socket]
    )
    #expect(added.status == 0, "\(added.stderr)")
    let (box, remote) = try team(server)
    try roundTrip(
      box, url: server.url(remote.path),
      env: ["GIT_SSH_COMMAND": "ssh -F \(server.clientConfig)", "SSH_AUTH_SOCK": socket])
  }

  /// A Host alias with HostName, Port, User and IdentityFile, named in an scp-like address,
  /// with the ssh command set in git's config (core.sshCommand) rather than the environment.
  @Test func aHostAliasFromCoreSSHCommand() throws {
    let server = try SSHServer()
    try server.writeClientConfig(identity: "id_ed25519", alias: "teamserver")
    let (box, remote) = try team(server)
    try box.git("config", "core.sshCommand", "ssh -F \(server.clientConfig)")
    try box.git("config", "--global", "core.sshCommand", "ssh -F \(server.clientConfig)")
    try roundTrip(box, url: "teamserver:\(remote.path)", env: [:])
  }

  /// Hashed known_hosts entries for [host]:port work; a changed host key is refused with
  /// ssh's own words and advice.
  @Test func knownHostsWithPortsHashedAndChanged() throws {
    let server = try SSHServer()
    let hashed = try ProcessRunner.run("/usr/bin/ssh-keygen", ["-H", "-f", server.knownHosts])
    #expect(hashed.status == 0)
    #expect(!(try String(contentsOfFile: server.knownHosts, encoding: .utf8)).contains("127.0.0.1"))
    let (box, remote) = try team(server)
    let env = ["GIT_SSH_COMMAND": "ssh -F \(server.clientConfig)"]
    #expect(
      try box.dinger(["remote", "add", "origin", server.url(remote.path)], env: env).status == 0)
    var r = try box.dinger(["sync"], env: env)
    #expect(r.status == 0, "\(r.stderr)")
    // Another key for the same [host]:port.
    try SSHServer.keygen(["-t", "ed25519", "-f", server.folder.path("other")])
    let other = try String(contentsOfFile: server.folder.path("other.pub"), encoding: .utf8)
      .split(separator: " ").prefix(2).joined(separator: " ")
    try "[127.0.0.1]:\(server.port) \(other)\n".write(
      toFile: server.knownHosts, atomically: true, encoding: .utf8)
    #expect(try box.dinger("scrum", "edit", "design", "--length", "30").status == 0)
    r = try box.dinger(["sync"], env: env)
    #expect(r.status == 1)
    #expect(
      r.stderr.contains("REMOTE HOST IDENTIFICATION HAS CHANGED")
        || r.stderr.contains("Host key verification failed"), "\(r.stderr)")
    #expect(r.stderr.contains("known_hosts"), "\(r.stderr)")
  }

  /// A server that accepts the connection and then says nothing: the sync fails within the
  /// idle time, and the child is gone.
  @Test func aServerThatStopsAnsweringFailsInTime() throws {
    let box = try Sandbox()
    #expect(try box.dinger("init").status == 0)
    let env = [
      "GIT_SSH_COMMAND": "sleep 300; true", "DINGER_SSH_IDLE_TIMEOUT": "2",
    ]
    #expect(
      try box.dinger(["remote", "add", "origin", "ssh://127.0.0.1:1/x.git"], env: env).status == 0)
    let started = Date()
    let r = try box.dinger(["sync"], env: env)
    #expect(r.status == 1)
    #expect(r.stderr.contains("sent nothing for 2 s"), "\(r.stderr)")
    #expect(Date().timeIntervalSince(started) < 60)
  }

  @Test func aRefusedKeySaysSo() throws {
    let server = try SSHServer()
    try SSHServer.keygen(["-t", "ed25519", "-f", server.folder.path("stranger")])
    try server.writeClientConfig(identity: "stranger")
    let (box, remote) = try team(server)
    let env = ["GIT_SSH_COMMAND": "ssh -F \(server.clientConfig)"]
    #expect(
      try box.dinger(["remote", "add", "origin", server.url(remote.path)], env: env).status == 0)
    let r = try box.dinger(["sync"], env: env)
    #expect(r.status == 1)
    #expect(r.stderr.contains("Permission denied"), "\(r.stderr)")
    #expect(r.stderr.contains("ssh-add"), "\(r.stderr)")
  }

  /// The remote's pre-receive hook says no over ssh: the push is refused, and its words reach
  /// the user as `remote: ...` (side-band), as git shows them.
  @Test func aHooksRefusalReachesTheUser() throws {
    let server = try SSHServer()
    let (box, remote) = try team(server)
    let hook = remote.appendingPathComponent("hooks/pre-receive").path
    try "#!/bin/sh\necho 'policy: pushes are frozen until Monday' >&2\nexit 1\n".write(
      toFile: hook, atomically: true, encoding: .utf8)
    chmod(hook, 0o755)
    let env = ["GIT_SSH_COMMAND": "ssh -F \(server.clientConfig)", "SSH_AUTH_SOCK": ""]
    #expect(
      try box.dinger(["remote", "add", "origin", server.url(remote.path)], env: env).status == 0)
    let r = try box.dinger(["sync"], env: env)
    #expect(r.status == 1)
    #expect(r.stderr.contains("pre-receive hook declined"), "\(r.stderr)")
    #expect(r.stderr.contains("remote: policy: pushes are frozen until Monday"), "\(r.stderr)")
  }

  /// On a terminal with standard input redirected (`dinger sync < /dev/null`), ssh asks for the
  /// key's passphrase on the terminal, as it does for git (dinger looked at standard input and
  /// ran ssh in batch mode, so the key was never offered).
  @Test func aPassphraseIsAskedOnTheTerminalWithStdinRedirected() throws {
    guard ProcessRunner.which("tmux") != nil else { return }
    let server = try SSHServer()
    let key = server.folder.path("id_ed25519")
    let changed = try ProcessRunner.run(
      "/usr/bin/ssh-keygen", ["-q", "-p", "-P", "", "-N", "open sesame", "-f", key])
    #expect(changed.status == 0, "\(changed.stderr)")
    try server.writeClientConfig(identity: "id_ed25519")
    // NB: the test's own config, without the BatchMode the shared one sets.
    let config = try String(contentsOfFile: server.clientConfig, encoding: .utf8)
      .replacingOccurrences(of: "  BatchMode yes\n", with: "")
    try config.write(toFile: server.clientConfig, atomically: true, encoding: .utf8)
    let (box, remote) = try team(server)
    #expect(try box.dinger("remote", "add", "origin", server.url(remote.path)).status == 0)
    // plain `ssh` (where dinger chooses batch mode) found first on PATH: the real one with
    // the test's config.
    try box.home.write(
      "bin/ssh", "#!/bin/sh\nexec /usr/bin/ssh -F '\(server.clientConfig)' \"$@\"\n")
    chmod(box.home.path("bin/ssh"), 0o755)
    let exit = box.home.url.appendingPathComponent("exit")
    let env = box.environment.map { "\($0.key)='\($0.value)'" }.joined(separator: " ")
    let command =
      "cd '\(box.data.path)'; env \(env) PATH='\(box.home.path("bin")):/usr/bin:/bin' SSH_AUTH_SOCK= '\(dingerBinary)' sync < /dev/null; echo $? > '\(exit.path)'; sleep 30"
    let tmux = Tmux()
    _ = try tmux.run(["new-session", "-d", "-s", "main", "-x", "100", "-y", "24", command])
    #expect(tmux.wait(for: "passphrase", seconds: 30), "\(tmux.screen())")
    // NB: a sync asks once per connection (a fetch, then a push): each prompt is answered.
    var answered = 0
    let deadline = Date().addingTimeInterval(60)
    while Date() < deadline && !FileManager.default.fileExists(atPath: exit.path) {
      let asked = tmux.screen().components(separatedBy: "Enter passphrase").count - 1
      if asked > answered {
        usleep(300_000)
        tmux.keys("open sesame", "Enter")
        answered = asked
      }
      usleep(100_000)
    }
    #expect(answered >= 1)
    let status = try? String(contentsOf: exit, encoding: .utf8)
    let screen = tmux.screen()
    #expect(status == "0\n", "\(screen)")
    #expect(try box.git("ls-remote", remote.path).contains("refs/heads/main"))
  }
}
