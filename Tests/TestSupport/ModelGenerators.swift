import Foundation
import Models

/// Random records for round-trip tests: hostile strings everywhere a string goes, unknown keys
/// with nested values, optional fields present or not.
public struct ModelGenerator {
  /// The random source; seeded so failures reproduce.
  public var rng: SeededGenerator

  /// A generator from a seed.
  public init(seed: UInt64) { rng = SeededGenerator(seed: seed) }

  mutating func string() -> String { HostileStrings.random(using: &rng) }
  mutating func maybe<T>(_ make: (inout ModelGenerator) -> T) -> T? {
    Bool.random(using: &rng) ? make(&self) : nil
  }
  mutating func count(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }
  mutating func uuid() -> UUID {
    var bytes = [UInt8](repeating: 0, count: 16)
    for i in 0..<16 { bytes[i] = UInt8.random(in: 0...255, using: &rng) }
    return NSUUID(uuidBytes: bytes) as UUID
  }
  mutating func date() -> Date {
    Date(timeIntervalSince1970: Double(Int.random(in: 0...4_000_000_000, using: &rng)))
  }

  /// Unknown keys with values of every shape.
  public mutating func unknown(avoiding known: [String]) -> UnknownFields {
    var fields = UnknownFields()
    for _ in 0..<count(0...2) {
      let key = ["colour", "notes", "x-team", "no", "2026", "emoji 🎉", "a: b"].randomElement(
        using: &rng)!
      guard !known.contains(key), !fields.keys.contains(key) else { continue }
      fields.entries.append((key, opaque(depth: 0)))
    }
    return fields
  }

  mutating func opaque(depth: Int) -> OpaqueValue {
    switch count(0...(depth < 2 ? 6 : 4)) {
    case 0: return .null
    case 1: return .bool(Bool.random(using: &rng))
    case 2: return .int(count(-1000...1000))
    case 3: return .double([0.5, -3.25, 1e-5, 2.5e20, 100.0].randomElement(using: &rng)!)
    case 4: return .string(string())
    case 5: return .list((0..<count(0...3)).map { _ in opaque(depth: depth + 1) })
    default:
      var fields = UnknownFields()
      for i in 0..<count(0...3) { fields.entries.append(("k\(i)", opaque(depth: depth + 1))) }
      return .map(fields)
    }
  }

  /// A scrum.
  public mutating func scrum() -> Scrum {
    var attendees: [Attendee] = []
    for _ in 0..<count(1...5) {
      var a = Attendee(name: string())
      if count(0...3) == 0 { a.zone = maybe { _ in "Europe/Berlin" } ?? string() }
      if count(0...4) == 0 { a.unknown = unknown(avoiding: ["name", "zone"]) }
      attendees.append(a)
    }
    var s = Scrum(
      id: maybe { $0.uuid() }, title: string(),
      theme: maybe { Theme.allCases.randomElement(using: &$0.rng)! },
      length: count(1...600), attendees: attendees)
    s.schedule = maybe { $0.schedule() }
    s.unknown = unknown(avoiding: Scrum.keys)
    return s
  }

  /// A schedule: well-formed or not (its fields are text as written, so any string must
  /// survive the round trip).
  public mutating func schedule() -> Schedule {
    let days: Schedule.DaysField =
      Bool.random(using: &rng)
      ? .text(maybe { _ in "weekdays" } ?? string())
      : .list((0..<count(0...3)).map { _ in maybe { _ in "mon" } ?? string() })
    var s = Schedule(
      at: maybe { _ in "09:30" } ?? string(), days: days, every: maybe { $0.string() },
      zone: maybe { _ in "America/New_York" } ?? string(), from: maybe { _ in "2026-12-01" },
      until: maybe { $0.string() }, skip: (0..<count(0...2)).map { _ in string() })
    var seen = Set<String>()
    for _ in 0..<count(0...2) {
      let day = maybe { _ in "2027-01-07" } ?? string()
      if seen.insert(day).inserted { s.moved.append(Schedule.Move(date: day, at: string())) }
    }
    if count(0...4) == 0 { s.unknown = unknown(avoiding: Schedule.keys) }
    return s
  }

  /// A meeting.
  public mutating func meeting() -> Meeting {
    var m = Meeting(
      id: maybe { $0.uuid() }, scrum: uuid(), date: date(), length: count(1...600),
      duration: count(0...36_000), attendees: (0..<count(0...4)).map { _ in string() },
      speakers: (0..<count(0...4)).map { _ in SpeakerTime(name: string(), seconds: count(0...600))
      },
      transcript: maybe { $0.string() })
    m.unknown = unknown(avoiding: Meeting.keys)
    return m
  }

  /// A word library.
  public mutating func library() -> Library {
    var words: [Word] = []
    for _ in 0..<count(0...4) {
      var w = Word(text: string(), phonetic: maybe { $0.string() })
      w.meanings = (0..<count(0...2)).map { _ in
        Meaning(
          partOfSpeech: maybe { $0.string() }, definition: string(), example: maybe { $0.string() })
      }
      w.unknown = unknown(avoiding: Word.keys)
      words.append(w)
    }
    var l = Library(id: maybe { $0.uuid() }, name: string(), language: string(), words: words)
    l.unknown = unknown(avoiding: Library.keys)
    return l
  }

  /// A quiz result.
  public mutating func quiz() -> QuizResult {
    var q = QuizResult(
      id: maybe { $0.uuid() }, library: uuid(), date: date(), seconds: maybe { $0.count(1...60) },
      questions: (0..<count(1...5)).map { _ in
        QuizAnswer(word: string(), correct: Bool.random(using: &rng))
      })
    q.unknown = unknown(avoiding: QuizResult.keys)
    return q
  }

  /// A repository config.
  public mutating func config() -> RepoConfig {
    var c = RepoConfig(
      format: 1, language: maybe { $0.string() },
      quiz: maybe {
        QuizDefaults(
          questions: $0.maybe { $0.count(1...100) }, seconds: $0.maybe { $0.count(1...600) })
      },
      dictionary: maybe {
        DictionaryEndpoints(
          definitions: URL(string: "https://dict.example/api"), randomWords: nil,
          timeout: $0.maybe { _ in 2.5 })
      })
    c.unknown = unknown(avoiding: RepoConfig.keys)
    return c
  }
}
