import Foundation
import TestSupport
import Testing

/// `dinger meet` in a real pseudo-terminal: tmux runs it, send-keys types, capture-pane reads.
@Suite(.serialized) struct MeetTimerTerminalTests {
  func start(_ box: Sandbox) throws -> (Tmux, URL) {
    #expect(try box.dinger("init").status == 0)
    #expect(
      try box.dinger(
        "scrum", "new", "Standup", "--length", "1", "--attendee", "Ada", "--attendee", "Grace"
      ).status == 0)
    return try Tmux.start(box, "meet", "standup")
  }

  @Test func movesThroughTheSpeakersSavesAndCommits() throws {
    let box = try Sandbox()
    let (tmux, exit) = try start(box)
    #expect(tmux.wait(for: "Speaker 1 of 2: Ada"), "\(tmux.screen())")
    #expect(tmux.screen().contains(" Standup"))
    tmux.keys("n")
    #expect(tmux.wait(for: "Last speaker: Grace"), "\(tmux.screen())")
    #expect(tmux.screen().contains("Done: Ada"))
    tmux.keys("q")
    #expect(
      tmux.wait(for: "End meeting?  s save and end · d discard · r resume"), "\(tmux.screen())")
    tmux.keys("s")
    #expect(tmux.wait(for: "Notes for the transcript"), "\(tmux.screen())")
    // Line editing: a typo fixed with the arrow keys and Backspace, nothing of the keys'
    // escape sequences in the text; a paragraph; Ctrl-D finishes.
    tmux.keys("Ada shiped the picker")
    for _ in 0..<13 { tmux.keys("Left") }
    tmux.keys("p", "End", "!", "BSpace", "Enter", "Enter", "Grace reviewed it")
    // The prompt's redraws are terminal control, never shown as escaped text.
    #expect(tmux.wait(for: "> Grace reviewed it"), "\(tmux.screen())")
    #expect(tmux.screen().contains("> Ada shipped the picker"), "\(tmux.screen())")
    #expect(!tmux.screen().contains("\\x"), "\(tmux.screen())")
    tmux.keys("C-d")
    #expect(Tmux.exitStatus(exit) == "0", "\(tmux.screen())")
    let files = try box.git("ls-files", "history").split(separator: "\n")
    #expect(files.count == 1)
    let text = try box.read(String(files.first ?? ""))
    #expect(text.contains("attendees: [Ada, Grace]\nspeakers:\n  - {name: Ada, seconds: "))
    #expect(text.contains("  - {name: Grace, seconds: "))
    #expect(
      text.hasSuffix("transcript: |\n  Ada shipped the picker\n\n  Grace reviewed it\n"), "\(text)")
    #expect(
      try box.git("log", "-1", "--format=%s").hasPrefix("Record meeting of Standup (")
        && box.git("log", "-1", "--format=%s").contains(" s, 2 attendees)"))
    #expect(try box.gitAgrees().status == "")
  }

  /// Arrow keys arrive as `ESC [ D`: they do nothing (← used to read as Esc then `d`, and
  /// discarded the meeting); Esc alone still asks to end.
  @Test func arrowKeysDoNotEndOrDiscardTheMeeting() throws {
    let box = try Sandbox()
    let (tmux, exit) = try start(box)
    #expect(tmux.wait(for: "Speaker 1 of 2: Ada"), "\(tmux.screen())")
    for key in ["Left", "Right", "Up", "Down", "Left"] { tmux.keys(key) }
    usleep(500_000)
    #expect(tmux.screen().contains("Speaker 1 of 2: Ada"), "\(tmux.screen())")
    #expect(!tmux.screen().contains("End meeting?"), "\(tmux.screen())")
    #expect(!FileManager.default.fileExists(atPath: exit.path), "the meeting is still running")
    tmux.keys("Escape")
    #expect(tmux.wait(for: "End meeting?"), "\(tmux.screen())")
    tmux.keys("Left")
    usleep(300_000)
    #expect(tmux.screen().contains("End meeting?"), "an arrow at the prompt is no answer")
    tmux.keys("r")
    #expect(tmux.wait(for: "Speaker 1 of 2: Ada"), "\(tmux.screen())")
    tmux.keys("q")
    #expect(tmux.wait(for: "End meeting?"), "\(tmux.screen())")
    tmux.keys("d")
    #expect(tmux.wait(for: "meeting discarded; nothing recorded"), "\(tmux.screen())")
  }

  /// A SIGINT from outside (`kill -INT`) leaves the terminal as it was: main screen, cursor.
  @Test func aSIGINTFromOutsideRestoresTheTerminal() throws {
    let box = try Sandbox()
    let (tmux, exit) = try start(box)
    #expect(tmux.wait(for: "Speaker 1 of 2: Ada"), "\(tmux.screen())")
    #expect((try? tmux.run(["display", "-p", "-t", "main", "#{alternate_on}"])) == "1\n")
    let shell = try tmux.run(["display", "-p", "-t", "main", "#{pane_pid}"])
      .trimmingCharacters(in: .whitespacesAndNewlines)
    let child = try ProcessRunner.run("/usr/bin/pgrep", ["-P", shell]).stdout
      .trimmingCharacters(in: .whitespacesAndNewlines)
    let pid = try #require(Int32(child.split(separator: "\n").first ?? ""))
    kill(pid, SIGINT)
    #expect(Tmux.exitStatus(exit) == "130")
    #expect((try? tmux.run(["display", "-p", "-t", "main", "#{alternate_on}"])) == "0\n")
    #expect((try? tmux.run(["display", "-p", "-t", "main", "#{cursor_flag}"])) == "1\n")
  }

  /// Ctrl-C at the notes prompt of a saved meeting commits the meeting without notes.
  @Test func ctrlCAtTheNotesPromptStillSavesTheMeeting() throws {
    let box = try Sandbox()
    let (tmux, exit) = try start(box)
    #expect(tmux.wait(for: "Speaker 1 of 2: Ada"), "\(tmux.screen())")
    let head = try box.head()
    tmux.keys("q")
    #expect(tmux.wait(for: "End meeting?"), "\(tmux.screen())")
    tmux.keys("s")
    #expect(tmux.wait(for: "Notes for the transcript"), "\(tmux.screen())")
    tmux.keys("half a thought")
    tmux.keys("C-c")
    #expect(Tmux.exitStatus(exit) == "0", "\(tmux.screen())")
    #expect(tmux.wait(for: "the meeting is saved without"), "\(tmux.screen())")
    #expect(try box.head() != head)
    #expect(try box.git("log", "-1", "--format=%s").hasPrefix("Record meeting of Standup"))
    #expect(try box.git("status", "--porcelain") == "")
  }

  /// `n` on the last speaker asks before it ends the meeting, like q.
  @Test func nextOnTheLastSpeakerAsksFirst() throws {
    let box = try Sandbox()
    let (tmux, exit) = try start(box)
    #expect(tmux.wait(for: "Speaker 1 of 2: Ada"), "\(tmux.screen())")
    tmux.keys("n")
    #expect(tmux.wait(for: "Last speaker: Grace"), "\(tmux.screen())")
    tmux.keys("n")
    #expect(tmux.wait(for: "End meeting?"), "\(tmux.screen())")
    tmux.keys("r")
    #expect(tmux.wait(for: "Last speaker: Grace"), "\(tmux.screen())")
    #expect(!FileManager.default.fileExists(atPath: exit.path))
    tmux.keys("n")
    #expect(tmux.wait(for: "End meeting?"), "\(tmux.screen())")
    tmux.keys("s")
    #expect(tmux.wait(for: "Notes for the transcript"), "\(tmux.screen())")
    tmux.keys("Enter")
    #expect(Tmux.exitStatus(exit) == "0", "\(tmux.screen())")
    #expect(try box.git("log", "-1", "--format=%s").hasPrefix("Record meeting of Standup"))
  }

  /// --overtime: past the planned length the last speaker goes on and the screen says by how
  /// much; n asks to end, and the meeting is saved with its real duration. (A second lasts
  /// 50 ms here: DINGER_TEST_SECOND_MS.)
  @Test func overtimeLetsTheLastSpeakerRunOver() throws {
    let box = try Sandbox()
    #expect(try box.dinger("init").status == 0)
    #expect(
      try box.dinger("scrum", "new", "Standup", "--length", "1", "--attendee", "Ada").status == 0)
    box.extraEnvironment["DINGER_TEST_SECOND_MS"] = "50"
    let (tmux, exit) = try Tmux.start(box, "meet", "standup", "--overtime")
    #expect(tmux.wait(for: "OVER by 0:"), "\(tmux.screen())")
    #expect(tmux.screen().contains("Last speaker: Ada    +0:"), "\(tmux.screen())")
    tmux.keys("n")
    #expect(tmux.wait(for: "End meeting?"), "\(tmux.screen())")
    tmux.keys("s")
    #expect(tmux.wait(for: "Notes for the transcript"), "\(tmux.screen())")
    tmux.keys("Enter")
    #expect(Tmux.exitStatus(exit) == "0", "\(tmux.screen())")
    let file = try box.git("ls-files", "history").trimmingCharacters(in: .whitespacesAndNewlines)
    let text = try box.read(file)
    let duration =
      text.split(separator: "\n").first { $0.hasPrefix("duration: ") }
      .flatMap { Int($0.dropFirst(10)) } ?? 0
    #expect(duration > 60, "\(text)")
  }

  @Test func discardingRecordsNothing() throws {
    let box = try Sandbox()
    let (tmux, exit) = try start(box)
    #expect(tmux.wait(for: "Speaker 1 of 2: Ada"), "\(tmux.screen())")
    let head = try box.head()
    tmux.keys("p")
    #expect(tmux.wait(for: "PAUSED"), "\(tmux.screen())")
    tmux.keys("Escape")
    #expect(tmux.wait(for: "End meeting?"), "\(tmux.screen())")
    tmux.keys("d")
    #expect(Tmux.exitStatus(exit) == "0")
    #expect(tmux.wait(for: "meeting discarded; nothing recorded"), "\(tmux.screen())")
    #expect(try box.head() == head)
  }
}
