import Foundation
import Models
import Providers
import Storage
import Testing

/// A dependency a test did not expect its code to reach. Reaching it records a test failure
/// (not only a thrown error a provider might swallow) and throws this.
struct Unimplemented: Error, CustomStringConvertible {
  var name: String
  var description: String { "\(name) is unimplemented in this test" }

  /// Records the failure where the call came from, and returns the error to throw.
  static func reached(_ name: String) -> Unimplemented {
    Issue.record("reached \(name), which this test does not expect")
    return Unimplemented(name: name)
  }
}

// Each provider's dependencies with every verb failing, as isowords' `.unimplemented`: a test
// starts from this value and sets only the verbs its code may use, so a change that makes a
// read commit, or an undo read the log, fails the test that did not expect it.

extension ScrumProvider.Dependencies {
  static var unimplemented: Self {
    var dependencies = Self(
      load: { _ in throw Unimplemented.reached("ScrumProvider.load") },
      paths: { _ in throw Unimplemented.reached("ScrumProvider.paths") },
      read: { _, _ in throw Unimplemented.reached("ScrumProvider.read") },
      pathsIn: { _ in throw Unimplemented.reached("ScrumProvider.pathsIn") },
      commit: { _ in throw Unimplemented.reached("ScrumProvider.commit") })
    dependencies.listings = {
      Issue.record("reached ScrumProvider.listings, which this test does not expect")
      return nil
    }
    dependencies.folders = { _ in throw Unimplemented.reached("ScrumProvider.folders") }
    return dependencies
  }
}

extension LogProvider.Dependencies {
  static var unimplemented: Self {
    Self(entries: { _, _ in throw Unimplemented.reached("LogProvider.entries") })
  }
}

extension UndoProvider.Dependencies {
  static var unimplemented: Self {
    Self(
      undo: { throw Unimplemented.reached("UndoProvider.undo") },
      redo: { throw Unimplemented.reached("UndoProvider.redo") })
  }
}

extension CheckProvider.Dependencies {
  static var unimplemented: Self {
    Self(check: { _ in throw Unimplemented.reached("CheckProvider.check") })
  }
}

/// What each provider's verbs reach, held with the unimplemented values: reads never commit,
/// and each value fails a test that reaches it.
@Suite struct UnimplementedDependencyTests {
  static let files = [
    "scrums/design.yaml":
      "id: 0f6d1a52-4c0e-4b8e-9a57-2d1f3c8b7e01\ntitle: Design\nlength: 10\nattendees: [Ada]\n",
    "history/design/2026-11-20-3f2c0a1b.yaml":
      "id: 3f2c0a1b-0000-4000-8000-000000000000\nscrum: 0f6d1a52-4c0e-4b8e-9a57-2d1f3c8b7e01\ndate: 2026-11-20T09:00:00Z\nlength: 10\nduration: 70\nattendees: [Ada]\n",
    "libraries/spanish.yaml":
      "name: Spanish\nlanguage: es\nwords:\n  - text: hola\n    meanings:\n      - definition: hello\n",
  ]

  /// A provider whose reads are the backend's and whose commit is unimplemented.
  func readOnly(_ backend: Backend) throws -> (ScrumProvider.Dependencies, World) {
    let (provider, world) = try backend.world(Self.files)
    var dependencies = provider.dependencies
    dependencies.commit = ScrumProvider.Dependencies.unimplemented.commit
    return (dependencies, world)
  }

  @Test(arguments: Backend.allCases) func readsNeverCommit(_ backend: Backend) throws {
    let (dependencies, world) = try readOnly(backend)
    defer { withExtendedLifetime(world) {} }
    let scrums = ScrumProvider(dependencies)
    let design = try scrums.find("design")
    #expect(design.scrum.title == "Design")
    #expect(try scrums.list().scrums.map(\.slug) == ["design"])
    let meetings = MeetingProvider(dependencies)
    #expect(
      try meetings.history(of: design).map(\.path) == [
        "history/design/2026-11-20-3f2c0a1b.yaml"
      ])
    let libraries = LibraryProvider(dependencies)
    #expect(try libraries.words(language: "es").map(\.word.text) == ["hola"])
    #expect(world.changes.isEmpty)
  }

  /// Finding a scrum by name never lists the meetings (a lookup reads scrums only).
  @Test(arguments: Backend.allCases) func findingAScrumReadsNoMeetingFolder(_ backend: Backend)
    throws
  {
    let (provider, world) = try backend.world(Self.files)
    defer { withExtendedLifetime(world) {} }
    var dependencies = ScrumProvider.Dependencies.unimplemented
    dependencies.load = provider.dependencies.load
    dependencies.paths = provider.dependencies.paths
    dependencies.read = provider.dependencies.read
    #expect(try ScrumProvider(dependencies).find("Design").slug == "design")
  }

  @Test func eachUnimplementedValueFailsTheTestThatReachesIt() {
    withKnownIssue("every verb of an unimplemented value records an issue") {
      #expect(throws: Unimplemented.self) {
        try ScrumProvider(.unimplemented).find("design")
      }
      #expect(throws: Unimplemented.self) { try LogProvider(.unimplemented).log() }
      #expect(throws: Unimplemented.self) { try UndoProvider(.unimplemented).undo() }
      #expect(throws: Unimplemented.self) { try CheckProvider(.unimplemented).check() }
    }
  }
}
