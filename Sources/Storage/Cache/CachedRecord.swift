import Base
import FoundationEssentials
import Glibc
import Models

/// Records in the cache's binary form. Only records that decoded cleanly (no diagnostic at
/// all) and hold no unknown keys are cached: those are exactly the ones whose fields say all
/// there is, so reading them back gives the same value the YAML gives.
enum CachedRecord {
  /// Bumped with any change to the layout below (or to the models it writes).
  static let version: UInt8 = 6

  /// The tag a cached record of `kind` starts with, for the kinds `check` takes in slim form
  /// (stand-up entries are always read: each is judged against its scrum as it is decoded).
  static func tag(of kind: RecordKind) -> UInt8? {
    switch kind {
    case .scrum: 1
    case .meeting: 2
    case .library: 3
    default: nil
    }
  }

  /// Where a clean file's `id:` and parent key (a meeting's `scrum:`, a quiz's `library:`) are,
  /// for `check`'s cross-file findings.
  struct Places {
    var id: Diagnostic?
    var parent: Diagnostic?
  }

  /// The record's bytes and its places (first, so that `check` reads them without the rest),
  /// or nil when it is not one the cache keeps.
  static func encode(_ record: AnyRecord, places: Places) -> [UInt8]? {
    var w = CacheWriter()
    write(places, into: &w)
    guard body(record, into: &w) else { return nil }
    return w.bytes
  }

  private static func write(_ places: Places, into w: inout CacheWriter) {
    for place in [places.id, places.parent] {
      guard let place, let line = place.line, let column = place.column else {
        w.u8(0)
        continue
      }
      w.u8(1)
      w.varint(line)
      w.varint(column)
      w.string(place.path)
      w.optional(place.sourceLine)
    }
  }

  static func places(_ r: inout CacheReader, path: String) throws(CacheReader.Damaged) -> Places {
    var found: [Diagnostic?] = []
    for _ in 0..<2 {
      switch try r.u8() {
      case 0: found.append(nil)
      case 1:
        let line = try r.varint()
        let column = try r.varint()
        let at = try r.string()
        found.append(
          Diagnostic(
            .error, file: path, line: line, column: column, path: at, message: "",
            sourceLine: try r.optionalString()))
      default: throw CacheReader.Damaged()
      }
    }
    return Places(id: found[0], parent: found[1])
  }

  /// The record and places written by `encode`, for the file at `path`.
  static func decode(_ r: inout CacheReader, path: String) throws(CacheReader.Damaged) -> (
    AnyRecord, Places
  ) {
    let places = try places(&r, path: path)
    return (try decode(&r), places)
  }

  /// What `check`'s cross-file pass needs, without decoding the rest: the kind, the id, a
  /// meeting's scrum, and the places.
  static func slim(_ r: inout CacheReader) throws(CacheReader.Damaged) -> (
    kind: UInt8, id: UUID?, parent: UUID?, places: SlimPlaces
  ) {
    let places = try slimPlaces(&r)
    let kind = try r.u8()
    let id = try r.optionalUUID()
    return (kind, id, kind == 2 ? try r.uuid() : nil, places)
  }

  /// Where `id:` and the parent key are, as `check` keeps them: line, column and key, the
  /// source lines skipped (a warm check read 260,000 of them into Strings and dropped them).
  struct SlimPlaces {
    struct Place {
      var line: Int32
      var column: Int32
      var key: String
    }
    var id: Place?
    var parent: Place?
  }

  static func slimPlaces(_ r: inout CacheReader) throws(CacheReader.Damaged) -> SlimPlaces {
    var places = SlimPlaces()
    for k in 0..<2 {
      switch try r.u8() {
      case 0: continue
      case 1:
        let line = try r.varint()
        let column = try r.varint()
        guard let line32 = Int32(exactly: line), let column32 = Int32(exactly: column) else {
          throw CacheReader.Damaged()
        }
        let place = SlimPlaces.Place(line: line32, column: column32, key: try r.string())
        try r.skipOptionalString()
        if k == 0 { places.id = place } else { places.parent = place }
      default: throw CacheReader.Damaged()
      }
    }
    return places
  }

  /// A cached library's name, language, id and its words as listing rows, read without making
  /// a `Word` (what `word list` shows); nil when the entry is not a library.
  /// The rows point into `data`, the cache file's bytes `r` reads: nothing is copied.
  static func libraryListing(_ r: inout CacheReader, in data: [UInt8], path: String)
    throws(CacheReader.Damaged) -> LibraryListing?
  {
    _ = try places(&r, path: path)
    guard try r.u8() == 3 else { return nil }
    let id = try r.optionalUUID()
    let name = try r.string()
    let language = try r.string()
    let n = try r.count(each: 3)
    var rows: [WordRows.Row] = []
    rows.reserveCapacity(n)
    for _ in 0..<n {
      let text = try r.stringRange()
      try r.skipOptionalString()
      let m = try r.count(each: 3)
      var definition: Range<Int>?
      for k in 0..<m {
        try r.skipOptionalString()
        let d = try r.stringRange()
        if k == 0 { definition = d }
        try r.skipOptionalString()
      }
      rows.append(WordRows.Row(text: text, definition: definition, meanings: m))
    }
    return LibraryListing(
      path: path, id: id, name: name, language: language, rows: WordRows(bytes: data, rows: rows))
  }

  private static func body(_ record: AnyRecord, into w: inout CacheWriter) -> Bool {
    switch record {
    case .scrum(let s): return body(s, into: &w)
    case .meeting(let m): return body(m, into: &w)
    case .library(let l): return body(l, into: &w)
    case .standup(let e): return body(e, into: &w)
    case .quiz, .config: return false
    }
  }

  private static func body(_ s: Scrum, into w: inout CacheWriter) -> Bool {
    // NB: a scrum with stand-up settings, an attendee's email or absences is not cached
    // (this layout has no place for them, and a cached read must give the whole record).
    guard s.unknown.isEmpty, s.themeSpelling == nil,
      s.attendees.allSatisfy({
        $0.unknown.isEmpty && $0.email == nil && $0.away.isEmpty && $0.aka.isEmpty
          && $0.matrix == nil
      }),
      s.schedule?.unknown.isEmpty ?? true, s.standup == nil
    else { return false }
    w.u8(1)
    w.optional(s.id)
    w.string(s.title)
    w.optional(s.theme?.rawValue)
    w.int(s.length)
    w.varint(s.attendees.count)
    for a in s.attendees {
      w.string(a.name)
      w.optional(a.zone)
    }
    schedule(s.schedule, into: &w)
    return true
  }

  private static func body(_ m: Meeting, into w: inout CacheWriter) -> Bool {
    // NB: an imported meeting (its length or duration may be unknown) stays out of the
    // cache, whose layout has no place for either.
    guard m.unknown.isEmpty, m.speakers.allSatisfy({ $0.unknown.isEmpty }),
      m.turns.allSatisfy({ $0.unknown.isEmpty }), m.imported == nil,
      let length = m.length, let duration = m.duration
    else { return false }
    w.u8(2)
    w.optional(m.id)
    w.uuid(m.scrum)
    w.date(m.date)
    w.int(length)
    w.int(duration)
    w.varint(m.attendees.count)
    for a in m.attendees { w.string(a) }
    w.varint(m.speakers.count)
    for s in m.speakers {
      w.string(s.name)
      w.int(s.seconds)
    }
    w.optional(m.transcript)
    w.varint(m.turns.count)
    for t in m.turns {
      w.string(t.speaker)
      w.int(t.start)
      w.string(t.text)
    }
    return true
  }

  private static func body(_ l: Library, into w: inout CacheWriter) -> Bool {
    guard l.unknown.isEmpty,
      l.words.allSatisfy({ $0.unknown.isEmpty && $0.meanings.allSatisfy(\.unknown.isEmpty) })
    else { return false }
    w.u8(3)
    w.optional(l.id)
    w.string(l.name)
    w.string(l.language)
    w.varint(l.words.count)
    for word in l.words {
      w.string(word.text)
      w.optional(word.phonetic)
      w.varint(word.meanings.count)
      for m in word.meanings {
        w.optional(m.partOfSpeech)
        w.string(m.definition)
        w.optional(m.example)
      }
    }
    return true
  }

  private static func body(_ e: StandupEntry, into w: inout CacheWriter) -> Bool {
    // NB: an entry whose lists hold keys of a teammate's own is read from its file.
    guard e.blockers.allSatisfy({ $0.unknown.isEmpty }),
      e.resolved.allSatisfy({ $0.unknown.isEmpty })
    else { return false }
    w.u8(4)
    w.optional(nil as UUID?)
    w.uuid(e.scrum)
    w.string(e.date)
    w.string(e.by)
    w.varint(e.answers.count)
    for a in e.answers {
      w.string(a.key)
      w.string(a.text)
    }
    w.varint(e.blockers.count)
    for b in e.blockers {
      w.optional(b.id)
      w.string(b.text)
    }
    w.varint(e.resolved.count)
    for r in e.resolved {
      w.string(r.id)
      w.optional(r.note)
    }
    return true
  }

  private static func schedule(_ s: Schedule?, into w: inout CacheWriter) {
    guard let s else {
      w.u8(0)
      return
    }
    switch s.days {
    case .text(let t):
      w.u8(1)
      w.string(t)
    case .list(let l):
      w.u8(2)
      w.varint(l.count)
      for d in l { w.string(d) }
    }
    w.string(s.at)
    w.optional(s.every)
    w.string(s.zone)
    w.optional(s.from)
    w.optional(s.until)
    w.varint(s.skip.count)
    for d in s.skip { w.string(d) }
    w.varint(s.moved.count)
    for m in s.moved {
      w.string(m.date)
      w.string(m.at)
    }
  }

  private static func schedule(_ r: inout CacheReader) throws(CacheReader.Damaged) -> Schedule? {
    let days: Schedule.DaysField
    switch try r.u8() {
    case 0: return nil
    case 1: days = .text(try r.string())
    case 2:
      var list: [String] = []
      for _ in 0..<(try r.count()) { list.append(try r.string()) }
      days = .list(list)
    default: throw CacheReader.Damaged()
    }
    let at = try r.string()
    let every = try r.optionalString()
    let zone = try r.string()
    let from = try r.optionalString()
    let until = try r.optionalString()
    var skip: [String] = []
    for _ in 0..<(try r.count()) { skip.append(try r.string()) }
    var moved: [Schedule.Move] = []
    for _ in 0..<(try r.count(each: 2)) {
      moved.append(Schedule.Move(date: try r.string(), at: try r.string()))
    }
    return Schedule(
      at: at, days: days, every: every, zone: zone, from: from, until: until, skip: skip,
      moved: moved)
  }

  /// The record written by `encode`.
  static func decode(_ r: inout CacheReader) throws(CacheReader.Damaged) -> AnyRecord {
    switch try r.u8() {
    case 1: return .scrum(try decodeScrum(&r))
    case 2: return .meeting(try decodeMeeting(&r))
    case 3: return .library(try decodeLibrary(&r))
    case 4: return .standup(try decodeStandup(&r))
    default: throw CacheReader.Damaged()
    }
  }

  private static func decodeScrum(_ r: inout CacheReader) throws(CacheReader.Damaged) -> Scrum {
    let id = try r.optionalUUID()
    let title = try r.string()
    let theme = try r.optionalString().map { raw throws(CacheReader.Damaged) -> Theme in
      guard let t = Theme(rawValue: raw) else { throw CacheReader.Damaged() }
      return t
    }
    let length = try r.int()
    var attendees: [Attendee] = []
    let n = try r.count()
    attendees.reserveCapacity(n)
    for _ in 0..<n {
      attendees.append(Attendee(name: try r.string(), zone: try r.optionalString()))
    }
    let schedule = try schedule(&r)
    return Scrum(
      id: id, title: title, theme: theme, length: length, schedule: schedule,
      attendees: attendees)
  }

  private static func decodeMeeting(_ r: inout CacheReader) throws(CacheReader.Damaged) -> Meeting {
    let id = try r.optionalUUID()
    let scrum = try r.uuid()
    let date = try r.date()
    let length = try r.int()
    let duration = try r.int()
    var attendees: [String] = []
    let n = try r.count()
    attendees.reserveCapacity(n)
    for _ in 0..<n { attendees.append(try r.string()) }
    var speakers: [SpeakerTime] = []
    let s = try r.count(each: 9)
    speakers.reserveCapacity(s)
    for _ in 0..<s { speakers.append(SpeakerTime(name: try r.string(), seconds: try r.int())) }
    let transcript = try r.optionalString()
    var turns: [TranscriptTurn] = []
    let t = try r.count(each: 10)
    turns.reserveCapacity(t)
    for _ in 0..<t {
      turns.append(
        TranscriptTurn(speaker: try r.string(), start: try r.int(), text: try r.string()))
    }
    return Meeting(
      id: id, scrum: scrum, date: date, length: length, duration: duration,
      attendees: attendees, speakers: speakers, transcript: transcript, turns: turns)
  }

  private static func decodeLibrary(_ r: inout CacheReader) throws(CacheReader.Damaged) -> Library {
    let id = try r.optionalUUID()
    let name = try r.string()
    let language = try r.string()
    let n = try r.count(each: 3)
    var words: [Word] = []
    words.reserveCapacity(n)
    for _ in 0..<n {
      let text = try r.string()
      let phonetic = try r.optionalString()
      let m = try r.count(each: 3)
      var meanings: [Meaning] = []
      meanings.reserveCapacity(m)
      for _ in 0..<m {
        let part = try r.optionalString()
        let definition = try r.string()
        meanings.append(
          Meaning(partOfSpeech: part, definition: definition, example: try r.optionalString()))
      }
      words.append(Word(text: text, phonetic: phonetic, meanings: meanings))
    }
    return Library(id: id, name: name, language: language, words: words)
  }

  private static func decodeStandup(_ r: inout CacheReader) throws(CacheReader.Damaged)
    -> StandupEntry
  {
    _ = try r.optionalUUID()
    let scrum = try r.uuid()
    let date = try r.string()
    let by = try r.string()
    var answers: [StandupEntry.Answer] = []
    for _ in 0..<(try r.count(each: 2)) {
      answers.append(StandupEntry.Answer(key: try r.string(), text: try r.string()))
    }
    var blockers: [BlockerMention] = []
    for _ in 0..<(try r.count(each: 2)) {
      blockers.append(BlockerMention(id: try r.optionalString(), text: try r.string()))
    }
    var resolved: [BlockerResolution] = []
    for _ in 0..<(try r.count(each: 2)) {
      resolved.append(BlockerResolution(id: try r.string(), note: try r.optionalString()))
    }
    return StandupEntry(
      scrum: scrum, date: date, by: by, answers: answers, blockers: blockers,
      resolved: resolved)
  }
}
