// Apple's Scrumdinger tutorial (2020-21): plain-string attendees, a colour instead of a theme
// (the app's `extension Color: Codable` writes its sRGB components), a length per meeting.
import Foundation

enum Scrumdinger2020 {
  struct Color: Codable {
    var red: Double
    var green: Double
    var blue: Double
    var alpha: Double
  }

  struct DailyScrum: Identifiable, Codable {
    let id: UUID
    var title: String
    var attendees: [String]
    var lengthInMinutes: Int
    var color: Color
    var history: [History]

    init(
      id: UUID = UUID(), title: String, attendees: [String], lengthInMinutes: Int, color: Color,
      history: [History] = []
    ) {
      self.id = id
      self.title = title
      self.attendees = attendees
      self.lengthInMinutes = lengthInMinutes
      self.color = color
      self.history = history
    }
  }

  struct History: Identifiable, Codable {
    let id: UUID
    let date: Date
    var attendees: [String]
    var lengthInMinutes: Int
    var transcript: String?

    init(
      id: UUID = UUID(), date: Date = Date(), attendees: [String], lengthInMinutes: Int,
      transcript: String? = nil
    ) {
      self.id = id
      self.date = date
      self.attendees = attendees
      self.lengthInMinutes = lengthInMinutes
      self.transcript = transcript
    }
  }
}
