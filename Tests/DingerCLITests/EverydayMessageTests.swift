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
    #expect(
      r.stderr.hasPrefix("error: Unknown option '--atendee'. Did you mean '--attendee'?"),
      "\(r.stderr)")
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
    #expect(
      typo.stderr == "error: 'scrum lst' is not a dinger command; did you mean 'scrum list'?\n",
      "\(typo.stderr)")
  }

  @Test func conflictMarkersAreCalledConflictMarkers() throws {
    let box = try repository()
    try box.write(
      "scrums/design.yaml",
      "title: Design\n<<<<<<< HEAD\nlength: 10\n=======\nlength: 15\n>>>>>>> origin/main\nattendees: [Ada]\n"
    )
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
    #expect(
      r.stderr.contains("is not a dinger data directory: it has none of .dinger/, scrums/"),
      "\(r.stderr)")
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
    #expect(
      try box.git("log", "-1", "--format=%an <%ae>|%cn <%ce>")
        == "Release Bot <bot@ci.example>|CI <ci@ci.example>\n")
    let none = try box.dinger(["scrum", "attendee", "add", "design", "Bob"])
    #expect(none.status == 1)
    #expect(none.stderr.contains("git does not know who you are"))
  }
}

/// Commas between names, the meeting count in JSON, and drivers git finds after a reinstall.
@Suite struct EverydayHabitsTests {
  @Test func commasSeparateNames() throws {
    let box = try Sandbox()
    #expect(try box.dinger("init").status == 0)
    #expect(try box.dinger("scrum", "new", "Team", "--attendee", "Katie, Gray, Euna").status == 0)
    #expect(
      try box.read("scrums/team.yaml").hasSuffix("attendees:\n  - Katie\n  - Gray\n  - Euna\n"))
    #expect(try box.dinger("scrum", "attendee", "add", "team", "Bo,Cy").status == 0)
    #expect(try box.read("scrums/team.yaml").hasSuffix("  - Euna\n  - Bo\n  - Cy\n"))
  }

  @Test func scrumShowJSONCountsMeetings() throws {
    let box = try Sandbox()
    #expect(try box.dinger("init").status == 0)
    #expect(try box.dinger("scrum", "new", "Team", "--attendee", "Ada").status == 0)
    #expect(try box.dinger("meet", "team", "--record", "--duration", "3m").status == 0)
    let json = try box.dinger("scrum", "show", "team", "--json").stdout
    #expect(json.contains("\"meetings\" : 1"), "\(json)")
  }

  @Test func gitRunsTheDriversByNameWhenThePathFindsThisDinger() throws {
    let box = try Sandbox()
    let bin = box.home.url.appendingPathComponent("bin")
    try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      atPath: bin.appendingPathComponent("dinger").path, withDestinationPath: dingerBinary)
    let path = ["PATH": bin.path + ":/usr/bin:/bin"]
    #expect(try box.dinger(["init"], env: path).status == 0)
    #expect(try box.git("config", "merge.dinger.driver") == "dinger merge-driver %O %A %B %P\n")
    #expect(try box.git("config", "diff.dinger.command") == "dinger diff-driver\n")
  }
}
