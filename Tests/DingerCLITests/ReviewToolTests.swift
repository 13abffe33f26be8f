import Foundation
import TestSupport
import Testing

/// Plain git and the pre-commit framework with dinger: a record-aware line above `git diff`,
/// and `dinger check` blocking a commit of an invalid record.
@Suite struct ReviewToolTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  func team() throws -> Sandbox {
    let box = try Sandbox()
    #expect(try box.dinger("init").status == 0)
    #expect(
      try box.dinger("scrum", "new", "Design", "--attendee", "Ada", "--length", "10").status == 0)
    return box
  }

  @Test func gitDiffSaysWhatChangedInTheRecord() throws {
    let box = try team()
    try box.write(
      "scrums/design.yaml",
      try box.read("scrums/design.yaml").replacingOccurrences(of: "length: 10", with: "length: 15")
        .replacingOccurrences(of: "  - Ada\n", with: "  - Ada\n  - Bob\n"))
    let diff = try box.git("diff")
    #expect(diff.contains("# dinger: length 10 -> 15 min; add attendee Bob\n"), "\(diff)")
    #expect(diff.contains("-length: 10\n+length: 15\n"), "\(diff)")
    try box.git("commit", "-qam", "longer, with Bob")
    let shown = try box.git("log", "-p", "--ext-diff", "-1", "--format=%s")
    #expect(shown.contains("# dinger: length 10 -> 15 min; add attendee Bob"), "\(shown)")
    // A teammate without dinger: git knows no 'dinger' diff driver and shows its plain diff.
    let plain = box.home.url.appendingPathComponent("plain")
    try box.git("clone", "-q", box.data.path, plain.path, in: box.home.url)
    let theirs = try box.git("log", "-p", "-1", "--format=%s", in: plain)
    #expect(theirs.contains("+length: 15\n") && !theirs.contains("# dinger:"), "\(theirs)")
  }

  /// A repository set up before the diff driver existed gets it from `setup-git`.
  @Test func setupGitAddsTheDiffDriverToAnOlderRepository() throws {
    let box = try team()
    try box.write(".gitattributes", "*.yaml merge=dinger\n")
    try box.git("config", "--unset", "diff.dinger.command")
    try box.git("commit", "-qam", "an older scaffold")
    let r = try box.dinger("setup-git")
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains("set diff.dinger.command"), "\(r.stdout)")
    #expect(try box.read(".gitattributes") == "*.yaml merge=dinger diff=dinger\n")
    #expect(try box.git("status", "--porcelain") == "")
    #expect(try box.dinger("setup-git").stdout == "already set up\n")
  }

  /// The hook as the pre-commit framework runs it: its `entry` with the staged files its
  /// `files` pattern selects, and the commit only when that succeeds.
  @Test func thePreCommitHookBlocksAnInvalidRecord() throws {
    let box = try team()
    let read = """
      import sys, yaml, json
      hooks = yaml.safe_load(open(sys.argv[1]))
      print(json.dumps([h for h in hooks if h["id"] == "dinger-check"][0]))
      """
    let hookText = try ProcessRunner.run(
      ProcessRunner.which("python3") ?? "/usr/bin/python3",
      ["-c", read, Self.root.appendingPathComponent(".pre-commit-hooks.yaml").path])
    let hook = try JSONSerialization.jsonObject(with: Data(hookText.stdout.utf8)) as? [String: Any]
    let entry = (hook?["entry"] as? String ?? "").split(separator: " ").map(String.init)
    let pattern = try Regex(hook?["files"] as? String ?? "^$")
    #expect(entry.first == "dinger" && hook?["language"] as? String == "system")
    func commitThroughTheHook(_ message: String) throws -> Int32 {
      try box.git("add", "-A")
      let staged = try box.git("diff", "--cached", "--name-only", "--diff-filter=ACMR")
        .split(separator: "\n").map(String.init).filter { $0.wholeMatch(of: pattern) != nil }
      if !staged.isEmpty {
        let r = try box.dinger(Array(entry.dropFirst()) + staged)
        if r.status != 0 { return r.status }
      }
      try box.git("commit", "-qm", message)
      return 0
    }
    let head = try box.head()
    try box.write("scrums/ops.yaml", "title: Ops\nlength: ten\nattendees: [Eve]\n")
    try box.write("notes.txt", "not a record\n")
    #expect(try commitThroughTheHook("an invalid scrum") == 1)
    #expect(try box.head() == head, "the invalid scrum was committed")
    try box.write("scrums/ops.yaml", "title: Ops\nlength: 10\nattendees: [Eve]\n")
    #expect(try commitThroughTheHook("a valid scrum") == 0)
    #expect(try box.head() != head)
    #expect(
      "notes.txt".wholeMatch(of: pattern) == nil && "scrums/ops.yaml".wholeMatch(of: pattern) != nil
    )
    #expect("history/design/2026-11-20-aaaaaaaa.yaml".wholeMatch(of: pattern) != nil)
  }
}
