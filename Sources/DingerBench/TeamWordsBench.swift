import Foundation
import TestSupport

/// Transcripts with and without the team's language model, word error rates on two sets:
/// in the team's domain (TeamSpeech's new sentences, not in its history, by four flite
/// voices) and outside it (the human recordings in pocketsphinx 5.1.1's source archive:
/// LibriVox and card names, 101 words; fetched from PyPI once, kept under .build/).
/// Targets (issue 31): in-domain WER at least 30% lower, out-of-domain at most 10% higher.
enum TeamWordsBench {
  static let archive =
    "https://files.pythonhosted.org/packages/61/e7/13e0e787ff467218de880310d79cba14424f13b87171ac44af0bde1e428c/pocketsphinx-5.1.1.tar.gz"

  static func run(dinger: String, root: URL) throws {
    print("Team words: word error rate without and with the team's language model")
    let helper = URL(fileURLWithPath: dinger).deletingLastPathComponent()
      .appendingPathComponent("dinger-transcribe").path
    guard FileManager.default.isExecutableFile(atPath: helper), Shell.which("flite") != nil else {
      print("  needs dinger-transcribe beside dinger and flite (make bench, make deps)\n")
      return
    }
    let work = FileManager.default.temporaryDirectory.appendingPathComponent(
      "dinger-bench-teamwords-\(UUID().uuidString.prefix(8))")
    defer { try? FileManager.default.removeItem(at: work) }
    let repo = work.appendingPathComponent("data")
    let env = Shell.identity
    try Shell.dataRepository(at: repo, dinger: dinger)
    try Shell.run(
      dinger, ["scrum", "new", "Team", "--attendee", "Ana", "--attendee", "Bo"], in: repo, env: env)
    let scrumText = try String(
      contentsOf: repo.appendingPathComponent("scrums/team.yaml"), encoding: .utf8)
    let id = scrumText.split(separator: "\n").first { $0.hasPrefix("id: ") }!.dropFirst(4)
    for (path, text) in TeamSpeech.meetingFiles(scrum: String(id)) {
      let file = repo.appendingPathComponent(path)
      try FileManager.default.createDirectory(
        at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
      try text.write(to: file, atomically: true, encoding: .utf8)
    }
    try Shell.run("/usr/bin/git", ["add", "-A"], in: repo, env: env)
    try Shell.run("/usr/bin/git", ["commit", "-qm", "history"], in: repo, env: env)

    /// What dinger hears in `wav`, with or without the team's words; the meeting taken back.
    func heard(_ wav: String, team: Bool) throws -> String {
      try Shell.run(
        dinger,
        ["meet", "team", "--record", "--audio", wav, "--turn", "Ana=0"]
          + (team ? [] : ["--no-team-words"]), in: repo, env: env)
      let json = try Shell.run(dinger, ["history", "team", "--json"], in: repo, env: env)
      try Shell.run("/usr/bin/git", ["reset", "-q", "--hard", "HEAD~1"], in: repo, env: env)
      let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
      let meetings = object?["meetings"] as? [[String: Any]] ?? []
      let turns = meetings.first?["turns"] as? [[String: Any]] ?? []
      return turns.compactMap { $0["text"] as? String }.joined(separator: " ")
    }
    /// Errors and words over a set, without and with the team's model.
    func score(_ set: [(wav: String, said: String)]) throws -> (without: Double, with: Double) {
      var (a, b, words) = (0, 0, 0)
      for (wav, said) in set {
        let plain = TeamSpeech.errors(said: said, heard: try heard(wav, team: false))
        let team = TeamSpeech.errors(said: said, heard: try heard(wav, team: true))
        (a, b, words) = (a + plain.errors, b + team.errors, words + plain.words)
      }
      return (Double(a) / Double(max(words, 1)), Double(b) / Double(max(words, 1)))
    }

    var inDomain: [(String, String)] = []
    for voice in ["slt", "rms", "awb", "kal"] {
      let wav = work.appendingPathComponent("in-\(voice).wav")
      try TeamSpeech.record(TeamSpeech.newSentences, voice: voice, to: wav)
      inDomain.append((wav.path, TeamSpeech.newSentences.joined(separator: " ")))
    }
    let inside = try score(inDomain)
    report("in the team's domain (4 voices, 6 new sentences)", inside, target: "-30%") {
      $0 <= -0.30
    }
    guard let outside = try outOfDomain(root: root) else {
      print("  the out-of-domain set (pocketsphinx 5.1.1's test data) could not be fetched\n")
      return
    }
    let other = try score(outside)
    report("outside it (LibriVox and cards, human voices)", other, target: "+10%") { $0 <= 0.10 }
    print("")
  }

  static func report(
    _ name: String, _ rates: (without: Double, with: Double), target: String,
    _ met: (Double) -> Bool
  ) {
    let change = rates.without > 0 ? rates.with / rates.without - 1 : 0
    print(
      "  \(name.padding(toLength: 50, withPad: " ", startingAt: 0))"
        + String(
          format: "WER %.1f%% -> %.1f%% (%+.0f%%, target %@) %@", rates.without * 100,
          rates.with * 100, change * 100, target, met(change) ? "ok" : "OVER TARGET"))
  }

  /// The human recordings of pocketsphinx's source archive with their transcriptions.
  static func outOfDomain(root: URL) throws -> [(wav: String, said: String)]? {
    let folder = root.appendingPathComponent("bench-ood")
    let data = folder.appendingPathComponent("pocketsphinx-5.1.1/test/data")
    if !FileManager.default.fileExists(atPath: data.path) {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      let tarball = folder.appendingPathComponent("pocketsphinx-5.1.1.tar.gz").path
      guard
        (try? Shell.run(
          "/usr/bin/curl", ["-sfL", "--max-time", "300", "-o", tarball, archive])) != nil,
        (try? Shell.run(
          "/bin/tar",
          [
            "xzf", tarball, "-C", folder.path, "pocketsphinx-5.1.1/test/data/librivox",
            "pocketsphinx-5.1.1/test/data/cards",
          ])) != nil
      else { return nil }
    }
    var set: [(String, String)] = []
    let librivox = data.appendingPathComponent("librivox")
    for name in (try FileManager.default.contentsOfDirectory(atPath: librivox.path)).sorted()
    where name.hasSuffix(".wav") {
      let text = try String(
        contentsOf: librivox.appendingPathComponent(
          String(name.dropLast(4)) + ".txt"), encoding: .utf8)
      set.append((librivox.appendingPathComponent(name).path, text))
    }
    let cards = data.appendingPathComponent("cards")
    let transcription = try String(
      contentsOf: cards.appendingPathComponent("cards.transcription"), encoding: .utf8)
    for line in transcription.split(separator: "\n") {
      // `<s> ten of clubs </s> (001)`
      guard let open = line.lastIndex(of: "(") else { continue }
      let id = line[line.index(after: open)...].dropLast()
      let said = line[..<open].replacingOccurrences(of: "<s>", with: "")
        .replacingOccurrences(of: "</s>", with: "")
      set.append((cards.appendingPathComponent("\(id).wav").path, said))
    }
    return set
  }
}
