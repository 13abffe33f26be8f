import Foundation
import TestSupport
import Testing

/// `dinger standup` in the editors people use, vim and nano, in a real terminal (tmux): the
/// prefilled buffer, the answers landing as the day's entry, a mistake reopening the buffer.
@Suite(.serialized) struct StandupEditorTests {
  func sandbox(editor: String) throws -> Sandbox {
    let box = try Sandbox()
    try FileManager.default.createDirectory(
      atPath: box.home.path("tmp"), withIntermediateDirectories: true)
    box.extraEnvironment = [
      "EDITOR": editor, "TMPDIR": box.home.path("tmp"), "DINGER_TEST_NOW": "2026-11-25T09:00:00Z",
    ]
    expectOK(try box.dinger("init"))
    // NB: the sandbox's git user is Ada Lovelace: she is an attendee, so she is the writer.
    expectOK(
      try box.dinger("scrum", "new", "Platform", "--attendee", "Ada Lovelace", "--attendee", "Bo"))
    expectOK(
      try box.dinger(
        ["standup", "--today", "Migrate staging", "--blocker", "Waiting on the key"],
        env: ["DINGER_TEST_NOW": "2026-11-24T09:00:00Z"]))
    return box
  }

  @Test func vimWritesTheDaysEntryFromThePrefilledBuffer() throws {
    let box = try sandbox(editor: "vim")
    let (tmux, exit) = try Tmux.start(box, "standup")
    // Yesterday comes from the last entry's today; the open blocker is listed to carry over.
    #expect(tmux.wait(for: "yesterday: Migrate staging"), "\(tmux.screen())")
    #expect(tmux.screen().contains("Waiting on the key"), "\(tmux.screen())")
    // A mistake first: the buffer comes back with the error on top.
    tmux.keys(":%s/^today: *$/today: [unclosed/", "Enter")
    tmux.keys(":wq", "Enter")
    #expect(tmux.wait(for: "fix these errors"), "\(tmux.screen())")
    tmux.keys(":%s/today: \\[unclosed/today: Cut the release candidate/", "Enter")
    tmux.keys(":wq", "Enter")
    #expect(Tmux.exitStatus(exit) == "0", "\(tmux.screen())")
    let entry = try box.read("standups/platform/2026-11-25-ada-lovelace.yaml")
    #expect(
      entry.contains("yesterday: Migrate staging\ntoday: Cut the release candidate\n"), "\(entry)")
    #expect(entry.contains("blockers:\n  - id: b"), "the blocker carried over: \(entry)")
    #expect(
      try box.git("log", "-1", "--format=%s")
        == "Platform: stand-up of Ada Lovelace for 2026-11-25\n")
    #expect((try? FileManager.default.contentsOfDirectory(atPath: box.home.path("tmp"))) == [])
  }

  @Test func nanoWritesTheDaysEntry() throws {
    let box = try sandbox(editor: "nano")
    let (tmux, exit) = try Tmux.start(box, "standup", "platform")
    #expect(tmux.wait(for: "^X Exit"), "\(tmux.screen())")
    #expect(tmux.wait(for: "today:"), "\(tmux.screen())")
    tmux.keys("C-w")
    #expect(tmux.wait(for: "Search"), "\(tmux.screen())")
    tmux.keys("today:", "Enter")
    // NB: the first "today:" is the comment that asks the question; the next is the answer's.
    tmux.keys("M-w")
    tmux.keys("End")
    tmux.keys(" Review the pull requests")
    tmux.keys("C-o")
    #expect(tmux.wait(for: "File Name to Write"), "\(tmux.screen())")
    tmux.keys("Enter")
    tmux.keys("C-x")
    #expect(Tmux.exitStatus(exit) == "0", "\(tmux.screen())")
    let entry = try box.read("standups/platform/2026-11-25-ada-lovelace.yaml")
    #expect(entry.contains("today: Review the pull requests\n"), "\(entry)")
  }
}

/// The live meeting and the written stand-up: someone away today is left out of the rotation
/// (and told so), and each speaker's entry of the day and open blockers show under their name.
@Suite(.serialized) struct StandupMeetingTests {
  @Test func theTimerLeavesTheAbsentOutAndShowsEachSpeakersEntry() throws {
    let box = try Sandbox()
    expectOK(try box.dinger("init"))
    expectOK(
      try box.dinger(
        "scrum", "new", "Standup", "--length", "1", "--attendee", "Ada Lovelace", "--attendee",
        "Grace", "--attendee", "Bo"))
    let today = ISO8601DateFormatter().string(from: Date()).prefix(10)
    expectOK(
      try box.dinger(
        "scrum", "attendee", "away", "standup", "Bo", "--from", String(today), "--note", "dentist"))
    expectOK(
      try box.dinger(
        "standup", "--today", "Cut the release candidate", "--blocker", "Waiting on the key"))
    let (tmux, exit) = try Tmux.start(box, "meet", "standup")
    #expect(tmux.wait(for: "Speaker 1 of 2: Ada Lovelace"), "\(tmux.screen())")
    #expect(tmux.screen().contains("today: Cut the release candidate"), "\(tmux.screen())")
    #expect(tmux.screen().contains("blocked: Waiting on the key"), "\(tmux.screen())")
    tmux.keys("n")
    #expect(tmux.wait(for: "Last speaker: Grace"), "\(tmux.screen())")
    #expect(!tmux.screen().contains("Cut the release candidate"), "\(tmux.screen())")
    tmux.keys("q")
    #expect(tmux.wait(for: "End meeting?"), "\(tmux.screen())")
    tmux.keys("s")
    #expect(tmux.wait(for: "Notes for the transcript"), "\(tmux.screen())")
    tmux.keys("C-d")
    #expect(Tmux.exitStatus(exit) == "0", "\(tmux.screen())")
    let file = try box.read(String(try box.git("ls-files", "history").split(separator: "\n")[0]))
    #expect(file.contains("attendees: [Ada Lovelace, Grace]"), "\(file)")
    // The note about Bo was said before the screen took over (the terminal's scrollback).
    let history = try tmux.run(["capture-pane", "-p", "-S", "-200", "-t", "main"])
    #expect(history.contains("Bo is away today (dentist): left out of the rotation"), "\(history)")
  }
}

/// Someone git does not name an attendee is asked once, on the terminal, and remembered.
@Suite(.serialized) struct StandupAskTests {
  @Test func theWriterIsAskedOnceOnATerminal() throws {
    let box = try Sandbox()
    box.extraEnvironment = ["DINGER_TEST_NOW": "2026-11-25T09:00:00Z"]
    expectOK(try box.dinger("init"))
    try box.git("config", "user.name", "Somebody")
    try box.git("config", "user.email", "somebody@example.com")
    expectOK(try box.dinger("scrum", "new", "Platform", "--attendee", "Ada", "--attendee", "Bo"))
    let (tmux, exit) = try Tmux.start(box, "standup", "--today", "x")
    #expect(tmux.wait(for: "Number or name:"), "\(tmux.screen())")
    #expect(tmux.screen().contains("2  Bo"), "\(tmux.screen())")
    tmux.keys("2", "Enter")
    #expect(Tmux.exitStatus(exit) == "0", "\(tmux.screen())")
    #expect(try box.read("standups/platform/2026-11-25-bo.yaml").contains("by: Bo"))
    #expect(try box.git("config", "dinger.standup-name") == "Bo\n")
    // Remembered: not asked again.
    expectOK(try box.dinger("standup", "--today", "y"))
  }
}
