import Base
import FoundationEssentials
import Glibc
import Models
import Processes
import Storage

/// The team's language model for a scrum's meetings: built by dinger from the data repository
/// (the scrum's meetings, their turns and notes, every scrum's title and attendees, the
/// libraries' words and examples), interpolated by the helper with the general model. Kept
/// under `.git/dinger/team-lm-v1/` (never committed) with a stamp of the text it came from,
/// and rebuilt when that text changes.
public enum TeamModel {
  /// A model ready for the helper: its ARPA file and the team's share in the interpolation.
  public struct Prepared: Sendable, Equatable {
    public var path: String
    public var weight: Float
    /// Sentences it was built from.
    public var sentences: Int
    /// True when the weight was chosen on held-out turns (else the default).
    public var weighed: Bool
  }

  /// The team's share when there are too few turns to choose it on (see docs/transcription.md).
  public static let defaultWeight: Float = 0.3
  /// Turn sentences needed before a tenth of them are held out to choose the weight.
  static let heldOutFrom = 50

  /// The model for `scrum`'s meetings, built or reused; nil when the repository has too little
  /// text to learn from. `weigh` runs the helper on held-out sentences (tests may pass another).
  public static func prepare(
    _ workspace: Workspace, scrum: StoredScrum,
    weigh: (_ model: String, _ heldOut: [[String]]) -> Float? = weighWithHelper
  ) throws -> Prepared? {
    var shared = TeamCorpus()
    let (scrums, _) = try ScrumProvider.live(repository: workspace).list()
    for s in scrums {
      shared.add(s.scrum.title)
      for a in s.scrum.attendees { shared.add(a.name) }
    }
    for library in (try? LibraryProvider.live(repository: workspace).list().libraries) ?? [] {
      for word in library.library.words {
        shared.add(word.text)
        for m in word.meanings { if let e = m.example { shared.add(e) } }
      }
    }
    var turns = TeamCorpus()
    let meetings = try MeetingProvider.live(repository: workspace).history(of: scrum)
    // NB: newest first: when the corpus is full (`TeamCorpus.mostWords`) the oldest text goes.
    for stored in meetings where !turns.isFull {
      for turn in stored.meeting.turns { turns.add(turn.text) }
      if let notes = stored.meeting.transcript { turns.add(notes) }
    }
    let all = shared.sentences + turns.sentences
    guard all.count >= 3 else { return nil }
    let folder = workspace.repository.dingerFolder.appendingPathComponent("team-lm-v1")
    // NB: never written through a link at `.git/dinger` (it would land outside the repository).
    guard !workspace.repository.ownFolderIsLinked(folder) else { return nil }
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let path = folder.appendingPathComponent("\(scrum.slug).arpa").path
    let stampPath = path + ".stamp"
    let stamp = fingerprint(all)
    if let old = try? String(contentsOfFile: stampPath, encoding: .utf8) {
      let parts = old.split(separator: " ")
      if parts.count == 3, parts[0] == stamp, let weight = Float(parts[1]),
        access(path, R_OK) == 0
      {
        return Prepared(path: path, weight: weight, sentences: all.count, weighed: parts[2] == "1")
      }
    }
    // The weight: chosen on every tenth turn sentence, kept out of a first model.
    var weight = defaultWeight
    var weighed = false
    if turns.sentences.count >= heldOutFrom {
      let heldOut = turns.sentences.enumerated().filter { $0.offset % 10 == 9 }.map(\.element)
      let kept = turns.sentences.enumerated().filter { $0.offset % 10 != 9 }.map(\.element)
      let trial = path + ".trial-\(getpid())"
      try write(NGramModel(shared.sentences + kept).arpa, to: trial)
      defer { unlink(trial) }
      if let chosen = weigh(trial, heldOut) {
        (weight, weighed) = (chosen, true)
      }
    }
    try write(NGramModel(all).arpa, to: path)
    try write("\(stamp) \(weight) \(weighed ? 1 : 0)\n", to: stampPath)
    return Prepared(path: path, weight: weight, sentences: all.count, weighed: weighed)
  }

  /// Asks the helper which weight gives the held-out sentences the highest probability.
  public static func weighWithHelper(_ model: String, _ heldOut: [[String]]) -> Float? {
    guard let helper = try? TranscriberHelper.path() else { return nil }
    let input = heldOut.map { $0.joined(separator: " ") }.joined(separator: "\n") + "\n"
    guard
      let r = try? ChildProcess.run(
        .init([helper, "weigh", "--team-lm", model], input: .pipe, output: .pipe, errors: .pipe),
        input: Array(input.utf8), timeout: 120),
      r.termination.succeeded
    else { return nil }
    return Float(r.outputText.trimmed())
  }

  /// FNV-1a over the sentences: the stamp of the text a model came from.
  static func fingerprint(_ sentences: [[String]]) -> String {
    var h = FNV1a()
    for sentence in sentences {
      h.add(sentence.joined(separator: " ").utf8)
      h.add(10)
    }
    return "v1-" + String(h.value, radix: 16)
  }

  /// Writes `text` to `path` through a temporary file renamed over it.
  static func write(_ text: String, to path: String) throws {
    try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
  }
}
