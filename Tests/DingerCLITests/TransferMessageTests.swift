import Foundation
import TestSupport
import Testing

/// What transfers say: no password echoed, advice that fits the command, no silent death by
/// SIGPIPE, no temporary packs left by a killed fetch.
@Suite struct TransferMessageTests {
  @Test func aPasswordInAnAddressIsNeverShown() throws {
    let box = try Sandbox()
    #expect(try box.dinger("init").status == 0)
    let url = "https://dan:s3cret@127.0.0.1:9/team.git"
    var r = try box.dinger("remote", "add", "origin", url)
    #expect(r.status == 0)
    // NB: as git prints such an address: without the user and the password.
    #expect(r.stdout == "added remote origin -> https://127.0.0.1:9/team.git\n")
    r = try box.dinger("remote", "list")
    #expect(r.stdout.contains("https://127.0.0.1:9/team.git") && !r.stdout.contains("s3cret"))
    r = try box.dinger("remote", "list", "--json")
    #expect(!r.stdout.contains("s3cret"))
    r = try box.dinger(["clone", url, box.home.path("copy")], in: box.home.url)
    #expect(r.status == 1)
    #expect(!r.stderr.contains("s3cret"), "\(r.stderr)")
    r = try box.dinger("sync")
    #expect(r.status == 1)
    #expect(!r.stderr.contains("s3cret"), "\(r.stderr)")
  }

  @Test func cloneFailuresDoNotTalkOfSyncing() throws {
    let box = try Sandbox()
    let r = try box.dinger(
      ["clone", "git://127.0.0.1:1/team.git", box.home.path("copy")], in: box.home.url)
    #expect(r.status == 1)
    #expect(
      r.stderr.hasPrefix("error: could not clone git://127.0.0.1:1/team.git: "), "\(r.stderr)")
    #expect(!r.stderr.contains("dinger sync"), "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: box.home.path("copy")))
  }

  /// A reader that goes away (`| head`) ends dinger quietly with git's status, not a crash.
  @Test func aClosedPipeEndsQuietly() throws {
    let box = try Sandbox()
    #expect(try box.dinger("init").status == 0)
    var text = "title: Big\nlength: 5\nattendees:\n"
    for i in 0..<20_000 { text += "  - Person \(i)\n" }
    try box.write("scrums/big.yaml", text)
    let r = try ProcessRunner.run(
      "/bin/bash",
      ["-c", "'\(dingerBinary)' scrum show big | head -c 10 >/dev/null; echo ${PIPESTATUS[0]}"],
      in: box.data, environment: box.environment)
    #expect(r.stdout == "141\n", "\(r.stdout) \(r.stderr)")
    #expect(!r.stderr.contains("Fatal") && !r.stderr.contains("error"), "\(r.stderr)")
  }

  @Test func temporaryPacksOfAKilledFetchAreRemoved() throws {
    let box = try Sandbox()
    #expect(try box.dinger("init").status == 0)
    let remote = box.home.url.appendingPathComponent("remote.git")
    try box.git("init", "-q", "--bare", "-b", "main", remote.path, in: box.home.url)
    #expect(try box.dinger("remote", "add", "origin", remote.path).status == 0)
    let stale = box.data.appendingPathComponent(".git/objects/pack/pack_git2_0123abcd")
    let fresh = box.data.appendingPathComponent(".git/objects/pack/pack_git2_fresh")
    try FileManager.default.createDirectory(
      at: stale.deletingLastPathComponent(), withIntermediateDirectories: true)
    for file in [stale, fresh] { try Data("partial".utf8).write(to: file) }
    try FileManager.default.setAttributes(
      [.modificationDate: Date().addingTimeInterval(-3600)], ofItemAtPath: stale.path)
    #expect(try box.dinger("sync").status == 0)
    #expect(!FileManager.default.fileExists(atPath: stale.path))
    #expect(FileManager.default.fileExists(atPath: fresh.path), "one being written now stays")
  }
}

/// On a terminal, a sync shows git's stages, each on its line, and ends the line before
/// anything else is said.
@Suite struct TransferProgressTests {
  @Test func aPushShowsItsStagesOnATerminal() throws {
    let box = try Sandbox()
    #expect(try box.dinger("init").status == 0)
    let remote = box.home.url.appendingPathComponent("remote.git")
    try box.git("init", "-q", "--bare", "-b", "main", remote.path, in: box.home.url)
    let daemon = try GitDaemon(base: box.home.url)
    for i in 0..<30 {
      #expect(try box.dinger("scrum", "new", "Team \(i)", "--attendee", "A").status == 0)
    }
    #expect(try box.dinger("remote", "add", "origin", daemon.url("remote.git")).status == 0)
    let typescript = box.home.path("typescript")
    let r = try ProcessRunner.run(
      "/usr/bin/script", ["-qec", "\(dingerBinary) sync", typescript], in: box.data,
      environment: box.environment.merging(["TERM": "xterm"]) { $1 })
    #expect(r.status == 0, "\(r.stdout)")
    let shown = try String(contentsOfFile: typescript, encoding: .utf8)
    #expect(shown.contains("Writing objects: 100%"), "\(shown)")
    #expect(shown.contains("\n") && !shown.contains("KiBpushed"), "\(shown)")
    #expect(shown.contains("pushed to origin/main"), "\(shown)")
  }
}

/// A mistyped command gets the closest ones, and status 64.
@Suite struct CommandTypoTests {
  @Test func unknownCommandsAreNamedWithSuggestions() throws {
    let box = try Sandbox()
    var r = try box.dinger(["srcum", "list"], in: box.home.url)
    #expect(r.status == 64)
    #expect(
      r.stderr == "error: 'srcum' is not a dinger command; did you mean 'scrum'?\n", "\(r.stderr)")
    r = try box.dinger(["help", "nonexistent"], in: box.home.url)
    #expect(r.status == 64)
    #expect(r.stderr.contains("'nonexistent' is not a dinger command"))
    r = try box.dinger(["help", "scrum"], in: box.home.url)
    #expect(r.status == 0 && r.stdout.contains("List, show, add, edit and remove scrums"))
    // Usage errors read like every other error: one prefix.
    r = try box.dinger(["log", "--bogus"], in: box.home.url)
    #expect(r.status == 64)
    #expect(r.stderr.hasPrefix("error: Unknown option '--bogus'"), "\(r.stderr)")
  }
}
