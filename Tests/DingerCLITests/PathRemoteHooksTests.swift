import Foundation
import TestSupport
import Testing

/// A push to a repository in a folder goes through its receive-pack, as `git push` does: its
/// hooks run and their words reach the user.
@Suite struct PathRemoteHooksTests {
  func repository() throws -> (Sandbox, String) {
    let box = try Sandbox()
    let remote = box.home.path("team.git")
    try box.git(["init", "-q", "--bare", "-b", "main", remote], in: box.home.url)
    #expect(try box.dinger("init").status == 0)
    #expect(try box.dinger("scrum", "new", "Design", "--attendee", "Ada").status == 0)
    #expect(try box.dinger("remote", "add", "origin", remote).status == 0)
    return (box, remote)
  }

  func hook(_ remote: String, _ name: String, _ script: String) throws {
    let path = remote + "/hooks/" + name
    try script.write(toFile: path, atomically: true, encoding: .utf8)
    chmod(path, 0o755)
  }

  @Test func aPreReceiveHookThatSaysNoIsObeyedAndHeard() throws {
    let (box, remote) = try repository()
    try hook(
      remote, "pre-receive",
      "#!/bin/sh\necho 'policy: pushes are frozen until Monday' >&2\nexit 1\n")
    let r = try box.dinger("sync")
    #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
    #expect(r.stderr.contains("pre-receive hook declined"), "\(r.stderr)")
    #expect(r.stderr.contains("remote: policy: pushes are frozen until Monday"), "\(r.stderr)")
    let branches = try box.git(["--git-dir", remote, "branch", "--list"], in: box.home.url)
    #expect(branches.isEmpty, "the remote's branch moved: \(branches)")
  }

  @Test func aHooksWordsOnSuccessAreShownAndThePushLands() throws {
    let (box, remote) = try repository()
    try hook(remote, "post-receive", "#!/bin/sh\necho 'deployed the calendar'\n")
    let r = try box.dinger("sync")
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stderr.contains("remote: deployed the calendar"), "\(r.stderr)")
    #expect(
      try box.git(["--git-dir", remote, "rev-parse", "main"], in: box.home.url)
        == box.git("rev-parse", "main"))
    #expect(try box.git(["--git-dir", remote, "fsck", "--full"], in: box.home.url).isEmpty)
  }

  @Test func aStaleLockOnTheRemoteIsNamed() throws {
    let (box, remote) = try repository()
    #expect(try box.dinger("sync").status == 0)
    #expect(try box.dinger("scrum", "attendee", "add", "design", "Bob").status == 0)
    #expect(
      FileManager.default.createFile(atPath: remote + "/refs/heads/main.lock", contents: Data()))
    let r = try box.dinger("sync")
    #expect(r.status == 1)
    #expect(r.stderr.contains("refs/heads/main.lock"), "\(r.stderr)")
  }

  @Test(arguments: ["pushurl", "pushInsteadOf"])
  func pushesGoWhereGitWouldPush(setting: String) throws {
    let (box, fetchFrom) = try repository()
    let pushTo = box.home.path("push.git")
    try box.git(["init", "-q", "--bare", "-b", "main", pushTo], in: box.home.url)
    if setting == "pushurl" {
      try box.git("config", "remote.origin.pushurl", pushTo)
    } else {
      try box.git("config", "url.\(pushTo).pushInsteadOf", fetchFrom)
    }
    let r = try box.dinger("sync")
    #expect(r.status == 0, "\(r.stderr)")
    #expect(
      try box.git(["--git-dir", pushTo, "rev-parse", "main"], in: box.home.url)
        == box.git("rev-parse", "main"))
    #expect(try box.git(["--git-dir", fetchFrom, "branch", "--list"], in: box.home.url).isEmpty)
  }
}
