import Foundation
import TestSupport
import Testing

/// The record cache seen from the command line: commands filling it at once leave a cache that
/// reads, and a hand edit is never hidden by it.
@Suite struct RecordCacheCommandTests {
  func library(_ box: Sandbox, words: Int) throws -> String {
    var text = "name: Many words\nlanguage: en\nwords:\n"
    for i in 0..<words {
      text += "  - text: word\(i)\n    meanings:\n      - definition: meaning \(i)\n"
    }
    try box.write("libraries/many-words.yaml", text)
    return text
  }

  @Test func commandsFillingTheCacheAtOnceLeaveOneThatReads() throws {
    let box = try Sandbox()
    #expect(try box.dinger("init").status == 0)
    _ = try library(box, words: 3000)
    // Files written less than two seconds ago are never cached (their times could still
    // survive an edit); wait until this one is settled.
    Thread.sleep(forTimeInterval: 2.2)
    let expected = try box.dinger(
      "word", "list", "--library", "many-words", env: ["DINGER_RECORD_CACHE": "off"])
    #expect(expected.status == 0)
    #expect(expected.stdout.split(separator: "\n").count == 3000)
    let outputs = Outputs()
    ConcurrencyTests.together(
      (0..<6).map { _ in
        {
          for _ in 0..<3 {
            let r = try? box.dinger("word", "list", "--library", "many-words")
            outputs.add(r?.stdout ?? "failed: \(r?.stderr ?? "")")
          }
        }
      })
    #expect(outputs.all.count == 18)
    #expect(outputs.all.allSatisfy { $0 == expected.stdout })
    let traced = try box.dinger(
      "word", "list", "--library", "many-words", env: ["DINGER_TRACE": "1"])
    #expect(traced.stdout == expected.stdout)
    #expect(
      traced.stderr.contains("listed 1 libraries, 1 of them from the record cache"),
      "\(traced.stderr)")
    let leftovers = try FileManager.default.contentsOfDirectory(
      atPath: box.data.appendingPathComponent(".git/dinger/records-v1").path)
    #expect(leftovers.count == 1, "temporary files left: \(leftovers)")
  }

  /// A cache file with holes (a sparse 1 GiB file costs its maker nothing) is not read: the
  /// command answers at once from the files and writes a true cache in its place.
  @Test func aSparseCacheFileIsNotRead() throws {
    let box = try Sandbox()
    #expect(try box.dinger("init").status == 0)
    _ = try library(box, words: 200)
    Thread.sleep(forTimeInterval: 2.2)
    let expected = try box.dinger("word", "list", "--library", "many-words")
    #expect(expected.status == 0)
    let folder = box.data.appendingPathComponent(".git/dinger/records-v1").path
    let files = try FileManager.default.contentsOfDirectory(atPath: folder)
    #expect(files.count == 1)
    let cache = folder + "/" + files[0]
    let real = try Data(contentsOf: URL(fileURLWithPath: cache))
    // The true cache's bytes first, then a hole to 1 GiB.
    try Data(real).write(to: URL(fileURLWithPath: cache))
    #expect(truncate(cache, 1 << 30) == 0)
    // NB: in 600 MB of address space: reading the hole would need a gigabyte.
    let r = try ProcessRunner.run(
      "/bin/bash",
      [
        "-c", "ulimit -v 600000 && exec \"$0\" \"$@\"", dingerBinary, "word", "list", "--library",
        "many-words",
      ],
      in: box.data, environment: box.environment.merging(["DINGER_TRACE": "1"]) { $1 })
    #expect(r.status == 0, "\(r.stderr.suffix(400))")
    #expect(r.stdout == expected.stdout)
    #expect(r.stderr.contains("0 of them from the record cache"), "\(r.stderr.suffix(400))")
    var st = stat()
    #expect(stat(cache, &st) == 0 && st.st_size < 1 << 20, "the cache was not rewritten")
  }

  @Test func aHandEditRightAfterACachedReadIsSeen() throws {
    let box = try Sandbox()
    #expect(try box.dinger("init").status == 0)
    let text = try library(box, words: 20)
    Thread.sleep(forTimeInterval: 2.2)
    #expect(try box.dinger("word", "list").stdout.contains("meaning 7\n"))
    // In place, the same size, the modification time put back, within the same second.
    let path = box.data.appendingPathComponent("libraries/many-words.yaml").path
    var before = stat()
    stat(path, &before)
    let edited = text.replacingOccurrences(of: "meaning 7\n", with: "mEaNiNg 7\n")
    let fd = open(path, O_WRONLY)
    _ = edited.utf8CString.withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count - 1) }
    close(fd)
    var times = [before.st_atim, before.st_mtim]
    utimensat(AT_FDCWD, path, &times, 0)
    let r = try box.dinger("word", "list", env: ["DINGER_TRACE": "1"])
    #expect(r.stdout.contains("mEaNiNg 7\n"))
    #expect(r.stderr.contains("0 of them from the record cache"))
  }
}

/// `word list` straight from the cache's packed rows prints what the full read prints.
@Suite struct WordListingTests {
  @Test func theFastListingPrintsWhatTheFullReadPrints() throws {
    let box = try Sandbox()
    #expect(try box.dinger("init").status == 0)
    try box.write(
      "libraries/spanish-basics.yaml",
      """
      id: 5b0c2d4e-0000-4000-8000-00000000000a
      name: Spanish basics
      language: es
      words:
        - text: año
          phonetic: /ˈaɲo/
          meanings:
            - partOfSpeech: noun
              definition: |
                year

                (of the calendar)
            - definition: age
        - text: sin
        - text: agua
          meanings:
            - definition: water
              example: Un vaso de agua.
            - definition: rain
            - definition: tears
        - text: a-very-long-word-that-passes-thirty-columns
          meanings:
            - definition: "trailing spaces   "

      """)
    try box.write(
      "libraries/mexican.yaml",
      "name: Mexicano\nlanguage: es-MX\nwords:\n  - text: güey\n    meanings:\n      - definition: dude\n"
    )
    try box.write(
      "libraries/english.yaml",
      "name: English\nlanguage: en\nwords:\n  - text: hello\n    meanings:\n      - definition: hi\n"
    )
    Thread.sleep(forTimeInterval: 2.2)
    let cases: [[String]] = [
      [], ["--library", "spanish-basics"], ["--library", "SPANISH BASICS"],
      ["--library", "5b0c2d4e"],
      ["--language", "es"], ["--language", "es-MX"], ["--library", "english", "--language", "es"],
      ["--library", "nope"],
    ]
    for extra in cases {
      let full = try box.dinger(["word", "list"] + extra, env: ["DINGER_RECORD_CACHE": "off"])
      _ = try box.dinger(["word", "list"] + extra)  // fills the cache
      let fast = try box.dinger(["word", "list"] + extra, env: ["DINGER_TRACE": "1"])
      #expect(fast.stdout == full.stdout, "\(extra)")
      #expect(
        fast.stderr.replacingOccurrences(
          of: #"dinger: .*\n"#, with: "", options: .regularExpression) == full.stderr, "\(extra)")
      #expect(fast.status == full.status, "\(extra)")
    }
    let traced = try box.dinger("word", "list", env: ["DINGER_TRACE": "1"])
    #expect(
      traced.stderr.contains("listed 3 libraries, 3 of them from the record cache"),
      "\(traced.stderr)")
    let año =
      "año" + String(repeating: " ", count: 27) + "  Spanish basics  year (of the calendar) (+1)\n"
    #expect(traced.stdout.contains(año), "\(traced.stdout)")
  }
}

/// Outputs gathered from several threads.
final class Outputs: @unchecked Sendable {
  private let lock = NSLock()
  private var items: [String] = []
  func add(_ s: String) { lock.withLock { items.append(s) } }
  var all: [String] { lock.withLock { items } }
}
