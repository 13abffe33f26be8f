import ArgumentParser
import Base
import Components
import FoundationEssentials
import Glibc
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

      With --transcribe, the meeting is heard from the default sound source (a microphone \
      through PulseAudio or PipeWire) and written down by speaker, offline, by the helper \
      dinger-transcribe (pocketsphinx with its en-us model); the screen shows a level meter. \
      The meeting file gets the text by speaker under 'turns'; notes stay apart. If the \
      transcriber can't start or stops, the meeting goes on and is saved, and the notes say \
      what happened. Transcription uses the team's own words: a language model dinger builds \
      from the scrum's meetings (hand-corrected turns best of all), its notes, names and the \
      word libraries, kept under .git/dinger/ and rebuilt when they change (--no-team-words \
      to compare). With --sound (or meet.sound: true in .dinger/config.yaml), each speaker \
      change plays a ding through the sound server (the terminal bell where there is none).

      With --record, writes a meeting held elsewhere without the timer: attendees default to \
      the scrum's, the date to now, the length to the scrum's planned length. --audio FILE.wav \
      transcribes its recording, with --turn NAME=SECONDS for when each speaker began; the \
      duration is then the recording's.

      Without a scrum, runs the one scheduled now (from 10 minutes before its start to its \
      planned end; 'dinger agenda' lists them); when two are due it asks which.

      Examples:
        dinger meet
        dinger meet design
        dinger meet design --notes-file standup.txt
        dinger meet design --overtime
        dinger meet design --record --duration 12m
        dinger meet design --record --date 2026-11-20T09:00 --duration 10:30
        dinger meet design --record --duration 9m --transcript-file notes.txt
        dinger meet design --transcribe --sound
        dinger meet design --record --audio standup.wav --turn Ana=0 --turn Bo=95
      """)

  @OptionGroup var global: GlobalOptions

  @Argument(
    help: "The scrum: slug, title or id prefix (default: the one scheduled now).",
    completion: Completions.scrums)
  var scrum: String?

  @Flag(help: "Let the last speaker run over the planned length; the timer shows by how much.")
  var overtime = false

  @Flag(help: "Record a meeting held elsewhere, without the timer.")
  var record = false

  @Option(
    help:
      "When it started: 2026-11-21T09:00 (local time) or with a zone, 2026-11-21T09:00:00Z (default: now)."
  )
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

  @Flag(help: "Transcribe the meeting by speaker as it happens, from the default sound source.")
  var transcribe = false

  @Flag(
    help:
      "Transcribe with the general language model only, not the one dinger builds from the team's meetings, names and words."
  )
  var noTeamWords = false

  @Flag(help: "Play a ding through the sound server at each speaker change.")
  var sound = false

  @Option(help: "With --record: transcribe this recording (a 16-bit PCM WAV file).")
  var audio: String?

  @Option(
    name: .customLong("turn"),
    help:
      "With --audio: NAME=SECONDS, when a speaker began in the recording; one per turn, in order.")
  var turns: [String] = []

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
    if transcribe && record {
      throw ValidationError(
        "--transcribe hears a meeting as it runs; to transcribe a recording use --record --audio FILE.wav"
      )
    }
    if audio != nil && !record { throw ValidationError("--audio goes with --record") }
    if !turns.isEmpty && audio == nil { throw ValidationError("--turn goes with --audio") }
    if audio != nil && turns.isEmpty {
      throw ValidationError(
        "--audio needs --turn NAME=SECONDS for each speaker's start, in order (e.g. --turn Ana=0 --turn Bo=95)"
      )
    }
    _ = try parsedTurns()
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
      let stored = try chosenScrum(repository)
      var transcript: String?
      if let transcriptFile {
        guard let text = try? String(contentsOfFile: transcriptFile, encoding: .utf8) else {
          throw CLIError("can't read the transcript file '\(transcriptFile)'")
        }
        transcript = text
      }
      let when = date.flatMap(userDate) ?? currentDate()
      // NB: by default the attendees who were not away that day.
      let day = localDay(when)
      let present = stored.scrum.attendees.filter { $0.away(on: day) == nil }
      let names =
        attendees.isEmpty
        ? (present.isEmpty ? stored.scrum.attendees : present).map(\.name) : splitNames(attendees)
      var meeting = Meeting(
        scrum: stored.scrum.id ?? UUID(), date: when,
        length: stored.scrum.length,
        duration: duration.flatMap(Self.seconds)
          ?? audio.flatMap(Transcription.length(ofRecording:)) ?? stored.scrum.length * 60,
        attendees: names, transcript: transcript)
      if let audio {
        try transcribeRecording(
          audio, into: &meeting, names: names, team: teamModel(repository, stored))
      }
      let (saved, subject) = try MeetingProvider.live(repository: repository).record(
        meeting, of: stored)
      Terminal.output("\(subject) (\(saved.path))\n")
    }
  }

  /// `--turn NAME=SECONDS` values, checked to be in order.
  func parsedTurns() throws -> [(name: String, start: Double)] {
    var out: [(name: String, start: Double)] = []
    for text in turns {
      // NB: a bare number is seconds here (a recording's offsets); 1:35 and 2m also work.
      let value = text.lastIndex(of: "=").map { String(text[text.index(after: $0)...]) } ?? ""
      guard let eq = text.lastIndex(of: "="),
        let start = Double(value).flatMap({ $0.isFinite ? $0 : nil })
          ?? Self.seconds(value).map(Double.init),
        start >= 0, !text[..<eq].trimmingSpaces().isEmpty
      else {
        throw ValidationError("--turn must look like NAME=SECONDS (Ana=0, Bo=95), found '\(text)'")
      }
      if let last = out.last, start < last.start {
        throw ValidationError(
          "--turn \(text) starts before the turn given before it (\(last.name) at \(Int(last.start)) s); give turns in the order spoken"
        )
      }
      out.append((String(text[..<eq]).trimmingSpaces(), start))
    }
    return out
  }

  /// Transcribes `audio` by the turns given: the meeting's turns, and each speaker's time from
  /// one turn's start to the next.
  func transcribeRecording(
    _ audio: String, into meeting: inout Meeting, names: [String], team: TeamModel.Prepared?
  ) throws {
    let length: Double
    do {
      length = try Transcription.recordingLength(audio)
    } catch {
      throw CLIError("can't read the recording '\(audio)': \(error); nothing was recorded")
    }
    guard length > 0 else {
      throw CLIError("'\(audio)' holds no audio (0 s); nothing was recorded")
    }
    let given = try parsedTurns()
    if let late = given.first(where: { $0.start > length }) {
      throw CLIError(
        "--turn \(late.name)=\(Self.number(late.start)) is past the end of the recording (\(Self.number(length)) s); nothing was recorded"
      )
    }
    let result = try Transcription.recording(
      audio, turns: given, names: names + given.map(\.name), team: team)
    if let failure = result.failure {
      throw CLIError("can't transcribe '\(audio)': \(failure); nothing was recorded")
    }
    meeting.turns = given.enumerated().map { i, turn in
      TranscriptTurn(
        speaker: turn.name, start: Int(turn.start.rounded()), text: result.heard[i] ?? "")
    }
    meeting.speakers = Self.speakerTimes(meeting.turns, duration: meeting.duration ?? 0)
    if meeting.turns.allSatisfy({ $0.text.isEmpty }) {
      // NB: silence (or audio the recognizer made nothing of) is said, not saved unremarked.
      Terminal.error("note: nothing was heard in '\(audio)'; the turns are empty\n")
      let note = "Nothing was heard in the recording."
      meeting.transcript = meeting.transcript.map { $0 + "\n" + note } ?? note
    }
  }

  /// `3`, `2.5`: seconds as a person writes them.
  static func number(_ seconds: Double) -> String {
    seconds == seconds.rounded() ? String(Int(seconds)) : String(cFormat: "%.1f", seconds)
  }

  /// Seconds per speaker from turns: each turn lasts until the next begins, the last until the
  /// meeting's end; a speaker with several turns has their sum, in order of first turn.
  static func speakerTimes(_ turns: [TranscriptTurn], duration: Int) -> [SpeakerTime] {
    var out: [SpeakerTime] = []
    for (i, turn) in turns.enumerated() {
      let end = i + 1 < turns.count ? turns[i + 1].start : max(duration, turn.start)
      if let k = out.firstIndex(where: { $0.name == turn.speaker }) {
        out[k].seconds += end - turn.start
      } else {
        out.append(SpeakerTime(name: turn.speaker, seconds: end - turn.start))
      }
    }
    return out
  }

  /// `12m`, `90s`, `1h`, `10:30` (minutes:seconds) or plain minutes, in seconds.
  static func seconds(_ text: String) -> Int? {
    let t = text.trimmingSpaces().lowercased()
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

  /// The team's language model for `stored`'s meetings (built or reused), unless
  /// --no-team-words; nil when there is too little text, or it can't be built (said).
  func teamModel(_ repository: Workspace, _ stored: StoredScrum) -> TeamModel.Prepared? {
    guard !noTeamWords else { return nil }
    do {
      return try TeamModel.prepare(repository, scrum: stored)
    } catch {
      Terminal.error("note: transcribing without the team's words: \(error)\n")
      return nil
    }
  }
}
