import ArgumentParser
import Base
import Components
import FoundationEssentials
import Glibc
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
    // NB: attendees away today are left out of the rotation, and told so.
    let today = localDay(currentDate())
    let away = stored.scrum.attendees.filter { $0.away(on: today) != nil }
    var speakers = stored.scrum.attendees.filter { $0.away(on: today) == nil }.map(\.name)
    if speakers.isEmpty { speakers = stored.scrum.attendees.map(\.name) }
    for a in away where speakers.count < stored.scrum.attendees.count {
      let note = a.away(on: today)?.note.map { " (\($0))" } ?? ""
      Terminal.error("note: \(a.name) is away today\(note): left out of the rotation\n")
    }
    let written = Self.writtenLines(stored, repository: repository, day: today)
    let startTimer = MeetingTimer(
      attendees: speakers, minutes: stored.scrum.length, overtime: overtime)
    let sound = sound || (try? repository.config().meet?.sound) == true
    if transcribe { Terminal.status("starting the transcriber...\r") }
    let listener = MeetingListener(
      transcribe: transcribe, names: startTimer.speakers, first: startTimer.speakers[0],
      team: transcribe ? teamModel(repository, stored) : nil)
    if let failure = listener.startFailure {
      Terminal.error("note: the meeting runs without transcription: \(failure)\n")
      // NB: a moment to read it before the timer's screen covers it.
      try? await Task.sleep(for: .seconds(2))
    }
    let started = Date()
    let terminal = RawTerminal()
    defer { terminal.restore() }
    let frontend = TerminalMeetingFrontend(
      terminal: terminal, listener: listener, sound: sound, title: stored.scrum.title,
      theme: stored.scrum.effectiveTheme, written: written)
    // NB: DINGER_TEST_SECOND_MS makes a second shorter, for the terminal tests only.
    let second =
      ProcessInfo.processInfo.environment["DINGER_TEST_SECOND_MS"].flatMap { Int($0) }
      .map { Duration.milliseconds(max(1, $0)) } ?? .seconds(1)
    let outcome = try await MeetingRunner(
      scrum: stored, meetings: MeetingProvider.live(repository: repository)
    ).run(
      startTimer, frontend: frontend, clock: ContinuousClock(), started: started, second: second,
      dingOnChange: sound
    ) { timer in
      if listener.isOn { Terminal.status("finishing the transcript...\r") }
      let (turns, note) = listener.finish(elapsed: timer.elapsed)
      if listener.isOn { Terminal.status("\u{1B}[K") }
      if let note { Terminal.error("note: \(note)\n") }
      // NB: the meeting is saved whatever happens to its notes (Ctrl-C, a failed editor, an
      // unreadable file): they are extra, the meeting is not.
      var transcript: String?
      do {
        transcript = try notes(repository: repository)
      } catch {
        Terminal.error("\nnote: \(error); the meeting is saved without notes\n")
      }
      if let note { transcript = (transcript.map { $0 + "\n" } ?? "") + "(\(note))\n" }
      return MeetingRunner.WrapUp(transcript: transcript, turns: turns)
    }
    switch outcome {
    case .discarded:
      listener.cancel()
      Terminal.output("meeting discarded; nothing recorded\n")
    case .recorded(let saved, let subject):
      Terminal.output("\(subject) (\(saved.path))\n")
    }
  }

  /// What each attendee wrote for `day` in the written stand-up (answers on one line each) and
  /// their open blockers, for the timer screen; empty when nobody writes.
  static func writtenLines(_ stored: StoredScrum, repository: Workspace, day: CivilDate)
    -> [String: [String]]
  {
    let provider = StandupProvider.live(repository: repository)
    guard let entries = try? provider.entries(of: stored).entries, !entries.isEmpty else {
      return [:]
    }
    var out: [String: [String]] = [:]
    let blockers = Blockers.follow(entries.map(\.entry)).filter(\.isOpen)
    for attendee in stored.scrum.attendees {
      var lines: [String] = []
      if let entry = entries.last(where: {
        $0.entry.date == day.description && $0.entry.by.lowercased() == attendee.naturalKey
      }) {
        for answer in entry.entry.answers where !answer.text.trimmed.isEmpty {
          lines.append("\(answer.key): " + answer.text.trimmed.replacingText("\n", with: " "))
        }
      }
      for b in blockers where b.owner.lowercased() == attendee.naturalKey {
        lines.append("blocked: \(b.text) (\(b.id), since \(b.opened))")
      }
      if !lines.isEmpty { out[attendee.name] = lines }
    }
    return out
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
      return text.trimmed().isEmpty ? nil : text
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

/// The terminal as the meeting's frontend: keys in, the full-screen timer out, the bell (or the
/// ding through the sound server with --sound), the transcriber told of speaker changes.
struct TerminalMeetingFrontend: MeetingFrontend {
  let terminal: RawTerminal
  let listener: MeetingListener
  let sound: Bool
  let title: String
  let theme: Theme
  /// Each speaker's written entry of the day and open blockers.
  var written: [String: [String]] = [:]

  func inputs(stop: @escaping @Sendable () -> Bool) -> AsyncStream<Key> {
    terminal.keys(stop: stop)
  }

  func control(_ key: Key, _ timer: MeetingTimer) -> MeetingControl? {
    // NB: arrow keys and other sequences do nothing; Esc alone asks to end (MeetingKeys).
    guard let action = MeetingKeys.action(key, in: timer) else { return nil }
    if action == .toggleHelp { return .toggleHelp }
    return .timer { MeetingKeys.apply(action, to: &$0) }
  }

  func show(_ timer: MeetingTimer, help: Bool) {
    let (width, height) = terminal.size
    Terminal.control(
      MeetingScreen(
        timer: timer, title: title, theme: theme, width: width, height: height,
        color: Terminal.colorOnStdout, showHelp: help, listening: listener.status(timer),
        written: written
      ).render())
  }

  func ding() {
    let terminal = self.terminal
    if sound { Chime.play { terminal.bell() } } else { terminal.bell() }
  }

  func speakerChanged(_ timer: MeetingTimer) { listener.follow(timer) }

  func close() {
    terminal.restore()
    // NB: keys pressed while the meeting ended are not the notes' first words.
    tcflush(0, TCIFLUSH)
  }
}
