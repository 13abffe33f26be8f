import ArgumentParser
import Components
import Foundation
import Models
import Providers
import Synchronization

extension Meet {
  /// The full-screen timer, then notes, then the commit.
  func runTimer() async throws {
    guard isatty(0) == 1 && isatty(1) == 1 else {
      throw CLIError(
        "dinger meet shows a full-screen timer and needs a terminal; record a meeting held elsewhere with 'dinger meet \(scrum ?? "SCRUM") --record --duration 12m'"
      )
    }
    let repository = try global.repository()
    let stored = try chosenScrum(repository)
    let startTimer = MeetingTimer(
      attendees: stored.scrum.attendees.map(\.name), minutes: stored.scrum.length,
      overtime: overtime)
    let sound = sound || (try? repository.config().meet?.sound) == true
    if transcribe { Terminal.status("starting the transcriber...\r") }
    let listener = MeetingListener(
      transcribe: transcribe, names: startTimer.speakers, first: startTimer.speakers[0])
    if let failure = listener.startFailure {
      Terminal.error("note: the meeting runs without transcription: \(failure)\n")
      // NB: a moment to read it before the timer's screen covers it.
      try? await Task.sleep(for: .seconds(2))
    }
    let started = Date()
    let terminal = RawTerminal()
    defer { terminal.restore() }
    let over = SharedFlag()
    let help = SharedFlag()
    let ding: @Sendable () -> Void = {
      if sound { Chime.play { terminal.bell() } } else { terminal.bell() }
    }
    let session = MeetingSession(startTimer) { event, _ in
      ding()
      if event == .finished { over.set() }
    }
    let draw: @Sendable (MeetingTimer) -> Void = { timer in
      let (width, height) = terminal.size
      Terminal.control(
        MeetingScreen(
          timer: timer, title: stored.scrum.title, theme: stored.scrum.effectiveTheme, width: width,
          height: height, color: Terminal.colorOnStdout, showHelp: help.isSet,
          listening: listener.status(timer)
        ).render())
    }
    // NB: DINGER_TEST_SECOND_MS makes a second shorter, for the terminal tests only.
    let second =
      ProcessInfo.processInfo.environment["DINGER_TEST_SECOND_MS"].flatMap { Int($0) }
      .map { Duration.milliseconds(max(1, $0)) } ?? .seconds(1)
    let ticking = Task { await session.run(clock: ContinuousClock(), second: second) }
    // Redraws five times a second: the clock, and a resized window.
    let drawing = Task {
      while !Task.isCancelled {
        let timer = await session.timer
        listener.follow(timer)
        draw(timer)
        if timer.isFinished { over.set() }
        try? await Task.sleep(for: .milliseconds(200))
      }
    }
    for await pressed in terminal.keys(stop: { over.isSet }) {
      // NB: arrow keys and other sequences do nothing; Esc alone asks to end (MeetingKeys).
      let current = await session.timer
      guard let action = MeetingKeys.action(pressed, in: current) else { continue }
      if action == .toggleHelp {
        help.toggle()
      } else {
        await session.update { MeetingKeys.apply(action, to: &$0) }
      }
      let timer = await session.timer
      // A speaker change by hand dings too with --sound (the timer's own come as events).
      let moved = timer.current != current.current
      listener.follow(timer)
      if moved && sound && !timer.isFinished { ding() }
      draw(timer)
      if timer.isFinished { over.set() }
    }
    ticking.cancel()
    drawing.cancel()
    terminal.restore()
    // NB: keys pressed while the meeting ended are not the notes' first words.
    tcflush(0, TCIFLUSH)
    let timer = await session.timer
    guard case .finished(saved: true) = timer.phase else {
      listener.cancel()
      Terminal.output("meeting discarded; nothing recorded\n")
      return
    }
    listener.follow(timer)
    if listener.isOn { Terminal.status("finishing the transcript...\r") }
    let (turns, note) = listener.finish(elapsed: timer.elapsed)
    if listener.isOn { Terminal.status("\u{1B}[K") }
    if let note { Terminal.error("note: \(note)\n") }
    // NB: the meeting is saved whatever happens to its notes (Ctrl-C, a failed editor, an
    // unreadable file): they are extra, the meeting is not.
    let transcript: String?
    do {
      transcript = try notes(repository: repository)
    } catch {
      Terminal.error("\nnote: \(error); the meeting is saved without notes\n")
      transcript = nil
    }
    let meeting = Meeting(
      scrum: stored.scrum.id ?? UUID(), date: started, length: stored.scrum.length,
      duration: timer.elapsed, attendees: stored.scrum.attendees.map(\.name),
      speakers: timer.speakerTimes,
      transcript: note.map { (transcript.map { $0 + "\n" } ?? "") + "(\($0))\n" } ?? transcript,
      turns: turns)
    let (saved, subject) = try MeetingProvider.live(repository: repository).record(
      meeting, of: stored)
    Terminal.output("\(subject) (\(saved.path))\n")
  }

  /// The meeting's notes: from --notes-file, from $EDITOR with --edit-notes, else typed.
  private func notes(repository: Workspace) throws -> String? {
    if let notesFile {
      guard let text = try? String(contentsOfFile: notesFile, encoding: .utf8) else {
        throw CLIError("can't read the notes file '\(notesFile)'")
      }
      return text
    }
    if editNotes {
      let text = try Editor.edit(
        "", header: [], name: "notes", repository: repository,
        instead: "--notes-file FILE (or leave out --edit-notes to type them)")
      return text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : text
    }
    if isatty(0) == 1 && isatty(1) == 1 {
      Terminal.output(
        "Notes for the transcript (←/→ to edit; an empty line starts a paragraph, two or Ctrl-D finish; Enter alone skips):\n"
      )
      return try NotesPrompt.read()
    }
    Terminal.output("Notes for the transcript (end with an empty line; Enter alone skips):\n")
    // Ctrl-C here ends the typing, not the program: the meeting is already over and is saved.
    NotesInterrupt.arm()
    defer { NotesInterrupt.disarm() }
    var lines: [String] = []
    while let line = try NotesInterrupt.readLine(), !line.isEmpty { lines.append(line) }
    return lines.isEmpty ? nil : lines.joined(separator: "\n") + "\n"
  }
}

/// SIGINT while notes are typed: noted, and the read it interrupts returns (no SA_RESTART).
enum NotesInterrupt {
  nonisolated(unsafe) static var flag: sig_atomic_t = 0
  static var happened: Bool { flag != 0 }

  static func arm() {
    var action = sigaction()
    action.__sigaction_handler.sa_handler = { _ in NotesInterrupt.flag = 1 }
    sigemptyset(&action.sa_mask)
    action.sa_flags = 0
    sigaction(SIGINT, &action, nil)
  }

  static func disarm() { signal(SIGINT, SIG_DFL) }

  /// A line from standard input (nil at its end); throws once SIGINT came. Polls rather than
  /// blocks: the signal may be handled on another thread, leaving a blocked read blocked.
  static func readLine() throws -> String? {
    var bytes: [UInt8] = []
    while true {
      if happened { throw CLIError("interrupted while typing notes") }
      var p = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
      guard poll(&p, 1, 100) > 0 else { continue }
      var byte: UInt8 = 0
      let n = read(0, &byte, 1)
      if n < 0 && errno == EINTR { continue }
      if n <= 0 { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
      if byte == 10 { return String(decoding: bytes, as: UTF8.self) }
      bytes.append(byte)
    }
  }
}

/// A flag set from any thread.
final class SharedFlag: Sendable {
  private let value = Mutex(false)
  var isSet: Bool { value.withLock { $0 } }
  func set() { value.withLock { $0 = true } }
  func toggle() { value.withLock { $0.toggle() } }
}
