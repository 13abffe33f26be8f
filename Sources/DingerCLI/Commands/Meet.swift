import ArgumentParser
import Components
import Foundation
import Models
import Providers

/// `dinger meet S`: runs a meeting, or records one held elsewhere with `--record`.
struct Meet: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "meet",
    abstract: "Run a stand-up with the terminal timer, or record one held elsewhere.",
    discussion: """
      The timer splits the planned length between the attendees; when a speaker's time is up \
      it rings and moves on. Keys: space or n next speaker (on the last one it asks to end), \
      p pause, q or Esc end (save, discard or resume), ? help; arrow keys do nothing. \
      Afterwards it asks for notes (or takes --notes-file, or $EDITOR with --edit-notes) and \
      records the meeting as one commit; Ctrl-C there saves it without notes. With \
      --overtime the last speaker may run past the planned length (a ding marks it, and the \
      timer shows how far over); the meeting ends when you press n or q.

      With --record, writes a meeting held elsewhere without the timer: attendees default to \
      the scrum's, the date to now, the length to the scrum's planned length.

      Examples:
        dinger meet design
        dinger meet design --notes-file standup.txt
        dinger meet design --overtime
        dinger meet design --record --duration 12m
        dinger meet design --record --date 2026-11-20T09:00 --duration 10:30
        dinger meet design --record --duration 9m --transcript-file notes.txt
      """)

  @OptionGroup var global: GlobalOptions

  @Argument(help: "The scrum: slug, title or id prefix.", completion: Completions.scrums)
  var scrum: String

  @Flag(help: "Let the last speaker run over the planned length; the timer shows by how much.")
  var overtime = false

  @Flag(help: "Record a meeting held elsewhere, without the timer.")
  var record = false

  @Option(
    help: "When it started: 2026-11-21T09:00 (local time) or with a zone, 2026-11-21T09:00:00Z (default: now).")
  var date: String?

  @Option(help: "How long it took: 12m, 90s, 1h, 10:30 or minutes (default: the planned length).")
  var duration: String?

  @Option(
    name: .customLong("attendee"), help: "Who was there; repeat (default: the scrum's attendees).")
  var attendees: [String] = []

  @Option(help: "A file whose text becomes the transcript.")
  var transcriptFile: String?

  @Option(help: "After a timed meeting, take the notes from this file.")
  var notesFile: String?

  @Flag(help: "After a timed meeting, write the notes in $EDITOR.")
  var editNotes = false

  func validate() throws {
    if record && (notesFile != nil || editNotes) {
      throw ValidationError(
        "--notes-file and --edit-notes go with the timer; use --transcript-file with --record")
    }
    if !record && (date != nil || duration != nil || !attendees.isEmpty || transcriptFile != nil) {
      throw ValidationError("--date, --duration, --attendee and --transcript-file go with --record")
    }
    if let date, userDate(date) == nil {
      throw ValidationError(
        "--date must be a date and time like 2026-11-21T09:00:00Z, found '\(date)'")
    }
    if let duration, Self.seconds(duration) == nil {
      throw ValidationError(
        "--duration must look like 12m, 90s, 1h, 10:30 or a number of minutes, found '\(duration)'")
    }
  }

  func run() async throws {
    guard record else {
      try await reportingAsync { try await runTimer() }
      return
    }
    try reporting {
      let repository = try global.repository()
      let stored = try ScrumProvider.live(repository: repository).find(scrum)
      var transcript: String?
      if let transcriptFile {
        guard let text = try? String(contentsOfFile: transcriptFile, encoding: .utf8) else {
          throw CLIError("can't read the transcript file '\(transcriptFile)'")
        }
        transcript = text
      }
      let meeting = Meeting(
        scrum: stored.scrum.id ?? UUID(), date: date.flatMap(userDate) ?? Date(),
        length: stored.scrum.length,
        duration: duration.flatMap(Self.seconds) ?? stored.scrum.length * 60,
        attendees: attendees.isEmpty ? stored.scrum.attendees.map(\.name) : attendees,
        transcript: transcript)
      let (saved, subject) = try MeetingProvider.live(repository: repository).record(
        meeting, of: stored)
      Terminal.output("\(subject) (\(saved.path))\n")
    }
  }

  /// The full-screen timer, then notes, then the commit.
  private func runTimer() async throws {
    guard isatty(0) == 1 && isatty(1) == 1 else {
      throw CLIError(
        "dinger meet shows a full-screen timer and needs a terminal; record a meeting held elsewhere with 'dinger meet \(scrum) --record --duration 12m'"
      )
    }
    let repository = try global.repository()
    let stored = try ScrumProvider.live(repository: repository).find(scrum)
    let started = Date()
    let terminal = RawTerminal()
    defer { terminal.restore() }
    let over = SharedFlag()
    let help = SharedFlag()
    let session = MeetingSession(
      MeetingTimer(
        attendees: stored.scrum.attendees.map(\.name), minutes: stored.scrum.length,
        overtime: overtime)
    ) { event, _ in
      terminal.bell()
      if event == .finished { over.set() }
    }
    let draw: @Sendable (MeetingTimer) -> Void = { timer in
      let (width, height) = terminal.size
      Terminal.control(
        MeetingScreen(
          timer: timer, title: stored.scrum.title, theme: stored.scrum.effectiveTheme, width: width,
          height: height, color: Terminal.colorOnStdout, showHelp: help.isSet
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
      Terminal.output("meeting discarded; nothing recorded\n")
      return
    }
    // NB: the meeting is saved whatever happens to its notes (Ctrl-C, a failed editor, an
    // unreadable file): they are extra, the meeting is not.
    let transcript: String?
    do {
      transcript = try notes()
    } catch {
      Terminal.error("\nnote: \(error); the meeting is saved without notes\n")
      transcript = nil
    }
    let meeting = Meeting(
      scrum: stored.scrum.id ?? UUID(), date: started, length: stored.scrum.length,
      duration: timer.elapsed, attendees: stored.scrum.attendees.map(\.name),
      speakers: timer.speakerTimes, transcript: transcript)
    let (saved, subject) = try MeetingProvider.live(repository: repository).record(
      meeting, of: stored)
    Terminal.output("\(subject) (\(saved.path))\n")
  }

  /// The meeting's notes: from --notes-file, from $EDITOR with --edit-notes, else typed.
  private func notes() throws -> String? {
    if let notesFile {
      guard let text = try? String(contentsOfFile: notesFile, encoding: .utf8) else {
        throw CLIError("can't read the notes file '\(notesFile)'")
      }
      return text
    }
    if editNotes {
      let text = try Editor.edit("", header: [], name: "notes")
      return text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : text
    }
    Terminal.output("Notes for the transcript (end with an empty line; Enter alone skips):\n")
    // Ctrl-C here ends the typing, not the program: the meeting is already over and is saved.
    NotesInterrupt.arm()
    defer { NotesInterrupt.disarm() }
    var lines: [String] = []
    while let line = try NotesInterrupt.readLine(), !line.isEmpty { lines.append(line) }
    return lines.isEmpty ? nil : lines.joined(separator: "\n") + "\n"
  }

  /// `12m`, `90s`, `1h`, `10:30` (minutes:seconds) or plain minutes, in seconds.
  static func seconds(_ text: String) -> Int? {
    let t = text.trimmingCharacters(in: .whitespaces).lowercased()
    if let colon = t.firstIndex(of: ":") {
      guard let m = Int(t[..<colon]), let s = Int(t[t.index(after: colon)...]), m >= 0,
        (0..<60).contains(s)
      else { return nil }
      return m * 60 + s
    }
    let units: [(String, Int)] = [("h", 3600), ("m", 60), ("s", 1)]
    for (unit, factor) in units where t.hasSuffix(unit) {
      guard let n = Int(t.dropLast()), n >= 0 else { return nil }
      return n * factor
    }
    guard let minutes = Int(t), minutes >= 0 else { return nil }
    return minutes * 60
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
final class SharedFlag: @unchecked Sendable {
  private let lock = NSLock()
  private var value = false
  var isSet: Bool { lock.withLock { value } }
  func set() { lock.withLock { value = true } }
  func toggle() { lock.withLock { value.toggle() } }
}
