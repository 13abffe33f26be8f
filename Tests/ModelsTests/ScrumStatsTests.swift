import Foundation
import Models
import Testing

/// `ScrumStats.compute` on meetings whose figures are worked out by hand: medians, over-plan
/// counts, shares, the bounds on every list, unknown durations, weeks with missed stand-ups and
/// attendance with absences.
@Suite struct ScrumStatsTests {
  let scrumID = UUID()
  /// 2026-11-02, a Monday, 09:00 UTC.
  let monday = Date(timeIntervalSince1970: 1_793_610_000)

  func day(_ n: Int) -> Date { monday.addingTimeInterval(Double(n) * 86_400) }

  func scrum(_ attendees: [Attendee] = [Attendee(name: "Ada"), Attendee(name: "Grace")]) -> Scrum {
    Scrum(id: scrumID, title: "Design", length: 10, attendees: attendees)
  }

  func meeting(_ n: Int, seconds: Int?, speakers: [(String, Int)] = [], attendees: [String] = [])
    -> Meeting
  {
    Meeting(
      scrum: scrumID, date: day(n), length: seconds == nil ? nil : 10, duration: seconds,
      attendees: attendees, speakers: speakers.map { SpeakerTime(name: $0.0, seconds: $0.1) })
  }

  @Test func mediansOverPlanAndSharesByHand() {
    // Durations 9, 12 and 15 minutes, given out of order; one imported meeting of unknown length.
    let meetings = [
      meeting(2, seconds: 900, speakers: [("Ada", 600), ("Grace", 300)]),
      meeting(0, seconds: 540, speakers: [("Ada", 540)]),
      meeting(1, seconds: 720, speakers: [("Grace", 720)]),
      meeting(3, seconds: nil, attendees: ["Ada"]),
    ]
    let stats = ScrumStats.compute(
      scrum: scrum(), slug: "design", schedule: nil, meetings: meetings, missed: nil)
    #expect(stats.meetings == 4)
    #expect(stats.lastDate == day(3))
    #expect(stats.medianMinutes == 12)
    #expect(stats.overPlan == 2 && stats.recent == 3)
    #expect(stats.unknownDurations == 1)
    #expect(stats.durations.map(\.seconds) == [540, 720, 900])
    // Ada 1,140 s of 2,160 s (0.5278), Grace 1,020 s (0.4722); each spoke in two meetings.
    #expect(stats.speakers.map(\.name) == ["Ada", "Grace"])
    #expect(stats.speakers.map(\.seconds) == [1_140, 1_020])
    #expect(stats.speakers.map(\.share) == [0.5278, 0.4722])
    #expect(stats.speakers.map(\.meetings) == [2, 2])
    #expect(stats.otherSpeakers == 0 && stats.otherSeconds == 0)
  }

  @Test func everyListIsBounded() {
    let people = (0..<40).map { "P\($0)" }
    let meetings = (0..<200).map { n in
      meeting(n, seconds: 600, speakers: people.enumerated().map { ($1, $0 + 1) })
    }
    let stats = ScrumStats.compute(
      scrum: scrum(), slug: "design", schedule: nil, meetings: meetings, missed: nil)
    #expect(stats.durations.count == ScrumStats.durationLimit)
    #expect(stats.durations.first?.date == day(200 - ScrumStats.durationLimit))
    #expect(stats.speakers.count == ScrumStats.speakerLimit)
    #expect(stats.speakers.first?.name == "P39")
    #expect(stats.otherSpeakers == 40 - ScrumStats.speakerLimit)
    // The others spoke 1...32 s in each of 200 meetings.
    #expect(stats.otherSeconds == (1...32).reduce(0, +) * 200)
    #expect(stats.attendance.dates.count == ScrumStats.attendanceMeetings)
    #expect(stats.attendance.people.count == ScrumStats.attendancePeople)
    #expect(stats.attendance.otherPeople == 42 - ScrumStats.attendancePeople)
    #expect(stats.speakingTrend.allSatisfy { $0.seconds.count <= 5 })
  }

  @Test func weeksCountMeetingsAndMissedStandUps() {
    let meetings = [meeting(0, seconds: 600), meeting(2, seconds: 600), meeting(14, seconds: 600)]
    let stats = ScrumStats.compute(
      scrum: scrum(), slug: "design", schedule: "weekdays 09:00 UTC", meetings: meetings,
      missed: [day(1), day(7), day(8)])
    #expect(stats.weeks.map(\.week) == ["2026-11-02", "2026-11-09", "2026-11-16"])
    #expect(stats.weeks.map(\.meetings) == [2, 0, 1])
    #expect(stats.weeks.map(\.missed) == [1, 2, 0])
    let unscheduled = ScrumStats.compute(
      scrum: scrum(), slug: "design", schedule: nil, meetings: meetings, missed: nil)
    #expect(unscheduled.weeks.allSatisfy { $0.missed == nil })
  }

  @Test func aDayAwayIsNoAbsence() throws {
    let away = Attendee(
      name: "Grace",
      away: [Absence(from: "2026-11-03", until: "2026-11-03")])
    let meetings = [
      meeting(0, seconds: 600, attendees: ["Ada", "Grace"]),
      meeting(1, seconds: 600, attendees: ["Ada"]),
      meeting(2, seconds: 600, attendees: ["Ada"]),
    ]
    let stats = ScrumStats.compute(
      scrum: scrum([Attendee(name: "Ada"), away]), slug: "design", schedule: nil,
      meetings: meetings, missed: nil)
    let grace = try #require(stats.attendance.people.first { $0.name == "Grace" })
    #expect(grace.present == [true, false, false])
    #expect(grace.away == [false, true, false])
    #expect(grace.attended == 1 && grace.expected == 2)
  }

  /// A meeting that names nobody (SyncUps kept no attendees) is attendance unknown: left out of
  /// the attendance table, not everyone absent.
  @Test func aMeetingThatNamesNobodyIsAttendanceUnknown() throws {
    let meetings = [
      meeting(0, seconds: 600, attendees: ["Ada", "Grace"]),
      meeting(1, seconds: 600, attendees: []),
      meeting(2, seconds: 600, attendees: ["Ada", "Grace"]),
    ]
    let stats = ScrumStats.compute(
      scrum: scrum([Attendee(name: "Ada"), Attendee(name: "Grace")]), slug: "design",
      schedule: nil, meetings: meetings, missed: nil)
    #expect(stats.attendance.dates.count == 2)
    #expect(stats.attendance.people.allSatisfy { $0.present == [true, true] && $0.expected == 2 })
    #expect(stats.meetings == 3, "the meeting still counts as held")
  }
}
