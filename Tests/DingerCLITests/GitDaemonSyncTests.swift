import Foundation
import TestSupport
import Testing

/// Sync over git:// against a real `git daemon`, and the failures a network brings: the remote
/// going away in the middle of a push, and another push landing between our fetch and push.
@Suite struct GitDaemonSyncTests {
  let scrum = "scrums/design-review.yaml"

  /// A team whose remote is served by git daemon; returns the team and the daemon.
  func servedTeam() throws -> (Team, GitDaemon) {
    let base = try TemporaryDirectory("dinger-daemon")
    let daemon = try GitDaemon(base: base.url)
    // The team's bare repo lives under the daemon's base path.
    let team = try Team(dingers: ["ada", "grace"], remoteURL: nil)
    try FileManager.default.moveItem(
      at: team.remote, to: base.url.appendingPathComponent("team.git"))
    try FileManager.default.createSymbolicLink(
      at: team.remote, withDestinationURL: base.url.appendingPathComponent("team.git"))
    for name in ["ada", "grace"] {
      try team.git(name, "remote", "set-url", "origin", daemon.url("team.git"))
    }
    keptAlive.append(base)
    return (team, daemon)
  }

  func hook(_ team: Team, _ script: String) throws {
    let url = team.remote.resolvingSymlinksInPath().appendingPathComponent("hooks/pre-receive")
    try ("#!/bin/sh\n" + script).write(to: url, atomically: true, encoding: .utf8)
    chmod(url.path, 0o755)
  }

  @Test func syncOverGitProtocol() throws {
    let (team, daemon) = try servedTeam()
    defer { daemon.stop() }
    expectOK(try team.run("ada", "scrum", "edit", "design-review", "--length", "15"))
    expectOK(try team.run("grace", "scrum", "edit", "design-review", "--theme", "poppy"))
    try team.syncAll()
    try team.expectConverged()
    #expect(try team.read("grace", scrum).contains("length: 15\n"))
    #expect(try team.git("ada", "config", "remote.origin.url").hasPrefix("git://127.0.0.1:"))
  }

  @Test func remoteGoingAwayDuringThePushLeavesUsIntactAndTheNextSyncFinishes() throws {
    let (team, daemon) = try servedTeam()
    defer { daemon.stop() }
    expectOK(try team.run("ada", "scrum", "edit", "design-review", "--length", "15"))
    expectOK(try team.run("ada", "sync"))
    expectOK(try team.run("grace", "scrum", "edit", "design-review", "--theme", "poppy"))
    // The server dies while receiving: the push's connection drops after the fetch and merge.
    try hook(team, "kill -9 $PPID\nexit 1\n")
    let failed = try team.run("grace", "sync")
    #expect(failed.status == 1)
    #expect(
      failed.stderr.contains("run 'dinger sync' again") || failed.stderr.contains("push to origin"),
      "\(failed.stderr)")
    // The merge is committed locally, the working tree is clean, git is happy.
    #expect(try team.read("grace", scrum).contains("length: 15\n"))
    #expect(try team.git("grace", "status", "--porcelain") == "")
    #expect(try team.git("grace", "fsck", "--full") == "")
    try hook(team, "exit 0\n")
    let again = try team.run("grace", "sync")
    expectOK(again)
    #expect(again.stdout.contains("pushed to origin/main"), "\(again.stdout)")
    try team.syncAll()
    try team.expectConverged()
  }

  @Test func aPushRaceIsMergedAgainAndPushed() throws {
    let (team, daemon) = try servedTeam()
    defer { daemon.stop() }
    // Ada's commit waits on a side branch of the remote; the hook moves main to it while
    // Grace's push is being received, exactly as if Ada had pushed a moment earlier.
    expectOK(try team.run("ada", "scrum", "edit", "design-review", "--length", "15"))
    try team.git("ada", "push", "-q", "origin", "HEAD:refs/heads/race")
    try hook(
      team,
      """
      if [ ! -e "$GIT_DIR/raced" ]; then
        touch "$GIT_DIR/raced"
        env -u GIT_QUARANTINE_PATH -u GIT_OBJECT_DIRECTORY -u GIT_ALTERNATE_OBJECT_DIRECTORIES \
          git update-ref refs/heads/main refs/heads/race
      fi
      exit 0

      """)
    expectOK(try team.run("grace", "scrum", "edit", "design-review", "--theme", "poppy"))
    let r = try team.run("grace", "sync")
    expectOK(r)
    #expect(r.stdout.contains("took 2 rounds"), "\(r.stdout)")
    let remoteText = try team.box.git("show", "main:\(scrum)", in: team.remote)
    #expect(
      remoteText.contains("length: 15\n") && remoteText.contains("theme: poppy\n"), "\(remoteText)")
    try team.syncAll()
    try team.expectConverged()
  }
}

/// Temporary folders that must outlive the function that made them (removed at exit).
nonisolated(unsafe) var keptAlive: [TemporaryDirectory] = []
