import Foundation
import TestSupport
import Testing

/// `scrum rename`, and a scrum followed by its id across renames (dinger's and `git mv`).
@Suite struct RenameTests {
  func repository() throws -> Sandbox {
    let box = try Sandbox()
    #expect(try box.dinger("init").status == 0)
    #expect(try box.dinger("scrum", "new", "Standup", "--attendee", "Ada").status == 0)
    #expect(try box.dinger("scrum", "edit", "standup", "--length", "9").status == 0)
    for minutes in ["5m", "6m"] {
      #expect(try box.dinger("meet", "standup", "--record", "--duration", minutes).status == 0)
    }
    return box
  }

  @Test func renameMovesTheFileAndItsMeetingsInOneCommit() throws {
    let box = try repository()
    let head = try box.head()
    let r = try box.dinger("scrum", "rename", "standup", "daily")
    #expect(r.status == 0, "\(r.stderr)")
    #expect(
      r.stdout == "Rename scrum Standup: standup -> daily, and its 2 meetings (scrums/daily.yaml)\n"
    )
    #expect(try box.git("rev-parse", "HEAD~1").hasPrefix(head))
    #expect(try box.gitAgrees().status == "")
    let files = try box.git("ls-files").split(separator: "\n")
    #expect(files.contains("scrums/daily.yaml") && !files.contains("scrums/standup.yaml"))
    #expect(files.filter { $0.hasPrefix("history/daily/") }.count == 2)
    #expect(!files.contains { $0.hasPrefix("history/standup/") })
    // git sees renames, byte for byte.
    let status = try box.git("show", "--format=", "-M", "--name-status", "HEAD")
    #expect(status.split(separator: "\n").allSatisfy { $0.hasPrefix("R100") }, "\(status)")
    // Everything follows.
    let log = try box.dinger("log", "daily").stdout
    #expect(log.contains("renamed standup -> daily"), "\(log)")
    #expect(log.contains("length 5 -> 9 min"), "\(log)")
    #expect(log.contains("added scrum"), "\(log)")
    #expect(try box.dinger("history", "daily").stdout.split(separator: "\n").count == 2)
    #expect(try box.dinger("scrum", "show", "daily").stdout.contains("meetings   2"))
  }

  @Test func aRenameByHandIsFollowedToo() throws {
    let box = try repository()
    try box.git("mv", "scrums/standup.yaml", "scrums/team.yaml")
    try box.git("commit", "-qm", "rename by hand")
    let log = try box.dinger("log", "team").stdout
    #expect(log.contains("renamed standup -> team"), "\(log)")
    #expect(log.contains("length 5 -> 9 min"), "\(log)")
    let history = try box.dinger("history", "team").stdout
    #expect(history.split(separator: "\n").count == 2, "\(history)")
    #expect(try box.dinger("scrum", "show", "team").stdout.contains("meetings   2"))
    // And dinger's own rename afterwards gathers the meetings into the new folder.
    #expect(try box.dinger("scrum", "rename", "team", "crew").status == 0)
    let files = try box.git("ls-files", "history")
    #expect(files.split(separator: "\n").allSatisfy { $0.hasPrefix("history/crew/") }, "\(files)")
  }

  @Test func badNamesAreRefusedAndNothingChanges() throws {
    let box = try repository()
    #expect(try box.dinger("scrum", "new", "Retro", "--attendee", "Ada").status == 0)
    let head = try box.head()
    for (slug, message) in [
      ("Daily Standup", "can't name a scrum file"), ("../x", "can't name a scrum file"),
      ("retro", "scrums/retro.yaml exists already"), ("standup", "is already named 'standup'"),
    ] {
      let r = try box.dinger("scrum", "rename", "standup", slug)
      #expect(r.status == 1, "\(slug)")
      #expect(r.stderr.contains(message), "\(slug): \(r.stderr)")
    }
    #expect(try box.head() == head)
  }
}

/// `library rename`: the file and its quiz results' folder, one commit, followed by the log.
@Suite struct LibraryRenameTests {
  @Test func renameMovesTheLibraryAndItsQuizResults() throws {
    let box = try Sandbox()
    #expect(try box.dinger("init").status == 0)
    #expect(try box.dinger("library", "new", "Spanish basics", "--language", "es").status == 0)
    #expect(
      try box.dinger("word", "add", "hola", "--library", "spanish-basics", "--definition", "hello")
        .status == 0)
    // A quiz result, written as the quiz writes them.
    let id = Sandbox.id(in: try box.read("libraries/spanish-basics.yaml"))
    try box.write(
      "quizzes/spanish-basics/2026-11-20-0a1b2c3d.yaml",
      "id: 0a1b2c3d-0000-4000-8000-000000000001\nlibrary: \(id)\ndate: 2026-11-20T09:00:00Z\nquestions:\n  - {word: hola, correct: true}\n"
    )
    try box.git("add", ".")
    try box.git("commit", "-qm", "a quiz")
    let r = try box.dinger("library", "rename", "spanish-basics", "spanish")
    #expect(r.status == 0, "\(r.stderr)")
    #expect(
      r.stdout.hasPrefix("Rename library Spanish basics: spanish-basics -> spanish"), "\(r.stdout)")
    let files = try box.git("ls-files").split(separator: "\n").map(String.init)
    #expect(
      files.contains("libraries/spanish.yaml") && !files.contains("libraries/spanish-basics.yaml"))
    #expect(
      files.contains { $0.hasPrefix("quizzes/spanish/") }
        && !files.contains { $0.hasPrefix("quizzes/spanish-basics/") }, "\(files)")
    #expect(try box.gitAgrees().status == "")
    #expect(try box.dinger("word", "list", "--library", "spanish").stdout.contains("hola"))
    let log = try box.dinger("log", "spanish").stdout
    #expect(log.contains("renamed spanish-basics -> spanish"), "\(log)")
  }
}
