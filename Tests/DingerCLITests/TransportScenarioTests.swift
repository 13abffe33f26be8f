import Foundation
import TestSupport
import Testing

/// The two-teammate scenario (different fields, one real conflict, a plain-git teammate through
/// the merge driver) over each real transport (ssh, https, http, git://), ending with one tree
/// everywhere.
@Suite(
  .enabled(
    if: Prerequisite.met(SSHServer.available), "needs openssh-server (make deps installs it)"))
struct TransportScenarioTests {
  static func serve(_ transport: String) -> Team.Serve {
    { box, remote in
      switch transport {
      case "ssh":
        let server = try SSHServer()
        return (
          server.url(remote.path), ["GIT_SSH_COMMAND": "ssh -F \(server.clientConfig)"], server
        )
      case "https", "http":
        let server = try GitHTTPSServer(
          root: remote.deletingLastPathComponent(), tls: transport == "https")
        try box.git(
          "config", "--global", "credential.helper",
          "!f() { test \"$1\" = get && echo username=dan && echo password=danpw; true; }; f",
          in: box.home.url)
        return (server.url("remote.git"), ["GIT_SSL_CAINFO": server.caFile], server)
      default:
        let daemon = try GitDaemon(base: remote.deletingLastPathComponent())
        return (daemon.url("remote.git"), [:], daemon)
      }
    }
  }

  @Test(arguments: ["ssh", "https", "http", "git"])
  func twoTeammatesAndAPlainGitOneConverge(transport: String) throws {
    let team = try Team(dingers: ["ada", "grace"], plain: ["linus"], serve: Self.serve(transport))
    let scrum = "scrums/design-review.yaml"
    expectOK(try team.run("ada", "scrum", "edit", "design-review", "--length", "15"))
    expectOK(try team.run("grace", "scrum", "edit", "design-review", "--theme", "poppy"))
    expectOK(try team.run("grace", "scrum", "attendee", "add", "design-review", "Bob"))
    expectOK(try team.run("ada", "sync"))
    expectOK(try team.run("grace", "sync"))
    // A real conflict: both set the length.
    expectOK(try team.run("ada", "scrum", "edit", "design-review", "--length", "20"))
    expectOK(try team.run("grace", "scrum", "edit", "design-review", "--length", "30"))
    expectOK(try team.run("ada", "sync"))
    let conflicted = try team.run("grace", "sync")
    #expect(conflicted.status == 1, "\(conflicted.stderr)")
    #expect(
      conflicted.stderr.contains(
        "error: the sync finished, but a conflict is saved in .dinger/conflicts/ for a person to settle: see 'dinger conflicts'"
      ), "\(conflicted.stderr)")
    #expect(conflicted.stdout.contains("1 conflict recorded"), "\(conflicted.stdout)")
    // Linus edits by hand and pulls through the merge driver, then pushes.
    let pull = try team.gitResult("linus", "pull", "-q", "--no-edit", "origin", "main")
    #expect(pull.status == 0, "\(pull.stderr)")
    try team.write("linus", scrum, try team.read("linus", scrum) + "  - Linus\n")
    try team.git("linus", "commit", "-qam", "Me too")
    try team.git("linus", "push", "-q", "origin", "main")
    try team.syncAll()
    try team.expectConverged()
    let text = try team.read("ada", scrum)
    #expect(
      text.contains("theme: poppy") && text.contains("- Bob") && text.contains("- Linus"), "\(text)"
    )
    #expect(try team.run("ada", "conflicts").stdout.contains("length"), "the conflict is recorded")
  }
}
