import Foundation
import TestSupport

/// A stand-up of three speakers, each turn spoken by its own `flite` voice after 1.5 s of
/// silence (or the silences given), in one 16 kHz mono WAV file; and the word error rate of
/// what a recognizer heard.
struct SpokenMeeting {
  static let script: [(name: String, voice: String, text: String)] = [
    ("Ana", "slt", "Yesterday I finished the login page. Today I will review the pull requests."),
    ("Bo", "rms", "I fixed the bug in the payment service and wrote more tests."),
    ("Chella", "awb", "I am blocked on the database migration. I need help from Chella."),
  ]

  /// The recording.
  let wav: URL
  /// Where each turn begins in it (its silence first), in seconds.
  let starts: [Double]
  /// Its length in seconds.
  let length: Double
  /// The silence before each turn, in seconds.
  let silences: [Double]

  /// Makes the recording in `folder` (flite for the voices, Python's wave module to join them),
  /// each turn after its silence (1.5 s unless `silences` says).
  init(in folder: URL, turns: Int = 3, silences: [Double]? = nil) throws {
    self.silences = silences ?? Array(repeating: 1.5, count: turns)
    guard let flite = ProcessRunner.which("flite") else {
      throw ProcessError("flite is needed for the transcription tests (make deps installs it)")
    }
    var parts: [String] = []
    for (i, turn) in Self.script.prefix(turns).enumerated() {
      let part = folder.appendingPathComponent("turn\(i).wav").path
      let r = try ProcessRunner.run(flite, ["-voice", turn.voice, "-t", turn.text, "-o", part])
      guard r.status == 0 else { throw ProcessError("flite: \(r.stderr)") }
      parts.append(part)
    }
    wav = folder.appendingPathComponent("meeting.wav")
    let joined = try ProcessRunner.run(
      "/usr/bin/python3",
      [
        "-c",
        """
        import sys, wave
        out = wave.open(sys.argv[1], 'wb')
        out.setnchannels(1); out.setsampwidth(2); out.setframerate(16000)
        at = 0.0
        silences = [float(s) for s in sys.argv[2].split(',')]
        for part, silence in zip(sys.argv[3:], silences):
            w = wave.open(part)
            assert w.getframerate() == 16000 and w.getnchannels() == 1
            print(at)
            data = b'\\x00\\x00' * int(16000 * silence) + w.readframes(w.getnframes())
            out.writeframes(data)
            at += len(data) / 32000
        out.writeframes(b'\\x00\\x00' * 16000)
        print(at + 1.0)
        out.close()
        """,
        wav.path, self.silences.map { String($0) }.joined(separator: ","),
      ] + parts)
    guard joined.status == 0 else { throw ProcessError("joining the turns: \(joined.stderr)") }
    let numbers = joined.stdout.split(separator: "\n").compactMap { Double($0) }
    starts = Array(numbers.dropLast())
    length = numbers.last ?? 0
  }

  /// Lowercase words without punctuation.
  static func words(_ text: String) -> [String] { TeamSpeech.words(text) }

  /// Word error rate of `heard` against `said`: (substitutions + insertions + deletions) over
  /// the words said.
  static func errorRate(said: String, heard: String) -> Double {
    let (errors, words) = TeamSpeech.errors(said: said, heard: heard)
    return words == 0 ? (errors == 0 ? 0 : 1) : Double(errors) / Double(words)
  }

  /// Words heard in the wrong turn (see `TeamSpeech.misattributed`).
  static func misattributed(heard: [String], said: [String]) -> Int {
    TeamSpeech.misattributed(heard: heard, said: said)
  }

  /// The turns of the meeting `dinger history S --json` shows first.
  static func turns(_ box: Sandbox, scrum: String) throws -> [(
    speaker: String, start: Int, text: String
  )] {
    let r = try box.dinger("history", scrum, "--json")
    let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
    let meetings = json?["meetings"] as? [[String: Any]] ?? []
    let turns = meetings.first?["turns"] as? [[String: Any]] ?? []
    return turns.map {
      ($0["speaker"] as? String ?? "", $0["start"] as? Int ?? -1, $0["text"] as? String ?? "")
    }
  }
}
