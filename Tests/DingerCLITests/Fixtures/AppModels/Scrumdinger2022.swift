// Apple's Scrumdinger tutorial (2022-24), its model types as the app declares them (SwiftUI's
// parts left out: they do not take part in encoding). Namespaced so that three apps' types can
// live in one test program.
import Foundation

enum Scrumdinger2022 {
  struct DailyScrum: Identifiable, Codable {
    let id: UUID
    var title: String
    var attendees: [Attendee]
    var lengthInMinutes: Int
    var lengthInMinutesAsDouble: Double {
      get { Double(lengthInMinutes) }
      set { lengthInMinutes = Int(newValue) }
    }
    var theme: Theme
    var history: [History] = []

    init(id: UUID = UUID(), title: String, attendees: [String], lengthInMinutes: Int, theme: Theme)
    {
      self.id = id
      self.title = title
      self.attendees = attendees.map { Attendee(name: $0) }
      self.lengthInMinutes = lengthInMinutes
      self.theme = theme
    }

    struct Attendee: Identifiable, Codable {
      let id: UUID
      var name: String

      init(id: UUID = UUID(), name: String) {
        self.id = id
        self.name = name
      }
    }
  }

  struct History: Identifiable, Codable {
    let id: UUID
    let date: Date
    var attendees: [DailyScrum.Attendee]
    var transcript: String?

    init(
      id: UUID = UUID(), date: Date = Date(), attendees: [DailyScrum.Attendee],
      transcript: String? = nil
    ) {
      self.id = id
      self.date = date
      self.attendees = attendees
      self.transcript = transcript
    }
  }

  enum Theme: String, CaseIterable, Identifiable, Codable {
    case bubblegum, buttercup, indigo, lavender, magenta, navy, orange, oxblood, periwinkle, poppy
    case purple, seafoam, sky, tan, teal, yellow
    var name: String { rawValue.capitalized }
    var id: String { name }
  }
}
