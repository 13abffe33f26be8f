import Foundation
import TestSupport
import Testing

/// The editors people use, vim and nano, driven in a real terminal (tmux): edits land, Ctrl-C
/// inside the editor loses nothing, no temporary file is left, the terminal is as it was.
@Suite(.serialized) struct EditorTerminalTests {
  /// A data repository with one scrum, `EDITOR` set, and a private TMPDIR to find leftovers in.
  func sandbox(editor: String) throws -> Sandbox {
    let box = try Sandbox()
    try FileManager.default.createDirectory(
      atPath: box.home.path("tmp"), withIntermediateDirectories: true)
    box.extraEnvironment = ["EDITOR": editor, "TMPDIR": box.home.path("tmp")]
    #expect(try box.dinger("init").status == 0)
    #expect(
      try box.dinger(
        "scrum", "new", "Standup", "--length", "1", "--attendee", "Ada", "--attendee", "Grace"
      ).status == 0)
    return box
  }

  /// Files left in the sandbox's TMPDIR.
  func leftovers(_ box: Sandbox) -> [String] {
    (try? FileManager.default.contentsOfDirectory(atPath: box.home.path("tmp"))) ?? []
  }

  /// The terminal settings after dinger equal those before it.
  // NB: waits for the whole line: the shell creates the file before `stty` writes it, and a
  // loaded machine was once caught between the two (an empty "after" is not a changed terminal).
  func expectSaneTerminal(_ box: Sandbox) {
    var settings = Tmux.terminalSettings(box)
    let deadline = Date().addingTimeInterval(15)
    while settings.after?.hasSuffix("\n") != true && Date() < deadline {
      usleep(100_000)
      settings = Tmux.terminalSettings(box)
    }
    #expect(settings.before != nil && settings.before == settings.after)
  }

  @Test func nanoEditsAScrumAndCtrlCInsideItIsNano() throws {
    let box = try sandbox(editor: "nano")
    let (tmux, exit) = try Tmux.start(box, "scrum", "edit", "standup")
    #expect(tmux.wait(for: "^X Exit"), "\(tmux.screen())")
    #expect(tmux.wait(for: "length: 1"), "\(tmux.screen())")
    // NB: Ctrl-C in nano shows the cursor's place; dinger must not die of it.
    tmux.keys("C-c")
    #expect(tmux.wait(for: "[ line"), "\(tmux.screen())")
    tmux.keys("M-r")
    #expect(tmux.wait(for: "Search (to replace)"), "\(tmux.screen())")
    tmux.keys("length: 1", "Enter")
    #expect(tmux.wait(for: "Replace with"), "\(tmux.screen())")
    tmux.keys("length: 9", "Enter")
    #expect(tmux.wait(for: "Replace this instance?"), "\(tmux.screen())")
    tmux.keys("y")
    tmux.keys("C-o")
    #expect(tmux.wait(for: "File Name to Write"), "\(tmux.screen())")
    tmux.keys("Enter")
    tmux.keys("C-x")
    #expect(Tmux.exitStatus(exit) == "0", "\(tmux.screen())")
    #expect(tmux.screen().contains("Standup: length 1 -> 9 min"), "\(tmux.screen())")
    #expect(try box.read("scrums/standup.yaml").contains("\nlength: 9\n"))
    #expect(try box.gitAgrees().status == "")
    #expect(leftovers(box) == [])
    expectSaneTerminal(box)
  }

  @Test func vimEditsAScrum() throws {
    let box = try sandbox(editor: "vim")
    let (tmux, exit) = try Tmux.start(box, "scrum", "edit", "standup")
    #expect(tmux.wait(for: "title: Standup"), "\(tmux.screen())")
    tmux.keys(":%s/length: 1/length: 7/", "Enter")
    tmux.keys(":wq", "Enter")
    #expect(Tmux.exitStatus(exit) == "0", "\(tmux.screen())")
    #expect(try box.read("scrums/standup.yaml").contains("\nlength: 7\n"))
    #expect(try box.git("log", "-1", "--format=%s") == "Standup: length 1 -> 7 min\n")
    #expect(leftovers(box) == [])
    expectSaneTerminal(box)
  }

  /// A mistake reopens the file with the errors on top; the line an error cites is the
  /// buffer's line, so `:N` goes to it (the file's own numbers were off by the header).
  @Test func theReopenedBufferCitesItsOwnLines() throws {
    let box = try sandbox(editor: "vim")
    let (tmux, exit) = try Tmux.start(box, "scrum", "edit", "standup")
    #expect(tmux.wait(for: "title: Standup"), "\(tmux.screen())")
    tmux.keys(":%s/length: 1/length: ten/", "Enter")
    tmux.keys(":wq", "Enter")
    #expect(tmux.wait(for: "fix these errors"), "\(tmux.screen())")
    let screen = tmux.screen()
    let cited = screen.components(separatedBy: "scrums/standup.yaml:").dropFirst().first?
      .prefix { $0.isNumber }
    let line = try #require(cited.flatMap { Int($0) }, "\(screen)")
    tmux.keys(":\(line)", "Enter")
    tmux.keys(":s/length: ten/length: 8/", "Enter")
    tmux.keys(":wq", "Enter")
    #expect(Tmux.exitStatus(exit) == "0", "\(tmux.screen())")
    #expect(try box.read("scrums/standup.yaml").contains("\nlength: 8\n"))
    #expect(!(try box.read("scrums/standup.yaml").contains("# dinger:")))
  }

  /// An error found after the editor closed (an answer key the scrum does not ask, a hidden
  /// character) reopens the buffer with it on top and the typed answers kept, in vim and in
  /// nano alike; quitting vim with `:cq` then keeps the text in a file the message names.
  @Test(arguments: ["vim", "nano"]) func anErrorAfterTheEditorReopensWithTheTextKept(
    editor: String
  ) throws {
    let box = try sandbox(editor: editor)
    box.extraEnvironment["DINGER_TEST_NOW"] = "2026-11-24T10:00:00Z"
    let (tmux, exit) = try Tmux.start(box, "standup", "standup", "--as", "Ada")
    #expect(tmux.wait(for: "today:"), "\(tmux.screen())")
    if editor == "vim" {
      tmux.keys(":%s/^today:.*/today: ship the login/", "Enter")
      // NB: `:put`, not `o`: after a comment line vim's `o` would continue the comment.
      tmux.keys(":$put ='risk: the deadline'", "Enter")
      tmux.keys(":wq", "Enter")
    } else {
      tmux.keys("C-w")
      #expect(tmux.wait(for: "Search"), "\(tmux.screen())")
      tmux.keys("today:", "Enter")
      // NB: the first match is the question in the header comment; M-w finds the next one.
      tmux.keys("M-w")
      tmux.keys("C-e", "ship the login", "Enter", "risk: the deadline")
      tmux.keys("C-o")
      #expect(tmux.wait(for: "File Name to Write"), "\(tmux.screen())")
      tmux.keys("Enter")
      tmux.keys("C-x")
    }
    #expect(tmux.wait(for: "asks no question 'risk'"), "\(tmux.screen())")
    #expect(tmux.wait(for: "risk: the deadline"), "the typed text is kept: \(tmux.screen())")
    if editor == "vim" {
      tmux.keys(":g/^risk:/d", "Enter")
      tmux.keys(":wq", "Enter")
    } else {
      tmux.keys("C-w")
      #expect(tmux.wait(for: "Search"), "\(tmux.screen())")
      tmux.keys("risk:", "Enter")
      tmux.keys("C-k")
      tmux.keys("C-o")
      #expect(tmux.wait(for: "File Name to Write"), "\(tmux.screen())")
      tmux.keys("Enter")
      tmux.keys("C-x")
    }
    #expect(Tmux.exitStatus(exit) == "0", "\(tmux.screen())")
    let entry = try box.read("standups/standup/2026-11-24-ada.yaml")
    #expect(entry.contains("ship the login"), "\(entry)")
    #expect(!entry.contains("risk"), "\(entry)")
    #expect(leftovers(box).allSatisfy { !$0.hasSuffix(".tmp") })
  }

  @Test func ctrlCInVimThenQuittingChangesNothing() throws {
    let box = try sandbox(editor: "vim")
    let head = try box.head()
    let before = try box.read("scrums/standup.yaml")
    let (tmux, exit) = try Tmux.start(box, "scrum", "edit", "standup")
    #expect(tmux.wait(for: "title: Standup"), "\(tmux.screen())")
    tmux.keys(":%s/length: 1/length: 3/", "Enter")
    // NB: each step waits for what vim shows, not for a fixed time. Under load a Ctrl-C sent
    // right behind the substitution cancelled it while it was still being typed, and an Escape
    // arriving with the `:` behind it was read as one key and the quit was lost.
    #expect(tmux.wait(for: "length: 3"), "\(tmux.screen())")
    tmux.keys("C-c")
    // vim answers Ctrl-C with a hint and keeps running, in normal mode.
    #expect(tmux.wait(for: "Type  :qa!"), "\(tmux.screen())")
    tmux.keys(":q!", "Enter")
    #expect(Tmux.exitStatus(exit) == "0", "\(tmux.screen())")
    #expect(tmux.screen().contains("nothing to change"), "\(tmux.screen())")
    #expect(try box.head() == head)
    #expect(try box.read("scrums/standup.yaml") == before)
    #expect(leftovers(box) == [])
    expectSaneTerminal(box)
  }

  @Test func vimWritesANewScrumFromTheTemplate() throws {
    let box = try sandbox(editor: "vim")
    let (tmux, exit) = try Tmux.start(box, "scrum", "new")
    #expect(tmux.wait(for: "title:"), "\(tmux.screen())")
    tmux.keys(
      ":%d|call setline(1, ['title: Retro', 'length: 15', 'attendees:', '  - Ada'])", "Enter")
    tmux.keys(":wq", "Enter")
    #expect(Tmux.exitStatus(exit) == "0", "\(tmux.screen())")
    #expect(tmux.screen().contains("Add scrum Retro"), "\(tmux.screen())")
    #expect(try box.read("scrums/retro.yaml").contains("\nlength: 15\n"))
    #expect(leftovers(box) == [])
  }

  /// Ends the running meeting with q then s (save).
  func endMeeting(_ tmux: Tmux) {
    #expect(tmux.wait(for: "Speaker 1 of 2: Ada"), "\(tmux.screen())")
    tmux.keys("q")
    #expect(tmux.wait(for: "End meeting?"), "\(tmux.screen())")
    tmux.keys("s")
  }

  @Test func meetingNotesWrittenInNano() throws {
    let box = try sandbox(editor: "nano")
    let (tmux, exit) = try Tmux.start(box, "meet", "standup", "--edit-notes")
    endMeeting(tmux)
    #expect(tmux.wait(for: "^X Exit"), "\(tmux.screen())")
    tmux.keys("Ada shipped the picker", "Enter", "Grace reviewed it")
    tmux.keys("C-o")
    #expect(tmux.wait(for: "File Name to Write"), "\(tmux.screen())")
    tmux.keys("Enter", "C-x")
    #expect(Tmux.exitStatus(exit) == "0", "\(tmux.screen())")
    let files = try box.git("ls-files", "history").split(separator: "\n")
    #expect(files.count == 1)
    let text = try box.read(String(files.first ?? ""))
    #expect(
      text.hasSuffix("transcript: |\n  Ada shipped the picker\n  Grace reviewed it\n"), "\(text)")
    #expect(leftovers(box) == [])
    expectSaneTerminal(box)
  }

  @Test func ctrlCInTheNotesEditorSavesTheMeetingWithoutNotes() throws {
    let box = try sandbox(editor: "sleep 20; true")
    let (tmux, exit) = try Tmux.start(box, "meet", "standup", "--edit-notes")
    endMeeting(tmux)
    usleep(500_000)
    tmux.keys("C-c")
    #expect(Tmux.exitStatus(exit) == "0", "\(tmux.screen())")
    #expect(
      tmux.screen().replacingOccurrences(of: "\n", with: " ").contains(
        "was interrupted; the meeting is saved without notes"), "\(tmux.screen())")
    let files = try box.git("ls-files", "history").split(separator: "\n")
    #expect(files.count == 1)
    #expect(try !box.read(String(files.first ?? "")).contains("transcript"))
    #expect(try box.git("log", "-1", "--format=%s").hasPrefix("Record meeting of Standup"))
    #expect(leftovers(box) == [])
    expectSaneTerminal(box)
  }

  @Test func killingDingerWhileTheEditorIsOpenLeavesNoTemporaryFile() throws {
    // NB: the editor itself sends the SIGTERM a closing terminal or `kill` would.
    let box = try sandbox(editor: "kill -TERM $PPID; sleep 2; true")
    let head = try box.head()
    let r = try box.dinger("scrum", "edit", "standup")
    #expect(r.status == 143, "\(r.stderr)")
    #expect(try box.head() == head)
    #expect(leftovers(box) == [])
  }
}
