import Foundation
import TestSupport
import Testing

@testable import Git

/// Credentials and messages of network transfers (no ssh or https server here: the parts that
/// do not need one).
@Suite struct TransferSessionTests {
  @Test func credentialsComeFromGitsHelpers() throws {
    let home = try TemporaryDirectory("dinger-cred")
    try home.write(
      ".gitconfig",
      "[credential]\n\thelper = \"!f() { test \\\"$1\\\" = get && echo username=ada && echo password=s3cret; }; f\"\n"
    )
    let env = [
      "HOME": home.url.path, "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin",
      "GIT_CONFIG_NOSYSTEM": "1",
    ]
    let found = TransferSession.credentialHelper(
      "fill", url: "https://example.com/team/scrums.git", extra: [:], environment: env)
    #expect(found?["username"] == "ada")
    #expect(found?["password"] == "s3cret")
    #expect(found?["host"] == "example.com")
    // No helper and no terminal: no answer rather than a prompt.
    try home.write(".gitconfig", "")
    let none = TransferSession.credentialHelper(
      "fill", url: "https://example.com/team/scrums.git", extra: [:], environment: env)
    #expect(none == nil)
  }

  /// git's rule: a helper's credentials are forgotten only when the server refused them (401),
  /// never after a transfer that failed otherwise (killed, stalled, a server error).
  @Test func onlyARefusalForgetsSavedCredentials() throws {
    let home = try TemporaryDirectory("dinger-cred")
    let log = home.url.appendingPathComponent("helper.log").path
    try home.write(".gitconfig", "[credential]\n\thelper = \"!f() { echo $1 >> \(log); }; f\"\n")
    let env = [
      "HOME": home.url.path, "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin",
      "GIT_CONFIG_NOSYSTEM": "1",
    ]
    let url = "https://example.com/team/scrums.git"
    let used = ["username": "ada", "password": "s3cret"]
    func settle(worked: Bool, code: Int32) -> String {
      try? FileManager.default.removeItem(atPath: log)
      let session = TransferSession()
      session.helperCredentials = used
      session.settle(url: url, worked: worked, code: code, environment: env)
      return (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
    }
    #expect(settle(worked: false, code: -1) == "")  // GIT_ERROR: a network failure
    #expect(settle(worked: false, code: -16) == "erase\n")  // GIT_EAUTH: the server said 401
    #expect(settle(worked: true, code: 0) == "store\n")
  }

  @Test func failuresSayWhatToDo() {
    let auth = TransferSession.advice(
      -16, "authentication required but no callback set", attempts: 1)
    #expect(auth.contains("credential helper") && !auth.contains("ssh"))
    // ssh's own words and advice are left as they are.
    let ssh =
      "ssh to example.com closed the connection: Permission denied (publickey); the server refused your keys: load one into ssh-agent (ssh-add)"
    #expect(TransferSession.advice(-1, ssh, attempts: 0) == ssh)
    let gone = TransferSession.advice(
      -1, "failed to connect to 127.0.0.1: Connection refused", attempts: 0)
    #expect(gone.contains("run 'dinger sync' again"))
    let moved = TransferSession.advice(-3, "could not find repository at '/srv/x.git'", attempts: 0)
    #expect(moved.contains("dinger remote list"))
  }

  @Test func localRemotesAreRecognized() {
    #expect(Repository.localPath(of: "/srv/git/team.git")?.path == "/srv/git/team.git")
    #expect(Repository.localPath(of: "file:///srv/git/team.git")?.path == "/srv/git/team.git")
    #expect(Repository.localPath(of: "../team.git") != nil)
    #expect(Repository.localPath(of: "git@example.com:team/scrums.git") == nil)
    #expect(Repository.localPath(of: "ssh://example.com/team.git") == nil)
    #expect(Repository.localPath(of: "https://example.com/team.git") == nil)
    #expect(Repository.localPath(of: "git://127.0.0.1:9418/team.git") == nil)
  }
}

/// ssh addresses, read the way git reads them, and refused where ssh would read an option.
@Suite struct SSHTargetTests {
  @Test(arguments: [
    ("ssh://git@example.com/team/data.git", "git", "example.com", nil, "/team/data.git"),
    ("ssh://example.com:2222/srv/data.git", nil, "example.com", 2222, "/srv/data.git"),
    ("git+ssh://[::1]:22/x.git", nil, "::1", 22, "/x.git"),
    ("ssh://host/~ada/data.git", nil, "host", nil, "~ada/data.git"),
    ("git@example.com:team/data.git", "git", "example.com", nil, "team/data.git"),
    ("teamserver:/srv/data.git", nil, "teamserver", nil, "/srv/data.git"),
    ("ssh://host/path%20with%20space.git", nil, "host", nil, "/path with space.git"),
  ])
  func addressesAreRead(url: String, user: String?, host: String, port: Int?, path: String) throws {
    let target = try SSHTarget(url: url)
    #expect(target == SSHTarget(user: user, host: host, port: port, path: path))
  }

  @Test(arguments: [
    "ssh://-oProxyCommand=x/repo", "-oProxyCommand=x:repo", "host:-repo", "ssh:///nohost",
  ])
  func optionLikeOrEmptyPartsAreRefused(url: String) {
    #expect(throws: SSHError.self) { try SSHTarget(url: url) }
  }

  @Test func theRemoteCommandQuotesThePathForTheServersShell() throws {
    let target = try SSHTarget(url: "host:it's; rm -rf ~.git")
    #expect(target.remoteCommand("git-upload-pack") == "git-upload-pack 'it'\\''s; rm -rf ~.git'")
  }
}
