import Foundation
import TestSupport
import Testing

/// Messages that say what is really wrong, and the everyday habits of git users.
@Suite struct EverydayMessageTests {
  func repository() throws -> Sandbox {
    let box = try Sandbox()
    #expect(try box.dinger("init").status == 0)
    #expect(try box.dinger("scrum", "new", "Design", "--attendee", "Ada").status == 0)
    return box
  }

  @Test func aMisspelledOptionIsNamedWithTheRightOne() throws {
    let box = try repository()
    let r = try box.dinger("scrum", "new", "Retro", "--atendee", "Bob")
    #expect(r.status == 64)
    #expect(r.stderr.hasPrefix("error: Unknown option '--atendee'. Did you mean '--attendee'?"), "\(r.stderr)")
    #expect(!r.stderr.contains("at least one attendee"))
    let missing = try box.dinger("scrum", "new", "Retro")
    #expect(missing.status == 64)
    #expect(missing.stderr.contains("a scrum needs at least one attendee; add --attendee NAME"))
  }

  @Test func listCommandsAnswerToLsAndTyposGetSuggestions() throws {
    let box = try repository()
    for group in ["scrum", "library", "word", "remote", "history"] {
      let r = try box.dinger(group, "ls")
      #expect(r.status == 0, "\(group) ls: \(r.stderr)")
    }
    #expect(try box.dinger("scrum", "ls").stdout == box.dinger("scrum", "list").stdout)
    let typo = try box.dinger("scrum", "lst")
    #expect(typo.status == 64)
    #expect(typo.stderr == "error: 'scrum lst' is not a dinger command; did you mean 'scrum list'?\n", "\(typo.stderr)")
  }

  @Test func conflictMarkersAreCalledConflictMarkers() throws {
    let box = try repository()
    try box.write(
      "scrums/design.yaml",
      "title: Design\n<<<<<<< HEAD\nlength: 10\n=======\nlength: 15\n>>>>>>> origin/main\nattendees: [Ada]\n")
    let r = try box.dinger("check")
    #expect(r.status == 1)
    #expect(
      r.stderr.contains(
        "scrums/design.yaml:2:1: error: this file has merge conflict markers (<<<<<<< on line 2, >>>>>>> on line 6)"
      ), "\(r.stderr)")
    #expect(r.stderr.contains("git checkout --ours -- scrums/design.yaml"))
  }

  @Test func checkOfAFolderWithoutTheLayoutFails() throws {
    let box = try Sandbox()
    try box.home.write("elsewhere/team.yaml", "title: Design\n")
    let r = try box.dinger(["check", box.home.path("elsewhere")], in: box.home.url)
    #expect(r.status == 1)
    #expect(r.stderr.contains("is not a dinger data directory: it has none of .dinger/, scrums/"), "\(r.stderr)")
  }

  @Test func gitsIdentityVariablesNameTheAuthorAndCommitter() throws {
    let box = try Sandbox(identity: false)
    try box.home.write(".gitconfig", "[init]\n\tdefaultBranch = main\n")
    let bot = [
      "GIT_AUTHOR_NAME": "Release Bot", "GIT_AUTHOR_EMAIL": "bot@ci.example",
      "GIT_COMMITTER_NAME": "CI", "GIT_COMMITTER_EMAIL": "ci@ci.example",
    ]
    #expect(try box.dinger(["init"], env: bot).status == 0)
    let r = try box.dinger(["scrum", "new", "Design", "--attendee", "Ada"], env: bot)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(try box.git("log", "-1", "--format=%an <%ae>|%cn <%ce>") == "Release Bot <bot@ci.example>|CI <ci@ci.example>\n")
    let none = try box.dinger(["scrum", "attendee", "add", "design", "Bob"])
    #expect(none.status == 1)
    #expect(none.stderr.contains("git does not know who you are"))
  }
}
