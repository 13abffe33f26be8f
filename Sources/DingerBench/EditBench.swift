import Foundation

/// Editing one field of a scrum with 100,000 attendees against `dinger check` of that file:
/// in-place edits and the subject's diff must stay linear in the list's length.
enum EditBench {
  static let attendees = 100_000

  static func run(dinger: String) throws {
    print("Edits: one scrum with \(attendees) attendees")
    let work = FileManager.default.temporaryDirectory.appendingPathComponent(
      "dinger-bench-edit-\(UUID().uuidString.prefix(8))")
    defer { try? FileManager.default.removeItem(at: work) }
    try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    try Shell.run("/usr/bin/git", ["init", "-q", "-b", "main", work.path])
    try Shell.run("/usr/bin/git", ["config", "user.name", "Bench"], in: work)
    try Shell.run("/usr/bin/git", ["config", "user.email", "bench@example.com"], in: work)
    try Shell.run(dinger, ["init"], in: work)
    var text = "title: Huge\nlength: 10\nattendees:\n"
    for i in 0..<attendees { text += "  - Person \(i)\n" }
    try text.write(
      to: work.appendingPathComponent("scrums/huge.yaml"), atomically: true, encoding: .utf8)
    try Shell.run("/usr/bin/git", ["add", "-A"], in: work)
    try Shell.run("/usr/bin/git", ["commit", "-qm", "huge"], in: work)
    try Shell.run(dinger, ["scrum", "edit", "huge", "--length", "11"], in: work)  // gives it an id
    var length = 11
    let times = Measure.interleaved(
      rounds: 5,
      [
        { _ = try? Shell.run(dinger, ["check", "scrums/huge.yaml"], in: work) },
        {
          length = length == 11 ? 12 : 11
          _ = try? Shell.run(dinger, ["scrum", "edit", "huge", "--length", "\(length)"], in: work)
        },
      ])
    print(String(format: "  dinger check scrums/huge.yaml               %8.1f ms", times[0] * 1000))
    print(String(format: "  dinger scrum edit huge --length N           %8.1f ms", times[1] * 1000))
    Measure.ratio("edit one field / check", times[1] / times[0], target: 3)
    print("")
  }
}
