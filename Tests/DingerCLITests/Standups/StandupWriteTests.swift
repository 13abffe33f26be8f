import Foundation
import TestSupport
import Testing

/// Writing today's entry finds it by its file name, wherever it is filed: at its own path, or
/// in a folder of another name (a teammate's `git mv` of the scrum file left it there), or under
/// a name of its own for that day; it is updated there, never written twice.
@Suite struct StandupWriteTests {
  @Test func todaysEntryIsUpdatedWhereItIsFiled() throws {
    let box = try Sandbox()
    box.extraEnvironment["DINGER_TEST_NOW"] = "2026-11-24T10:00:00Z"
    expectOK(try box.dinger("init"))
    expectOK(try box.dinger("scrum", "new", "Design", "--attendee", "Ada", "--attendee", "Bo"))
    expectOK(try box.dinger("standup", "design", "--as", "Ada", "--today", "one"))
    // Misfiled in a folder of another name, by hand.
    try FileManager.default.createDirectory(
      at: box.data.appendingPathComponent("standups/old"), withIntermediateDirectories: true)
    try box.git("mv", "standups/design/2026-11-24-ada.yaml", "standups/old/2026-11-24-ada.yaml")
    try box.git("commit", "-qm", "moved by hand")
    expectOK(try box.dinger("standup", "design", "--as", "Ada", "--today", "two"))
    #expect(try box.read("standups/old/2026-11-24-ada.yaml").contains("today: two"))
    #expect(
      !FileManager.default.fileExists(
        atPath: box.data.appendingPathComponent("standups/design/2026-11-24-ada.yaml").path))
    // Under a name of its own for that day.
    try box.git("mv", "standups/old/2026-11-24-ada.yaml", "standups/design/2026-11-24-a-l.yaml")
    try box.git("commit", "-qm", "renamed by hand")
    expectOK(try box.dinger("standup", "design", "--as", "Ada", "--today", "three"))
    #expect(try box.read("standups/design/2026-11-24-a-l.yaml").contains("today: three"))
    let files = try box.git("ls-files", "standups").split(separator: "\n")
    #expect(files == ["standups/design/2026-11-24-a-l.yaml"], "\(files)")
    // Another day is a new file at its own path.
    expectOK(
      try box.dinger(
        ["standup", "design", "--as", "Bo", "--today", "x"],
        env: ["DINGER_TEST_NOW": "2026-11-25T10:00:00Z"]))
    #expect(try box.read("standups/design/2026-11-25-bo.yaml").contains("today: x"))
  }
}
