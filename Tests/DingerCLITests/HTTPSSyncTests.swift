import Foundation
import TestSupport
import Testing

/// `dinger sync` over https as git configures it: `http.sslCAInfo`, `GIT_SSL_CAINFO`,
/// `http.sslVerify`, credentials from git's helpers.
@Suite struct HTTPSSyncTests {
  /// This machine's environment may name a CA file for git (GIT_SSL_CAINFO); the tests start
  /// from none, as a user who has not set one.
  let env = ["GIT_SSL_CAINFO": ""]

  func team() throws -> (Sandbox, GitHTTPSServer) {
    let box = try Sandbox()
    try box.git("init", "-q", "--bare", "-b", "main", box.home.path("remote.git"), in: box.home.url)
    let server = try GitHTTPSServer(root: box.home.url)
    #expect(try box.dinger("init").status == 0)
    #expect(try box.dinger("scrum", "new", "Design", "--attendee", "Ada").status == 0)
    // A helper that answers with the right password (as `git credential-store` would).
    try box.git(
      "config", "--global", "credential.helper",
      "!f() { test \"$1\" = get && echo username=dan && echo password=danpw; true; }; f")
    #expect(try box.dinger("remote", "add", "origin", server.url("remote.git")).status == 0)
    return (box, server)
  }

  @Test func theCAFromGitsConfigIsTrusted() throws {
    let (box, server) = try team()
    var r = try box.dinger(["sync"], env: env)
    #expect(r.status == 1, "an unknown authority is refused")
    #expect(r.stderr.contains("certificate"), "\(r.stderr)")
    try box.git("config", "http.sslCAInfo", server.caFile)
    r = try box.dinger(["sync"], env: env)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(
      try box.git(
        "--git-dir", box.home.path("remote.git"), "log", "--format=%s", "-1", in: box.home.url)
        == "Add scrum Design\n")
    // A teammate clones with the authority named in the environment.
    r = try box.dinger(
      ["clone", server.url("remote.git"), box.home.path("copy")], in: box.home.url,
      env: ["GIT_SSL_CAINFO": server.caFile])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(FileManager.default.fileExists(atPath: box.home.path("copy/scrums/design.yaml")))
  }

  @Test func turningVerificationOffWorksAndSaysSoLoudly() throws {
    let (box, server) = try team()
    defer { withExtendedLifetime(server) {} }
    let r = try box.dinger(["sync"], env: env.merging(["GIT_SSL_NO_VERIFY": "1"]) { $1 })
    #expect(r.status == 0, "\(r.stderr)")
    #expect(
      r.stderr.contains("warning: the TLS certificate of localhost was not checked"), "\(r.stderr)")
  }

  /// A wrong password is offered once more at most (the helper is told to forget it), then
  /// the sync fails saying so.
  @Test func aWrongPasswordIsNotTriedOverAndOver() throws {
    let (box, server) = try team()
    try box.git(
      "config", "--global", "credential.helper",
      "!f() { echo \"$1\" >> \"$HOME/helper.log\"; test \"$1\" = get && echo username=dan && echo password=wrong; true; }; f"
    )
    try box.git("config", "http.sslCAInfo", server.caFile)
    let r = try box.dinger(["sync"], env: env)
    #expect(r.status == 1)
    #expect(r.stderr.contains("refused the user name and password"), "\(r.stderr)")
    let asked = try String(contentsOfFile: box.home.path("helper.log"), encoding: .utf8)
    #expect(asked.split(separator: "\n").filter { $0 == "get" }.count <= 2, "\(asked)")
    #expect(asked.contains("erase"), "\(asked)")
  }

  /// A saved password the server refuses (401) is forgotten by git's `store` helper, as git
  /// does; the message says the password was refused (it said "no credentials", blaming the
  /// setup).
  @Test func aRefusedSavedPasswordIsNamedAsRefused() throws {
    let (box, server) = try team()
    try box.git("config", "--global", "credential.helper", "store")
    try box.home.write(".git-credentials", "https://dan:wrong@localhost:\(server.port)\n")
    try box.git("config", "http.sslCAInfo", server.caFile)
    let r = try box.dinger(["sync"], env: env)
    #expect(r.status == 1)
    #expect(
      r.stderr.contains("the server refused the saved user name and password"), "\(r.stderr)")
    #expect(!r.stderr.contains("no credentials"), "\(r.stderr)")
    #expect(try box.home.read(".git-credentials") == "", "forgotten, as git forgets it")
  }

  /// Without a helper, git's prompt asks on the terminal, as it does for `git push`.
  @Test func aTerminalPromptAsksForTheUserAndPassword() throws {
    let (box, server) = try team()
    try box.git("config", "--global", "--unset", "credential.helper")
    try box.git("config", "http.sslCAInfo", server.caFile)
    // `script` gives dinger a terminal; the answers are typed after the prompts appear (a
    // password prompt discards what was typed before it).
    let r = try ProcessRunner.run(
      "/bin/sh",
      [
        "-c",
        "(sleep 3; printf 'dan\\n'; sleep 2; printf 'danpw\\n') | script -qec '\(dingerBinary) sync' /dev/null",
      ],
      in: box.data, environment: box.environment.merging(env) { $1 })
    #expect(r.stdout.contains("Username for 'https://localhost:\(server.port)'"), "\(r.stdout)")
    #expect(r.stdout.contains("pushed to origin/main"), "\(r.stdout) \(r.stderr)")
  }

  /// git's proxy setting is used: pointed at a port where nothing listens, the sync fails
  /// there (and git's stderr does not leak into the message).
  @Test func httpProxyFromGitsConfigIsUsed() throws {
    let (box, server) = try team()
    try box.git("config", "http.sslCAInfo", server.caFile)
    try box.git("config", "http.proxy", "http://127.0.0.1:1")
    let r = try box.dinger(["sync"], env: env)
    #expect(r.status == 1)
    #expect(
      r.stderr.lowercased().contains("proxy") || r.stderr.contains("127.0.0.1"), "\(r.stderr)")
    #expect(!r.stderr.contains("fatal:"), "\(r.stderr)")
    try box.git("config", "--unset", "http.proxy")
    #expect(try box.dinger(["sync"], env: env).status == 0)
  }
}
