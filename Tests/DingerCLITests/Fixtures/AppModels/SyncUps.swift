// Point-Free's SyncUps: its model types as the app declares them, with `Tagged` ids and
// `IdentifiedArrayOf` written here as those libraries encode (a bare value; a plain array whose
// decoding refuses a repeated id). `Duration` is the standard library's own.
import Foundation

struct Tagged<Tag, RawValue: Codable & Hashable>: Codable, Hashable {
  var rawValue: RawValue
  init(_ rawValue: RawValue) { self.rawValue = rawValue }
  init(from decoder: Decoder) throws { rawValue = try RawValue(from: decoder) }
  func encode(to encoder: Encoder) throws { try rawValue.encode(to: encoder) }
}

struct IdentifiedArrayOf<Element: Identifiable & Codable>: Codable, ExpressibleByArrayLiteral
where Element.ID: Hashable {
  var elements: [Element]
  init(arrayLiteral elements: Element...) { self.elements = elements }
  init(_ elements: [Element]) { self.elements = elements }
  init(from decoder: Decoder) throws {
    let elements = try [Element](from: decoder)
    var seen = Set<Element.ID>()
    for e in elements where !seen.insert(e.id).inserted {
      throw DecodingError.dataCorrupted(
        .init(codingPath: decoder.codingPath, debugDescription: "Duplicate element at offset"))
    }
    self.elements = elements
  }
  func encode(to encoder: Encoder) throws { try elements.encode(to: encoder) }
}

enum SyncUps {
  struct SyncUp: Identifiable, Codable {
    let id: Tagged<Self, UUID>
    var attendees: IdentifiedArrayOf<Attendee> = []
    var duration: Duration = .seconds(60 * 5)
    var meetings: IdentifiedArrayOf<Meeting> = []
    var theme: Theme = .bubblegum
    var title = ""
  }

  struct Attendee: Identifiable, Codable {
    let id: Tagged<Self, UUID>
    var name = ""
  }

  struct Meeting: Identifiable, Codable {
    let id: Tagged<Self, UUID>
    let date: Date
    var transcript: String
  }

  enum Theme: String, CaseIterable, Identifiable, Codable {
    case bubblegum, buttercup, indigo, lavender, magenta, navy, orange, oxblood, periwinkle, poppy
    case purple, seafoam, sky, tan, teal, yellow
    var id: Self { self }
  }

  /// The revision of pointfreeco/syncups that spells six themes with an `app` prefix.
  enum PrefixedTheme: String, Codable {
    case bubblegum, buttercup, appIndigo, lavender, appMagenta, navy, appOrange, oxblood
    case periwinkle, poppy, appPurple, seafoam, sky, tan, appTeal, appYellow
  }

  struct PrefixedSyncUp: Identifiable, Codable {
    let id: Tagged<Self, UUID>
    var attendees: IdentifiedArrayOf<Attendee> = []
    var duration: Duration = .seconds(60 * 5)
    var meetings: IdentifiedArrayOf<Meeting> = []
    var theme: PrefixedTheme = .bubblegum
    var title = ""
  }
}
