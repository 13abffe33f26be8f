import Components
import Foundation
import Models
import Testing

/// Small things a week of real use found.
@Suite struct SmallTruthsTests {
  @Test(arguments: [40, 36, 30])
  func theEndPromptKeepsEveryChoiceOnANarrowTerminal(width: Int) {
    var timer = MeetingTimer(attendees: ["Ada", "Grace"], minutes: 1)
    timer.requestEnd()
    let lines = MeetingScreen(
      timer: timer, title: "Design", theme: .sky, width: width, height: 12, color: false
    ).lines()
    #expect(lines.contains { $0.contains("r resume") && $0.contains("d discard") }, "\(lines)")
    #expect(lines.allSatisfy { $0.count <= width })
  }

  @Test func theMutedHintIsForSilenceFromTheStartNotForAPause() {
    #expect(
      MeetingScreen.listeningLine(.level(0, heard: false)).contains("is the microphone muted?"))
    #expect(!MeetingScreen.listeningLine(.level(0, heard: true)).contains("muted"))
    #expect(!MeetingScreen.listeningLine(.level(60, heard: false)).contains("muted"))
  }

  @Test func aMeetingUnderAMinuteShowsItsSeconds() {
    let meeting = Meeting(
      scrum: UUID(), date: Date(timeIntervalSince1970: 1_700_000_000), length: 10, duration: 4,
      attendees: ["Ada"], speakers: [], transcript: nil)
    let text = HistoryView(rows: [(meeting, "Design", "abcd1234")]).render()
    #expect(text.contains("4 s of 10 min"), "\(text)")
    #expect(!text.contains("0 of 10 min"))
  }
}
