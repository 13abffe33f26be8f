import Foundation
import TestSupport
import Testing

/// Real `dinger` processes at once against one scrum and one library, with a plain `git commit`
/// loop racing them: every change that was acknowledged (exit 0) must be in HEAD afterwards,
/// and every commit's subject must tell what that commit changed.
@Suite(.serialized) struct ConcurrencyTests {
  /// What the workers were told had happened, collected across threads.
  /// The plain-git loop's way of committing (`DINGER_TEST_RACE_STYLE`: add, a, am).
  static let raceStyle = ProcessInfo.processInfo.environment["DINGER_TEST_RACE_STYLE"] ?? ""

  final class Acks: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var added: [String] = []
    private(set) var removed: [String] = []
    private(set) var words: [String] = []
    private(set) var newFiles: [String] = []
    private(set) var gitFiles: [String] = []
    private(set) var undos = 0
    private(set) var acknowledged = 0
    func acknowledge() { record { $0.acknowledged += 1 } }
    /// Writes whose entries a racing git commit's stale index dropped, and dinger put back.
    private(set) var putBack = 0
    func putBackEntries() { record { $0.putBack += 1 } }
    private(set) var refusedUndos: [String] = []
    private(set) var failures: [String] = []

    func record(_ body: (Acks) -> Void) { lock.withLock { body(self) } }
    func add(attendee: String) { record { $0.added.append(attendee) } }
    func remove(attendee: String) { record { $0.removed.append(attendee) } }
    func add(word: String) { record { $0.words.append(word) } }
    func new(file: String) { record { $0.newFiles.append(file) } }
    func git(file: String) { record { $0.gitFiles.append(file) } }
    func undo() { record { $0.undos += 1 } }
    func refusedUndo(_ why: String) { record { $0.refusedUndos.append(why) } }
    func fail(_ what: String) { record { $0.failures.append(what) } }
  }

  /// Runs each job on its own thread (not GCD's pool, which would run only as many as there
  /// are cores) and waits for all.
  static func together(_ jobs: [@Sendable () -> Void]) {
    let group = DispatchGroup()
    for job in jobs {
      group.enter()
      let thread = Thread {
        job()
        group.leave()
      }
      thread.start()
    }
    group.wait()
  }

  @Test func eightWritersAndPlainGitLoseNothing() throws {
    let box = try Sandbox()
    #expect(try box.dinger("init").status == 0)
    #expect(
      try box.dinger("scrum", "new", "Shared", "--length", "10", "--attendee", "Owner").status == 0)
    #expect(try box.dinger("library", "new", "Words", "--language", "en").status == 0)
    let acks = Acks()
    let done = Acks()  // NB: its failures list holds one entry per finished worker
    // NB: `make torture` sets DINGER_TEST_RACE_ROUNDS=150 (8 writers x 150 = 1,200 writes).
    let rounds =
      ProcessInfo.processInfo.environment["DINGER_TEST_RACE_ROUNDS"].flatMap(Int.init) ?? 10
    var jobs: [@Sendable () -> Void] = (0..<8).map { i in
      {
        defer { done.fail("done") }
        for k in 0..<rounds {
          let name = "P\(i)x\(k)"
          let args: [String]
          switch k % 5 {
          case 0, 3: args = ["scrum", "attendee", "add", "shared", name]
          case 1: args = ["word", "add", "w\(name)", "--library", "words", "--definition", "d\(k)"]
          case 2:
            args =
              i % 2 == 0
              ? ["scrum", "edit", "shared", "--length", "\(11 + i * 10 + k)"]
              : ["scrum", "new", "Same", "--attendee", name]
          default:
            args =
              i % 4 == 1
              ? ["undo"]
              : i % 4 == 3
                ? ["word", "edit", "wP\(i)x1", "--library", "words", "--phonetic", "/p\(k)/"]
                : ["scrum", "attendee", "rm", "shared", "P\(i)x\(k - 4)"]
          }
          guard let r = try? box.dinger(args) else {
            acks.fail("\(args): did not run")
            continue
          }
          guard r.status == 0 else {
            // Refusals an undo explains: an undo refused because the newest change touched a
            // file again, or a name another worker's undo took away.
            let explained =
              args == ["undo"] || r.stderr.contains("is not an attendee")
              || r.stderr.contains("no word")
              || r.stderr.contains("a scrum titled 'Same' already exists")
            if !explained { acks.fail("\(args.joined(separator: " ")): \(r.stderr)") }
            if args == ["undo"] { acks.refusedUndo(r.stderr) }
            continue
          }
          acks.acknowledge()
          if r.stderr.contains("wrote back an index that lacked this change") {
            acks.putBackEntries()
          }
          switch args.prefix(2).joined(separator: " ") {
          case "scrum attendee":
            args[2] == "add" ? acks.add(attendee: name) : acks.remove(attendee: args[4])
          case "word add": acks.add(word: "w\(name)")
          case "scrum new":
            // "Add scrum Same (scrums/same-3.yaml)"
            if let open = r.stdout.lastIndex(of: "("), let close = r.stdout.lastIndex(of: ")") {
              acks.new(file: String(r.stdout[r.stdout.index(after: open)..<close]))
            }
          case "undo": acks.undo()
          default: break
          }
        }
      }
    }
    try box.home.write("message.txt", "plain, from a file\n")
    jobs.append {
      var n = 0
      while done.failures.count < 8 {
        n += 1
        let file = "notes-\(n).txt"
        try? box.write(file, "\(n)\n")
        // NB: `commit -a` too: it reads the index before it takes index.lock and adds the
        // working files' changes to what it read, which is how a stale index reverted a
        // dinger write that had moved the branch and not yet put its index in place.
        // NB: `DINGER_TEST_RACE_STYLE` picks one loop (`make torture` runs each): `add`
        // (`git add && git commit`), `a` (`commit -a`, its message from a file) or `am`;
        // without it the loop alternates `add` and `am`.
        let commit: [String]
        switch Self.raceStyle {
        case "add": commit = ["commit", "-qm", "plain \(n)"]
        case "a": commit = ["commit", "-q", "-a", "-F", box.home.path("message.txt")]
        case "am": commit = ["commit", "-qam", "plain \(n)"]
        default:
          commit = n % 2 == 0 ? ["commit", "-qm", "plain \(n)"] : ["commit", "-qam", "plain \(n)"]
        }
        if (try? box.git("add", file)) != nil, (try? box.git(commit)) != nil {
          acks.git(file: file)
        }
      }
    }
    Self.together(jobs)
    #expect(acks.failures.isEmpty, "\(acks.failures)")

    // The repository is sound and clean (a `git commit` that lost the race leaves its commit
    // object dangling, as git does; that is no damage).
    let fsck = try box.git("fsck", "--full", "--no-dangling")
    #expect(fsck == "")
    // Files plain git staged and did not get to commit are the only difference.
    let status = try box.git("status", "--porcelain").split(separator: "\n")
      .filter { !$0.hasSuffix(".txt") }
    #expect(status.isEmpty, "\(status)")

    // Commits undone (and not redone) are the only changes allowed to be gone.
    let log = try box.git("log", "--format=%H%x00%s%x00%(trailers:key=Dinger-Undoes,valueonly)%x01")
    var undoes: [String: String] = [:]  // undo commit -> commit it undoes
    var subjects: [String: String] = [:]
    for entry in log.split(separator: "\u{1}") {
      let parts = entry.trimmingCharacters(in: .whitespacesAndNewlines).split(
        separator: "\0", omittingEmptySubsequences: false)
      guard parts.count >= 2 else { continue }
      subjects[String(parts[0])] = String(parts[1])
      if parts.count > 2, !parts[2].isEmpty {
        undoes[String(parts[0])] = parts[2].trimmingCharacters(in: .whitespacesAndNewlines)
      }
    }
    #expect(undoes.count == acks.undos, "\(acks.refusedUndos)")
    func inEffect(_ commit: String) -> Bool {
      !undoes.contains { $0.value == commit && inEffect($0.key) }
    }
    func undone(subject: String) -> Bool {
      subjects.contains { $0.value == subject && !inEffect($0.key) }
    }

    let scrum = try box.git("show", "HEAD:scrums/shared.yaml")
    var lost: [String] = []
    for name in acks.added where !scrum.contains("- \(name)\n") {
      let removedLater = acks.removed.contains(name)
      if !removedLater && !undone(subject: "Shared: add attendee \(name)") { lost.append(name) }
    }
    for name in acks.removed where scrum.contains("- \(name)\n") {
      if !undone(subject: "Shared: remove attendee \(name)") { lost.append("rm \(name)") }
    }
    let library = try box.git("show", "HEAD:libraries/words.yaml")
    for word in acks.words where !library.contains("text: \(word)\n") {
      if !undone(subject: "Words: add \(word)") { lost.append(word) }
    }
    let tree = Set(
      try box.git("ls-tree", "-r", "--name-only", "HEAD").split(separator: "\n").map(String.init))
    for file in acks.newFiles where !tree.contains(file) {
      if !undone(subject: "Add scrum Same") { lost.append(file) }
    }
    // Scrums added with one title at once: one is taken, the others refused (a title is free
    // again after an undo or a removal).
    let undoneAdds = subjects.filter { $0.value == "Add scrum Same" && !inEffect($0.key) }.count
    #expect(
      tree.filter { $0.hasPrefix("scrums/same") }.count == acks.newFiles.count - undoneAdds,
      "\(acks.newFiles)")
    for file in acks.gitFiles where !tree.contains(file) { lost.append(file) }
    #expect(lost.isEmpty, "acknowledged changes lost: \(lost)")
    #expect(acks.added.count >= 16 && acks.words.count >= 8 && !acks.gitFiles.isEmpty)
    // NB: most writes succeed (refusals are the explained ones above): the count is the rig's.
    #expect(acks.acknowledged >= rounds * 8 * 3 / 4, "\(acks.acknowledged) of \(rounds * 8)")
    print(
      "race (\(Self.raceStyle.isEmpty ? "add and am" : Self.raceStyle)): \(acks.acknowledged) acknowledged dinger writes, \(acks.gitFiles.count) plain git commits, \(acks.putBack) put back after a stale index, 0 lost"
    )

    // Every subject of an edit of the shared scrum says what its commit changed.
    for (commit, subject) in subjects where subject.hasPrefix("Shared: ") {
      let before = try box.git("show", "\(commit)^:scrums/shared.yaml")
      let after = try box.git("show", "\(commit):scrums/shared.yaml")
      for part in subject.dropFirst("Shared: ".count).components(separatedBy: "; ") {
        if part.hasPrefix("length ") {
          let numbers = part.split(separator: " ")
          #expect(before.contains("length: \(numbers[1])\n"), "\(subject)")
          #expect(after.contains("length: \(numbers[3])\n"), "\(subject)")
        } else if part.hasPrefix("add attendee ") {
          let name = part.dropFirst("add attendee ".count)
          #expect(!before.contains("- \(name)\n") && after.contains("- \(name)\n"), "\(subject)")
        } else if part.hasPrefix("remove attendee ") {
          let name = part.dropFirst("remove attendee ".count)
          #expect(before.contains("- \(name)\n") && !after.contains("- \(name)\n"), "\(subject)")
        } else {
          Issue.record("unexpected part '\(part)' in '\(subject)'")
        }
      }
      // Nothing else changed: the lines that differ are the ones the subject names.
      let changed = Set(after.split(separator: "\n")).symmetricDifference(
        Set(before.split(separator: "\n")))
      #expect(changed.allSatisfy { $0.hasPrefix("length:") || $0.hasPrefix("  - ") }, "\(subject)")
    }
  }
}

/// A scrum edited in `$EDITOR` while another change lands on the same file.
@Suite struct EditorRaceTests {
  /// A data repository with one scrum, Shared: length 10, attendee Ann.
  func sharedScrum() throws -> Sandbox {
    let box = try Sandbox()
    #expect(try box.dinger("init").status == 0)
    #expect(
      try box.dinger("scrum", "new", "Shared", "--length", "10", "--attendee", "Ann").status == 0)
    return box
  }

  /// An editor that makes another dinger change while "the person types", then edits the file.
  func editor(_ box: Sandbox, meanwhile: String, edit: String) throws -> [String: String] {
    try box.home.write(
      "editor.sh",
      "#!/bin/sh\n\"$DINGER\" \(meanwhile) >/dev/null || exit 3\nsed -i '\(edit)' \"$1\"\n")
    // NB: run by sh, not executed: a file just written may still be open in a child another
    // test thread is spawning, and exec would fail with "Text file busy".
    return ["EDITOR": "sh " + box.home.path("editor.sh"), "DINGER": dingerBinary]
  }

  @Test func anEditMergesWithAChangeMadeMeanwhile() throws {
    let box = try sharedScrum()
    let env = try editor(
      box, meanwhile: "scrum attendee add shared Bob", edit: "s/^length: 10/length: 20/")
    let r = try box.dinger(["scrum", "edit", "shared"], env: env)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout == "Shared: length 10 -> 20 min\n")
    let text = try box.read("scrums/shared.yaml")
    #expect(text.contains("length: 20\n") && text.contains("- Bob\n"), "\(text)")
    #expect(try box.git("status", "--porcelain") == "")
  }

  @Test func aConflictingEditIsKeptNotLost() throws {
    let box = try sharedScrum()
    let env = try editor(
      box, meanwhile: "scrum edit shared --length 30", edit: "s/^length: 10/length: 20/")
    let r = try box.dinger(["scrum", "edit", "shared"], env: env)
    #expect(r.status == 1)
    #expect(r.stderr.contains("was changed by someone else while you edited it"), "\(r.stderr)")
    #expect(try box.read("scrums/shared.yaml").contains("length: 30\n"))
    // The text the person wrote is kept where the message says.
    let saved = try #require(
      r.stderr.range(of: "your text is kept in ").map { r.stderr[$0.upperBound...] }?
        .split(separator: ":").first.map(String.init))
    #expect(try String(contentsOfFile: saved, encoding: .utf8).contains("length: 20\n"))
    #expect(try box.git("status", "--porcelain") == "")
  }
}
