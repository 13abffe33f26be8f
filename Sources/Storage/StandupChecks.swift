import Base
import FoundationEssentials
import Models

/// What `check` says of a written stand-up entry against its scrum: who wrote it, which
/// questions it answers, where it is filed, and the blockers it resolves.
enum StandupChecks {
  /// A test's fixed now (DINGER_TEST_NOW, its day), which stands for the clock as in the CLI;
  /// read once (the environment is copied on every read, and `check` judges every entry).
  static let testToday: CivilDate? =
    ProcessInfo.processInfo.environment["DINGER_TEST_NOW"].flatMap {
      CivilDate(String($0.prefix(10)))
    }

  /// An entry against its scrum (nil: the scrum is missing, which the cross-file pass says).
  static func judge(
    _ entry: StandupEntry, in file: DecodedFile, scrum: Scrum?, now: Int64 = FileStamp.now()
  ) -> [Diagnostic] {
    var found: [Diagnostic] = []
    // NB: never in the future of its writer's clock: the latest day anywhere on earth is the
    // day after today's in UTC (UTC+14 at most); and not before 1970.
    if let day = CivilDate(entry.date) {
      let today = Self.testToday ?? CivilDate(dayNumber: Int(now / 1_000_000_000 / 86_400))
      if day > today.adding(days: 1) {
        found.append(
          file.diagnostic(
            .error, at: [.key("date")],
            "this entry is dated \(entry.date), in the future of every clock on earth (today is \(today) in UTC); an entry is its writer's day, never a later one"
          ))
      } else if day < CivilDate(dayNumber: 0) {
        found.append(
          file.diagnostic(
            .error, at: [.key("date")],
            "this entry is dated \(entry.date), before 1970; give it the day it was written"))
      }
    }
    // NB: filed as <date>-<writer's slug>.yaml: the name says whose day it is.
    let name = String(file.path.split(separator: "/").last ?? "").dropLast(".yaml".count)
    let expected = StandupFiles.fileStem(date: entry.date, by: entry.by)
    if CivilDate(entry.date) != nil, !entry.by.trimmed.isEmpty, name != expected {
      found.append(
        file.diagnostic(
          .warning, at: [.key("date")],
          "this entry is \(entry.by)'s for \(entry.date), which dinger files as \(expected).yaml; rename the file (git mv) so that each person's day has one file"
        ))
    }
    // NB: as GitHub warns of hidden Unicode: a teammate's entry still reads (every view shows
    // the character as <U+202E>); dinger's own writes refuse it.
    for answer in entry.answers {
      if let problem = OneLineText.hiddenProblem(answer.text, field: answer.key) {
        found.append(file.diagnostic(.warning, at: [.key(answer.key)], problem))
      }
    }
    for (i, blocker) in entry.blockers.enumerated() {
      if let problem = OneLineText.hiddenProblem(blocker.text, field: "blocker") {
        found.append(file.diagnostic(.warning, at: [.key("blockers"), .index(i)], problem))
      }
    }
    guard let scrum else { return found }
    if scrum.attendee(named: entry.by) == nil {
      let names = scrum.attendees.map(\.name)
      let hint = Suggestions.hint(for: entry.by, in: names)
      found.append(
        file.diagnostic(
          .warning, at: [.key("by")],
          "'\(OneLineText.excerpt(entry.by))' is not an attendee of \(scrum.title)\(hint); entries are written by attendees (add them with dinger scrum attendee add)"
        ))
    }
    for (key, message) in StandupSettings.problems(of: entry, in: scrum) {
      found.append(file.diagnostic(.warning, at: [.key(key)], message))
    }
    return found
  }

  /// Resolutions of blocker ids that no entry of the scrum opened.
  static func resolutions(
    _ files: [(DecodedFile, StandupEntry)], _ byScrum: [UUID: [StandupEntry]]
  ) -> [Diagnostic] {
    var unknown: [String: Set<String>] = [:]  // "scrum|date|by" -> ids
    for (scrum, entries) in byScrum {
      _ = Blockers.follow(entries) { entry, resolution in
        unknown["\(scrum)|\(entry.date)|\(entry.by)", default: []].insert(resolution.id)
      }
    }
    guard !unknown.isEmpty else { return [] }
    var found: [Diagnostic] = []
    for (file, entry) in files {
      guard let ids = unknown["\(entry.scrum)|\(entry.date)|\(entry.by)"] else { continue }
      for (i, r) in entry.resolved.enumerated() where ids.contains(r.id) {
        found.append(
          file.diagnostic(
            .warning, at: [.key("resolved"), .index(i)],
            "no entry of this scrum opened the blocker \(r.id); 'dinger blockers' lists the open ones with their ids"
          ))
      }
    }
    return found
  }
}

/// Where stand-up entries are filed.
public enum StandupFiles {
  /// `2026-11-27-ada-lovelace`: the day, then the writer's name as a file name.
  public static func fileStem(date: String, by: String) -> String {
    date + "-" + slug(by)
  }

  /// `standups/<scrum-slug>/<date>-<person>.yaml`.
  public static func path(scrumSlug: String, date: String, by: String) -> String {
    "standups/\(scrumSlug)/\(fileStem(date: date, by: by)).yaml"
  }

  /// A name as a file name: lowercase letters and digits joined by `-` (other scripts kept as
  /// they are, since a name may be written in any).
  public static func slug(_ name: String) -> String {
    var out = ""
    var dash = false
    for scalar in name.trimmed.lowercased().unicodeScalars {
      if scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
        if dash && !out.isEmpty { out += "-" }
        out.unicodeScalars.append(scalar)
        dash = false
      } else {
        dash = true
      }
    }
    return out.isEmpty ? "someone" : String(out.prefix(80)).nfc
  }
}
