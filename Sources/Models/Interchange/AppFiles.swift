import Base
import FoundationEssentials

/// The files the apps Dinger descends from keep, exactly as their models encode with
/// Foundation's default `JSONEncoder` (see docs/import-export.md): Apple's Scrumdinger
/// (`scrums.data`, the 2022-24 and 2020-21 tutorials) and Point-Free's SyncUps
/// (`sync-ups.json`). Dates are seconds since 2001-01-01 (`.deferredToDate`).
public enum AppFiles {
  /// The largest file read: a team's whole history is far smaller.
  // NB: dinger's own export of 100,000 meetings is 85 MB; reading one of 256 MB holds about
  // (docs/import-export.md measures it) several times its size while JSON is decoded.
  public static let maxBytes = 256 << 20

  /// Seconds between 1970-01-01 and 2001-01-01, Foundation's reference date.
  static let referenceOffset: Double = 978_307_200

  /// A `Date` as the apps encode it: seconds since 2001.
  public static func appSeconds(_ date: Date) -> Double {
    date.timeIntervalSince1970 - referenceOffset
  }

  /// The apps' seconds since 2001 as a date in whole seconds (dinger's meetings keep those).
  /// The first and last instants an imported date may name (1970-01-01 and 2200-01-01, UTC,
  /// seconds since 1970): a date outside them is refused before any arithmetic on it.
  public static let dateRange: ClosedRange<Double> = 0...7_258_118_400

  /// Whether the apps' seconds since 2001 name a date dinger takes (finite, 1970 to 2200).
  public static func takes(appSeconds: Double) -> Bool {
    appSeconds.isFinite && dateRange.contains(appSeconds + referenceOffset)
  }

  public static func wholeSeconds(appSeconds: Double) -> Date {
    Date(timeIntervalSince1970: (appSeconds + referenceOffset).rounded(.down))
  }

  /// The apps' seconds since 2001 as a date.
  public static func date(appSeconds: Double) -> Date {
    Date(timeIntervalSince1970: appSeconds + referenceOffset)
  }

  // MARK: Scrumdinger

  /// One scrum of `scrums.data`: the 2022-24 shape (attendees `{id, name}`, `theme`) or the
  /// 2020-21 one (attendees as plain names, `color` instead of a theme, a length per meeting).
  public struct DailyScrum: Codable, Sendable, Equatable {
    public var id: String
    public var title: String
    public var attendees: [AttendeeValue]
    public var lengthInMinutes: Int
    public var theme: String?
    public var color: Color?
    public var history: [History]

    public init(
      id: String, title: String, attendees: [AttendeeValue], lengthInMinutes: Int,
      theme: String?, color: Color? = nil, history: [History]
    ) {
      (self.id, self.title, self.attendees, self.lengthInMinutes) =
        (id, title, attendees, lengthInMinutes)
      (self.theme, self.color, self.history) = (theme, color, history)
    }
  }

  /// An attendee: `{id, name}` (2022-24) or a plain name (2020-21).
  public enum AttendeeValue: Codable, Sendable, Equatable {
    case named(id: String, name: String)
    case plain(String)

    public var name: String {
      switch self {
      case .named(_, let name), .plain(let name): return name
      }
    }

    private enum Keys: String, CodingKey { case id, name }

    public init(from decoder: any Decoder) throws {
      if let name = try? decoder.singleValueContainer().decode(String.self) {
        self = .plain(name)
        return
      }
      let c = try decoder.container(keyedBy: Keys.self)
      self = .named(
        id: try c.decode(String.self, forKey: .id), name: try c.decode(String.self, forKey: .name))
    }

    public func encode(to encoder: any Encoder) throws {
      switch self {
      case .plain(let name):
        var c = encoder.singleValueContainer()
        try c.encode(name)
      case .named(let id, let name):
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(id, forKey: .id)
        try c.encode(name, forKey: .name)
      }
    }
  }

  /// The 2020-21 tutorial's colour (sRGB, 0...1).
  public struct Color: Codable, Sendable, Equatable {
    public var red: Double
    public var green: Double
    public var blue: Double
    public var alpha: Double?

    /// The nearest of the 16 themes (smallest distance between sRGB components).
    public var nearestTheme: Theme {
      Theme.allCases.min { a, b in distance(a) < distance(b) }!
    }

    func distance(_ t: Theme) -> Double {
      let (r, g, b) = t.rgb
      return (r - red) * (r - red) + (g - green) * (g - green) + (b - blue) * (b - blue)
    }
  }

  /// One meeting of a Scrumdinger scrum.
  public struct History: Codable, Sendable, Equatable {
    public var id: String
    public var date: Double
    public var attendees: [AttendeeValue]
    /// Only in 2020-21 copies (and some 2022 ones).
    public var lengthInMinutes: Int?
    public var transcript: String?

    public init(
      id: String, date: Double, attendees: [AttendeeValue], lengthInMinutes: Int? = nil,
      transcript: String?
    ) {
      (self.id, self.date, self.attendees, self.lengthInMinutes, self.transcript) =
        (id, date, attendees, lengthInMinutes, transcript)
    }
  }

  // MARK: SyncUps

  /// One sync-up of `sync-ups.json`.
  public struct SyncUp: Codable, Sendable, Equatable {
    public var id: String
    public var attendees: [Person]
    /// Swift's `Duration`: `[high, low]`, the 128-bit count of attoseconds.
    public var duration: AttoDuration
    public var meetings: [SyncUpMeeting]
    public var theme: String
    public var title: String

    public init(
      id: String, attendees: [Person], duration: AttoDuration, meetings: [SyncUpMeeting],
      theme: String, title: String
    ) {
      (self.id, self.attendees, self.duration, self.meetings, self.theme, self.title) =
        (id, attendees, duration, meetings, theme, title)
    }
  }

  /// `{id, name}`.
  public struct Person: Codable, Sendable, Equatable {
    public var id: String
    public var name: String
    public init(id: String, name: String) { (self.id, self.name) = (id, name) }
  }

  /// A SyncUps meeting: no attendees, planned length or duration.
  public struct SyncUpMeeting: Codable, Sendable, Equatable {
    public var id: String
    public var date: Double
    public var transcript: String
    public init(id: String, date: Double, transcript: String) {
      (self.id, self.date, self.transcript) = (id, date, transcript)
    }
  }

  /// Swift's `Duration` as it encodes: `[high, low]`, a signed high word and an unsigned low
  /// word of attoseconds. Read as exact integers (the low word exceeds what a Double holds).
  public struct AttoDuration: Codable, Sendable, Equatable {
    public var high: Int64
    public var low: UInt64

    public init(high: Int64, low: UInt64) { (self.high, self.low) = (high, low) }

    /// A whole number of seconds.
    public init(seconds: Int64) {
      let atto = Int128(seconds) * 1_000_000_000_000_000_000
      high = Int64(truncatingIfNeeded: atto >> 64)
      low = UInt64(truncatingIfNeeded: atto)
    }

    /// The attoseconds.
    public var attoseconds: Int128 { Int128(high) << 64 | Int128(low) }

    /// Whole seconds, rounded to the nearest (half away from zero). NB: no addition or negation
    /// of the full value: `[Int64.max, UInt64.max]` and `[Int64.min, 0]` trapped there.
    public var seconds: Int128 {
      let a = attoseconds
      let unit: Int128 = 1_000_000_000_000_000_000
      let (q, r) = a.quotientAndRemainder(dividingBy: unit)
      if r >= unit / 2 { return q + 1 }
      if r <= -(unit / 2) { return q - 1 }
      return q
    }

    public init(from decoder: any Decoder) throws {
      var c = try decoder.unkeyedContainer()
      high = try c.decode(Int64.self)
      low = try c.decode(UInt64.self)
      guard c.isAtEnd else {
        throw DecodingError.dataCorruptedError(
          in: c, debugDescription: "a duration is two numbers, [high, low]")
      }
    }

    public func encode(to encoder: any Encoder) throws {
      var c = encoder.unkeyedContainer()
      try c.encode(high)
      try c.encode(low)
    }
  }

  /// A theme name from either app (`orange` or `appOrange`); nil when it is none of the 16.
  public static func theme(_ name: String) -> Theme? { Theme(spelling: name) }
}
