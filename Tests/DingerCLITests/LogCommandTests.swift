import Foundation
import TestSupport
import Testing

/// `dinger log` over a scripted sequence of changes.
@Suite struct LogCommandTests {
  /// The summaries, newest first, without the commit and date columns.
  func summaries(_ stdout: String) -> [String] {
    stdout.split(separator: "\n").map { line in
      String(line.split(separator: " ", maxSplits: 4, omittingEmptySubsequences: true).last ?? "")
        .trimmingCharacters(in: .whitespaces)
    }
  }

  func scripted() throws -> Sandbox {
    let box = try Sandbox()
    #expect(try box.dinger("init").status == 0)
    #expect(
      try box.dinger("scrum", "new", "Design", "--length", "10", "--attendee", "Ada").status == 0)
    #expect(try box.dinger("scrum", "new", "Ops", "--attendee", "Eve").status == 0)
    #expect(try box.dinger("scrum", "attendee", "add", "design", "Bob").status == 0)
    #expect(try box.dinger("meet", "design", "--record", "--duration", "12m").status == 0)
    // A teammate edits by hand and commits with plain git.
    try box.write(
      "scrums/design.yaml",
      try box.read("scrums/design.yaml").replacingOccurrences(of: "length: 10", with: "length: 15"))
    try box.git("commit", "-qam", "longer design review")
    #expect(try box.dinger("scrum", "rm", "ops").status == 0)
    return box
  }

  @Test func theLogTellsWhatHappenedNewestFirst() throws {
    let box = try scripted()
    let r = try box.dinger("log")
    #expect(r.status == 0, "\(r.stderr)")
    let lines = r.stdout.split(separator: "\n")
    #expect(lines.count == 6)
    #expect(lines.allSatisfy { $0.contains("  Ada Lovelace  ") })
    #expect(lines[0].hasSuffix("Ops: removed scrum"))
    // Records are named by their titles (Ops is gone: its path stands).
    #expect(lines[1].hasSuffix("  Design: length 10 -> 15 min"))
    #expect(lines[2].hasSuffix("  Design meeting: meeting recorded, 12 min"))
    #expect(lines[3].hasSuffix("  Design: add attendee Bob"))
    #expect(lines[4].hasSuffix("Ops: added scrum"))
    #expect(lines[5].hasSuffix("  Design: added scrum"))
    // The same facts are in plain git's log: subjects and trailers.
    #expect(
      try box.git("log", "--format=%s", "-5").split(separator: "\n") == [
        "Remove scrum Ops", "longer design review",
        "Record meeting of Design (12 min, 2 attendees)",
        "Design: add attendee Bob", "Add scrum Ops",
      ])
    #expect(
      try box.git("log", "--grep=Dinger-Action: meeting.record", "--format=%s").hasPrefix(
        "Record meeting of Design"))
  }

  /// git's habits: `-n1`, `-2`, `--until`, `--author`; `history -1`.
  @Test func gitStyleCountsAndFilters() throws {
    let box = try scripted()
    var r = try box.dinger("log", "-n1")
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.split(separator: "\n").count == 1)
    r = try box.dinger("log", "-2")
    #expect(r.stdout.split(separator: "\n").count == 2, "\(r.stderr)")
    r = try box.dinger("log", "design", "-n", "1")
    #expect(r.stdout.split(separator: "\n").count == 1)
    r = try box.dinger("log", "--author", "ADA", "-3")
    #expect(r.stdout.split(separator: "\n").count == 3, "\(r.stderr)")
    r = try box.dinger("log", "--author", "nobody")
    #expect(r.stdout == "no changes\n")
    r = try box.dinger("log", "--until", "2000-01-01")
    #expect(r.stdout == "no changes\n", "\(r.stderr)")
    r = try box.dinger("log", "--until", "2999-01-01")
    #expect(r.stdout.split(separator: "\n").count == 6)
    r = try box.dinger("history", "-1")
    #expect(r.status == 0 && r.stdout.split(separator: "\n").count == 1, "\(r.stderr)")
    r = try box.dinger("history", "-n", "0")
    #expect(r.status == 64)
  }

  @Test func aScrumsLogFollowsItsIdAndItsMeetings() throws {
    let box = try scripted()
    var r = try box.dinger("log", "design")
    #expect(r.stdout.split(separator: "\n").count == 4)
    #expect(!r.stdout.contains("ops.yaml"))
    r = try box.dinger("log", "design", "-n", "1", "--json")
    let json =
      (try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])?["entries"]
      as? [[String: Any]]
    #expect(json?.count == 1)
    #expect(json?.first?["summary"] as? String == "length 10 -> 15 min")
    #expect(json?.first?["author"] as? String == "Ada Lovelace")
  }

  @Test func theIndexIsRebuiltWhenMissingStaleOrBroken() throws {
    let box = try scripted()
    let expected = try box.dinger("log").stdout
    let index = box.data.appendingPathComponent(".git/dinger/activity-v3.tsv")
    #expect(FileManager.default.fileExists(atPath: index.path))
    try FileManager.default.removeItem(at: index)
    #expect(try box.dinger("log").stdout == expected)
    // Rebuilt from packs with deltas (read by dinger's pack reader, not libgit2).
    try box.git("gc", "-q", "--aggressive")
    try FileManager.default.removeItem(at: index)
    #expect(try box.dinger("log").stdout == expected)
    try "dinger-activity v0 abc\n".write(to: index, atomically: true, encoding: .utf8)
    #expect(try box.dinger("log").stdout == expected)
    try "dinger-activity v1 \(String(repeating: "0", count: 40))\nnot\ta\tvalid\tline\n".write(
      to: index, atomically: true, encoding: .utf8)
    #expect(try box.dinger("log").stdout == expected)
    // Up to date with HEAD but a line damaged: rebuilt, not cut short.
    var text = try String(contentsOf: index, encoding: .utf8)
    text = text.replacingOccurrences(of: "\tM\t", with: "\tM\tbroken\t")
    try text.write(to: index, atomically: true, encoding: .utf8)
    #expect(try box.dinger("log").stdout == expected)
    // New commits are added to what the index already knows.
    #expect(try box.dinger("scrum", "edit", "design", "--theme", "sky").status == 0)
    let after = try box.dinger("log").stdout
    #expect(after.split(separator: "\n").count == 7)
    #expect(
      after.split(separator: "\n").first?.hasSuffix("Design: theme bubblegum -> sky")
        == true)
    #expect(try box.gitAgrees().status == "")
  }

  @Test func aRecordsLogByIdPrefix() throws {
    let box = try scripted()
    // Ops was removed, so only its id names it now.
    let id = try box.git("log", "--format=%(trailers:key=Dinger-Record,valueonly)", "-1")
      .trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(id.count == 36)
    let r = try box.dinger("log", String(id.prefix(8)))
    #expect(r.status == 0, "\(r.stderr)")
    let lines = r.stdout.split(separator: "\n")
    #expect(lines.count == 2)
    #expect(lines.first?.hasSuffix("Ops: removed scrum") == true)
    #expect(lines.last?.hasSuffix("Ops: added scrum") == true)
    #expect(try box.dinger("log", "ffffffff").stdout == "no changes\n")
  }

  @Test func badInput() throws {
    let box = try scripted()
    #expect(try box.dinger("log", "-n", "0").status == 64)
    #expect(try box.dinger("log", "--since", "soon").status == 64)
    let r = try box.dinger("log", "nosuchscrum")
    #expect(r.status == 1)
    #expect(r.stderr.hasPrefix("error: no scrum, library, word or record 'nosuchscrum'"))
  }

  /// A library by its slug, a word, a meeting by the file name `history` prints; library
  /// changes say what the commit says; a short meeting says its seconds.
  @Test func anyRecordNameIsAcceptedAndLibrariesSayWhatChanged() throws {
    let box = try scripted()
    #expect(try box.dinger("library", "new", "Spanish basics", "--language", "es").status == 0)
    for word in ["agua", "sol"] {
      #expect(
        try box.dinger("word", "add", word, "--library", "spanish-basics", "--definition", "x")
          .status == 0)
    }
    #expect(try box.dinger("meet", "design", "--record", "--duration", "40s").status == 0)
    var r = try box.dinger("log", "spanish-basics")
    #expect(r.status == 0, "\(r.stderr)")
    #expect(
      r.stdout.split(separator: "\n").map { String($0.split(separator: "  ").last ?? "") } == [
        "Spanish basics: add sol", "Spanish basics: add agua", "Spanish basics: added word library",
      ], "\(r.stdout)")
    r = try box.dinger("log", "agua")
    #expect(
      r.stdout.split(separator: "\n").count == 1
        && r.stdout.hasSuffix("Spanish basics: add agua\n"), "\(r.stdout)")
    let meeting = try box.git("log", "-1", "--name-only", "--format=").trimmingCharacters(
      in: .whitespacesAndNewlines)
    r = try box.dinger("log", String(meeting.split(separator: "/").last!))
    #expect(r.stdout.hasSuffix("Design meeting: meeting recorded, 40 s\n"), "\(r.stdout)")
    // A second scrum titled like another is refused: names stay unambiguous.
    r = try box.dinger("scrum", "new", "design", "--attendee", "Zoe")
    #expect(r.status == 1)
    #expect(
      r.stderr.contains("a scrum titled 'Design' already exists (scrums/design.yaml)"),
      "\(r.stderr)")
  }
}

/// `log S` reads a scrum's own index, filled by a walk that visits only the scrum's paths: cold,
/// warm, after new commits, after a merge and after history was rewritten, it tells the same as
/// the whole log does for those paths.
@Suite struct ScrumLogIndexTests {
  /// The whole log's entries under the scrum's paths, as JSON lines (commit and path).
  func expected(_ box: Sandbox, slug: String) throws -> [String] {
    let r = try box.dinger("log", "--json")
    #expect(r.status == 0, "\(r.stderr)")
    return try entries(r.stdout).filter {
      $0.hasSuffix(" scrums/\(slug).yaml") || $0.contains(" history/\(slug)/")
    }
  }

  func entries(_ json: String) throws -> [String] {
    let object = try JSONSerialization.jsonObject(with: Data(json.utf8))
    let list =
      (object as? [[String: Any]]) ?? ((object as? [String: Any])?["entries"] as? [[String: Any]])
      ?? []
    return list.map { "\($0["commit"] ?? "") \($0["summary"] ?? "") \($0["path"] ?? "")" }
  }

  func scrumLog(_ box: Sandbox, _ slug: String) throws -> [String] {
    let r = try box.dinger("log", slug, "--json")
    #expect(r.status == 0, "\(r.stderr)")
    return try entries(r.stdout)
  }

  @Test func theScrumIndexAgreesWithTheWholeLog() throws {
    let box = try Sandbox()
    #expect(try box.dinger("init").status == 0)
    #expect(try box.dinger("scrum", "new", "Design", "--attendee", "Ada").status == 0)
    #expect(try box.dinger("scrum", "new", "Ops", "--attendee", "Eve").status == 0)
    for _ in 0..<3 {
      #expect(try box.dinger("meet", "design", "--record", "--duration", "9m").status == 0)
      #expect(try box.dinger("meet", "ops", "--record", "--duration", "5m").status == 0)
    }
    #expect(try box.dinger("scrum", "edit", "design", "--length", "20").status == 0)
    // Cold: no index of any kind.
    try? FileManager.default.removeItem(at: box.data.appendingPathComponent(".git/dinger"))
    let cold = try scrumLog(box, "design")
    #expect(cold.count == 5, "\(cold)")
    #expect(cold == (try expected(box, slug: "design")))
    // New commits, one by plain git on a side branch merged back.
    #expect(try box.dinger("meet", "design", "--record", "--duration", "7m").status == 0)
    try box.git("checkout", "-q", "-b", "side")
    try box.write(
      "scrums/design.yaml",
      try box.read("scrums/design.yaml").replacingOccurrences(of: "length: 20", with: "length: 25"))
    try box.git("commit", "-qam", "longer")
    try box.git("checkout", "-q", "main")
    #expect(try box.dinger("meet", "ops", "--record", "--duration", "6m").status == 0)
    try box.git("merge", "-q", "--no-edit", "side")
    let warm = try scrumLog(box, "design")
    #expect(warm.count == 7, "\(warm)")
    #expect(warm == (try expected(box, slug: "design")))
    // History rewritten under the index: it is rebuilt.
    try box.git("reset", "-q", "--hard", "HEAD~3")
    let rewritten = try scrumLog(box, "design")
    #expect(rewritten == (try expected(box, slug: "design")))
    #expect(rewritten.count == 5, "\(rewritten)")
    #expect(try scrumLog(box, "ops") == (try expected(box, slug: "ops")))
  }

  /// A damaged scrum index is rebuilt, not trusted.
  @Test func aDamagedScrumIndexIsRebuilt() throws {
    let box = try Sandbox()
    #expect(try box.dinger("init").status == 0)
    #expect(try box.dinger("scrum", "new", "Design", "--attendee", "Ada").status == 0)
    #expect(try box.dinger("meet", "design", "--record", "--duration", "9m").status == 0)
    let first = try scrumLog(box, "design")
    let file = box.data.appendingPathComponent(".git/dinger/activity-v3/design.tsv")
    let text = try String(contentsOf: file, encoding: .utf8)
    try String(text.prefix(text.count - 30)).write(to: file, atomically: true, encoding: .utf8)
    #expect(try scrumLog(box, "design") == first)
    try "garbage\n".write(to: file, atomically: true, encoding: .utf8)
    #expect(try scrumLog(box, "design") == first)
  }
}

/// Long output is paged on a terminal, as git pages it, and never when piped.
@Suite struct PagerTests {
  @Test func theLogIsPagedOnATerminalOnly() throws {
    let box = try Sandbox()
    #expect(try box.dinger("init").status == 0)
    #expect(try box.dinger("scrum", "new", "Design", "--attendee", "Ada").status == 0)
    let paged = box.home.path("paged.txt")
    // The pager is the user's command, run by sh as git runs it; LESS=FRX is set for less.
    let pager = "cat > '\(paged)'; echo \"LESS=$LESS\" >> '\(paged)'"
    let r = try ProcessRunner.run(
      "/usr/bin/script", ["-qec", "\(dingerBinary) log", "/dev/null"], in: box.data,
      environment: box.environment.merging(["PAGER": pager, "LESS": ""]) { $1 }.filter {
        $0.key != "LESS"
      })
    #expect(r.status == 0, "\(r.stdout)")
    let text = try String(contentsOfFile: paged, encoding: .utf8)
    #expect(text.contains("Design: added scrum") && text.contains("LESS=FRX"), "\(text)")
    try FileManager.default.removeItem(atPath: paged)
    // Piped: straight to stdout.
    let piped = try box.dinger(["log"], env: ["PAGER": pager])
    #expect(piped.stdout.contains("Design: added scrum"))
    #expect(!FileManager.default.fileExists(atPath: paged))
    // PAGER=cat: not paged on a terminal either.
    let plain = try ProcessRunner.run(
      "/usr/bin/script", ["-qec", "\(dingerBinary) log", "/dev/null"], in: box.data,
      environment: box.environment.merging(["PAGER": "cat"]) { $1 })
    #expect(plain.stdout.contains("Design: added scrum"))
  }
}

/// Git's habits for who and when: `--author` matches the email too; relative dates; a plain day
/// is the user's local midnight.
@Suite struct GitHabitDateTests {
  @Test func authorMatchesNameOrEmailAsGitDoes() throws {
    let box = try Sandbox()
    #expect(try box.dinger("init").status == 0)
    #expect(try box.dinger("scrum", "new", "Design", "--attendee", "Ada").status == 0)
    try box.git("config", "user.name", "Grace Hopper")
    try box.git("config", "user.email", "grace@navy.example")
    #expect(try box.dinger("scrum", "attendee", "add", "design", "Bob").status == 0)
    var r = try box.dinger("log", "--author", "grace@navy.example")
    #expect(r.status == 0)
    #expect(
      r.stdout.split(separator: "\n").count == 1 && r.stdout.contains("Grace Hopper"), "\(r.stdout)"
    )
    r = try box.dinger("log", "--author", "ADA@EXAMPLE")
    #expect(r.stdout.split(separator: "\n").count == 1 && r.stdout.contains("Ada"), "\(r.stdout)")
    #expect(!r.stdout.contains("Grace"))
  }

  @Test func relativeDatesAndLocalDays() throws {
    let box = try Sandbox()
    #expect(try box.dinger("init").status == 0)
    #expect(try box.dinger("scrum", "new", "Design", "--attendee", "Ada").status == 0)
    let tokyo = ["TZ": "Asia/Tokyo"]
    // 05:00 on the 20th in Tokyo is still the 19th in UTC.
    #expect(
      try box.dinger(
        ["meet", "design", "--record", "--date", "2026-11-20 05:00", "--duration", "9m"], env: tokyo
      ).status == 0)
    var r = try box.dinger(["history", "--since", "2026-11-20"], env: tokyo)
    #expect(r.stdout.contains("2026-11-20 05:00"), "\(r.stdout)\(r.stderr)")
    r = try box.dinger(["history", "--until", "2026-11-19"], env: tokyo)
    #expect(!r.stdout.contains("2026-11-20"), "\(r.stdout)")
    for since in ["yesterday", "2 days ago", "2.weeks.ago", "last monday", "noon", "today"] {
      r = try box.dinger(["log", "--since", since])
      #expect(r.status == 0, "\(since): \(r.stderr)")
    }
    r = try box.dinger(["log", "--since", "2 days ago"])
    #expect(r.stdout.contains("Add scrum Design") || r.stdout.contains("Design"), "\(r.stdout)")
    r = try box.dinger(["log", "--since", "someday"])
    #expect(r.status == 64)
    #expect(r.stderr.contains("--since must be a date like 2026-11-01"), "\(r.stderr)")
  }
}

/// The log names a record as it was called at the time.
@Suite struct LogTitlesTests {
  @Test func oldEntriesKeepTheTitleOfTheirTime() throws {
    let box = try Sandbox()
    #expect(try box.dinger("init").status == 0)
    #expect(try box.dinger("scrum", "new", "Design", "--attendee", "Ada").status == 0)
    #expect(try box.dinger("scrum", "edit", "design", "--length", "7").status == 0)
    #expect(try box.dinger("scrum", "edit", "design", "--title", "Design Review").status == 0)
    let lines = try box.dinger("log").stdout.split(separator: "\n")
    #expect(lines.count == 3, "\(lines)")
    #expect(
      lines[0].hasSuffix("Design Review: title Design -> Design Review")
        || lines[0].contains("Design Review"), "\(lines)")
    #expect(lines[1].hasSuffix("Design: length 5 -> 7 min"), "\(lines)")
    #expect(lines[2].hasSuffix("Design: added scrum"), "\(lines)")
  }
}

/// `log -n N` before the activity index exists (a first run after a clone) describes only the
/// newest commits, and gives exactly what it gives once the index is built.
@Suite struct LogNewestTests {
  @Test func theNewestWithoutAnIndexAreTheNewestWithOne() throws {
    let box = try Sandbox()
    #expect(try box.dinger("init").status == 0)
    #expect(try box.dinger("scrum", "new", "Design", "--attendee", "Ada").status == 0)
    for n in 1...6 {
      #expect(try box.dinger("scrum", "edit", "design", "--length", "\(n + 5)").status == 0)
    }
    // A merge with a side branch whose commits came in through it.
    try box.git("checkout", "-q", "-b", "side")
    #expect(try box.dinger("scrum", "new", "Ops", "--attendee", "Bo").status == 0)
    #expect(try box.dinger("scrum", "edit", "ops", "--length", "9").status == 0)
    try box.git("checkout", "-q", "main")
    #expect(try box.dinger("scrum", "edit", "design", "--title", "Design Sync").status == 0)
    try box.git("merge", "-q", "--no-edit", "side")
    #expect(try box.dinger("meet", "design", "--record", "--duration", "5m").status == 0)
    for n in [1, 3, 5, 12, 40] {
      try? FileManager.default.removeItem(at: box.data.appendingPathComponent(".git/dinger"))
      let first = try box.dinger("log", "-n", "\(n)", "--json")
      #expect(first.status == 0, "\(first.stderr)")
      #expect(
        !FileManager.default.fileExists(
          atPath: box.data.appendingPathComponent(".git/dinger/activity-v3.tsv").path))
      #expect(try box.dinger("log", "--json").status == 0)  // builds the index
      let indexed = try box.dinger("log", "-n", "\(n)", "--json")
      #expect(first.stdout == indexed.stdout, "-n \(n)")
    }
  }
}

/// A scrum's activity index is left as it is by commits that touch no scrum or meeting (it is
/// not read and rewritten for each), and is still exact after them: a later edit of the scrum
/// shows, another scrum's does not, and a long run of such commits is caught up with.
@Suite struct ActivityIndexSkipTests {
  @Test func commitsOfNoScrumLeaveTheIndexExact() throws {
    let box = try Sandbox()
    #expect(try box.dinger("init").status == 0)
    #expect(try box.dinger("scrum", "new", "Alpha", "--attendee", "Ada").status == 0)
    #expect(try box.dinger("scrum", "new", "Beta", "--attendee", "Bo").status == 0)
    let before = try box.dinger("log", "alpha").stdout
    let index = box.data.appendingPathComponent(".git/dinger/activity-v3/alpha.tsv")
    let bytes = try Data(contentsOf: index)
    for i in 0..<3 {
      try box.write("notes-\(i).txt", "\(i)\n")
      try box.git("add", "-A")
      try box.git("commit", "-qm", "notes \(i)")
    }
    #expect(try box.dinger("log", "alpha").stdout == before)
    #expect(try Data(contentsOf: index) == bytes, "not rewritten")
    #expect(try box.dinger("scrum", "edit", "beta", "--length", "9").status == 0)
    #expect(try box.dinger("log", "alpha").stdout == before)
    #expect(try box.dinger("scrum", "edit", "alpha", "--length", "7").status == 0)
    let after = try box.dinger("log", "alpha").stdout
    #expect(after.contains("length 5 -> 7 min") && !after.contains("length 5 -> 9"), "\(after)")
    // Past 64 such commits the index is caught up (and rewritten) once.
    for i in 0..<70 {
      try box.write("more.txt", "\(i)\n")
      try box.git("add", "-A")
      try box.git("commit", "-qm", "more \(i)")
    }
    #expect(try box.dinger("log", "alpha").stdout == after)
    let head = try box.git("rev-parse", "HEAD").trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(try String(contentsOf: index, encoding: .utf8).contains(head))
  }
}
