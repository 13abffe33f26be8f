import Foundation
import TestSupport
import Testing

/// `init`, `scrum ...` and `undo` end to end: the built binary against real git repositories,
/// with plain git checking what dinger wrote.
@Suite struct ScrumCommandTests {
  func initialized() throws -> Sandbox {
    let box = try Sandbox()
    let result = try box.dinger("init")
    #expect(result.status == 0, "\(result.stderr)")
    return box
  }

  /// After every write: clean status, clean fsck, and the subject and trailers in the commit.
  func expectCommitted(
    _ box: Sandbox, subject: String, action: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let (status, fsck) = try box.gitAgrees()
    #expect(status == "", "git status is not clean", sourceLocation: sourceLocation)
    #expect(fsck == "", sourceLocation: sourceLocation)
    let message = try box.git("log", "-1", "--format=%B")
    #expect(message.hasPrefix(subject + "\n"), "\(message)", sourceLocation: sourceLocation)
    #expect(
      message.contains("\nDinger-Action: \(action)\n"), "\(message)", sourceLocation: sourceLocation
    )
  }

  @Test func initMakesARepositoryWithOneCommit() throws {
    let box = try initialized()
    try expectCommitted(box, subject: "Set up dinger data repository", action: "init")
    #expect(
      try box.git("ls-files", ":!.dinger/schemas")
        == ".dinger/config.yaml\n.gitattributes\nREADME.md\n")
    #expect(
      try box.git("ls-files", ".dinger/schemas")
        == [
          "config", "conflict", "library", "meeting", "quiz", "scrum", "standup",
        ].map { ".dinger/schemas/\($0).schema.json\n" }.joined())
    #expect(try box.git("log", "-1", "--format=%an <%ae>") == "Ada Lovelace <ada@example.com>\n")
    let again = try box.dinger("init")
    #expect(again.status == 1)
    #expect(again.stderr.contains("already a dinger data repository"))
  }

  @Test func addListShowEditRemoveUndo() throws {
    let box = try initialized()
    var r = try box.dinger(
      "scrum", "new", "Design Review", "--theme", "yellow", "--length", "10", "--attendee", "Ada",
      "--attendee", "Grace")
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout == "Add scrum Design Review (scrums/design-review.yaml)\n")
    try expectCommitted(box, subject: "Add scrum Design Review", action: "scrum.add")
    let text = try box.read("scrums/design-review.yaml")
    #expect(
      text.hasPrefix("# yaml-language-server: $schema=../.dinger/schemas/scrum.schema.json\nid: "))
    #expect(
      text.hasSuffix(
        "title: Design Review\ntheme: yellow\nlength: 10\nattendees:\n  - Ada\n  - Grace\n"))

    r = try box.dinger("scrum", "new", "App Dev", "--attendee", "Katie")
    #expect(try box.read("scrums/app-dev.yaml").contains("theme: bubblegum\nlength: 5\n"))

    r = try box.dinger("scrum", "list")
    #expect(
      r.stdout
        == "App Dev        bubblegum  5 min    1 attendee    app-dev\nDesign Review  yellow     10 min   2 attendees   design-review\n"
    )

    r = try box.dinger("scrum", "list", "--json")
    let list =
      (try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])?["scrums"]
      as? [[String: Any]]
    #expect(list?.map { $0["slug"] as? String } == ["app-dev", "design-review"])

    r = try box.dinger("scrum", "show", "design review")
    #expect(r.stdout.contains("  length     10 min\n"))

    r = try box.dinger("scrum", "edit", "design-review", "--length", "15", "--theme", "sky")
    #expect(r.stdout == "Design Review: theme yellow -> sky; length 10 -> 15 min\n")
    try expectCommitted(
      box, subject: "Design Review: theme yellow -> sky; length 10 -> 15 min", action: "scrum.edit")

    r = try box.dinger("scrum", "attendee", "add", "design-review", "Bob")
    #expect(r.stdout == "Design Review: add attendee Bob\n")
    try expectCommitted(box, subject: "Design Review: add attendee Bob", action: "scrum.edit")
    r = try box.dinger("scrum", "attendee", "rm", "design-review", "ada")
    #expect(r.stdout == "Design Review: remove attendee Ada\n")

    r = try box.dinger("scrum", "rm", "app-dev")
    #expect(r.stdout == "Remove scrum App Dev\n")
    try expectCommitted(box, subject: "Remove scrum App Dev", action: "scrum.remove")
    #expect(
      !FileManager.default.fileExists(
        atPath: box.data.appendingPathComponent("scrums/app-dev.yaml").path))

    r = try box.dinger("undo")
    #expect(r.stdout == "Undo \"Remove scrum App Dev\"\n")
    try expectCommitted(box, subject: "Undo \"Remove scrum App Dev\"", action: "undo")
    #expect(try box.read("scrums/app-dev.yaml").contains("title: App Dev"))
    // A second undo steps further back; redo walks forward again.
    r = try box.dinger("undo")
    #expect(r.stdout == "Undo \"Design Review: remove attendee Ada\"\n")
    #expect(try box.read("scrums/design-review.yaml").contains("  - Ada\n"))
    r = try box.dinger("redo")
    #expect(r.stdout == "Redo \"Design Review: remove attendee Ada\"\n")
    try expectCommitted(box, subject: "Redo \"Design Review: remove attendee Ada\"", action: "redo")
    #expect(try !box.read("scrums/design-review.yaml").contains("  - Ada\n"))
    r = try box.dinger("redo")
    #expect(r.stdout == "Redo \"Remove scrum App Dev\"\n")
    r = try box.dinger("redo")
    #expect(r.status == 1)
    #expect(r.stderr.contains("nothing to redo"), "\(r.stderr)")
    #expect(try box.git("rev-list", "--count", "HEAD") == "11\n")
  }

  @Test func handWrittenFilesCommittedByPlainGitAreRead() throws {
    let box = try Sandbox()
    try FileManager.default.createDirectory(at: box.data, withIntermediateDirectories: true)
    try box.git("init", "-q", "-b", "main")
    try box.write(".dinger/config.yaml", "format: 1\n")
    try box.write(
      "scrums/design.yaml",
      "# Bob is on leave until March\ntitle: Design\nlength: 10\nattendees:\n  - Ada\n  - Bob\n")
    try box.git("add", "-A")
    try box.git("commit", "-qm", "hand-written")
    var r = try box.dinger("scrum", "list")
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout == "Design  bubblegum  10 min   2 attendees   design\n")
    r = try box.dinger("scrum", "show", "DESIGN", "--json")
    #expect(r.stdout.contains("\"id\"") == false)
    r = try box.dinger("scrum", "edit", "design", "--length", "15")
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout == "Design: length 10 -> 15 min\n")
    #expect(r.stderr == "")
    let text = try box.read("scrums/design.yaml")
    #expect(text.hasPrefix("# Bob is on leave until March\nid: "))
    #expect(text.hasSuffix("title: Design\nlength: 15\nattendees:\n  - Ada\n  - Bob\n"))
    #expect(try box.gitAgrees().status == "")
  }

  /// Issue 7's end-to-end check: a one-value change is a one-line diff, an added attendee one
  /// added line, on a hand-written, commented file.
  @Test func handEditedFilesChangeByOneLine() throws {
    let box = try initialized()
    let id = "0f6d1a52-4c0e-4b8e-9a57-2d1f3c8b7e01"
    try box.write(
      "scrums/design.yaml",
      "# Design review, every Tuesday\nid: \(id)\ntitle: 'Design Review'   # renamed in May\ntheme: yellow\n\nlength: 10  # minutes\nattendees:\n  - Ada\n  # Bob is on leave until March\n  - Bob\n"
    )
    try box.git("add", "-A")
    try box.git("commit", "-qm", "hand-written")
    var r = try box.dinger("scrum", "edit", "design", "--length", "15")
    #expect(r.status == 0, "\(r.stderr)")
    #expect(try box.git("diff", "--numstat", "HEAD~1", "HEAD") == "1\t1\tscrums/design.yaml\n")
    #expect(
      try box.git("diff", "-U0", "HEAD~1", "HEAD").contains(
        "-length: 10  # minutes\n+length: 15  # minutes\n"))
    r = try box.dinger("scrum", "attendee", "add", "design", "Grace")
    #expect(r.status == 0, "\(r.stderr)")
    #expect(try box.git("diff", "--numstat", "HEAD~1", "HEAD") == "1\t0\tscrums/design.yaml\n")
    r = try box.dinger("scrum", "attendee", "rm", "design", "Bob")
    #expect(try box.git("diff", "--numstat", "HEAD~1", "HEAD") == "0\t2\tscrums/design.yaml\n")
    #expect(try box.read("scrums/design.yaml").contains("# Design review, every Tuesday\n"))
    #expect(try box.gitAgrees().status == "")
  }

  @Test func editorEditsAreCommittedByteForByte() throws {
    let box = try initialized()
    try box.dinger("scrum", "new", "Design", "--attendee", "Ada")
    let editor = box.home.url.appendingPathComponent("editor.sh")
    try "#!/bin/sh\nsed -i 's/length: 5/length: 25 # longer now/' \"$1\"\n".write(
      to: editor, atomically: true, encoding: .utf8)
    chmod(editor.path, 0o755)
    let r = try box.dinger(["scrum", "edit", "design"], env: ["EDITOR": "sh " + editor.path])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout == "Design: length 5 -> 25 min\n")
    #expect(try box.read("scrums/design.yaml").contains("length: 25 # longer now\n"))
    #expect(try box.gitAgrees().status == "")
  }

  @Test func editorErrorsChangeNothing() throws {
    let box = try initialized()
    try box.dinger("scrum", "new", "Design", "--attendee", "Ada")
    let head = try box.head()
    let editor = box.home.url.appendingPathComponent("editor.sh")
    try "#!/bin/sh\nsed -i 's/length: 5/length: ten/' \"$1\"\n".write(
      to: editor, atomically: true, encoding: .utf8)
    chmod(editor.path, 0o755)
    let r = try box.dinger(["scrum", "edit", "design"], env: ["EDITOR": "sh " + editor.path])
    #expect(r.status == 1)
    #expect(r.stderr.contains("'length' must be a whole number, found \"ten\""))
    #expect(try box.head() == head)
    #expect(try box.read("scrums/design.yaml").contains("length: 5\n"))
  }

  @Test func badInputChangesNothing() throws {
    let box = try initialized()
    try box.dinger("scrum", "new", "Design", "--attendee", "Ada")
    let head = try box.head()
    let cases: [([String], Int32, String)] = [
      (["scrum", "show", "desgin"], 1, "error: no scrum 'desgin'; did you mean 'Design'?\n"),
      (
        ["scrum", "edit", "design", "--length", "0"], 64,
        "--length must be from 1 to 600 minutes, found 0"
      ),
      (
        ["scrum", "new", "X", "--theme", "pink", "--attendee", "A"], 64,
        "Please provide one of the following:\n  - bubblegum"
      ),
      (
        ["scrum", "attendee", "add", "design", "ADA"], 1,
        "error: 'Ada' is already an attendee of Design\n"
      ),
      (
        ["scrum", "attendee", "rm", "design", "Ada"], 1,
        "error: a scrum needs at least one attendee"
      ),
      (
        ["scrum", "attendee", "rm", "design", "Adda"], 1,
        "error: 'Adda' is not an attendee of Design (did you mean 'Ada'?)\n"
      ),
      (["--repo", "/nonexistent/x", "scrum", "list"], 1, "error: '/nonexistent/x' does not exist"),
      (
        ["--repo", box.home.url.path, "scrum", "list"], 1,
        "is not a dinger data repository (it has no .dinger/ folder); run 'dinger init"
      ),
    ]
    for (args, status, message) in cases {
      let r = try box.dinger(args)
      #expect(r.status == status, "\(args): \(r.stderr)")
      #expect(r.stderr.contains(message), "\(args): \(r.stderr)")
    }
    #expect(try box.head() == head)
    #expect(try box.gitAgrees().status == "")
  }

  @Test func missingGitIdentityIsExplained() throws {
    let box = try Sandbox(identity: false)
    let r = try box.dinger("init")
    #expect(r.status == 1)
    #expect(r.stderr.contains("git config --global user.name \"Your Name\""))
  }

  @Test func uncommittedHandEditsAreNeverOverwritten() throws {
    let box = try initialized()
    try box.dinger("scrum", "new", "Design", "--attendee", "Ada")
    let head = try box.head()
    let edited = try box.read("scrums/design.yaml").replacingOccurrences(
      of: "length: 5", with: "length: 7")
    try box.write("scrums/design.yaml", edited)
    let r = try box.dinger("scrum", "attendee", "add", "design", "Bob")
    #expect(r.status == 1)
    #expect(r.stderr.contains("scrums/design.yaml has changes that are not committed"))
    #expect(try box.read("scrums/design.yaml") == edited)
    #expect(try box.head() == head)
  }

  @Test func undoRefusesWhenAFileChangedLater() throws {
    let box = try initialized()
    try box.dinger("scrum", "new", "Design", "--attendee", "Ada")
    try box.write("scrums/design.yaml", try box.read("scrums/design.yaml") + "note: by hand\n")
    try box.git("commit", "-qam", "hand edit")
    let head = try box.head()
    let r = try box.dinger("undo")
    #expect(r.status == 1)
    #expect(
      r.stderr.contains(
        "can't undo 'Add scrum Design': scrums/design.yaml was changed again later in "),
      "\(r.stderr)")
    #expect(r.stderr.contains(" by Ada Lovelace (hand edit)"), "\(r.stderr)")
    #expect(try box.head() == head)
  }

  @Test func removingAScrumWithHistoryNeedsTheFlag() throws {
    let box = try initialized()
    try box.dinger("scrum", "new", "Design", "--attendee", "Ada")
    let id = Sandbox.id(in: try box.read("scrums/design.yaml"))
    try box.write(
      "history/design/2026-11-20-aaaaaaaa.yaml",
      "scrum: \(id)\ndate: 2026-11-20\nlength: 5\nduration: 300\nattendees: [Ada]\n")
    try box.git("add", "-A")
    try box.git("commit", "-qm", "meeting")
    var r = try box.dinger("scrum", "rm", "design")
    #expect(r.status == 1)
    #expect(r.stderr.contains("has 1 recorded meeting; pass --with-history"))
    r = try box.dinger("scrum", "rm", "design", "--with-history")
    #expect(r.stdout == "Remove scrum Design and its 1 meeting\n")
    #expect(try box.git("ls-files", "history", "scrums") == "")
    #expect(try box.gitAgrees().status == "")
  }

  @Test func fourProcessesAddingTwentyFiveScrumsEachLoseNothing() throws {
    let box = try initialized()
    let group = DispatchGroup()
    let failures = NSLock()
    nonisolated(unsafe) var failed: [String] = []
    for p in 0..<4 {
      group.enter()
      DispatchQueue.global().async {
        let script = (0..<25).map { i in
          "\"$DINGER\" scrum new 'P\(p) S\(i)' --attendee A >/dev/null || echo fail \(p) \(i)"
        }.joined(separator: "\n")
        let r = try? ProcessRunner.run(
          "/bin/sh", ["-c", script], in: box.data,
          environment: box.environment.merging(["DINGER": dingerBinary]) { $1 })
        if let out = r?.stdout, !out.isEmpty { failures.withLock { failed.append(out) } }
        group.leave()
      }
    }
    group.wait()
    #expect(failed.isEmpty, "\(failed)")
    #expect(try box.git("ls-files", "scrums").split(separator: "\n").count == 100)
    #expect(try box.git("rev-list", "--count", "HEAD") == "101\n")
    #expect(try box.gitAgrees().status == "")
  }
}

/// Writing a new scrum from the template in $EDITOR.
@Suite struct ScrumTemplateTests {
  @Test func newWithoutATitleUsesTheRepositoryTemplate() throws {
    let box = try Sandbox()
    #expect(try box.dinger("init").status == 0)
    try box.write(
      ".dinger/templates/scrum.yaml",
      "# Team template\ntitle: TITLE\nlength: 15\nattendees:\n  - NAME\n")
    try box.git("add", "-A")
    try box.git("commit", "-qm", "our template")
    let editor = box.home.url.appendingPathComponent("fill.sh")
    try "#!/bin/sh\nsed -i 's/TITLE/Retro  # every other Friday/; s/NAME/Ada/' \"$1\"\n".write(
      to: editor, atomically: true, encoding: .utf8)
    chmod(editor.path, 0o755)
    let r = try box.dinger(["scrum", "new"], env: ["EDITOR": "sh " + editor.path])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout == "Add scrum Retro (scrums/retro.yaml)\n")
    let text = try box.read("scrums/retro.yaml")
    // The template's own comments are instructions, left out; what the person wrote stays.
    #expect(!text.contains("# Team template"), "\(text)")
    #expect(
      text.hasSuffix("title: Retro  # every other Friday\nlength: 15\nattendees:\n  - Ada\n"),
      "\(text)")
    #expect(try box.gitAgrees().status == "")
  }

  /// dinger's own template: filled in, the file keeps the values and the schema line, not the
  /// instructions and hints.
  @Test func theBuiltInTemplatesInstructionsAreLeftOut() throws {
    let box = try Sandbox()
    #expect(try box.dinger("init").status == 0)
    let editor = box.home.url.appendingPathComponent("fill.sh")
    try "#!/bin/sh\nsed -i 's/^title: /title: Design Review /; s/^  - *$/  - Ada/' \"$1\"\n".write(
      to: editor, atomically: true, encoding: .utf8)
    let r = try box.dinger(["scrum", "new"], env: ["EDITOR": "sh " + editor.path])
    #expect(r.status == 0, "\(r.stderr)")
    let text = try box.read("scrums/design-review.yaml")
    #expect(
      text.hasPrefix("# yaml-language-server: $schema=../.dinger/schemas/scrum.schema.json\n"),
      "\(text)")
    #expect(
      !text.contains("Fill it in") && !text.contains("planned minutes")
        && !text.contains("periwinkle"), "\(text)")
    #expect(
      text.contains("title: Design Review\n") && text.contains("length: 5\n")
        && text.contains("  - Ada\n"), "\(text)")
  }

  @Test func anUnfilledTemplateAddsNothing() throws {
    let box = try Sandbox()
    #expect(try box.dinger("init").status == 0)
    let head = try box.head()
    let r = try box.dinger(["scrum", "new"], env: ["EDITOR": "true"])
    #expect(r.status == 1)
    #expect(r.stderr.contains("error: 'title' must not be empty"))
    #expect(r.stderr.contains("error: the new scrum has errors; nothing was added"))
    #expect(try box.head() == head)
  }

  @Test func outsideADataRepositoryCommandsRefuseAndWriteNothing() throws {
    let box = try Sandbox()
    var r = try box.dinger(["scrum", "new", "Design", "--attendee", "Ada"], in: box.home.url)
    #expect(r.status == 1)
    #expect(
      r.stderr.hasPrefix(
        "error: not a dinger data repository (or any of the parent directories): run 'dinger init' to make one, or use --repo PATH / DINGER_REPO"
      ), "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: box.home.path(".local/share/dinger")))
    // In a plain git repository: dinger init there is the way.
    let plain = box.home.url.appendingPathComponent("code")
    try FileManager.default.createDirectory(at: plain, withIntermediateDirectories: true)
    try box.git("init", "-q", in: plain)
    r = try box.dinger(["scrum", "list"], in: plain)
    #expect(r.status == 1)
    #expect(
      r.stderr.contains(
        "the git repository at \(plain.path) is not a dinger data repository (it has no .dinger/): run 'dinger init \(plain.path)'"
      ), "\(r.stderr)")
    #expect(try box.git(["status", "--porcelain"], in: plain) == "")
  }

  @Test func aBrokenSettingsFileIsNamedNotIgnored() throws {
    let box = try Sandbox()
    try box.home.write(".config/dinger/config.yaml", "repository: [unclosed\n")
    let r = try box.dinger(["scrum", "list"], in: box.home.url)
    #expect(r.status == 1)
    #expect(
      r.stderr.contains(
        box.home.path(".config/dinger/config.yaml") + ":2:1: error: the list opened with"),
      "\(r.stderr)")
  }

  @Test func theChosenDefaultRepositoryIsCreatedOnFirstUseWithANotice() throws {
    let box = try Sandbox()
    try box.home.write(".config/dinger/config.yaml", "repository: ~/.local/share/dinger\n")
    let r = try box.dinger(["scrum", "list"], in: box.home.url)
    #expect(r.status == 0, "\(r.stderr)")
    let expected = box.home.url.appendingPathComponent(".local/share/dinger").path
    #expect(
      r.stderr
        == "note: created a data repository at \(expected) (choose another with --repo or DINGER_REPO)\n"
    )
    #expect(FileManager.default.fileExists(atPath: expected + "/.dinger/config.yaml"))
    #expect(try box.dinger(["scrum", "list"], in: box.home.url).stderr == "")
  }

  /// A default that names a folder with things in it (`/etc`, a home folder) or something that
  /// is no folder (`/dev/null`, a file) is refused, saying which and how to mean it; nothing
  /// is made there. An empty folder is fine.
  @Test(arguments: ["busy", "/dev/null", "a-file", "empty"])
  func aDefaultThatIsNoNewFolderIsRefused(chosen: String) throws {
    let box = try Sandbox()
    try box.home.write("busy/notes.txt", "mine\n")
    try box.home.write("a-file", "mine\n")
    try FileManager.default.createDirectory(
      atPath: box.home.path("empty"), withIntermediateDirectories: true)
    let path = chosen.hasPrefix("/") ? chosen : box.home.path(chosen)
    try box.home.write(".config/dinger/config.yaml", "repository: \(path)\n")
    let r = try box.dinger(["scrum", "list"], in: box.home.url)
    switch chosen {
    case "empty":
      #expect(r.status == 0, "\(r.stderr)")
      #expect(FileManager.default.fileExists(atPath: path + "/.dinger/config.yaml"))
    case "busy":
      #expect(r.status == 1)
      #expect(r.stderr.contains("is a folder that is not a dinger data repository"), "\(r.stderr)")
      #expect(r.stderr.contains("run 'dinger init \(path)'"), "\(r.stderr)")
      #expect(try FileManager.default.contentsOfDirectory(atPath: path) == ["notes.txt"])
    default:
      #expect(r.status == 1)
      #expect(
        r.stderr.contains("'repository: \(path)' in ") && r.stderr.contains("is not a folder"),
        "\(r.stderr)")
    }
  }
}

/// `init` of a new folder inside a git repository is refused, not made a nested repository.
@Suite struct InitNestingTests {
  @Test func aNewFolderInsideARepositoryIsRefused() throws {
    let box = try Sandbox()
    #expect(try box.dinger("init").status == 0)
    let r = try box.dinger(["init", box.data.appendingPathComponent("team/sub").path])
    #expect(r.status == 1)
    #expect(r.stderr.contains("is inside the git repository at"), "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: box.data.path + "/team/sub/.git"))
  }
}

/// Without a terminal: no vi on a pipe, and an invalid edit's text is kept.
@Suite struct EditorWithoutTerminalTests {
  @Test func noEditorRunsOnAPipeUnlessChosen() throws {
    let box = try Sandbox()
    #expect(try box.dinger("init").status == 0)
    #expect(try box.dinger("scrum", "new", "Design", "--attendee", "Ada").status == 0)
    let r = try box.dinger(["scrum", "edit", "design"], env: ["EDITOR": "", "VISUAL": ""])
    #expect(r.status == 1)
    #expect(
      r.stderr.contains(
        "an editor needs a terminal, and none is set (EDITOR, VISUAL, core.editor); without one, use 'dinger scrum edit design --title T --theme C --length 15'"
      ), "\(r.stderr)")
  }

  @Test func anInvalidPipedEditIsKept() throws {
    let box = try Sandbox()
    #expect(try box.dinger("init").status == 0)
    #expect(try box.dinger("scrum", "new", "Design", "--attendee", "Ada").status == 0)
    try box.home.write("editor.sh", "sed -i 's/length: 5/length: many/' \"$1\"\n")
    let r = try box.dinger(
      ["scrum", "edit", "design"], env: ["EDITOR": "sh " + box.home.path("editor.sh")])
    #expect(r.status == 1)
    let kept = try #require(
      r.stderr.range(of: "what you wrote is kept in ").map { String(r.stderr[$0.upperBound...]) }?
        .trimmingCharacters(in: .whitespacesAndNewlines))
    #expect(try String(contentsOfFile: kept, encoding: .utf8).contains("length: many"))
    try? FileManager.default.removeItem(atPath: kept)
  }

  /// Prose needs no quoting in the buffer: `: `, a `#` (which YAML would drop as a comment),
  /// a leading `-` or `@` are the answer's own text, on every line where they were typed.
  @Test func proseWithColonsAndHashesIsTakenAsTyped() throws {
    let box = try Sandbox()
    box.extraEnvironment["DINGER_TEST_NOW"] = "2026-11-24T10:00:00Z"
    #expect(try box.dinger("init").status == 0)
    #expect(try box.dinger("scrum", "new", "Design", "--attendee", "Ada").status == 0)
    try box.home.write(
      "answer.txt",
      "yesterday: fix: the login, see #123\ntoday: - the release notes\nblockers:\n  - waiting on: legal #42\n  - @here: the VPN\n"
    )
    try box.home.write("editor.sh", "cat '\(box.home.path("answer.txt"))' > \"$1\"\n")
    let r = try box.dinger(
      ["standup", "design", "--as", "Ada"], env: ["EDITOR": "sh " + box.home.path("editor.sh")])
    #expect(r.status == 0, "\(r.stderr)")
    let json = try box.dinger("standup", "show", "design", "--json").stdout
    for text in [
      "fix: the login, see #123", "- the release notes", "waiting on: legal #42", "@here: the VPN",
    ] {
      #expect(json.contains(text), "\(text): \(json)")
    }
  }

  /// An error found after the editor closed (a question the scrum does not ask, a hidden
  /// character) keeps the typed entry too; it used to end the command with the text gone.
  @Test(arguments: ["risk: the deadline", "today: fix \u{202E}the key"])
  func aStandupRefusedAfterTheEditorKeepsItsText(line: String) throws {
    let box = try Sandbox()
    box.extraEnvironment["DINGER_TEST_NOW"] = "2026-11-24T10:00:00Z"
    #expect(try box.dinger("init").status == 0)
    #expect(try box.dinger("scrum", "new", "Design", "--attendee", "Ada").status == 0)
    try box.home.write("answer.txt", "yesterday: the login page\n\(line)\n")
    try box.home.write("editor.sh", "cat '\(box.home.path("answer.txt"))' > \"$1\"\n")
    let r = try box.dinger(
      ["standup", "design", "--as", "Ada"], env: ["EDITOR": "sh " + box.home.path("editor.sh")])
    #expect(r.status == 1)
    let kept = try #require(
      r.stderr.range(of: "what you wrote is kept in ").map { String(r.stderr[$0.upperBound...]) }?
        .trimmingCharacters(in: .whitespacesAndNewlines), "\(r.stderr)")
    let text = try String(contentsOfFile: kept, encoding: .utf8)
    #expect(text.contains("yesterday: the login page") && text.contains(line), "\(text)")
    try? FileManager.default.removeItem(atPath: kept)
    #expect(try box.git("log", "--oneline").split(separator: "\n").count == 2, "nothing committed")
  }
}

/// `dinger where` says which data repository a command here uses, and why.
@Suite struct WhereTests {
  @Test func whereNamesTheRepositoryAndTheReason() throws {
    let box = try Sandbox()
    #expect(try box.dinger("init").status == 0)
    var r = try box.dinger("where")
    #expect(r.stdout == "\(box.data.path)  (the enclosing data repository)\n", "\(r.stdout)")
    r = try box.dinger(["where", "--path"], in: box.home.url, env: ["DINGER_REPO": box.data.path])
    #expect(r.stdout == box.data.path + "\n")
    r = try box.dinger(["where"], in: box.home.url, env: ["DINGER_REPO": box.data.path])
    #expect(r.stdout.hasSuffix("(from $DINGER_REPO)\n"), "\(r.stdout)")
    r = try box.dinger(["where", "--repo", box.data.path], in: box.home.url)
    #expect(r.stdout.hasSuffix("(from --repo)\n"), "\(r.stdout)")
    r = try box.dinger(["where"], in: box.home.url)
    #expect(r.status == 1 && r.stderr.contains("not a dinger data repository"), "\(r.stderr)")
    try box.home.write(".config/dinger/config.yaml", "repository: \(box.data.path)\n")
    r = try box.dinger(["where"], in: box.home.url)
    #expect(
      r.stdout
        == "\(box.data.path)  (your default one (from your settings): no other was named or found here)\n",
      "\(r.stdout)")
  }
}

/// A rewrite in canonical form (the first `away` turns an attendee's plain name into a mapping,
/// which the layout cannot keep) keeps the file's schema line on top: editors find the schema
/// by it.
@Suite struct SchemaLineTests {
  @Test func theFirstAwayKeepsTheSchemaLine() throws {
    let box = try Sandbox()
    expectOK(try box.dinger("init"))
    expectOK(try box.dinger("scrum", "new", "Design", "--attendee", "Ada", "--attendee", "Bo"))
    let first = try box.read("scrums/design.yaml").split(separator: "\n")[0]
    #expect(first.hasPrefix("# yaml-language-server: $schema="))
    expectOK(try box.dinger("scrum", "attendee", "away", "design", "Ada", "--from", "2026-12-01"))
    let after = try box.read("scrums/design.yaml")
    #expect(after.split(separator: "\n")[0] == first, "\(after)")
    #expect(after.contains("- name: Ada\n    away:"), "\(after)")
    expectOK(try box.dinger("check"))
  }
}
