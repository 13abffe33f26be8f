// `make fuzz`: libFuzzer harnesses for every parser of untrusted bytes. One executable; the
// harness is chosen by DINGER_TEST_FUZZ (yaml, merge, index, pack, json, speech, cache, tzif,
// interchange, trees). Built only with
// `swift build --sanitize fuzzer` and -DFUZZING (libFuzzer provides `main` then); a plain build
// gets a `main` that says so.

// NB: everything under FUZZING: the harnesses reach internals (@testable), which only the
// fuzz build (debug, -enable-testing) allows; a release build of the package gets the stub.
#if FUZZING
  import Foundation

  @testable import Git
  @testable import Models
  @testable import Providers
  @testable import Schedules
  @testable import Speech
  @testable import Storage
  @testable import Sync
  @testable import YAML

  /// The harness this process runs.
  let harness = ProcessInfo.processInfo.environment["DINGER_TEST_FUZZ"] ?? "yaml"

  @_cdecl("LLVMFuzzerTestOneInput")
  public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    switch harness {
    case "yaml": Harness.yaml(bytes)
    case "merge": Harness.merge(bytes)
    case "index": Harness.index(bytes)
    case "pack": Harness.pack(bytes)
    case "json": Harness.json(bytes)
    case "speech": Harness.speech(bytes)
    case "cache": Harness.cache(bytes)
    case "tzif": Harness.tzif(bytes)
    case "interchange": Harness.interchange(bytes)
    case "trees": Harness.trees(bytes)
    default:
      fatalError(
        "DINGER_TEST_FUZZ must be yaml, merge, index, pack, json, speech, cache, tzif, interchange or trees"
      )
    }
    return 0
  }

  enum Harness {
    /// Two versions of a teammate's folder (a 2-byte big-endian length, the old raw tree, the
    /// new): when the old passes the whole check, the new is judged against it exactly as the
    /// whole check judges it (the same verdict, starts and changed entries), and never crashes.
    static func trees(_ bytes: [UInt8]) {
      guard bytes.count >= 2 else { return }
      let length = Int(bytes[0]) << 8 | Int(bytes[1])
      guard length <= bytes.count - 2 else { return }
      let old = Array(bytes[2..<(2 + length)])
      let new = Array(bytes[(2 + length)...])
      let commit = ObjectID(bytes: [UInt8](repeating: 1, count: 20))
      var scratch: [RawTreeEntry] = []
      guard (try? Repository.checkOrder(old, path: "", commit: commit, scratch: &scratch)) != nil
      else { return }
      let starts = Repository.starts(of: scratch)
      var parsed: [RawTreeEntry] = []
      let whole = try? { () throws -> [Repository.ChangedEntry] in
        try Repository.checkOrder(new, path: "", commit: commit, scratch: &parsed)
        return try Repository.changedEntries(new, parsed: parsed, against: old)
      }()
      let changed = try? Repository.checkChanged(
        new, against: old, oldStarts: starts, path: "", commit: commit)
      guard (whole == nil) == (changed == nil) else {
        fatalError("the whole check and the changed one disagree (whole passed: \(whole != nil))")
      }
      if let whole, let changed,
        whole.map({ "\($0.0)\($0.1)\(String(describing: $0.2))\($0.3.nameStart)" })
          != changed.changed.map({ "\($0.0)\($0.1)\(String(describing: $0.2))\($0.3.nameStart)" })
      {
        fatalError("the whole check and the changed one found different changes")
      }
    }

    /// The files a team brings over (`dinger import`, `library import --csv`): the apps' JSON,
    /// Geekbot's reports and CSV. Never a crash; a CSV that reads gives rows within the bounds.
    static func interchange(_ bytes: [UInt8]) {
      // NB: what an import goes on to do with what it read: every date formatted as the files
      // write it (a date of 1e20 trapped there), every length and duration used.
      for batch in [try? ImportBatch.scrumdinger(bytes), try? ImportBatch.syncups(bytes)] {
        for item in batch?.items ?? [] {
          _ = item.scrum.length
          for meeting in item.meetings { _ = ISODate.format(meeting.date) }
        }
      }
      let scrum = Scrum(title: "F", length: 5, attendees: [Attendee(name: "Ada")])
      if let converted = try? GeekbotReports.convert(
        bytes, scrum: scrum, id: UUID(),
        day: { date, _ in CivilDate(dayNumber: Int(date.timeIntervalSince1970) / 86_400) },
        today: { _ in CivilDate(dayNumber: 30_000) })
      {
        for entry in converted.entries { _ = CivilDate(entry.date) }
      }
      if let rows = try? CSVReader.rows(bytes) {
        guard rows.count <= CSVReader.maxRows, rows.allSatisfy({ $0.count <= CSVReader.maxFields })
        else { fatalError("the CSV reader went past its bounds") }
      }
      _ = try? LibraryCSV.words(bytes)
    }

    /// A zone file (TZDIR may point anywhere) and a TZ string (from $TZ): read, then asked for
    /// offsets and wall-clock instants around its transitions and far outside them; and the same
    /// bytes as calendar text, which must stay on its line.
    static func tzif(_ bytes: [UInt8]) {
      if let rules = try? ZoneRules(name: "fuzz", tzif: bytes) {
        for t in [Int64.min / 4, -1, 0, 1_800_000_000, 4_102_444_800, Int64.max / 4]
          + rules.transitions.prefix(8)
        {
          _ = rules.offset(at: t)
          _ = rules.utc(forLocal: t)
        }
        _ = rules.changes(in: 1_700_000_000..<1_800_000_000)
      }
      let text = String(decoding: bytes, as: UTF8.self)
      if let rule = PosixRule(text) {
        let rules = ZoneRules(
          name: "fuzz", fixedOffset: rule.standard.offset, abbreviation: "X", rule: rule)
        for t in stride(from: Int64(1_600_000_000), to: 1_700_000_000, by: 10_000_000) {
          _ = rules.utc(forLocal: t)
        }
        _ = VTimezone.lines(rules, from: CivilDate("2026-01-01")!)
      }
      let folded = ICalendar.fold("SUMMARY:" + ICalendar.text(text))
      precondition(
        !folded.replacingOccurrences(of: "\r\n ", with: "").contains(where: {
          $0 == "\r" || $0 == "\n"
        }))
    }

    /// A record cache file from `.git/dinger/records-v1/` (git's folder is not trusted either):
    /// as the input, and with a valid checksum appended so the entries' own parsing is reached.
    static func cache(_ bytes: [UInt8]) {
      var sealed = RecordCache.magic + [CachedRecord.version] + bytes
      let sum = sealed.withUnsafeBytes { cacheChecksum($0) }
      withUnsafeBytes(of: sum.littleEndian) { sealed += $0 }
      for data in [bytes, sealed] {
        guard let entries = try? RecordCache.entries(data, dir: "") else { continue }
        data.withUnsafeBytes { raw in
          for (name, entry) in entries {
            var r = CacheReader(raw, from: entry.payload.lowerBound, to: entry.payload.upperBound)
            _ = try? CachedRecord.decode(&r, path: name)
            r = CacheReader(raw, from: entry.payload.lowerBound, to: entry.payload.upperBound)
            _ = try? CachedRecord.slim(&r)
            r = CacheReader(raw, from: entry.payload.lowerBound, to: entry.payload.upperBound)
            if let listing = try? CachedRecord.libraryListing(&r, in: data, path: name) {
              // Every row lies inside the bytes (WordRows checks it, and so does this render).
              _ = listing.rows.rows.map {
                data[$0.text].count + (($0.definition).map { data[$0].count } ?? 0)
              }
            }
          }
        }
      }
    }

    /// A recording from elsewhere (`meet --record --audio`), and the helper's lines as dinger
    /// reads them.
    static func speech(_ bytes: [UInt8]) {
      if let samples = try? WAVFile.samples(bytes) {
        precondition(samples.count <= WAVFile.longest * WAVFile.rate)
      }
      for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
        if let message = TranscriberMessage(line: line) {
          // What is read back as a message writes as one line, which reads back as a message
          // that writes the same line (control characters were flattened once, for good).
          let line = message.line
          precondition(line.filter { $0 == "\n" }.count == 1)
          let again = TranscriberMessage(line: Substring(line.dropLast()))
          precondition(again?.line == line)
        }
      }
    }

    /// Parse, decode as each record kind, and write a changed record back in place.
    static func yaml(_ bytes: [UInt8]) {
      _ = try? YAMLParser.parse(SourceText(bytes))
      for (kind, path) in [
        (RecordKind.scrum, "scrums/x.yaml"), (.meeting, "history/x/2026-01-01-abcdef12.yaml"),
        (.library, "libraries/x.yaml"), (.config, ".dinger/config.yaml"),
      ] {
        let file = RecordCodec.decode(bytes, path: path, kind: kind)
        guard var record = file.record else { continue }
        switch record {
        case .scrum(var s):
          s.length = s.length % 600 + 1
          s.attendees.append(Attendee(name: "Fuzz Added"))
          if s.attendees.count > 2 { s.attendees.remove(at: 1) }
          record = .scrum(s)
        case .library(var l):
          l.words.append(Word(text: "fuzzword"))
          record = .library(l)
        default: break
        }
        if let written = try? RecordCodec.encode(record, updating: file.source) {
          // The edited text must read back (the editor's own safety net guarantees it).
          let back = RecordCodec.decode(Array(written.text.utf8), path: path, kind: kind)
          if back.record == nil && !written.fellBack {
            fatalError("an in-place edit wrote text that does not decode:\n\(written.text)")
          }
        }
      }
    }

    /// Three versions separated by NUL bytes, merged as a record.
    static func merge(_ bytes: [UInt8]) {
      let parts = bytes.split(separator: 0, maxSplits: 2, omittingEmptySubsequences: false)
      guard parts.count == 3 else { return }
      let result = RecordMerger.merge(
        base: Array(parts[0]), ours: Array(parts[1]), theirs: Array(parts[2]),
        path: "scrums/x.yaml")
      _ = result.conflicts.map { ConflictRecord.describe($0.other) }
    }

    /// git's index file: parsed, then one entry spliced in.
    static func index(_ bytes: [UInt8]) {
      // NB: sealed with a valid checksum (as the cache harness does), so the entries' parsing
      // is reached rather than stopped at the trailer.
      var bytes = bytes
      if bytes.count >= 32 {
        var sha = SHA1()
        bytes.withUnsafeBytes {
          sha.update(UnsafeRawBufferPointer(rebasing: $0[0..<(bytes.count - 20)]))
        }
        bytes.replaceSubrange((bytes.count - 20)..., with: sha.finish())
      }
      let loaded = IndexFile.parse(bytes)
      let fd = open("/dev/null", O_WRONLY)
      defer { close(fd) }
      _ = IndexFile.apply(
        [IndexFile.Update(path: "scrums/x.yaml", blob: nil, file: nil)], to: loaded, into: fd)
    }

    /// A pack and its index (a 4-byte big-endian index length, the index, the pack): every
    /// entry's header read, inflated, and deltas applied to their bases.
    static func pack(_ bytes: [UInt8]) {
      guard bytes.count > 4 else { return }
      let length = Int(bytes[0]) << 24 | Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3])
      guard length <= bytes.count - 4 else { return }
      let folder = NSTemporaryDirectory() + "dinger-fuzz-\(getpid())"
      mkdir(folder, 0o700)
      let idx = folder + "/p.idx"
      // NB: the index names the pack's trailing checksum, as a real index does, so that the
      // pack's entries are reached.
      var index = Array(bytes[4..<(4 + length)])
      if index.count >= 40, bytes.count - 4 - length >= 20 {
        index.replaceSubrange(
          (index.count - 40)..<(index.count - 20), with: bytes[(bytes.count - 20)...])
      }
      _ = FileManager.default.createFile(atPath: idx, contents: Data(index))
      _ = FileManager.default.createFile(
        atPath: folder + "/p.pack", contents: Data(bytes[(4 + length)...]))
      guard let pack = Pack(indexPath: idx) else { return }
      let inflater = Inflater()
      var offsets: [Int] = []
      for n in 0..<min(pack.count, 256) {
        if let o = pack.offsetForFuzzing(n) { offsets.append(o) }
      }
      func object(at offset: Int, depth: Int) -> [UInt8]? {
        guard depth < 16, let entry = pack.entry(at: offset), entry.size <= 1 << 20 else {
          return nil
        }
        let data = UnsafeRawBufferPointer(rebasing: pack.pack.bytes[entry.dataStart...])
        guard let inflated = inflater.inflate(data, size: entry.size) else { return nil }
        guard let base = entry.baseOffset else { return inflated }
        guard let baseBytes = object(at: base, depth: depth + 1) else { return nil }
        return inflated.withUnsafeBytes { Delta.apply($0, to: baseBytes) }
      }
      for offset in offsets { _ = object(at: offset, depth: 0) }
    }

    /// A dictionary service's JSON answer.
    static func json(_ bytes: [UInt8]) {
      _ = try? DictionaryProvider.entries(bytes)
      _ = try? JSONDecoder().decode([String].self, from: Data(bytes))
    }
  }

#else
  @main struct NotBuiltForFuzzing {
    static func main() {
      print("build with 'make fuzz' (swift build --sanitize fuzzer -Xswiftc -DFUZZING)")
    }
  }
#endif
