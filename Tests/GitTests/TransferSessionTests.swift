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

  @Test func failuresSayWhatToDo() {
    let auth = TransferSession.advice(
      -16, "authentication required but no callback set", attempts: 1)
    #expect(auth.contains("ssh-add") && auth.contains("credential helper"))
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

/// ssh host keys against known_hosts files made with OpenSSH's own tools.
@Suite struct HostKeyTests {
  func key(_ dir: TemporaryDirectory, _ name: String) throws -> (line: String, blob: [UInt8]) {
    let path = dir.url.appendingPathComponent(name).path
    _ = try ProcessRunner.run("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", path])
    let pub = try String(contentsOfFile: path + ".pub", encoding: .utf8)
    let fields = pub.split(separator: " ")
    return ("\(fields[0]) \(fields[1])", [UInt8](Data(base64Encoded: String(fields[1]))!))
  }

  @Test func aHostMustBeKnownWithThisKey() throws {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/ssh-keygen") else { return }
    let dir = try TemporaryDirectory("dinger-hostkeys")
    let (line, blob) = try key(dir, "server")
    let (_, other) = try key(dir, "impostor")
    let known = dir.url.appendingPathComponent("known_hosts")
    try "git.example.com \(line)\n".write(to: known, atomically: true, encoding: .utf8)
    #expect(HostKeys.check(host: "git.example.com", key: blob, files: [known]) == .trusted)
    #expect(HostKeys.check(host: "git.example.com", key: other, files: [known]) == .mismatch)
    #expect(HostKeys.check(host: "elsewhere.example.com", key: blob, files: [known]) == .unknown)
    #expect(
      HostKeys.message(.mismatch, host: "git.example.com").contains("ssh-keygen -R git.example.com")
    )
    // Hashed host names (HashKnownHosts yes) are found too.
    _ = try ProcessRunner.run("/usr/bin/ssh-keygen", ["-H", "-f", known.path])
    #expect(!(try String(contentsOf: known, encoding: .utf8)).contains("git.example.com"))
    #expect(HostKeys.check(host: "git.example.com", key: blob, files: [known]) == .trusted)
    // A revoked key is not trusted.
    try "@revoked git.example.com \(line)\n".write(to: known, atomically: true, encoding: .utf8)
    #expect(HostKeys.check(host: "git.example.com", key: blob, files: [known]) == .mismatch)
  }
}
