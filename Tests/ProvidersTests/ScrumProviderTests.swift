import Foundation
import Models
import Providers
import Storage
import Testing

/// ScrumProvider's rules, each test run twice: against the in-memory store and against a real
/// git repository (`.live`), as git-bug runs one suite against every backend.
@Suite struct ScrumProviderTests {
  static let files = [
    "scrums/design.yaml":
      "id: 0f6d1a52-4c0e-4b8e-9a57-2d1f3c8b7e01\ntitle: Design\ntheme: yellow\nlength: 10\nattendees: [Ada, Grace]\n",
    "scrums/broken.yaml": "title: [\n",
    "history/design/2026-11-20-aaaaaaaa.yaml":
      "scrum: 0f6d1a52-4c0e-4b8e-9a57-2d1f3c8b7e01\ndate: 2026-11-20\nlength: 10\nduration: 600\nattendees: [Ada]\n",
  ]

  @Test(arguments: Backend.allCases) func listKeepsGoodScrumsAndReportsBrokenFiles(
    _ backend: Backend
  ) throws {
    let (provider, world) = try backend.world(Self.files)
    defer { withExtendedLifetime(world) {} }
    let (scrums, problems) = try provider.list()
    #expect(scrums.map(\.slug) == ["design"])
    #expect(problems.map(\.file) == ["scrums/broken.yaml"])
  }

  @Test(arguments: Backend.allCases, ["design", "DESIGN", "0f6d1a52", "0f6d"])
  func findBySlugTitleOrIdPrefix(_ backend: Backend, query: String) throws {
    let (provider, world) = try backend.world(Self.files)
    defer { withExtendedLifetime(world) {} }
    #expect(try provider.find(query).slug == "design")
  }

  @Test(arguments: Backend.allCases) func findSuggestsAndExplainsBrokenFiles(_ backend: Backend)
    throws
  {
    let (provider, world) = try backend.world(Self.files)
    defer { withExtendedLifetime(world) {} }
    #expect(
      throws: StorageError("no scrum 'desgn'; did you mean 'Design'?", kind: .notFound("desgn"))
    ) {
      try provider.find("desgn")
    }
    #expect(throws: StorageError.self) { try provider.find("broken") }
    #expect(unreadablePath { try provider.find("broken") } == "scrums/broken.yaml")
  }

  /// A name never falls through to another scrum when the file it names does not read: the slug
  /// (any case), a title or id the broken text still shows, each refuse, naming the file.
  @Test(arguments: Backend.allCases) func aNameNeverFallsThroughToAnotherScrum(_ backend: Backend)
    throws
  {
    let (provider, world) = try backend.world([
      "scrums/platform.yaml":
        "id: 7d2e0000-0000-4000-8000-000000000001\ntitle: Platform\nlength: 10\n  attendees: [Ada]\n",
      "scrums/platform-ops.yaml": "title: Platform\nlength: 15\nattendees: [Ada]\n",
      "scrums/infra.yaml":
        "id: 7d2e0000-0000-4000-8000-000000000002\ntitle: Infra\nlength: 10\nattendees: [Ada]\nlength: 3\n",
      "scrums/web.yaml": "title: Web\nlength: 10\nattendees: [Ada]\n",
    ])
    defer { withExtendedLifetime(world) {} }
    #expect(unreadablePath { try provider.find("platform") } == "scrums/platform.yaml")
    #expect(unreadablePath { try provider.find("PLATFORM") } == "scrums/platform.yaml")
    // The YAML of infra.yaml parses (a duplicate key is the record's error): its title and id
    // still point at it.
    #expect(unreadablePath { try provider.find("infra") } == "scrums/infra.yaml")
    #expect(unreadablePath { try provider.find("Infra") } == "scrums/infra.yaml")
    #expect(unreadablePath { try provider.find("7d2e0000-0000-4000-8000-0000000000") } != nil)
    // A readable slug still wins, and other names are untouched.
    #expect(try provider.find("platform-ops").slug == "platform-ops")
    #expect(try provider.find("web").slug == "web")
  }

  /// The path of the unreadable file `body`'s error names, nil for any other outcome.
  func unreadablePath(_ body: () throws -> StoredScrum) -> String? {
    do {
      _ = try body()
      return nil
    } catch let error as StorageError {
      guard case .unreadable(let path) = error.kind else { return nil }
      #expect(error.message.contains("\(path):"), "\(error.message)")
      #expect(error.message.contains("can't be read"), "\(error.message)")
      return path
    } catch { return nil }
  }

  @Test(arguments: Backend.allCases) func addPicksAnUnusedThemeAndAFreeFileName(_ backend: Backend)
    throws
  {
    let (provider, store) = try backend.world(Self.files)
    // A title that makes a taken file name ("design") gets the next free one.
    let result = try provider.add(
      Scrum(title: "Design!", length: 5, attendees: [Attendee(name: "Bob")]))
    #expect(result.stored.path == "scrums/design-2.yaml")
    #expect(result.stored.scrum.theme == .bubblegum)
    #expect(result.subject == "Add scrum Design!")
    #expect(store.text("scrums/design-2.yaml")?.contains("theme: bubblegum\n") == true)
    let change = try #require(store.changes.last)
    #expect(change.trailerKeys == ["Dinger-Action", "Dinger-Record"])
  }

  @Test(arguments: Backend.allCases) func updateDescribesTheChangeAndNothingMeansNoCommit(
    _ backend: Backend
  ) throws {
    let (provider, store) = try backend.world(Self.files)
    let stored = try provider.find("design")
    #expect(
      try provider.update(stored) { new in
        new.length = 15
        new.attendees.append(Attendee(name: "Bob"))
      }.subject == "Design: length 10 -> 15 min; add attendee Bob")
    let unchanged = try provider.update(try provider.find("design")) { $0.length = 15 }
    #expect(unchanged.commit == nil)
    #expect(store.changes.count == 1)
  }

  /// An update is an operation on the scrum as it is when the change is made, not a copy read
  /// earlier: a change made in between (by another process) stays, and the subject tells only
  /// what this change did.
  @Test(arguments: Backend.allCases) func anUpdateAppliesToTheScrumAsItIsNotAsItWasRead(
    _ backend: Backend
  ) throws {
    let (provider, world) = try backend.world(Self.files)
    defer { withExtendedLifetime(world) {} }
    let stale = try provider.find("design")
    _ = try provider.update(try provider.find("design")) {
      $0.attendees.append(Attendee(name: "Ann"))
    }
    let result = try provider.update(stale) { $0.length = 25 }
    #expect(result.subject == "Design: length 10 -> 25 min")
    let now = try provider.find("design").scrum
    #expect(now.length == 25)
    #expect(now.attendees.map(\.name).contains("Ann"))
  }

  /// A second scrum with one title (in any case) is refused before anything is written: the
  /// two could not be told apart by name afterwards.
  @Test(arguments: Backend.allCases) func sameTitleTwiceIsRefused(_ backend: Backend) throws {
    let (provider, store) = try backend.world(Self.files)
    let a = try provider.add(Scrum(title: "Retro", length: 5, attendees: [Attendee(name: "A")]))
    #expect(a.stored.path == "scrums/retro.yaml")
    let before = store.changes.count
    #expect(throws: StorageError.self) {
      try provider.add(Scrum(title: " retro", length: 5, attendees: [Attendee(name: "B")]))
    }
    #expect(store.changes.count == before)
  }

  /// A name no scrum answers to is an error callers can tell apart by its kind.
  @Test(arguments: Backend.allCases) func notFoundIsAKindNotAPhrase(_ backend: Backend) throws {
    let (provider, world) = try backend.world(Self.files)
    defer { withExtendedLifetime(world) {} }
    do {
      _ = try provider.find("nosuch")
      Issue.record("found a scrum that does not exist")
    } catch let error as StorageError {
      #expect(error.kind == .notFound("nosuch"))
    } catch {
      Issue.record("\(error)")
    }
  }

  @Test(arguments: Backend.allCases) func invalidScrumsAreRefusedBeforeAnythingIsWritten(
    _ backend: Backend
  ) throws {
    let (provider, store) = try backend.world(Self.files)
    #expect(throws: StorageError("'length' must be from 1 to 600 minutes, found 0")) {
      try provider.add(Scrum(title: "X", length: 0, attendees: [Attendee(name: "A")]))
    }
    #expect(store.changes.isEmpty)
  }

  @Test(arguments: Backend.allCases) func removeRefusesWhileMeetingsExistThenTakesThemAlong(
    _ backend: Backend
  ) throws {
    let (provider, store) = try backend.world(Self.files)
    let stored = try provider.find("design")
    #expect(
      throws: StorageError(
        "scrum 'Design' has 1 recorded meeting; pass --with-history to remove them too")
    ) {
      try provider.remove(stored, withHistory: false)
    }
    let result = try provider.remove(stored, withHistory: true)
    #expect(result.subject == "Remove scrum Design and its 1 meeting")
    #expect(store.paths == ["scrums/broken.yaml"])
    #expect(
      try store.undo()
        == "Undo \"Remove scrum Design and its 1 meeting\"")
    #expect(store.paths.count == 3)
  }

  @Test(arguments: Backend.allCases) func handWrittenTextIsKeptAndGetsAnId(_ backend: Backend)
    throws
  {
    let (provider, store) = try backend.world(Self.files)
    let text = "# our retro\ntitle: Retro   # every other Friday\nlength: 30\nattendees:\n  - Ada\n"
    guard case .success(let result) = try provider.add(text: text) else {
      Issue.record("the text did not decode")
      return
    }
    let written = try #require(store.text(result.stored.path))
    #expect(written.hasPrefix("# our retro\nid: "))
    #expect(
      written.hasSuffix("title: Retro   # every other Friday\nlength: 30\nattendees:\n  - Ada\n"))
    guard case .failure(let errors) = try provider.add(text: "title:\nlength: 5\nattendees: [A]\n")
    else {
      Issue.record("an empty title was accepted")
      return
    }
    #expect(errors.items.map(\.message) == ["'title' must not be empty"])
  }

  @Test(arguments: [
    ("Design Review", "design-review"), ("Café Crème!", "cafe-creme"), ("  --  ", ""),
    ("日本語", "日本語"), ("App Dev 2", "app-dev-2"), ("周会", "周会"), ("站会 (Q3)", "站会-q3"),
    ("Cafe\u{301}", "cafe"), ("\u{1112}\u{1161}\u{11AB}\u{1100}\u{116E}\u{11A8} 회의", "한국-회의"),
    ("ガイド・レビュー", "ガイド-レビュー"), ("Straße", "straße"), ("Ωμέγα Team", "ωμέγα-team"),
    ("🎉🎉", ""), ("\u{202E}evil\u{200B}", "evil"),
  ])
  func slugs(title: String, slug: String) {
    #expect(Slug.make(title) == slug)
    #expect(slug.isEmpty || Slug.isValid(slug))
  }

  @Test func slugsOfLongTitlesFitAFileName() {
    let slug = Slug.make(String(repeating: "长", count: 200))
    #expect(slug.utf8.count <= 180 && Slug.isValid(slug))
    #expect(!Slug.isValid("Cafe") && !Slug.isValid("e\u{301}") && !Slug.isValid("-x"))
    #expect(!Slug.isValid("a b") && !Slug.isValid("a/b") && !Slug.isValid(""))
  }

  @Test func diffsReadLikeAChangelog() {
    let old = Scrum(
      title: "A", theme: .yellow, length: 10,
      attendees: [Attendee(name: "Ada"), Attendee(name: "Bob")])
    var new = old
    new.title = "B"
    new.theme = .sky
    new.attendees = [Attendee(name: "bob"), Attendee(name: "Ada")]
    #expect(
      ScrumDiff.describe(from: old, to: new) == [
        "rename to B", "theme yellow -> sky", "reorder attendees",
      ])
  }
}
