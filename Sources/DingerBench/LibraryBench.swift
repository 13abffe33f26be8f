import Foundation
import Models
import Storage

/// `dinger word list` over one library of 50,000 words against `cat` of that file (target at
/// most 10).
enum LibraryBench {
  static let words = 50_000

  static func run(dinger: String) throws {
    print("Libraries: one library of \(words) words")
    let work = FileManager.default.temporaryDirectory.appendingPathComponent(
      "dinger-bench-words-\(UUID().uuidString.prefix(8))")
    defer { try? FileManager.default.removeItem(at: work) }
    try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    let env = [
      "GIT_AUTHOR_NAME": "Bench", "GIT_AUTHOR_EMAIL": "b@example.com",
      "GIT_COMMITTER_NAME": "Bench", "GIT_COMMITTER_EMAIL": "b@example.com",
    ]
    try Shell.run("/usr/bin/git", ["init", "-q", "-b", "main", work.path])
    try Shell.run("/usr/bin/git", ["config", "user.name", "Bench"], in: work)
    try Shell.run("/usr/bin/git", ["config", "user.email", "bench@example.com"], in: work)
    try Shell.run(dinger, ["init"], in: work, env: env)
    var rng = BenchRandom(state: 11)
    let library = Library(
      id: UUID(), name: "Big words", language: "en",
      words: (0..<words).map { i in
        Word(
          text: "word\(i)", phonetic: i % 3 == 0 ? "/wɜːd\(i)/" : nil,
          meanings: (0..<rng.int(1...2)).map { m in
            Meaning(
              partOfSpeech: rng.pick(["noun", "verb", "adjective"]),
              definition: "meaning \(m) of word \(i): \(rng.pick(YAMLBench.names)) was here",
              example: i % 4 == 0 ? "An example with word\(i)." : nil)
          })
      })
    let path = work.appendingPathComponent("libraries/big-words.yaml")
    try FileManager.default.createDirectory(
      at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
    try RecordCodec.encode(.library(library)).write(to: path, atomically: true, encoding: .utf8)
    let size = (try? FileManager.default.attributesOfItem(atPath: path.path)[.size] as? Int) ?? 0
    var list: [Double] = []
    var cat: [Double] = []
    for _ in 0..<5 {
      list.append(try Shell.time("'\(dinger)' word list --library big-words >/dev/null", in: work))
      cat.append(try Shell.time("cat libraries/big-words.yaml >/dev/null", in: work))
    }
    let lines = try Shell.run(
      "/bin/sh", ["-c", "'\(dinger)' word list --library big-words | wc -l"], in: work)
    let (l, c) = (Shell.median(list), Shell.median(cat))
    print(
      "  dinger word list (\(lines.trimmingCharacters(in: .whitespacesAndNewlines)) words, \(size / 1024) KiB)"
    )
    print(String(format: "  dinger word list --library big-words      %8.1f ms", l * 1000))
    print(String(format: "  cat libraries/big-words.yaml               %8.1f ms", c * 1000))
    Measure.ratio("word list / cat", l / c, target: 10)
    print("")
  }
}
