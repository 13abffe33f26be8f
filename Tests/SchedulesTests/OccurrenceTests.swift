import Models
import Testing

@testable import Schedules

@Suite struct OccurrenceTests {
  func plan(_ s: Schedule) throws -> Schedule.Plan { try #require(s.plan) }

  func days(_ p: Schedule.Plan, _ from: String, _ to: String, zone: String = "UTC") throws
    -> [String]
  {
    let rules = try #require(ZoneDatabase.system.rules(zone))
    let range = rules.startOfDay(CivilDate(from)!)..<rules.startOfDay(CivilDate(to)!)
    return p.occurrences(in: range, rules: rules, minutes: 15).map(\.date.description)
  }

  @Test func everyOtherWeekCountsFromTheWeekOfFrom() throws {
    // From a Friday: that week has no Tuesday left, so the first is two weeks on.
    let p = try plan(
      Schedule(at: "10:00", days: .text("tue"), every: "2 weeks", zone: "UTC", from: "2026-12-04"))
    #expect(try days(p, "2026-12-01", "2027-01-20") == ["2026-12-15", "2026-12-29", "2027-01-12"])
    #expect(p.firstScheduled(onOrAfter: CivilDate("2026-12-04")!)?.description == "2026-12-15")
  }

  @Test func untilSkipAndMove() throws {
    let p = try plan(
      Schedule(
        at: "09:30", days: .list(["mon", "wed-thu"]), zone: "Europe/Berlin", until: "2026-12-17",
        skip: ["2026-12-09"], moved: [.init(date: "2026-12-10", at: "23:45")]))
    #expect(p.days == [.monday, .wednesday, .thursday])
    let all = try days(p, "2026-12-07", "2027-01-01", zone: "Europe/Berlin")
    #expect(all == ["2026-12-07", "2026-12-10", "2026-12-14", "2026-12-16", "2026-12-17"])
    let rules = try #require(ZoneDatabase.system.rules("Europe/Berlin"))
    let moved = p.occurrence(on: CivilDate("2026-12-10")!, rules: rules, minutes: 15)
    #expect(moved.moved && rules.wallClock(at: moved.start).time.description == "23:45")
    #expect(moved.end - moved.start == 900)
  }

  @Test func readsTheWaysPeopleWriteDays() {
    func parsed(_ s: String) -> [Weekday]? {
      if case .days(let d) = Schedule.parseDays([s]) { return d }
      return nil
    }
    #expect(parsed("weekdays") == [.monday, .tuesday, .wednesday, .thursday, .friday])
    #expect(parsed("Mon, Wed,fri") == [.monday, .wednesday, .friday])
    #expect(parsed("fri-mon") == [.monday, .friday, .saturday, .sunday])
    #expect(parsed("every day")?.count == 7)
    #expect(parsed("tuesday thursday") == [.tuesday, .thursday])
    #expect(parsed("mo") == nil && parsed("") == nil && parsed("mon-") == nil)
    #expect(Schedule.parseEvery("2w") == 2 && Schedule.parseEvery("3 weeks") == 3)
    #expect(Schedule.parseEvery(nil) == 1 && Schedule.parseEvery("fortnight") == 2)
    for bad in ["0", "53 weeks", "2 days", "-1", "w", "1e2"] {
      #expect(Schedule.parseEvery(bad) == nil, "\(bad)")
    }
    #expect(LocalTime("9:05")?.description == "09:05")
    for bad in ["24:00", "9.30", "930", "09:60", "+9:30", "09:3", ""] {
      #expect(LocalTime(bad) == nil, "\(bad)")
    }
    #expect(
      CivilDate("2028-02-29") != nil && CivilDate("2027-02-29") == nil
        && CivilDate("2026-1-01") == nil)
  }

  @Test func civilDatesRoundTripOverCenturies() {
    for n in stride(from: -800_000, to: 2_900_000, by: 997) {
      let d = CivilDate(dayNumber: n)
      let (y, m, day) = d.parts
      guard (1...9999).contains(y) else { continue }
      #expect(CivilDate(year: y, month: m, day: day) == d)
      #expect(CivilDate(d.description) == d)
    }
    #expect(CivilDate("1970-01-01")!.weekday == .thursday)
    #expect(CivilDate("2026-11-24")!.weekday == .tuesday)
    #expect(CivilDate("2026-11-29")!.monday.description == "2026-11-23")
  }

  @Test func subjectsSayWhatChanged() {
    var old = Scrum(title: "Design", length: 10, attendees: [Attendee(name: "Ada")])
    var new = old
    new.schedule = Schedule(at: "09:30", days: .text("weekdays"), zone: "Europe/Berlin")
    #expect(ScrumDiff.describe(from: old, to: new) == ["schedule weekdays 09:30 Europe/Berlin"])
    old = new
    new.schedule?.skip = ["2026-12-24"]
    new.schedule?.moved = [.init(date: "2027-01-07", at: "11:00")]
    #expect(
      ScrumDiff.describe(from: old, to: new) == ["skip 2026-12-24", "move 2027-01-07 to 11:00"])
    old = new
    new.schedule?.until = "2027-06-30"
    new.schedule?.moved = []
    #expect(
      ScrumDiff.describe(from: old, to: new) == [
        "schedule weekdays 09:30 Europe/Berlin until 2027-06-30", "move 2027-01-07 back to 09:30",
      ])
    old = new
    new.schedule = nil
    #expect(ScrumDiff.describe(from: old, to: new) == ["remove schedule"])
  }
}
