import Foundation
import TestSupport
import Testing

/// `--standup-days`: a weekly meeting's team writes every weekday, set from the command line
/// (`scrum new` and `scrum edit`), not by a hand edit.
@Suite struct StandupDaysTests {
  @Test func aWeeklyMeetingWithDailyWrittenStandups() throws {
    let box = try Sandbox()
    box.extraEnvironment["DINGER_TEST_NOW"] = "2026-11-25T12:00:00Z"  // a Wednesday
    expectOK(try box.dinger("init"))
    expectOK(
      try box.dinger(
        "scrum", "new", "Weekly", "--attendee", "Ada", "--at", "10:00", "--days", "mon", "--zone",
        "UTC"))
    #expect(try box.dinger("standup", "show", "weekly").stdout.contains("No entry is expected"))
    expectOK(try box.dinger("scrum", "edit", "weekly", "--standup-days", "mon-fri"))
    let file = try box.read("scrums/weekly.yaml")
    #expect(file.contains("standup:\n  days:\n    - mon\n"), "\(file)")
    #expect(try box.dinger("standup", "show", "weekly").stdout.contains("Not written yet: Ada"))
    expectOK(try box.dinger("check"))
    // A new scrum takes it too; a word that is no day is refused with nothing written.
    expectOK(
      try box.dinger("scrum", "new", "Ops", "--attendee", "Bo", "--standup-days", "mon,wed,fri"))
    #expect(try box.read("scrums/ops.yaml").contains("- wed\n"))
    let head = try box.head()
    let bad = try box.dinger("scrum", "edit", "weekly", "--standup-days", "someday")
    #expect(bad.status == 1 && bad.stderr.contains("'someday' is not a day"), "\(bad.stderr)")
    #expect(try box.head() == head)
    // `default` goes back to the meeting's days.
    expectOK(try box.dinger("scrum", "edit", "weekly", "--standup-days", "default"))
    #expect(!(try box.read("scrums/weekly.yaml").contains("standup:")))
  }
}
