import Foundation
import TestSupport
import Testing

/// `dinger meet --transcribe` end to end: a private PulseAudio with a null sink, three flite
/// voices played into it while the meeting runs in tmux, keys pressed at the turn changes; and
/// each way it can fail (no sound server, no model, the helper killed), where the meeting must
/// still be saved and say what happened.
@Suite(.serialized) struct TranscriptionTests {
  func team(_ box: Sandbox, extra: [String] = []) throws {
    #expect(try box.dinger("init").status == 0)
    var args = ["scrum", "new", "Team", "--length", "1"]
    for name in ["Ana", "Bo", "Chella"] + extra { args += ["--attendee", name] }
    #expect(try box.dinger(args).status == 0)
  }

  /// Ends the meeting on the screen (q, s, no notes) and waits for dinger to exit.
  func end(_ tmux: Tmux, _ exit: URL) {
    tmux.keys("q")
    #expect(tmux.wait(for: "End meeting?"), "\(tmux.screen())")
    tmux.keys("s")
    #expect(tmux.wait(for: "Notes for the transcript", seconds: 90), "\(tmux.screen())")
    tmux.keys("Enter")
    #expect(Tmux.exitStatus(exit) == "0", "\(tmux.screen())")
  }

  /// A team's meeting running with --transcribe against a private sound server, listening.
  /// `marker`, an extra attendee, names this test's helper among others (`pgrep -f`).
  func listeningMeeting(marker: String? = nil, logged: Bool = false) throws -> (
    PulseServer, Sandbox, Tmux, URL
  ) {
    let pulse = try PulseServer()
    let box = try Sandbox()
    // NB: the helper's list of names is made in the sandbox: its path tells this test's
    // helper from another's (names are no longer on its command line).
    let tmp = box.home.url.appendingPathComponent("tmp")
    try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
    box.extraEnvironment = pulse.environment.merging(["TMPDIR": tmp.path]) { a, _ in a }
    if logged {
      box.extraEnvironment["DINGER_TEST_TRANSCRIBE_LOG"] = box.home.path("transcribe.log")
    }
    try team(box, extra: marker.map { [$0] } ?? [])
    let (tmux, exit) = try Tmux.start(box, "meet", "team", "--transcribe")
    #expect(tmux.wait(for: "● Listening", seconds: 60), "\(tmux.screen())")
    return (pulse, box, tmux, exit)
  }

  func meetingFile(_ box: Sandbox) throws -> String {
    let files = try box.git("ls-files", "history").split(separator: "\n")
    #expect(files.count == 1)
    return try box.read(String(files.first ?? ""))
  }

  @Test func aMeetingHeardLiveIsWrittenDownBySpeakerAndARecordingGivesTheSameTurns() throws {
    let (pulse, box, tmux, exit) = try listeningMeeting()
    defer { pulse.stop() }
    #expect(tmux.screen().contains("no sound: is the microphone muted?"))
    let spoken = try SpokenMeeting(in: box.home.url)
    // The voices go into the sink while the keys follow the script: n in the middle of the
    // 1.5 s of silence that starts each turn (the sound server's latency is then no matter).
    let played = DispatchSemaphore(value: 0)
    Thread {
      try? pulse.play(spoken.wav)
      played.signal()
    }.start()
    let t0 = Date()
    for start in spoken.starts.dropFirst() {
      Thread.sleep(until: t0.addingTimeInterval(start + 0.75))
      tmux.keys("n")
    }
    played.wait()
    Thread.sleep(forTimeInterval: 0.5)
    end(tmux, exit)

    let live = try SpokenMeeting.turns(box, scrum: "team")
    #expect(live.map(\.speaker) == ["Ana", "Bo", "Chella"])
    #expect(live.map(\.start) == live.map(\.start).sorted())
    let said = SpokenMeeting.script.map(\.text).joined(separator: " ")
    let heard = live.map(\.text).joined(separator: " ")
    let overall = SpokenMeeting.errorRate(said: said, heard: heard)
    #expect(overall <= 0.30, "word error rate \(overall): heard '\(heard)'")
    for (turn, script) in zip(live, SpokenMeeting.script) {
      let rate = SpokenMeeting.errorRate(said: script.text, heard: turn.text)
      #expect(rate <= 0.5, "\(turn.speaker): \(rate), heard '\(turn.text)'")
    }
    // Audio is never written to the repository.
    let tracked = try box.git("ls-files").split(separator: "\n")
    #expect(!tracked.contains { $0.hasSuffix(".wav") || $0.hasSuffix(".raw") })
    #expect(try box.git("status", "--porcelain", "--untracked-files=all") == "")
    #expect(try meetingFile(box).contains("turns:\n  - speaker: Ana\n    start: 0\n    text: "))

    // The same recording, transcribed afterwards with the turns given, gives the same turns.
    let r = try box.dinger(
      [
        "meet", "team", "--record", "--audio", spoken.wav.path, "--duration",
        "\(Int(spoken.length))s",
      ]
        + zip(SpokenMeeting.script, spoken.starts).flatMap { ["--turn", "\($0.name)=\($1)"] })
    #expect(r.status == 0, "\(r.stderr)")
    let recorded = try SpokenMeeting.turns(box, scrum: "team").filter { _ in true }
    let both = try box.dinger("history", "team", "--json").stdout
    #expect(both.components(separatedBy: "\"turns\"").count == 3)
    #expect(recorded.map(\.speaker) == ["Ana", "Bo", "Chella"])
    #expect(recorded.map(\.start) == spoken.starts.map { Int($0.rounded()) })
    let again = recorded.map(\.text).joined(separator: " ")
    #expect(SpokenMeeting.errorRate(said: said, heard: again) <= 0.30, "heard '\(again)'")
    // The same words by turn: an utterance cut at a slightly different instant may decode a
    // word differently, so each turn is compared loosely and the whole against the script.
    for (a, b) in zip(live, recorded) {
      #expect(SpokenMeeting.errorRate(said: b.text, heard: a.text) <= 0.5, "\(a.text) / \(b.text)")
    }
  }

  @Test func aRecordingGivesItsLengthAndRefusesBadTurns() throws {
    let box = try Sandbox()
    try team(box)
    let spoken = try SpokenMeeting(in: box.home.url, turns: 1)
    var r = try box.dinger("meet", "team", "--record", "--audio", spoken.wav.path)
    #expect(r.status != 0)
    #expect(r.stderr.contains("--audio needs --turn NAME=SECONDS"), "\(r.stderr)")
    r = try box.dinger(
      "meet", "team", "--record", "--audio", spoken.wav.path, "--turn", "Bo=5", "--turn", "Ana=1")
    #expect(r.stderr.contains("give turns in the order spoken"), "\(r.stderr)")
    r = try box.dinger(
      "meet", "team", "--record", "--audio", box.home.url.appendingPathComponent("none.wav").path,
      "--turn", "Ana=0")
    #expect(r.status != 0 && r.stderr.contains("can't read the recording"), "\(r.stderr)")
    try Data("not a wav".utf8).write(to: box.home.url.appendingPathComponent("bad.wav"))
    r = try box.dinger(
      "meet", "team", "--record", "--audio", box.home.url.appendingPathComponent("bad.wav").path,
      "--turn", "Ana=0")
    #expect(
      r.status != 0 && r.stderr.contains("not a WAV file")
        && r.stderr.contains("nothing was recorded"), "\(r.stderr)")
    #expect(try box.git("ls-files", "history") == "")
    r = try box.dinger("meet", "team", "--record", "--audio", spoken.wav.path, "--turn", "Ana=0")
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains("(\(Int(spoken.length.rounded())) s, 3 attendees)"), "\(r.stdout)")
    let turns = try SpokenMeeting.turns(box, scrum: "team")
    #expect(turns.map(\.speaker) == ["Ana"])
    #expect(
      SpokenMeeting.errorRate(said: SpokenMeeting.script[0].text, heard: turns.first?.text ?? "")
        <= 0.5)
  }

  /// Names reach the helper in a file, not as arguments: names past the kernel's limit for a
  /// command line (a 200,000-letter name then; now many names of the longest allowed length
  /// under a small stack limit, which lowers that limit to 128 KiB) made the helper fail to
  /// start ("Argument list too long") and nothing was recorded.
  @Test func namesPastTheArgumentLimitAreTranscribed() throws {
    let box = try Sandbox()
    try team(box)
    let letters = Array("abcdefghijklmnopqrstuvwxyz")
    let filler = String((0..<187).map { letters[$0 % 26] })
    let names = (0..<1_000).map { (i: Int) -> String in
      let tag: [Character] = [letters[i % 26], letters[i / 26 % 26], letters[i / 676 % 26]]
      return "Zed " + String(tag) + filler
    }
    var scrum = try box.read("scrums/team.yaml")
    scrum = scrum.replacingOccurrences(
      of: "  - Chella\n", with: "  - Chella\n" + names.map { "  - \($0)\n" }.joined())
    try box.write("scrums/team.yaml", scrum)
    _ = try box.git("commit", "-qam", "many long names")
    let spoken = try SpokenMeeting(in: box.home.url, turns: 1)
    let tmp = box.home.url.appendingPathComponent("tmp")
    try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
    let r = try ProcessRunner.run(
      "/bin/bash",
      [
        "-c", "ulimit -s 256 && exec \"$0\" \"$@\"", dingerBinary, "meet", "team", "--record",
        "--audio", spoken.wav.path, "--turn", "Ana=0",
      ], in: box.data, environment: box.environment.merging(["TMPDIR": tmp.path]) { $1 })
    #expect(r.status == 0, "\(r.stderr.prefix(500))")
    #expect(!r.stderr.contains("Argument list too long"))
    #expect(try SpokenMeeting.turns(box, scrum: "team").map(\.speaker) == ["Ana"])
    // The list file is gone.
    let left = try FileManager.default.contentsOfDirectory(atPath: tmp.path)
    #expect(!left.contains { $0.hasPrefix("dinger-names-") }, "\(left)")
  }

  /// Recordings that are not one, turns past the end, silence: each said, nothing committed
  /// (silence is recorded, with a note that nothing was heard).
  @Test func recordingsThatAreNoneAndTurnsPastTheEndAreRefused() throws {
    let box = try Sandbox()
    try team(box)
    let home = box.home.url
    func record(_ path: String, _ turns: String...) throws -> ProcessResult {
      try box.dinger(
        ["meet", "team", "--record", "--audio", path] + turns.flatMap { ["--turn", $0] })
    }
    // Three seconds of silence, and an empty recording.
    let silence = home.appendingPathComponent("silence.wav")
    try Data(WAVFile16k.bytes(count: 48_000)).write(to: silence)
    let empty = home.appendingPathComponent("empty.wav")
    try Data(WAVFile16k.bytes(count: 0)).write(to: empty)
    var r = try record(silence.path, "Ana=0", "Bo=999")
    #expect(
      r.status != 0 && r.stderr.contains("--turn Bo=999 is past the end of the recording (3 s)"),
      "\(r.stderr)")
    r = try record(empty.path, "Ana=0")
    #expect(r.status != 0 && r.stderr.contains("holds no audio (0 s)"), "\(r.stderr)")
    r = try record(home.path, "Ana=0")
    #expect(r.status != 0 && r.stderr.contains("it is a folder, not a recording"), "\(r.stderr)")
    let fifo = home.appendingPathComponent("pipe.wav").path
    #expect(mkfifo(fifo, 0o600) == 0)
    let started = Date()
    r = try record(fifo, "Ana=0")
    #expect(r.status != 0 && r.stderr.contains("not a regular file"), "\(r.stderr)")
    #expect(Date().timeIntervalSince(started) < 20, "a FIFO must not be waited on")
    #expect(try box.git("ls-files", "history") == "", "nothing was recorded")
    // Silence is a meeting all the same, and says so.
    r = try record(silence.path, "Ana=0", "Bo=1.5")
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stderr.contains("nothing was heard in"), "\(r.stderr)")
    let json = try box.dinger("history", "team", "--json").stdout
    #expect(json.contains("Nothing was heard in the recording."), "\(json)")
    #expect(json.contains("\"seconds\" : 2") || json.contains("\"seconds\":2"), "\(json)")
  }

  /// Keys pressed 0.7 s after the next speaker began, or 0.7 s before: each cut moves to the
  /// pause, and no word is heard in the wrong turn.
  @Test func lateAndEarlyKeysMoveNoWordToTheWrongSpeaker() throws {
    let box = try Sandbox()
    try team(box)
    let spoken = try SpokenMeeting(in: box.home.url)
    for offset in [0.7, -0.7] {
      // NB: each turn's start is its 1.5 s of silence; the speech begins after it.
      let turns = zip(SpokenMeeting.script, spoken.starts).enumerated().map { i, pair in
        i == 0 ? "\(pair.0.name)=0" : "\(pair.0.name)=\(pair.1 + 1.5 + offset)"
      }
      let r = try box.dinger(
        ["meet", "team", "--record", "--audio", spoken.wav.path, "--no-team-words"]
          + turns.flatMap { ["--turn", $0] })
      #expect(r.status == 0, "\(r.stderr)")
      let heard = try SpokenMeeting.turns(box, scrum: "team")
      #expect(heard.map(\.speaker) == ["Ana", "Bo", "Chella"])
      let wrong = SpokenMeeting.misattributed(
        heard: heard.map(\.text), said: SpokenMeeting.script.map(\.text))
      #expect(
        wrong == 0, "keys \(offset) s off: \(wrong) words in the wrong turn: \(heard.map(\.text))")
      try box.git("reset", "-q", "--hard", "HEAD~1")
    }
  }

  /// Speakers only 0.2 s apart, keys 0.7 s late: the cut still falls in the short pause.
  @Test func keysLateBetweenSpeakersBarelyApartStillCutAtThePause() throws {
    let box = try Sandbox()
    try team(box)
    let spoken = try SpokenMeeting(in: box.home.url, silences: [1.0, 0.2, 0.2])
    let wav = spoken.wav.path
    let speech = zip(spoken.starts, spoken.silences).map { $0 + $1 }
    let keys = zip(SpokenMeeting.script, speech).enumerated().map { i, pair in
      i == 0 ? "\(pair.0.name)=0" : "\(pair.0.name)=\(pair.1 + 0.7)"
    }
    let r = try box.dinger(
      ["meet", "team", "--record", "--audio", wav, "--no-team-words"]
        + keys.flatMap { ["--turn", $0] })
    #expect(r.status == 0, "\(r.stderr)")
    let heard = try SpokenMeeting.turns(box, scrum: "team")
    let wrong = SpokenMeeting.misattributed(
      heard: heard.map(\.text), said: SpokenMeeting.script.map(\.text))
    #expect(wrong == 0, "\(wrong) words in the wrong turn: \(heard.map(\.text))")
  }

  @Test func aDiscardedMeetingStopsTheTranscriberAndRecordsNothing() throws {
    let marker = "Zed\(UInt32.random(in: 1000...9999))"
    let (pulse, box, tmux, exit) = try listeningMeeting(marker: marker)
    defer { pulse.stop() }
    let head = try box.head()
    tmux.keys("q")
    #expect(tmux.wait(for: "End meeting?"), "\(tmux.screen())")
    tmux.keys("d")
    #expect(Tmux.exitStatus(exit) == "0", "\(tmux.screen())")
    #expect(tmux.wait(for: "meeting discarded; nothing recorded"), "\(tmux.screen())")
    #expect(try box.head() == head)
    Thread.sleep(forTimeInterval: 0.5)
    let left = try ProcessRunner.run(
      "/usr/bin/pgrep", ["-a", "-f", "dinger-transcribe listen.*\(marker)"])
    #expect(left.stdout.isEmpty, "a transcriber was left running: \(left.stdout)")
  }

  @Test func withoutASoundServerTheMeetingRunsAndSaysWhy() throws {
    let box = try Sandbox()
    box.extraEnvironment = [
      "PULSE_SERVER": "unix:" + box.home.url.appendingPathComponent("nothing").path
    ]
    try team(box)
    let (tmux, exit) = try Tmux.start(box, "meet", "team", "--transcribe")
    #expect(
      tmux.wait(for: "Transcription off: can't record from the sound server"), "\(tmux.screen())")
    tmux.keys("n")
    #expect(tmux.wait(for: "Speaker 2 of 3: Bo"), "\(tmux.screen())")
    end(tmux, exit)
    let text = try meetingFile(box)
    #expect(text.contains("Not transcribed: can't record from the sound server"), "\(text)")
    #expect(text.contains("PulseAudio or PipeWire"))
    #expect(!text.contains("turns:"))
    #expect(text.contains("  - {name: Bo, seconds: "))
  }

  @Test func withoutTheSpeechModelTheMeetingRunsAndSaysHowToInstallIt() throws {
    let box = try Sandbox()
    box.extraEnvironment = [
      "DINGER_SPEECH_MODEL": box.home.url.appendingPathComponent("no-model").path
    ]
    try team(box)
    let (tmux, exit) = try Tmux.start(box, "meet", "team", "--transcribe")
    #expect(tmux.wait(for: "Transcription off: no speech model at"), "\(tmux.screen())")
    end(tmux, exit)
    let text = try meetingFile(box)
    #expect(text.contains("Not transcribed: no speech model at"), "\(text)")
    #expect(text.contains("sudo apt-get install pocketsphinx-en-us"))
  }

  /// A decoder slower than speech (a busy machine): the helper's backlog fills and audio is
  /// dropped. The screen says so at once, and the saved meeting's notes name the span lost.
  @Test func audioDroppedByADecoderThatFellBehindIsNamedOnScreenAndInTheNotes() throws {
    let pulse = try PulseServer()
    defer { pulse.stop() }
    let box = try Sandbox()
    // A backlog of one second, and 100 ms of audio taking 400 ms to decode.
    box.extraEnvironment = pulse.environment.merging([
      "DINGER_TEST_TRANSCRIBE_QUEUE": "10", "DINGER_TEST_DECODE_DELAY_MS": "400",
    ]) { a, _ in a }
    try team(box)
    let (tmux, exit) = try Tmux.start(box, "meet", "team", "--transcribe")
    #expect(tmux.wait(for: "● Listening", seconds: 60), "\(tmux.screen())")
    #expect(
      tmux.wait(for: "(fell behind: audio from 0:0", seconds: 20), "\(tmux.screen())")
    Thread.sleep(forTimeInterval: 1)
    end(tmux, exit)
    let text = try meetingFile(box)
    #expect(text.contains("Transcription fell behind and dropped "), "\(text)")
    #expect(text.contains(" s of audio"), "\(text)")
    #expect(text.contains("what was said then is not in the turns"), "\(text)")
  }

  @Test func aTranscriberKilledMidMeetingKeepsWhatItHeardAndTheMeeting() throws {
    let marker = "Zed\(UInt32.random(in: 1000...9999))"
    let (pulse, box, tmux, exit) = try listeningMeeting(marker: marker, logged: true)
    defer { pulse.stop() }
    let spoken = try SpokenMeeting(in: box.home.url, turns: 1)
    try pulse.play(spoken.wav)
    // NB: the first speaker's words reached dinger before the helper is killed (a marker, not
    // a sleep: on a loaded machine the decoder may take seconds).
    #expect(
      waitUntil(seconds: 60) {
        ((try? box.home.read("transcribe.log")) ?? "").split(separator: "\n").contains {
          $0.hasPrefix("heard 0 ")
        }
      }, "no text heard for the first turn: \((try? box.home.read("transcribe.log")) ?? "")")
    tmux.keys("n")
    #expect(tmux.wait(for: "Speaker 2 of 4: Bo"), "\(tmux.screen())")
    let killed = try ProcessRunner.run(
      "/usr/bin/pkill", ["-KILL", "-f", "dinger-transcribe listen --list \(box.home.path("tmp"))/"])
    #expect(killed.status == 0)
    #expect(tmux.wait(for: "stopped: the transcriber was stopped (signal 9)"), "\(tmux.screen())")
    tmux.keys("n")
    #expect(tmux.wait(for: "Speaker 3 of 4: Chella"), "\(tmux.screen())")
    end(tmux, exit)
    let text = try meetingFile(box)
    #expect(text.contains("Transcription stopped at 0:"), "\(text)")
    #expect(
      text.contains("the transcriber was stopped (signal 9). The text heard before that is kept."))
    let turns = try SpokenMeeting.turns(box, scrum: "team")
    #expect(turns.first?.speaker == "Ana")
    let rate = SpokenMeeting.errorRate(
      said: SpokenMeeting.script[0].text, heard: turns.first?.text ?? "")
    #expect(rate <= 0.5, "heard '\(turns.first?.text ?? "")'")
  }
}

/// `--sound`: a ding that is heard through the sound server at each speaker change.
@Suite(.serialized) struct MeetingSoundTests {
  @Test func aSpeakerChangePlaysADingThroughTheSoundServer() throws {
    let pulse = try PulseServer()
    defer { pulse.stop() }
    let box = try Sandbox()
    box.extraEnvironment = pulse.environment
    #expect(try box.dinger("init").status == 0)
    #expect(
      try box.dinger("scrum", "new", "Team", "--attendee", "Ana", "--attendee", "Bo").status == 0)
    // What the sink plays, recorded from its monitor.
    let heard = box.home.url.appendingPathComponent("heard.raw")
    let recorder = try ProcessRunner.start(
      "/bin/sh",
      [
        "-c",
        "PULSE_SERVER='\(pulse.address)' exec parec --format=s16le --rate=16000 --channels=1 -d virt.monitor > '\(heard.path)'",
      ])
    defer { ProcessRunner.stop(recorder) }
    let (tmux, exit) = try Tmux.start(box, "meet", "team", "--sound")
    #expect(tmux.wait(for: "Speaker 1 of 2: Ana"), "\(tmux.screen())")
    Thread.sleep(forTimeInterval: 1)
    let before = try loudest(heard)
    tmux.keys("n")
    #expect(tmux.wait(for: "Last speaker: Bo"), "\(tmux.screen())")
    Thread.sleep(forTimeInterval: 1.5)
    let after = try loudest(heard)
    #expect(before < 100, "sound before any speaker change: \(before)")
    #expect(after > 2000, "no ding was heard: loudest sample \(after)")
    tmux.keys("q")
    #expect(tmux.wait(for: "End meeting?"))
    tmux.keys("d")
    #expect(Tmux.exitStatus(exit) == "0", "\(tmux.screen())")
  }

  func loudest(_ raw: URL) throws -> Int {
    let data = try Data(contentsOf: raw)
    var most = 0
    data.withUnsafeBytes { bytes in
      for i in stride(from: 0, to: bytes.count - 1, by: 2) {
        let s = Int(Int16(bitPattern: UInt16(bytes[i]) | UInt16(bytes[i + 1]) << 8))
        most = max(most, abs(s))
      }
    }
    return most
  }
}

/// A 16 kHz mono WAV file of silence, written here (the tests do not link Speech).
enum WAVFile16k {
  static func bytes(count: Int) -> [UInt8] {
    var out: [UInt8] = []
    func u32(_ v: Int) {
      for s in stride(from: 0, to: 32, by: 8) { out.append(UInt8((v >> s) & 0xff)) }
    }
    func u16(_ v: Int) { out.append(UInt8(v & 0xff)); out.append(UInt8((v >> 8) & 0xff)) }
    out += Array("RIFF".utf8)
    u32(36 + count * 2)
    out += Array("WAVEfmt ".utf8)
    u32(16); u16(1); u16(1); u32(16000); u32(32000); u16(2); u16(16)
    out += Array("data".utf8)
    u32(count * 2)
    out += [UInt8](repeating: 0, count: count * 2)
    return out
  }
}
