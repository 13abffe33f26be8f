import Base
import FoundationEssentials
import Glibc

/// When a scrum meets: the `schedule:` mapping of a scrum file.
///
/// ```yaml
/// schedule:
///   at: "09:30"
///   days: weekdays          # or [mon, wed, fri], or mon-thu
///   every: 2 weeks          # optional; counted from `from`
///   zone: Europe/Berlin     # IANA zone: 09:30 there, across DST
///   from: 2026-12-01        # optional first day
///   until: 2027-06-30       # optional last day
///   skip: [2026-12-24]      # single days off
///   moved: {2027-01-07: "11:00"}  # one occurrence at another time
/// ```
///
/// The fields keep the text as written (so a hand-edited file round-trips); `plan` reads them.
public struct Schedule: Hashable, Sendable, Codable {
  /// Time of day, `HH:MM`, in `zone`.
  public var at: String
  /// Which days of the week.
  public var days: DaysField
  /// `2 weeks`: every other week; nil or `1 week` is every week.
  public var every: String?
  /// The IANA time zone `at` is in.
  public var zone: String
  /// First day (inclusive), `YYYY-MM-DD`.
  public var from: String?
  /// Last day (inclusive), `YYYY-MM-DD`.
  public var until: String?
  /// Days the scrum does not meet though the schedule says so.
  public var skip: [String]
  /// Occurrences that happen at another time of the same day.
  public var moved: [Move]
  /// Keys the schema does not know, kept as written.
  public var unknown = UnknownFields()

  /// The keys of a schedule, in the order they are written.
  public static let keys = ["at", "days", "every", "zone", "from", "until", "skip", "moved"]
  /// The longest interval `every` takes, in weeks.
  public static let maxEvery = 52

  /// One moved occurrence: the day it was scheduled on and the time it happens instead.
  public struct Move: Hashable, Sendable {
    /// `YYYY-MM-DD`.
    public var date: String
    /// `HH:MM`.
    public var at: String

    /// A move.
    public init(date: String, at: String) {
      self.date = date
      self.at = at
    }
  }

  /// `days:` as written: one string (`weekdays`, `mon-fri`, `mon, wed`) or a list of days.
  public enum DaysField: Hashable, Sendable, Codable {
    case text(String)
    case list([String])

    public init(from decoder: any Decoder) throws {
      let single = try decoder.singleValueContainer()
      if let text = try? single.decode(String.self) {
        self = .text(text)
      } else {
        self = .list(try single.decode([String].self))
      }
    }

    public func encode(to encoder: any Encoder) throws {
      var c = encoder.singleValueContainer()
      switch self {
      case .text(let t): try c.encode(t)
      case .list(let l): try c.encode(l)
      }
    }

    /// The items as written.
    var items: [String] {
      switch self {
      case .text(let t): return [t]
      case .list(let l): return l
      }
    }
  }

  /// A schedule.
  public init(
    at: String, days: DaysField, every: String? = nil, zone: String, from: String? = nil,
    until: String? = nil, skip: [String] = [], moved: [Move] = []
  ) {
    self.at = at
    self.days = days
    self.every = every
    self.zone = zone
    self.from = from
    self.until = until
    self.skip = skip
    self.moved = moved
  }

  public init(from decoder: any Decoder) throws {
    var r = try FieldReader(decoder, known: Self.keys)
    at = r.required("at") ?? ""
    days = r.required("days") ?? .list([])
    every = r.optional("every")
    zone = r.required("zone") ?? ""
    from = r.optional("from")
    until = r.optional("until")
    skip = r.list("skip")
    moved = r.optional("moved", as: MoveList.self)?.moves ?? []
    unknown = r.unknown()
    try r.finish(self)
  }

  public func encode(to encoder: any Encoder) throws {
    var w = FieldWriter(encoder)
    try w.write("at", at)
    try w.write("days", days)
    try w.write("every", every)
    try w.write("zone", zone)
    try w.write("from", from)
    try w.write("until", until)
    try w.writeNonEmpty("skip", skip)
    if !moved.isEmpty { try w.write("moved", MoveList(moves: moved)) }
    try w.write(unknown)
  }

  /// `moved:` as a mapping from day to time, in the order written.
  struct MoveList: Codable {
    var moves: [Move]

    init(moves: [Move]) { self.moves = moves }

    init(from decoder: any Decoder) throws {
      let c = try decoder.container(keyedBy: DynamicKey.self)
      moves = try c.allKeys.map {
        Move(date: $0.stringValue, at: try c.decode(String.self, forKey: $0))
      }
    }

    func encode(to encoder: any Encoder) throws {
      var c = encoder.container(keyedBy: DynamicKey.self)
      for m in moves { try c.encode(m.at, forKey: DynamicKey(m.date)) }
    }
  }
}

/// The time zones this system knows, for validating the names a file uses.
public protocol ZoneDirectory: Sendable {
  /// True when `zone` names a zone there is data for.
  func knows(_ zone: String) -> Bool
  /// The known zone closest to a name that is not one.
  func suggestion(for zone: String) -> String?
}
