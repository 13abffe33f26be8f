import Base
import FoundationEssentials
import Glibc

/// A recurring stand-up meeting: `scrums/<slug>.yaml`.
public struct Scrum: Hashable, Sendable, Codable {
  /// Identity; nil for a hand-written file that has none yet.
  public var id: UUID?
  /// Shown everywhere; not the file name.
  public var title: String
  /// Colour; nil when the file leaves it out (shown as `Theme.default`).
  public var theme: Theme? {
    didSet { if theme != oldValue { themeSpelling = nil } }
  }
  /// The theme as the file spells it when that is SyncUps' `app` spelling (`appTeal`), kept so
  /// that the file and an export to SyncUps give it back; nil for the plain name. Setting another
  /// `theme` drops it.
  public private(set) var themeSpelling: String?
  /// Planned minutes, 1...600.
  public var length: Int
  /// When it meets; nil when the file has no `schedule:`.
  public var schedule: Schedule?
  /// The speakers, in speaking order.
  public var attendees: [Attendee]
  /// The written stand-up's questions and days; nil: the defaults.
  public var standup: StandupSettings?
  /// Keys the schema does not know, kept as written.
  public var unknown = UnknownFields()

  /// The keys of a scrum file, in the order they are written.
  public static let keys = ["id", "title", "theme", "length", "schedule", "attendees", "standup"]
  /// Allowed meeting lengths, in minutes.
  public static let lengthRange = 1...600
  /// The longest title, in characters (Unicode scalars): a title is a name people say.
  public static let maxTitle = 200

  /// Creates a scrum.
  public init(
    id: UUID? = nil, title: String, theme: Theme? = nil, length: Int, schedule: Schedule? = nil,
    attendees: [Attendee]
  ) {
    self.schedule = schedule
    self.id = id
    self.title = title
    self.theme = theme
    self.length = length
    self.attendees = attendees
  }

  /// Keeps `spelling` as the theme's spelling when it is the `app` spelling of the theme the scrum
  /// has (`appTeal` for teal); otherwise the plain name stays.
  public mutating func keepThemeSpelling(_ spelling: String?) {
    guard let spelling, Theme.appSpellings.contains(spelling), let theme,
      Theme(spelling: spelling) == theme
    else { return }
    themeSpelling = spelling
  }

  /// The theme's name as this scrum spells it (`appTeal` or `teal`); nil without a theme.
  public var themeName: String? { themeSpelling ?? theme?.rawValue }

  /// The theme to show.
  public var effectiveTheme: Theme { theme ?? .default }

  public init(from decoder: any Decoder) throws {
    var r = try FieldReader(decoder, known: Self.keys)
    id = r.optional("id")
    title = r.required("title") ?? ""
    theme = r.optional("theme")
    let spelled: String? = r.peek("theme")
    length = r.required("length") ?? 0
    schedule = r.optional("schedule")
    attendees = r.list("attendees", required: true)
    standup = r.optional("standup")
    unknown = r.unknown()
    keepThemeSpelling(spelled)
    try r.finish(self)
  }

  public func encode(to encoder: any Encoder) throws {
    var w = FieldWriter(encoder)
    try w.write("id", id)
    try w.write("title", title)
    try w.write("theme", themeName)
    try w.write("length", length)
    try w.write("schedule", schedule)
    try w.write("attendees", attendees)
    try w.write("standup", standup)
    try w.write(unknown)
  }

  /// The attendee named `name` (trimmed, case-insensitive), if any.
  public func attendee(named name: String) -> Attendee? {
    let key = name.trimmed.lowercased()
    return attendees.first { $0.naturalKey == key } ?? attendees.first { $0.keys.contains(key) }
  }

  /// The name a person is shown by: the attendee whose name or `aka` it is, else as written.
  /// (For many look-ups, `people` once: this one searches the attendees.)
  public func person(_ name: String) -> String { attendee(named: name)?.name ?? name }

  /// Every attendee's names (theirs and their `aka`), found in one look-up each: made once for
  /// a view that asks about many (40,000 speakers asked one by one was quadratic).
  public var people: People { People(self) }

  /// A scrum's names by key.
  public struct People: Sendable {
    var names: [String: String] = [:]

    init(_ scrum: Scrum) {
      names.reserveCapacity(scrum.attendees.count)
      for a in scrum.attendees where names[a.naturalKey] == nil { names[a.naturalKey] = a.name }
      for a in scrum.attendees {
        for key in a.aka.map({ $0.trimmed.lowercased() }) where names[key] == nil {
          names[key] = a.name
        }
      }
    }

    /// The name a person is shown by (as `Scrum.person`).
    public func person(_ name: String) -> String { names[name.trimmed.lowercased()] ?? name }
  }

  /// The rules a scrum must follow beyond its types; with `zones`, the time zones it names too.
  public func validate(zones: (any ZoneDirectory)? = nil) -> [ValidationIssue] {
    var issues: [ValidationIssue] = []
    if title.trimmed.isEmpty {
      issues.append(.init(at: [.key("title")], "'title' must not be empty"))
    } else if title.unicodeScalars.count > Self.maxTitle {
      issues.append(
        .init(
          at: [.key("title")],
          "'title' is \(title.unicodeScalars.count) characters long; a title is at most \(Self.maxTitle)"
        ))
    } else if let problem = OneLineText.problem(title, field: "title") {
      // NB: a warning: a teammate's file still reads (every view escapes it); what dinger
      // writes from the command line is refused (`ScrumProvider.validated`).
      issues.append(.init(.warning, at: [.key("title")], problem))
    }
    if !Self.lengthRange.contains(length) {
      issues.append(
        .init(at: [.key("length")], "'length' must be from 1 to 600 minutes, found \(length)"))
    }
    if attendees.isEmpty {
      issues.append(.init(at: [.key("attendees")], "a scrum needs at least one attendee"))
    }
    issues += Attendee.validate(attendees, at: [.key("attendees")])
    if let schedule { issues += schedule.validate(at: [.key("schedule")]) }
    if let standup { issues += standup.validate(at: [.key("standup")]) }
    if let zones { issues += zoneIssues(zones) }
    return issues
  }

  /// Unknown zones in the schedule and the attendees, with the closest known name.
  func zoneIssues(_ zones: any ZoneDirectory) -> [ValidationIssue] {
    var issues: [ValidationIssue] = []
    func check(_ zone: String, _ path: [PathComponent], _ field: String) {
      guard !zone.isEmpty, !zones.knows(zone) else { return }
      let hint = zones.suggestion(for: zone).map { " (did you mean '\($0)'?)" } ?? ""
      issues.append(
        ValidationIssue(
          at: path,
          "'\(field)' names the time zone '\(OneLineText.excerpt(zone))', which this system's time zone data does not have\(hint); zones are IANA names like Europe/Berlin, America/New_York or UTC"
        ))
    }
    if let schedule { check(schedule.zone, [.key("schedule"), .key("zone")], "schedule.zone") }
    for (i, a) in attendees.enumerated() {
      if let zone = a.zone { check(zone, [.key("attendees"), .index(i), .key("zone")], "zone") }
    }
    return issues
  }
}

/// A person who speaks in a scrum. Written as a plain name, or as a mapping with `name` when it
/// carries more.
public struct Attendee: Hashable, Sendable, Codable {
  /// The longest name, in characters (Unicode scalars).
  public static let maxName = 200

  /// The name, unique within its scrum (case-insensitive).
  public var name: String
  /// The attendee's IANA time zone, for showing meetings in their local time.
  public var zone: String?
  /// The attendee's email, matched against the git identity (`user.email`).
  public var email: String?
  /// Days the attendee is away (not expected at meetings or in written stand-ups).
  public var away: [Absence] = []
  /// Other names the person had (in an imported tool, before a rename): every view folds them
  /// into this attendee.
  public var aka: [String] = []
  /// The person's Matrix user id (`@nia:example.org`): `dinger collect` writes their replies
  /// in the team's room as their entries.
  public var matrix: String?
  /// Keys the schema does not know, kept as written.
  public var unknown = UnknownFields()

  /// Creates an attendee.
  public init(
    name: String, zone: String? = nil, email: String? = nil, away: [Absence] = [],
    aka: [String] = []
  ) {
    self.name = name
    self.zone = zone
    self.email = email
    self.away = away
    self.aka = aka
  }

  public init(from decoder: any Decoder) throws {
    if let single = try? decoder.singleValueContainer(), let name = try? single.decode(String.self)
    {
      self.name = name
      return
    }
    var r = try FieldReader(decoder, known: ["name", "zone", "email", "away", "aka", "matrix"])
    name = r.required("name") ?? ""
    zone = r.optional("zone")
    email = r.optional("email")
    away = r.list("away")
    aka = r.list("aka")
    matrix = r.optional("matrix")
    unknown = r.unknown()
    try r.finish(self)
  }

  public func encode(to encoder: any Encoder) throws {
    if unknown.isEmpty && zone == nil && email == nil && away.isEmpty && aka.isEmpty
      && matrix == nil
    {
      var c = encoder.singleValueContainer()
      try c.encode(name)
      return
    }
    var w = FieldWriter(encoder)
    try w.write("name", name)
    try w.write("zone", zone)
    try w.write("email", email)
    try w.writeNonEmpty("away", away)
    try w.writeNonEmpty("aka", aka)
    try w.write("matrix", matrix)
    try w.write(unknown)
  }

  /// A Matrix user id as the schema says it: `@`, a localpart, `:`, a server name.
  public static let matrixPattern = "^@[^:\\s]+:[^\\s]+$"

  /// True for `@name:server` (no space, at most 255 characters, as Matrix bounds a user id).
  public static func isMatrixID(_ id: String) -> Bool {
    guard id.hasPrefix("@"), id.utf8.count <= 255, let colon = id.firstIndex(of: ":") else {
      return false
    }
    let local = id[id.index(after: id.startIndex)..<colon]
    let server = id[id.index(after: colon)...]
    return !local.isEmpty && !server.isEmpty
      && !id.unicodeScalars.contains { $0.properties.isWhitespace || $0.value < 0x20 }
  }

  /// The key two attendees are the same person by: trimmed, case-insensitive.
  public var naturalKey: String {
    name.trimmed.lowercased()
  }

  /// The keys of every name the person goes by: theirs and their `aka`.
  public var keys: [String] { [naturalKey] + aka.map { $0.trimmed.lowercased() } }

  /// Names must be non-empty and unique.
  static func validate(_ attendees: [Attendee], at path: [PathComponent]) -> [ValidationIssue] {
    var issues: [ValidationIssue] = []
    var seen: [String: Int] = [:]
    for (i, attendee) in attendees.enumerated() {
      let key = attendee.naturalKey
      if key.isEmpty {
        issues.append(.init(at: path + [.index(i)], "attendee \(i + 1) has an empty name"))
      } else if attendee.name.unicodeScalars.count > Attendee.maxName {
        issues.append(
          .init(
            at: path + [.index(i)],
            "attendee \(i + 1)'s name is \(attendee.name.unicodeScalars.count) characters long; a name is at most \(Attendee.maxName)"
          ))
      } else if let problem = OneLineText.problem(attendee.name, field: "name") {
        issues.append(.init(.warning, at: path + [.index(i)], problem))
      } else if let first = seen[key] {
        issues.append(
          .init(
            at: path + [.index(i)],
            "attendee '\(attendee.name)' is listed twice (also item \(first + 1)); remove one"))
      } else {
        seen[key] = i
      }
      for (k, absence) in attendee.away.enumerated() {
        issues += absence.validate(at: path + [.index(i), .key("away"), .index(k)])
      }
      if let id = attendee.matrix, !Attendee.isMatrixID(id) {
        issues.append(
          .init(
            at: path + [.index(i), .key("matrix")],
            "'\(OneLineText.excerpt(id))' is not a Matrix user id; write it as @name:server (e.g. @nia:example.org)"
          ))
      }
    }
    // Another name is one person's: not empty, not a name or another name of someone else.
    var names: [String: Int] = [:]
    for (i, attendee) in attendees.enumerated() {
      names[attendee.naturalKey] = names[attendee.naturalKey] ?? i
    }
    var others: [String: Int] = [:]
    for (i, attendee) in attendees.enumerated() {
      for (k, other) in attendee.aka.enumerated() {
        let key = other.trimmed.lowercased()
        let at = path + [.index(i), .key("aka"), .index(k)]
        if key.isEmpty || other.unicodeScalars.count > Attendee.maxName {
          issues.append(
            .init(at: at, "attendee '\(attendee.name)' has an empty or over-long other name (aka)"))
        } else if let j = names[key], j != i {
          issues.append(
            .init(
              at: at,
              "'\(other)' is another name of '\(attendee.name)' and the name of attendee \(j + 1); one person per name: remove one"
            ))
        } else if let j = others[key], j != i {
          issues.append(
            .init(
              at: at,
              "'\(other)' is another name of two attendees ('\(attendees[j].name)' too); one person per name"
            ))
        } else {
          others[key] = i
        }
      }
    }
    return issues
  }
}
