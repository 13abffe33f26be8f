import Foundation
import Models
import TestSupport
import Testing

@testable import Storage

/// The parsed-record cache under `.git/dinger/records-v1/`: the same records as the files give,
/// never a stale one, and rebuilt when damaged.
@Suite struct RecordCacheTests {
  static let library = """
    id: 3f1c2d4e-0000-4000-8000-000000000001
    name: Spanish basics
    language: es
    words:
      - text: hola
        meanings:
          - definition: hello
      - text: agua
        phonetic: /ˈa.ɣwa/
        meanings:
          - partOfSpeech: noun
            definition: water
            example: Un vaso de agua.
          - definition: rain (colloquial)

    """

  /// A data repository with a library, a scrum and two meetings, and a clock far enough ahead
  /// that every file is settled.
  func repository() throws -> (Sandbox, DataRepository) {
    let (box, repo) = try newDataRepository()
    try box.write("libraries/spanish-basics.yaml", Self.library)
    try box.write(
      "scrums/design.yaml",
      "id: 3f1c2d4e-0000-4000-8000-000000000002\ntitle: Design\ntheme: poppy\nlength: 10\nattendees:\n  - name: Ana\n  - name: Bo\n"
    )
    for (day, seconds) in [("2026-01-05", 300), ("2026-01-06", 420)] {
      try box.write(
        "history/design/\(day)-00000001.yaml",
        """
        scrum: 3f1c2d4e-0000-4000-8000-000000000002
        date: \(day)T09:00:00Z
        length: 10
        duration: \(seconds)
        attendees: [Ana, Bo]
        speakers:
          - name: Ana
            seconds: \(seconds - 100)
        transcript: |
          Ana: shipped it.

        """)
    }
    repo.clock = { FileStamp.now() + 10_000_000_000 }
    return (box, repo)
  }

  func records(_ repo: DataRepository, _ kind: RecordKind) throws -> [String: AnyRecord?] {
    Dictionary(uniqueKeysWithValues: try repo.files(of: kind).map { ($0.path, $0.record) })
  }

  func cacheFiles(_ box: Sandbox) -> [URL] {
    let folder = box.data.appendingPathComponent(".git/dinger/records-v1")
    return ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
      .filter { $0.hasSuffix(".bin") }.map { folder.appendingPathComponent($0) }
  }

  @Test func aWarmReadGivesTheRecordsTheFilesGive() throws {
    let (box, repo) = try repository()
    for kind in [RecordKind.library, .scrum, .meeting] {
      let cold = try records(repo, kind)
      #expect(repo.cacheHits == 0)
      #expect(cold.values.allSatisfy { $0 != nil })
      let warm = try records(repo, kind)
      #expect(repo.cacheHits == cold.count, "\(kind)")
      #expect(warm == cold, "\(kind)")
    }
    #expect(cacheFiles(box).count == 3)  // libraries, scrums, history/design
    // Never committed, never seen by git.
    #expect(
      try box.git("status", "--porcelain", "--untracked-files=all").contains("records-v1") == false)
  }

  @Test func aFileChangedInTheSameSecondIsReadAgain() throws {
    let (box, repo) = try repository()
    let path = box.data.appendingPathComponent("libraries/spanish-basics.yaml").path
    _ = try records(repo, .library)
    _ = try records(repo, .library)
    #expect(repo.cacheHits == 1)
    // The same size, in place (same inode), and the old modification time put back: only the
    // change time tells.
    var before = stat()
    stat(path, &before)
    let edited = Self.library.replacingOccurrences(of: "hello", with: "howdy")
    let fd = open(path, O_WRONLY)
    _ = edited.utf8CString.withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count - 1) }
    close(fd)
    var times = [before.st_atim, before.st_mtim]
    utimensat(AT_FDCWD, path, &times, 0)
    var after = stat()
    stat(path, &after)
    #expect(after.st_ino == before.st_ino && after.st_size == before.st_size)
    #expect(after.st_mtim.tv_nsec == before.st_mtim.tv_nsec)
    guard case .library(let library)?? = try records(repo, .library).first?.value else {
      Issue.record("no library")
      return
    }
    #expect(repo.cacheHits == 0)
    #expect(library.words[0].meanings[0].definition == "howdy")
  }

  @Test func aFileJustWrittenIsNotCachedUntilItsTimesSettle() throws {
    let (box, repo) = try repository()
    // The real clock: every file was written a moment ago, so an edit could still keep its
    // times (a coarse clock, the same tick); nothing is cached yet.
    repo.clock = FileStamp.now
    _ = try records(repo, .library)
    _ = try records(repo, .library)
    #expect(repo.cacheHits == 0)
    #expect(cacheFiles(box).isEmpty)
    repo.clock = { FileStamp.now() + 2_100_000_000 }
    _ = try records(repo, .library)
    _ = try records(repo, .library)
    #expect(repo.cacheHits == 1)
  }

  @Test func aTruncatedOrDamagedCacheIsRebuilt() throws {
    let (box, repo) = try repository()
    let expected = try records(repo, .library)
    _ = try records(repo, .library)
    #expect(repo.cacheHits == 1)
    guard let file = cacheFiles(box).first else {
      Issue.record("no cache file")
      return
    }
    let whole = try Data(contentsOf: file)
    for damaged in [
      whole.prefix(whole.count / 2), Data(), whole.prefix(8),
      Data(
        whole.enumerated().map { $0.offset == whole.count / 3 ? $0.element ^ 0x40 : $0.element }),
      Data((0..<4096).map { _ in UInt8.random(in: 0...255) }),
    ] {
      try damaged.write(to: file)
      #expect(try records(repo, .library) == expected)
      #expect(repo.cacheHits == 0)
      // Written again whole: the next read comes from it.
      #expect(try records(repo, .library) == expected)
      #expect(repo.cacheHits == 1)
    }
  }

  @Test func aLinkInPlaceOfTheCacheIsNeitherReadNorWrittenThrough() throws {
    let (box, repo) = try repository()
    _ = try records(repo, .library)
    guard let file = cacheFiles(box).first else {
      Issue.record("no cache file")
      return
    }
    let outside = box.home.url.appendingPathComponent("outside.bin")
    try Data("keep me".utf8).write(to: outside)
    try FileManager.default.removeItem(at: file)
    try FileManager.default.createSymbolicLink(at: file, withDestinationURL: outside)
    #expect(try records(repo, .library).count == 1)
    #expect(repo.cacheHits == 0)
    #expect(try String(contentsOf: outside, encoding: .utf8) == "keep me")
  }

  @Test func filesWithFindingsOrUnknownKeysAreNotCached() throws {
    let (box, repo) = try repository()
    try box.write("libraries/broken.yaml", "name: Broken\nlanguage: 12x\n")
    try box.write("libraries/extra.yaml", "name: Extra\nlanguage: en\nmascot: owl\n")
    let cold = try repo.files(of: .library)
    let warm = try repo.files(of: .library)
    #expect(repo.cacheHits == 1)  // only spanish-basics
    #expect(warm.map(\.diagnostics) == cold.map(\.diagnostics))
    #expect(warm.first { $0.path.hasSuffix("extra.yaml") }?.diagnostics.isEmpty == false)
  }

  @Test func everyCorpusRecordReadsBackFromTheCacheAsItWasParsed() throws {
    // The binary form against the YAML, over every clean record of the corpus.
    var checked = 0
    let corpus = packageRoot.appendingPathComponent("Tests/StorageTests/Corpus")
    let walker = FileManager.default.enumerator(atPath: corpus.path)
    while let item = walker?.nextObject() as? String {
      guard item.hasSuffix(".yaml"), let inData = item.range(of: "/") else { continue }
      let path = String(item[inData.upperBound...])
      guard let kind = RecordLayout.kind(ofPath: path) else { continue }
      let bytes = try [UInt8](Data(contentsOf: corpus.appendingPathComponent(item)))
      let file = RecordCodec.decode(bytes, path: path, kind: kind)
      let places = DataChecker.SlimFile.places(of: file)
      guard let record = file.record, file.diagnostics.isEmpty,
        let encoded = CachedRecord.encode(record, places: places)
      else { continue }
      let (back, placesBack) = try encoded.withUnsafeBytes { raw in
        var r = CacheReader(raw)
        return try CachedRecord.decode(&r, path: path)
      }
      #expect(back == record, "\(item)")
      #expect(placesBack.id == places.id && placesBack.parent == places.parent, "\(item)")
      checked += 1
    }
    #expect(checked > 10)
  }

  @Test func checkFromTheCacheReportsExactlyWhatCheckFromTheFilesReports() throws {
    let (box, repo) = try repository()
    // Files each clean on their own, wrong together: an id used twice, a meeting of a scrum
    // that does not exist, a meeting filed under another scrum's folder.
    try box.write(
      "scrums/copy.yaml",
      "id: 3f1c2d4e-0000-4000-8000-000000000002\ntitle: Copy\nlength: 5\nattendees: [Cy]\n")
    try box.write(
      "history/design/2026-02-01-00000009.yaml",
      "scrum: 3f1c2d4e-0000-4000-8000-0000000000ff\ndate: 2026-02-01T09:00:00Z\nlength: 10\nduration: 60\nattendees: [Ana]\n"
    )
    try box.write(
      "history/other/2026-02-02-00000008.yaml",
      "# a comment first, so the places are not on line 1\nscrum: 3f1c2d4e-0000-4000-8000-000000000002\ndate: 2026-02-02T09:00:00Z\nlength: 10\nduration: 60\nattendees: [Ana]\n"
    )
    let later = FileStamp.now() + 10_000_000_000
    let cache = RecordCache.of(gitDirectory: repo.git.gitDirectory)
    let plain = DataChecker.check(directory: repo.directory, cache: nil, problems: [], only: nil)
    let cold = DataChecker.check(
      directory: repo.directory, cache: cache, problems: [], only: nil, now: later)
    let warmCache = RecordCache.of(gitDirectory: repo.git.gitDirectory)
    let warm = DataChecker.check(
      directory: repo.directory, cache: warmCache, problems: [], only: nil, now: later)
    #expect(plain.fromCache == 0 && cold.fromCache == 0)
    // All but the config, and the two scrums (always read: the title check needs their titles).
    #expect(warm.fromCache == 5)
    #expect(plain.report.diagnostics.count >= 3, "\(plain.report.diagnostics)")
    #expect(cold.report.diagnostics == plain.report.diagnostics)
    #expect(warm.report.diagnostics == plain.report.diagnostics)
    #expect(warm.report.files == plain.report.files)
    #expect(
      warm.report.diagnostics.contains { $0.file.hasPrefix("history/other/") && $0.line == 2 })
  }

  /// A big tree is statted on every core, in runs: cut into runs of one file, a warm check
  /// takes the same files from the cache and reports exactly what one run reports, a file
  /// changed since it was cached is read (and cached again, not taken stale), and a link in a
  /// run is refused there.
  @Test func checkInRunsReportsWhatOneRunReports() throws {
    let (box, repo) = try repository()
    for (folder, scrum) in [("design", "0002"), ("other", "00ff")] {
      for day in 10...19 {
        try box.write(
          "history/\(folder)/2026-02-\(day)-00000001.yaml",
          "scrum: 3f1c2d4e-0000-4000-8000-00000000\(scrum)\ndate: 2026-02-\(day)T09:00:00Z\nlength: 10\nduration: 60\nattendees: [Ana]\n"
        )
      }
    }
    try box.write("elsewhere.yaml", "scrum: nothing\n")
    try FileManager.default.createSymbolicLink(
      atPath: box.data.appendingPathComponent("history/design/2026-03-01-00000001.yaml").path,
      withDestinationPath: box.data.appendingPathComponent("elsewhere.yaml").path)
    let later = FileStamp.now() + 10_000_000_000
    func check(runsFrom: Int) -> (report: CheckReport, fromCache: Int) {
      DataChecker.check(
        directory: repo.directory, cache: RecordCache.of(gitDirectory: repo.git.gitDirectory),
        problems: [], only: nil, now: later, parallelFrom: runsFrom)
    }
    let cold = check(runsFrom: 1)
    let warmInRuns = check(runsFrom: 1)
    let warmAlone = check(runsFrom: .max)
    #expect(cold.fromCache == 0)
    // Every meeting and the library; the scrums are always read.
    #expect(warmInRuns.fromCache == 23 && warmAlone.fromCache == 23)
    #expect(warmInRuns.report.diagnostics == warmAlone.report.diagnostics)
    #expect(warmInRuns.report.diagnostics == cold.report.diagnostics)
    #expect(warmInRuns.report.files == cold.report.files)
    #expect(
      cold.report.diagnostics.contains {
        $0.file == "history/design/2026-03-01-00000001.yaml" && $0.message.contains("link")
      }, "\(cold.report.diagnostics)")
    #expect(cold.report.diagnostics.filter { $0.message.contains("no scrum has id") }.count == 10)
    // A meeting changed since it was cached, to a scrum that does not exist: read, not taken
    // from the cache (then cached again), and its finding is there at once and on the next run.
    try box.write(
      "history/design/2026-02-15-00000001.yaml",
      "scrum: 3f1c2d4e-0000-4000-8000-0000000000ee\ndate: 2026-02-15T09:00:00Z\nlength: 10\nduration: 61\nattendees: [Ana]\n"
    )
    let changed = check(runsFrom: 1)
    let again = check(runsFrom: 1)
    #expect(changed.fromCache == 22 && again.fromCache == 23)
    for run in [changed, again] {
      #expect(
        run.report.diagnostics.contains {
          $0.file == "history/design/2026-02-15-00000001.yaml"
            && $0.message.contains("no scrum has id 3f1c2d4e-0000-4000-8000-0000000000ee")
        })
    }
  }

  @Test func libraryListingsFromTheCacheAreTheWordsTheFileHas() throws {
    let (box, repo) = try repository()
    try box.write(
      "libraries/more.yaml",
      "name: Más\nlanguage: es\nwords:\n  - text: año\n    meanings:\n      - definition: |\n          year\n\n          (calendar)\n      - definition: age\n  - text: sin\n"
    )
    func rows(_ listing: LibraryListing) -> [(String, String?, Int)] {
      listing.rows.rows.map { row in
        (
          String(decoding: listing.rows.bytes[row.text], as: UTF8.self),
          row.definition.map { String(decoding: listing.rows.bytes[$0], as: UTF8.self) },
          row.meanings
        )
      }
    }
    let cold = try #require(repo.libraryListings())
    #expect(repo.cacheHits == 0)
    let warm = try #require(repo.libraryListings())
    #expect(repo.cacheHits == 2)
    let libraries = try repo.files(of: .library).compactMap { file -> Library? in
      if case .library(let l) = file.record { return l }
      return nil
    }
    for listings in [cold, warm] {
      #expect(listings.map(\.name) == libraries.map(\.name))
      for (listing, library) in zip(listings, libraries) {
        let expected = library.words.map {
          ($0.text, $0.meanings.first?.definition, $0.meanings.count)
        }
        #expect(rows(listing).map(\.0) == expected.map(\.0))
        #expect(rows(listing).map(\.1) == expected.map(\.1))
        #expect(rows(listing).map(\.2) == expected.map(\.2))
        #expect(listing.id == library.id && listing.language == library.language)
      }
    }
    // A library with findings: no listing, so the full read reports them.
    try box.write("libraries/broken.yaml", "name: Broken\nlanguage: 12x\n")
    #expect(repo.libraryListings() == nil)
  }

  /// An entry of 64 KB or more is written from its own buffer, the rest gathered around it; the
  /// checksum taken over the pieces is the file's, so the next run reads it back.
  @Test func aBigLibraryIsWrittenInPiecesAndReadBack() throws {
    let (box, repo) = try repository()
    let big = Library(
      id: UUID(), name: "Big", language: "en",
      words: (0..<3000).map { i in
        Word(text: "word\(i)", meanings: [Meaning(definition: "meaning of word \(i), at length")])
      })
    try box.write("libraries/big.yaml", try RecordCodec.encode(.library(big)))
    let cold = try #require(repo.libraryListings())
    #expect(repo.cacheHits == 0)
    let warm = try #require(repo.libraryListings())
    #expect(repo.cacheHits == 2)
    #expect(cold.map(\.name) == warm.map(\.name) && cold.map(\.rows) == warm.map(\.rows))
    let rows = try #require(warm.first { $0.name == "Big" }).rows
    #expect(rows.count == 3000)
    #expect(String(decoding: rows.bytes[rows.rows[2999].text], as: UTF8.self) == "word2999")
  }

  /// The checksum of bytes given in pieces is the checksum of them all, however they are cut.
  @Test func theChecksumDoesNotDependOnThePieces() {
    var rng = SeededGenerator(seed: 7)
    for _ in 0..<200 {
      let bytes = (0..<Int.random(in: 0...300, using: &rng)).map { _ in
        UInt8.random(in: 0...255, using: &rng)
      }
      let whole = bytes.withUnsafeBytes { cacheChecksum($0) }
      var sum = CacheChecksum()
      var at = 0
      while at < bytes.count {
        let end = min(bytes.count, at + Int.random(in: 0...70, using: &rng))
        bytes[at..<end].withUnsafeBytes { sum.add($0) }
        at = end
      }
      #expect(sum.value == whole)
    }
    #expect(
      [UInt8](repeating: 1, count: 64).withUnsafeBytes { cacheChecksum($0) }
        != [UInt8](repeating: 1, count: 65).withUnsafeBytes { cacheChecksum($0) })
  }
}
