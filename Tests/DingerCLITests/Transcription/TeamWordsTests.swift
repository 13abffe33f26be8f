import Foundation
import TestSupport
import Testing

/// Transcripts that learn the team's words: a history of stand-ups full of the team's jargon
/// (kafka, vault, grafana...), then flite recordings of sentences that history does not hold.
/// With the team's model the jargon is heard, and the error rate falls; sentences from outside
/// the team still decode; the model lives under .git/dinger and is never committed.
@Suite(.serialized) struct TeamWordsTests {
  /// A history of 60 turns, one meeting each: the fixture the team's model is built from.
  func history(_ box: Sandbox) throws {
    expectOK(try box.dinger("init"))
    expectOK(try box.dinger("scrum", "new", "Team", "--attendee", "Ana", "--attendee", "Bo"))
    let scrum = try box.read("scrums/team.yaml").split(separator: "\n")
      .first { $0.hasPrefix("id: ") }!.dropFirst(4)
    for (path, text) in TeamSpeech.meetingFiles(scrum: String(scrum)) {
      try box.write(path, text)
    }
    try box.git("add", "-A")
    try box.git("commit", "-qm", "sixty stand-ups")
  }

  func recording(_ sentences: [String], in folder: URL, name: String) throws -> URL {
    let out = folder.appendingPathComponent("\(name).wav")
    try TeamSpeech.record(sentences, to: out)
    return out
  }

  func heard(_ box: Sandbox, _ wav: URL, _ extra: [String] = []) throws -> String {
    let r = try box.dinger(
      ["meet", "team", "--record", "--audio", wav.path, "--turn", "Ana=0"] + extra)
    #expect(r.status == 0, "\(r.stderr)")
    let text = try SpokenMeeting.turns(box, scrum: "team").first?.text ?? ""
    // NB: the meeting is taken back, so that what was heard never feeds the next model.
    try box.git("reset", "-q", "--hard", "HEAD~1")
    return text
  }

  @Test func theTeamsWordsAreHeardAndOtherSpeechStillIs() throws {
    let box = try Sandbox()
    try history(box)
    // In the team's domain, but not in its history.
    let said = Array(TeamSpeech.newSentences.prefix(2))
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

/// The team's invented words reach the recognizer's dictionary: the helper looked at the
/// model's order (3) for its vocabulary and added none ("0 added to the dictionary").
@Suite struct TeamWordsDictionaryTests {
  @Test func wordsNoDictionaryHasAreAdded() throws {
    let helper = URL(fileURLWithPath: dingerBinary).deletingLastPathComponent()
      .appendingPathComponent("dinger-transcribe").path
    guard FileManager.default.isExecutableFile(atPath: helper),
      FileManager.default.fileExists(atPath: "/usr/share/pocketsphinx/model/en-us/en-us.lm.bin")
    else {
      Issue.record("dinger-transcribe and pocketsphinx-en-us are needed (make deps)")
      return
    }
    let home = try TemporaryDirectory("dinger-team-words")
    try home.write(
      "team.arpa",
      """
      \\data\\
      ngram 1=6

      \\1-grams:
      -1.0 </s>
      -99 <s>
      -1.0 <unk>
      -1.0 zorblax
      -1.0 quibbleflux
      -1.0 standup

      \\end\\

      """)
    let silence = home.url.appendingPathComponent("silence.wav")
    try Data(WAVFile16k.bytes(count: 16_000)).write(to: silence)
    let r = try ProcessRunner.run(
      helper, ["file", silence.path, "--team-lm", home.path("team.arpa")], timeout: 120)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains("2 added to the dictionary"), "\(r.stdout)")
  }
}
