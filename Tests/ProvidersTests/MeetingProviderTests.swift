import Foundation
import Models
import Testing

@testable import Providers

/// Meeting history, on both backends: it reads only the files that can be in the answer.
@Suite struct MeetingProviderTests {
  final class Reads: @unchecked Sendable {
    let lock = NSLock()
    var paths: [String] = []
  }

  func files() -> [String: String] {
    var files: [String: String] = [:]
    for (slug, id) in [
      ("a", "0f6d1a52-4c0e-4b8e-9a57-2d1f3c8b7e01"), ("b", "0f6d1a52-4c0e-4b8e-9a57-2d1f3c8b7e02"),
    ] {
      files["scrums/\(slug).yaml"] =
        "id: \(id)\ntitle: \(slug.uppercased())\nlength: 10\nattendees: [Ada]\n"
      for day in 1...9 {
        files["history/\(slug)/2026-11-0\(day)-0000000\(day).yaml"] =
          "id: 00000000-0000-4000-8000-00000000000\(day)\nscrum: \(id)\ndate: 2026-11-0\(day)T09:00:00Z\nlength: 10\nduration: 600\nattendees: [Ada]\n"
      }
    }
    return files
  }

  @Test(arguments: Backend.allCases) func historyReadsOnlyItsScrumsFolderAndDays(
    _ backend: Backend
  ) throws {
    let reads = Reads()
    let (provider, world) = try backend.world(files())
    defer { withExtendedLifetime(world) {} }
    var dependencies = provider.dependencies
    let read = dependencies.read
    dependencies.read = { kind, paths in
      reads.lock.withLock { reads.paths += paths }
      return try read(kind, paths)
    }
    let scrums = ScrumProvider(dependencies)
    let meetings = MeetingProvider(dependencies)
    let a = try scrums.find("a")
    let since = Date(timeIntervalSince1970: 1_793_664_000)  // 2026-11-03T00:00:00Z
    let found = try meetings.history(
      of: a, since: since, until: since.addingTimeInterval(3 * 86_400 - 1))
    #expect(
      found.map(\.path) == [
        "history/a/2026-11-05-00000005.yaml", "history/a/2026-11-04-00000004.yaml",
        "history/a/2026-11-03-00000003.yaml",
      ])
    #expect(reads.paths.sorted() == found.map(\.path).sorted(), "\(reads.paths)")
    // Without a scrum or range, everything.
    #expect(try meetings.history().count == 18)
  }

  /// A meeting is found by an id prefix, or by its file name with or without `.yaml` and folders.
  @Test(arguments: Backend.allCases) func aMeetingIsFoundByTheNamesHistoryPrints(
    _ backend: Backend
  ) throws {
    let (provider, world) = try backend.world(files())
    defer { withExtendedLifetime(world) {} }
    let meetings = MeetingProvider(provider.dependencies)
    for query in [
      "history/a/2026-11-04-00000004.yaml", "a/2026-11-04-00000004",
      "HISTORY/A/2026-11-04-00000004",
    ] {
      #expect(try meetings.find(query).path == "history/a/2026-11-04-00000004.yaml", "\(query)")
    }
    // The bare name is in both scrums' folders here: ambiguous, and said so.
    #expect(throws: (any Error).self) { try meetings.find("2026-11-04-00000004.yaml") }
  }
}
