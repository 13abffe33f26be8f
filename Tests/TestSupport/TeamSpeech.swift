import Foundation

/// A team whose stand-ups are full of its own jargon (kafka, vault, grafana...): sixty turns to
/// build its language model from, new sentences in its domain to record with flite, and the
/// word error rate to score what was heard. Shared by the team-words test and `make bench`.
public enum TeamSpeech {
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

  /// The sixty turns of the team's history, in the order they were said.
  public static var history: [String] {
    var out: [String] = []
    for (j, (a, b)) in jargon.enumerated() {
      // NB: each pair takes the frames in another order, so that the turns held out to choose
      // the weight (every tenth) are not all one frame.
      for f in 0..<frames.count {
        let frame = frames[(f + j * 3) % frames.count]
        out.append(
          frame.replacingOccurrences(of: "%1", with: a).replacingOccurrences(of: "%2", with: b))
      }
    }
    return out
  }

  /// Sentences in the team's domain that its history does not hold.
  public static let newSentences = [
    "today i will fix the kafka consumer lag in staging",
    "yesterday i deployed the grafana alerts and rotated the vault token",
    "the terraform plan for the postgres replica is ready",
    "i am blocked on the helm chart for the ingress controller",
    "bo will review the kafka connector before the demo",
    "we tested the vault secrets on the staging cluster",
  ]

  /// Meeting files (path, YAML) for `history`, one meeting each, of the scrum with id `scrum`.
  public static func meetingFiles(scrum: String) -> [(path: String, text: String)] {
    history.enumerated().map { n, text in
      let day = String(format: "2026-%02d-%02d", 1 + n / 28, 1 + n % 28)
      return (
        "history/team/\(day)-\(String(format: "%08x", n + 1)).yaml",
        """
        id: 00000000-0000-4000-8000-\(String(format: "%012d", n + 1))
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

        """
      )
    }
  }

  /// A WAV recording of `sentences` by a flite `voice`, a second of silence before each.
  public static func record(_ sentences: [String], voice: String = "slt", to out: URL) throws {
    guard let flite = ProcessRunner.which("flite") else {
      throw ProcessError("flite is needed for the transcription tests (make deps installs it)")
    }
    var parts: [String] = []
    for (i, s) in sentences.enumerated() {
      let part = out.deletingPathExtension().path + "-\(i).wav"
      let r = try ProcessRunner.run(flite, ["-voice", voice, "-t", s, "-o", part])
      guard r.status == 0 else { throw ProcessError("flite: \(r.stderr)") }
      parts.append(part)
    }
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
    for part in parts { unlink(part) }
    guard r.status == 0 else { throw ProcessError("joining: \(r.stderr)") }
  }

  /// Lowercase words without punctuation.
  public static func words(_ text: String) -> [String] {
    text.lowercased().split(whereSeparator: { !$0.isLetter && $0 != "'" }).map(String.init)
  }

  /// Word errors (substitutions + insertions + deletions) of `heard` against `said`, and the
  /// words said.
  public static func errors(said: String, heard: String) -> (errors: Int, words: Int) {
    let ref = words(said)
    let hyp = words(heard)
    guard !ref.isEmpty else { return (hyp.count, 0) }
    var row = Array(0...hyp.count)
    for i in 1...ref.count {
      var next = [i] + [Int](repeating: 0, count: hyp.count)
      for j in 1...max(hyp.count, 1) where j <= hyp.count {
        next[j] = min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (ref[i - 1] == hyp[j - 1] ? 0 : 1))
      }
      row = next
    }
    return (row[hyp.count], ref.count)
  }

  /// Words heard in the wrong turn: the words of all turns aligned with the script's (edit
  /// distance, then back through the table), each word heard that matches a word said counted
  /// when their turns differ.
  public static func misattributed(heard: [String], said: [String]) -> Int {
    let hyp = heard.enumerated().flatMap { i, t in words(t).map { ($0, i) } }
    let ref = said.enumerated().flatMap { i, t in words(t).map { ($0, i) } }
    guard !hyp.isEmpty, !ref.isEmpty else { return 0 }
    var d = [[Int]](repeating: [Int](repeating: 0, count: hyp.count + 1), count: ref.count + 1)
    for i in 0...ref.count { d[i][0] = i }
    for j in 0...hyp.count { d[0][j] = j }
    for i in 1...ref.count {
      for j in 1...hyp.count {
        let same = ref[i - 1].0 == hyp[j - 1].0
        d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (same ? 0 : 1))
      }
    }
    var (i, j, wrong) = (ref.count, hyp.count, 0)
    while i > 0 && j > 0 {
      let same = ref[i - 1].0 == hyp[j - 1].0
      if d[i][j] == d[i - 1][j - 1] + (same ? 0 : 1) {
        if same && ref[i - 1].1 != hyp[j - 1].1 { wrong += 1 }
        (i, j) = (i - 1, j - 1)
      } else if d[i][j] == d[i - 1][j] + 1 {
        i -= 1
      } else {
        j -= 1
      }
    }
    return wrong
  }
}
