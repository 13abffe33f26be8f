import Foundation
import TestSupport
import Testing

/// Transcripts that learn the team's words: a history of stand-ups full of the team's jargon
/// (kafka, vault, grafana...), then flite recordings of sentences that history does not hold.
/// With the team's model the jargon is heard, and the error rate falls; sentences from outside
/// the team still decode; the model lives under .git/dinger and is never committed.
@Suite(.serialized) struct TeamWordsTests {
  static let jargon = [
    ("the kafka consumer", "the vault token"), ("the grafana alerts", "the terraform plan"),
    ("the postgres replica", "the helm chart"), ("the ingress controller", "the staging cluster"),
    ("the kafka connector", "the grafana dashboards"),
    ("the vault secrets", "the postgres migration"),
  ]
  static let frames = [
    "yesterday i fixed %1 and reviewed %2", "today i will deploy %1 after %2",
    "blocked on %1 because of %2", "i paired with bo on %1 and %2",
    "%1 is ready for review and %2 is next", "today ana upgrades %1 then %2",
    "bo rotated %1 while i tested %2", "the alert on %1 fired twice near %2",
    "i will finish %1 before the demo of %2", "we moved %1 next to %2",
  ]

  /// A history of 60 turns, one meeting each: the fixture the team's model is built from.
  func history(_ box: Sandbox) throws {
    expectOK(try box.dinger("init"))
    expectOK(try box.dinger("scrum", "new", "Team", "--attendee", "Ana", "--attendee", "Bo"))
    let scrum = try box.read("scrums/team.yaml").split(separator: "\n")
      .first { $0.hasPrefix("id: ") }!.dropFirst(4)
    var n = 0
    for (j, (a, b)) in Self.jargon.enumerated() {
      // NB: each pair takes the frames in another order, so that the turns held out to choose
      // the weight (every tenth) are not all one frame.
      for f in 0..<Self.frames.count {
        let frame = Self.frames[(f + j * 3) % Self.frames.count]
        n += 1
        let text = frame.replacingOccurrences(of: "%1", with: a)
          .replacingOccurrences(of: "%2", with: b)
        let day = String(format: "2026-%02d-%02d", 1 + n / 28, 1 + n % 28)
        try box.write(
          "history/team/\(day)-\(String(format: "%08x", n)).yaml",
          """
          id: 00000000-0000-4000-8000-\(String(format: "%012d", n))
          scrum: \(scrum)
          date: \(day)T09:00:00Z
          length: 10
          duration: 60
          attendees:
            - Ana
            - Bo
          turns:
            - speaker: Ana
              start: 0
              text: \(text)

          """)
      }
    }
    try box.git("add", "-A")
    try box.git("commit", "-qm", "sixty stand-ups")
  }

  /// A recording of `sentences` by flite's slt voice, a second of silence before each.
  func recording(_ sentences: [String], in folder: URL, name: String) throws -> URL {
    guard let flite = ProcessRunner.which("flite") else {
      throw ProcessError("flite is needed for the transcription tests (make deps installs it)")
    }
    var parts: [String] = []
    for (i, s) in sentences.enumerated() {
      let part = folder.appendingPathComponent("\(name)-\(i).wav").path
      let r = try ProcessRunner.run(flite, ["-voice", "slt", "-t", s, "-o", part])
      guard r.status == 0 else { throw ProcessError("flite: \(r.stderr)") }
      parts.append(part)
    }
    let out = folder.appendingPathComponent("\(name).wav")
    let join = """
      import sys, wave
      out = wave.open(sys.argv[1], 'wb')
      for i, name in enumerate(sys.argv[2:]):
          w = wave.open(name)
          if i == 0: out.setparams(w.getparams())
          out.writeframes(b'\\0\\0' * w.getframerate())
          out.writeframes(w.readframes(w.getnframes()))
      out.close()
      """
    let r = try ProcessRunner.run("/usr/bin/python3", ["-c", join, out.path] + parts)
    guard r.status == 0 else { throw ProcessError("joining: \(r.stderr)") }
    return out
  }

  func heard(_ box: Sandbox, _ wav: URL, _ extra: [String] = []) throws -> String {
    let r = try box.dinger(
      ["meet", "team", "--record", "--audio", wav.path, "--turn", "Ana=0"] + extra)
    #expect(r.status == 0, "\(r.stderr)")
    return try SpokenMeeting.turns(box, scrum: "team").first?.text ?? ""
  }

  @Test func theTeamsWordsAreHeardAndOtherSpeechStillIs() throws {
    let box = try Sandbox()
    try history(box)
    // In the team's domain, but not in its history.
    let said = [
      "today i will fix the kafka consumer lag in staging",
      "yesterday i deployed the grafana alerts and rotated the vault token",
    ]
    let wav = try recording(said, in: box.home.url, name: "standup")
    let without = try heard(box, wav, ["--no-team-words"])
    let with = try heard(box, wav)
    let reference = said.joined(separator: " ")
    let (before, after) = (
      SpokenMeeting.errorRate(said: reference, heard: without),
      SpokenMeeting.errorRate(said: reference, heard: with)
    )
    #expect(with != without)
    #expect(
      after < before, "with the team's words \(after) ('\(with)'), without \(before) ('\(without)')"
    )
    // The team's jargon is what it adds: more of it heard.
    let jargon: Set<String> = ["kafka", "vault", "grafana", "token", "consumer", "alerts"]
    func count(_ text: String) -> Int { SpokenMeeting.words(text).filter(jargon.contains).count }
    #expect(count(with) > count(without), "'\(with)' against '\(without)'")
    // The model: built once, reused while the data is the same, never committed.
    let model = box.data.appendingPathComponent(".git/dinger/team-lm-v1/team.arpa")
    let stamp = try String(contentsOf: model.appendingPathExtension("stamp"), encoding: .utf8)
    #expect(stamp.hasSuffix(" 1\n"), "the weight was chosen on held-out turns: \(stamp)")
    #expect(try box.git("status", "--porcelain") == "")
    // Speech from outside the team still decodes.
    let general = ["the weather was cold and the river was frozen for a week"]
    let other = try recording(general, in: box.home.url, name: "other")
    let rate = SpokenMeeting.errorRate(said: general[0], heard: try heard(box, other))
    let plain = SpokenMeeting.errorRate(
      said: general[0], heard: try heard(box, other, ["--no-team-words"]))
    #expect(rate <= plain + 0.15, "out of the team's domain: \(rate) against \(plain)")
  }
}
