import ArgumentParser
import Providers

/// `--at --days --every --zone --from --until --skip --unskip --move --no-schedule`: a scrum's
/// schedule on the command line (`scrum new` and `scrum edit`).
struct ScheduleOptions: ParsableArguments {
  @Option(help: "Time of day it starts, HH:MM (24-hour), in --zone.")
  var at: String?

  @Option(help: "Days: weekdays, daily, mon-thu, \"mon,wed,fri\" (default weekdays).")
  var days: String?

  @Option(help: "Every N weeks: 2w, \"2 weeks\" (counted from --from, else today).")
  var every: String?

  @Option(help: "IANA time zone (default: yours), e.g. Europe/Berlin.")
  var zone: String?

  @Option(help: "First day, YYYY-MM-DD.")
  var from: String?

  @Option(help: "Last day, YYYY-MM-DD ('none' to remove).")
  var until: String?

  @Option(help: "A day off, YYYY-MM-DD; repeat for more.")
  var skip: [String] = []

  @Option(help: "Meet again on a skipped day, YYYY-MM-DD; repeat for more.")
  var unskip: [String] = []

  @Option(help: "One occurrence at another time: DATE=HH:MM (the usual time moves it back).")
  var move: [String] = []

  @Flag(help: "Remove the schedule.")
  var noSchedule = false

  /// The options as a change the provider applies.
  var change: ScheduleChange {
    ScheduleChange(
      at: at, days: days, every: every, zone: zone, from: from, until: until, skip: skip,
      unskip: unskip, move: move, noSchedule: noSchedule)
  }

  /// True when any schedule option was given.
  var given: Bool { change.given }
}
