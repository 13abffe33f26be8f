import Foundation
import TestSupport
import Testing

/// A teammate's commits are untrusted: links where records, temporary files or folders should
/// be, names that are not UTF-8, a damaged index. Each case pulls such a commit with plain git
/// (as a teammate's push would arrive), runs ordinary dinger commands, and checks that no byte
/// outside the repository changed, what the command said, and that the other records still work.
@Suite struct HostileRepositoryTests {
  /// A data repository with one good scrum, and a decoy folder beside it (outside the repo)
  /// holding files an attacker would like overwritten.
  func setUp() throws -> (Sandbox, decoy: URL) {
    let box = try Sandbox()
    #expect(try box.dinger("init").status == 0)
    #expect(
      try box.dinger("scrum", "new", "Design", "--length", "5", "--attendee", "Ada").status == 0)
    #expect(try box.dinger("scrum", "new", "Other", "--attendee", "Bob").status == 0)
    try box.home.write("decoy/.bashrc", "echo hello\n")
    try box.home.write("decoy/conflicts/keep.txt", "keep\n")
    try box.home.write("decoy/history/keep.txt", "keep\n")
    return (box, box.home.url.appendingPathComponent("decoy"))
  }

  /// Every file under `folder` with a hash of its bytes (links by their target).
  func fingerprint(_ folder: URL) throws -> [String: String] {
    var out: [String: String] = [:]
    let walker = FileManager.default.enumerator(atPath: folder.path)
    while let item = walker?.nextObject() as? String {
      let path = folder.appendingPathComponent(item).path
      if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: path) {
        out[item] = "-> " + target
      } else if let data = FileManager.default.contents(atPath: path) {
        out[item] = data.base64EncodedString()
      } else {
        out[item] = "folder"
      }
    }
    return out
  }

  /// Commits what `plant` does as a teammate would (plain git, links and all).
  func commitAsTeammate(_ box: Sandbox, _ message: String, _ plant: () throws -> Void) throws {
    try plant()
    try box.git("add", "-A")
    try box.git("commit", "-qm", message)
  }

  @Test func aRepositoryLibgit2RefusesStopsWritesWithItsReasonAndNothingElse() throws {
    // libgit2 opens only when a command needs git (reads of the working tree never pay its
    // start-up); a repository it refuses then stops the command with libgit2's reason.
    let (box, _) = try setUp()
    let head = try box.head()
    try box.git("config", "core.repositoryformatversion", "99")
    let list = try box.dinger("scrum", "list")
    #expect(list.status == 0)
    #expect(list.stdout.contains("Design"))
    for args in [["scrum", "new", "Third", "--attendee", "Cy"], ["log"], ["undo"]] {
      let r = try box.dinger(args)
      #expect(r.status == 128, "\(args)")
      #expect(r.stderr.contains("unsupported repository version 99"), "\(args): \(r.stderr)")
    }
    #expect(
      !FileManager.default.fileExists(
        atPath: box.data.appendingPathComponent("scrums/third.yaml").path))
    let config = box.data.appendingPathComponent(".git/config")
    try String(contentsOf: config, encoding: .utf8)
      .replacingOccurrences(of: "repositoryformatversion = 99", with: "repositoryformatversion = 0")
      .write(to: config, atomically: true, encoding: .utf8)
    #expect(try box.head() == head)
    #expect(try box.gitAgrees().status == "")
  }

  @Test func aLinkedTemporaryNameDoesNotRedirectAnEdit() throws {
    let (box, decoy) = try setUp()
    let before = try fingerprint(decoy)
    try commitAsTeammate(box, "plant") {
      for name in ["scrums/.design.yaml.dinger-tmp", "scrums/.design.yaml.x.dinger-tmp"] {
        try FileManager.default.createSymbolicLink(
          atPath: box.data.appendingPathComponent(name).path,
          withDestinationPath: decoy.appendingPathComponent(".bashrc").path)
      }
    }
    let r = try box.dinger("scrum", "edit", "design", "--length", "15")
    #expect(r.status == 0, "\(r.stderr)")
    #expect(try fingerprint(decoy) == before)
    let attributes = try FileManager.default.attributesOfItem(
      atPath: box.data.appendingPathComponent("scrums/design.yaml").path)
    #expect(attributes[.type] as? FileAttributeType == .typeRegular)
    #expect(try box.read("scrums/design.yaml").contains("length: 15\n"))
    #expect(try box.git("status", "--porcelain") == "")
  }

  @Test func aLinkedRecordIsReportedAndNeverWrittenThrough() throws {
    let (box, decoy) = try setUp()
    try commitAsTeammate(box, "plant") {
      let path = box.data.appendingPathComponent("scrums/design.yaml").path
      try FileManager.default.removeItem(atPath: path)
      try box.home.write("decoy/design.yaml", try box.git("show", "HEAD:scrums/design.yaml"))
      try FileManager.default.createSymbolicLink(
        atPath: path, withDestinationPath: decoy.appendingPathComponent("design.yaml").path)
    }
    let before = try fingerprint(decoy)
    let edit = try box.dinger("scrum", "edit", "design", "--length", "15")
    #expect(edit.status == 1)
    #expect(try fingerprint(decoy) == before)
    let check = try box.dinger("check")
    #expect(check.status == 1)
    #expect(
      check.stdout.contains("scrums/design.yaml") || check.stderr.contains("scrums/design.yaml"))
    #expect(
      (check.stdout + check.stderr).contains("symbolic link"), "\(check.stdout)\(check.stderr)")
    // The other scrum still works, in full.
    let other = try box.dinger("scrum", "attendee", "add", "other", "Eve")
    #expect(other.status == 0, "\(other.stderr)")
    let list = try box.dinger("scrum", "list")
    #expect(list.status == 0 && list.stdout.contains("Other"))
    #expect(list.stderr.contains("scrums/design.yaml"), "\(list.stderr)")
    #expect(try fingerprint(decoy) == before)
  }

  @Test func aLinkedFolderIsRefusedWithItsName() throws {
    let (box, decoy) = try setUp()
    try commitAsTeammate(box, "plant") {
      try FileManager.default.createSymbolicLink(
        atPath: box.data.appendingPathComponent("history/design").path,
        withDestinationPath: decoy.appendingPathComponent("history").path)
    }
    let before = try fingerprint(decoy)
    let head = try box.head()
    let r = try box.dinger("meet", "design", "--record", "--duration", "10m")
    #expect(r.status == 1)
    #expect(r.stderr.contains("history/design is a symbolic link"), "\(r.stderr)")
    #expect(try box.head() == head, "nothing is committed")
    #expect(try fingerprint(decoy) == before)
    #expect(try box.dinger("meet", "other", "--record", "--duration", "10m").status == 0)
    #expect(try box.git("status", "--porcelain") == "")
  }

  /// The merge driver writes its conflict record through no link: `.dinger/conflicts` is the
  /// teammates' folder too.
  @Test func theMergeDriverDoesNotFollowALinkedConflictsFolder() throws {
    let (box, decoy) = try setUp()
    try commitAsTeammate(box, "plant") {
      try FileManager.default.createSymbolicLink(
        atPath: box.data.appendingPathComponent(".dinger/conflicts").path,
        withDestinationPath: decoy.appendingPathComponent("conflicts").path)
    }
    let before = try fingerprint(decoy)
    let work = box.home.url.appendingPathComponent("merge")
    try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    let base = "id: 6a4f0c1e-0000-4000-8000-000000000001\ntitle: X\nlength: 5\nattendees: [A]\n"
    try base.write(to: work.appendingPathComponent("o"), atomically: true, encoding: .utf8)
    try base.replacingOccurrences(of: "length: 5", with: "length: 6")
      .write(to: work.appendingPathComponent("a"), atomically: true, encoding: .utf8)
    try base.replacingOccurrences(of: "length: 5", with: "length: 7")
      .write(to: work.appendingPathComponent("b"), atomically: true, encoding: .utf8)
    let r = try box.dinger(
      "merge-driver", work.appendingPathComponent("o").path, work.appendingPathComponent("a").path,
      work.appendingPathComponent("b").path, "scrums/x.yaml")
    #expect(r.status == 2, "\(r.stderr)")
    #expect(r.stderr.contains(".dinger/conflicts is a symbolic link"), "\(r.stderr)")
    #expect(try fingerprint(decoy) == before)
  }

  /// A file whose name is not UTF-8 is reported by its escaped name; everything else works.
  @Test func aNameThatIsNotUTF8IsReportedAndSkipped() throws {
    let (box, _) = try setUp()
    let name = Array("scrums/x".utf8) + [0xFF] + Array(".yaml".utf8)
    let full = Array(box.data.path.utf8) + [UInt8(ascii: "/")] + name + [0]
    let fd = full.withUnsafeBufferPointer {
      $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT, 0o644) }
    }
    #expect(fd >= 0)
    _ = "title: X\nlength: 5\nattendees: [A]\n".withCString { write(fd, $0, 33) }
    close(fd)
    try box.git("add", "-A")
    try box.git("commit", "-qm", "a bad name")
    for args in [["scrum", "list"], ["scrum", "show", "design"], ["history"]] {
      let r = try box.dinger(args)
      #expect(r.status == 0, "\(args): \(r.stderr)")
    }
    #expect(try box.dinger("scrum", "edit", "design", "--length", "9").status == 0)
    #expect(try box.dinger("scrum", "new", "Third", "--attendee", "C").status == 0)
    let check = try box.dinger("check")
    #expect(check.status == 1)
    #expect((check.stdout + check.stderr).contains("scrums/x\\xff.yaml"), "\(check.stdout)")
    #expect(!(check.stdout + check.stderr).contains("NSCocoaErrorDomain"))
  }

  /// A damaged index stops a write before anything is committed, with the fix.
  @Test func aDamagedIndexStopsTheWriteBeforeItCommits() throws {
    let (box, _) = try setUp()
    let index = box.data.appendingPathComponent(".git/index")
    var bytes = [UInt8](try Data(contentsOf: index))
    bytes.replaceSubrange(8..<12, with: [0xFF, 0xFF, 0xFF, 0xFF])
    try Data(bytes).write(to: index)
    let head = try box.head()
    let r = try box.dinger("scrum", "attendee", "add", "design", "Bob")
    #expect(r.status == 1)
    #expect(r.stderr.contains("is damaged") && r.stderr.contains("git reset"), "\(r.stderr)")
    #expect(try box.head() == head)
    #expect(!FileManager.default.fileExists(atPath: box.data.path + "/.git/index.lock"))
  }
}

/// Titles and names a teammate committed can't drive the user's terminal.
@Suite struct TerminalHygieneTests {
  @Test func controlSequencesFromDataAreShownEscapedOnATerminal() throws {
    let box = try Sandbox()
    #expect(try box.dinger("init").status == 0)
    try box.write(
      "scrums/evil.yaml",
      "title: \"Evil\\e]0;pwned\\a\\e[2J\"\nlength: 5\nattendees: [\"Eve\\e[H\"]\n")
    try box.git("add", "-A")
    try box.git("commit", "-qm", "evil")
    // `script` gives dinger a terminal (a pty) and copies what it wrote to a file.
    let typescript = box.home.path("typescript")
    for args in ["scrum list", "scrum show evil", "log"] {
      let r = try ProcessRunner.run(
        "/usr/bin/script", ["-qec", "\(dingerBinary) \(args)", typescript], in: box.data,
        environment: box.environment.merging(["TERM": "xterm", "NO_COLOR": "1"]) { $1 })
      #expect(r.status == 0, "\(args): \(r.stderr)")
      let shown = try String(contentsOfFile: typescript, encoding: .utf8)
      #expect(!shown.contains("\u{1B}]0;") && !shown.contains("\u{1B}[2J"), "\(args): \(shown)")
      #expect(!shown.contains("\u{07}") && !shown.contains("\u{1B}[H"), "\(args)")
      if args != "log" {
        #expect(shown.contains("\\x1b]0;pwned\\x07\\x1b[2J"), "\(args): \(shown)")
      }
    }
    // Piped, the data's bytes are passed on as they are (for scripts).
    let piped = try box.dinger("scrum", "show", "evil")
    #expect(piped.stdout.contains("\u{1B}]0;pwned"))
  }

  /// A teammate's colours (concealed text, black on black, reverse video, one left open),
  /// bidi controls and zero-width characters, in a scrum title, an attendee, an entry's
  /// answers and a blocker: every reading command, on a pty, with and without NO_COLOR, shows
  /// none of the data's escapes raw, and shows the bidi and zero-width characters as code
  /// points.
  @Test(arguments: ["", "1"]) func aTeammatesColoursAndBidiNeverReachTheTerminal(noColor: String)
    throws
  {
    let box = try Sandbox()
    box.extraEnvironment["DINGER_TEST_NOW"] = "2026-11-27T12:00:00Z"
    #expect(try box.dinger("init").status == 0)
    let id = "0b7e2c1a-4f5d-4e6a-9b8c-1d2e3f4a5b6c"
    try box.write(
      "scrums/evil.yaml",
      "id: \(id)\ntitle: \"Evil \\e[8mhidden\\e[0m\"\nlength: 5\nattendees: [\"Eve\\e[31m\", Ada Lovelace]\n"
    )
    try box.write(
      "standups/evil/2026-11-27-ada-lovelace.yaml",
      "scrum: \(id)\ndate: '2026-11-27'\nby: Ada Lovelace\ntoday: \"ship \\e[30;40mblack\\e[0m and \\e[7mreverse\"\nyesterday: \"a\\u202Egnp.exe\\u202C z\\u200Bw\"\nblockers:\n  - \"keys \\e[8mconcealed\\e]0;pwned\\a\"\n"
    )
    try box.git("add", "-A")
    try box.git("commit", "-qm", "evil")
    let typescript = box.home.path("typescript")
    var env = box.environment.merging(["TERM": "xterm-256color"]) { $1 }
    if !noColor.isEmpty { env["NO_COLOR"] = noColor } else { env["NO_COLOR"] = nil }
    for args in [
      "standup show evil", "blockers evil", "digest", "check", "scrum list", "scrum show evil",
      "digest --format markdown",
    ] {
      _ = try ProcessRunner.run(
        "/usr/bin/script", ["-qec", "\(dingerBinary) \(args)", typescript], in: box.data,
        environment: env)
      let shown = try String(contentsOfFile: typescript, encoding: .utf8)
      for raw in [
        "\u{1B}[8m", "\u{1B}[30;40m", "\u{1B}[7m", "\u{1B}[31m", "\u{1B}]0;", "\u{202E}",
        "\u{200B}",
      ] {
        #expect(!shown.contains(raw), "\(args): \(raw.debugDescription) reached the terminal")
      }
      #expect(!shown.contains("\u{F8FF}"), "\(args): dinger's colour mark was shown")
      if args.hasPrefix("standup") || args == "digest" {
        #expect(shown.contains("<U+202E>") && shown.contains("\\x1b[30;40m"), "\(args): \(shown)")
      }
    }
  }
}

/// An entry is its writer's day: `check` refuses one dated after the day after today in UTC
/// (the latest day on any clock) or before 1970, and a view does not count the span to it.
@Suite struct EntryDatesTests {
  /// Hidden characters (bidi overrides and isolates, zero-width space): every writing command
  /// refuses them with the character's name and place, and `check` warns where a teammate's
  /// title, answer or blocker holds one, as GitHub warns of hidden Unicode. An emoji made with
  /// the zero-width joiner is ordinary text.
  @Test func hiddenCharactersAreRefusedOnWriteAndWarnedOnCheck() throws {
    let box = try Sandbox()
    box.extraEnvironment["DINGER_TEST_NOW"] = "2026-11-24T10:00:00Z"
    expectOK(try box.dinger("init"))
    let head = try box.head()
    let refusals: [([String], String)] = [
      (["scrum", "new", "Evil\u{202E}oof", "--attendee", "Ada"], "U+202E RIGHT-TO-LEFT OVERRIDE"),
      (["scrum", "new", "Plat", "--attendee", "A\u{200B}da"], "U+200B ZERO WIDTH SPACE"),
      (["library", "new", "Words\u{2067}"], "U+2067 RIGHT-TO-LEFT ISOLATE"),
    ]
    for (args, name) in refusals {
      let r = try box.dinger(args)
      #expect(
        r.status != 0 && r.stderr.contains("hidden character \(name)"), "\(args): \(r.stderr)")
    }
    #expect(try box.head() == head, "nothing was committed")
    expectOK(try box.dinger("scrum", "new", "Plat", "--attendee", "Ada"))
    let blocked = try box.dinger(
      "standup", "plat", "--as", "Ada", "--blocker", "fix \u{2066}the\u{2069} key")
    #expect(
      blocked.status == 1 && blocked.stderr.contains("U+2066 LEFT-TO-RIGHT ISOLATE"),
      "\(blocked.stderr)")
    expectOK(try box.dinger("scrum", "new", "Fam 👩\u{200D}💻", "--attendee", "Ada"))
    // A teammate's files, by hand.
    let id = Sandbox.id(in: try box.read("scrums/plat.yaml"))
    try box.write("scrums/bad.yaml", "title: \"Bad\\u202Etitle\"\nlength: 5\nattendees: [Ada]\n")
    try box.write(
      "standups/plat/2026-11-23-ada.yaml",
      "scrum: \(id)\ndate: 2026-11-23\nby: Ada\ntoday: \"a\\u2066b\"\nblockers:\n  - \"x\\u202Ey\"\n"
    )
    try box.git("add", "-A")
    try box.git("commit", "-qm", "by hand")
    let check = try box.dinger("check")
    #expect(check.status == 0, "warnings only: \(check.stderr)")
    for place in [
      "scrums/bad.yaml:1:8: warning: 'title' holds the hidden character U+202E",
      "2026-11-23-ada.yaml:4:8: warning: 'today' holds the hidden character U+2066",
      "2026-11-23-ada.yaml:6:5: warning: 'blocker' holds the hidden character U+202E",
    ] {
      #expect(check.stderr.contains(place), "\(place): \(check.stderr)")
    }
  }

  @Test func checkRefusesAFutureOrAncientEntryAndViewsStayBounded() throws {
    let box = try Sandbox()
    box.extraEnvironment["DINGER_TEST_NOW"] = "2026-11-27T23:00:00Z"
    #expect(try box.dinger("init").status == 0)
    #expect(try box.dinger("scrum", "new", "Platform", "--attendee", "Ada Lovelace").status == 0)
    let scrum = try box.read("scrums/platform.yaml").split(separator: "\n")
      .first { $0.hasPrefix("id: ") }!.dropFirst(4)
    func entry(_ date: String) throws {
      try box.write(
        "standups/platform/\(date)-ada-lovelace.yaml",
        "scrum: \(scrum)\ndate: '\(date)'\nby: Ada Lovelace\ntoday: x\n")
    }
    // The day after today (UTC+14 is there already): fine.
    try entry("2026-11-28")
    try box.git("add", "-A")
    try box.git("commit", "-qm", "tomorrow in Kiribati")
    expectOK(try box.dinger("check"))
    for date in ["2026-11-29", "2099-01-01", "9999-12-31", "0001-01-01", "1969-12-31"] {
      try entry(date)
      let r = try box.dinger("check")
      #expect(r.status == 1, "\(date): \(r.stderr)")
      #expect(
        r.stderr.contains("in the future of every clock") || r.stderr.contains("before 1970"),
        "\(date): \(r.stderr)")
      try FileManager.default.removeItem(
        at: box.data.appendingPathComponent("standups/platform/\(date)-ada-lovelace.yaml"))
    }
    // A view with an entry of year 1: counted from 1970 at most (it took 1.3 s and 100 MB).
    try entry("0001-01-01")
    let stats = try box.dinger("stats", "platform", "--json")
    #expect(stats.status == 0, "\(stats.stderr)")
  }
}
