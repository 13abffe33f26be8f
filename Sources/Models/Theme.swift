/// The 16 Scrumdinger themes. A scrum's colour in `scrum list` and the meeting screen.
public enum Theme: String, CaseIterable, Sendable, Codable, Hashable {
  case bubblegum, buttercup, indigo, lavender, magenta, navy, orange, oxblood
  case periwinkle, poppy, purple, seafoam, sky, tan, teal, yellow

  /// The main colour, sRGB components from 0 to 1.
  public var rgb: (red: Double, green: Double, blue: Double) {
    switch self {
    case .bubblegum: return (0.933, 0.502, 0.820)
    case .buttercup: return (1, 0.945, 0.588)
    case .indigo: return (0.212, 0, 0.443)
    case .lavender: return (0.812, 0.808, 1)
    case .magenta: return (0.647, 0.075, 0.467)
    case .navy: return (0, 0.078, 0.255)
    case .orange: return (1, 0.545, 0.259)
    case .oxblood: return (0.290, 0.027, 0.043)
    case .periwinkle: return (0.525, 0.510, 1)
    case .poppy: return (1, 0.369, 0.369)
    case .purple: return (0.569, 0.294, 0.949)
    case .seafoam: return (0.796, 0.918, 0.898)
    case .sky: return (0.431, 0.573, 1)
    case .tan: return (0.761, 0.608, 0.494)
    case .teal: return (0.133, 0.561, 0.620)
    case .yellow: return (1, 0.875, 0.302)
    }
  }

  /// True when text on this colour is white; black otherwise.
  public var hasLightText: Bool {
    switch self {
    case .indigo, .magenta, .navy, .oxblood, .purple: return true
    default: return false
    }
  }

  /// The theme SyncUps gives a new scrum when nothing else is asked for.
  public static let `default` = Theme.bubblegum

  /// The error for a name that is not a theme: suggests the closest and lists them all.
  public static func unknownMessage(_ name: String) -> String {
    let all = Theme.allCases.map(\.rawValue)
    return "unknown theme '\(name)'\(Suggestions.hint(for: name, in: all)); themes are "
      + all.joined(separator: ", ")
  }

  /// The six names one revision of SyncUps spells with an `app` prefix (`appTeal`). A scrum file
  /// may keep that spelling (an import from that app does), so that an export gives it back.
  public static let appSpellings: Set<String> = [
    "appIndigo", "appMagenta", "appOrange", "appPurple", "appTeal", "appYellow",
  ]

  /// The theme a name means: one of the 16, or one of the `app` spellings; nil otherwise.
  public init?(spelling name: String) {
    if let t = Theme(rawValue: name) {
      self = t
    } else if Self.appSpellings.contains(name),
      let t = Theme(rawValue: name.dropFirst(3).lowercased())
    {
      self = t
    } else {
      return nil
    }
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let name = try container.decode(String.self)
    guard let theme = Theme(spelling: name) else {
      throw DecodingError.dataCorruptedError(
        in: container, debugDescription: Self.unknownMessage(name))
    }
    self = theme
  }
}
