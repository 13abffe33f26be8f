import Foundation
import Git
import Models
import Synchronization
import TestSupport
import Testing

@testable import Storage

/// The data repository against real git repositories.
@Suite struct DataRepositoryTests {
  /// A data repository whose git identity is in its own config: libgit2 reads HOME once per
  /// process, so in-process tests cannot point it at a sandbox's .gitconfig.
  func repository() throws -> (Sandbox, DataRepository) { try newDataRepository() }

  @Test func embeddedTemplatesMatchTheTemplatesFolder() throws {
    for (folder, embedded) in [
      ("scaffold", EmbeddedTemplates.scaffold), ("records", EmbeddedTemplates.records),
    ] {
      let base = packageRoot.appendingPathComponent("Templates/\(folder)")
      var onDisk: [String: String] = [:]
      let walker = FileManager.default.enumerator(atPath: base.path)
      while let item = walker?.nextObject() as? String {
        var isDir: ObjCBool = false
        if FileManager.default.fileExists(
          atPath: base.appendingPathComponent(item).path, isDirectory: &isDir), !isDir.boolValue
        {
          onDisk[item] = try String(contentsOf: base.appendingPathComponent(item), encoding: .utf8)
        }
      }
      let built = Dictionary(uniqueKeysWithValues: embedded.map { ($0.path, $0.text) })
      #expect(
        built == onDisk, "run python3 scripts/embed-templates.py after changing Templates/\(folder)"
      )
    }
  }

  @Test func aRepositoryMayOverrideTheRecordTemplates() throws {
    let (box, repo) = try repository()
    #expect(repo.template(for: .scrum)?.contains("title:") == true)
    try box.write(".dinger/templates/scrum.yaml", "title: Our template\n")
    #expect(repo.template(for: .scrum) == "title: Our template\n")
  }

  @Test func aBranchMovedUnderneathIsCaughtAndTheChangeRebuilt() throws {
    let (box, repo) = try repository()
    let moved = Mutex(false)
    let plainCommitRefused = Mutex(false)
    repo.beforeMovingBranch = {
      guard !moved.withLock({ $0 }) else { return }
      moved.withLock { $0 = true }
      // `git commit` can't run now: dinger holds index.lock, as git itself does while it
      // commits, so git can't commit an index that lacks dinger's change.
      try box.write("notes.txt", "hello\n")
      let refused = (try? box.git("commit", "-qam", "refused")) == nil
      plainCommitRefused.withLock { $0 = refused }
      // A writer that does not take index.lock (plumbing, a fetch into the branch) moves the
      // branch between dinger's read of HEAD and its compare-and-swap.
      let commit = try box.git("commit-tree", "HEAD^{tree}", "-p", "HEAD", "-m", "plain git commit")
      try box.git(
        "update-ref", "refs/heads/main", commit.trimmingCharacters(in: .whitespacesAndNewlines))
    }
    var change = Change(subject: "Add a file", trailers: [("Dinger-Action", "test")])
    change.write("scrums/x.yaml", "title: X\nlength: 5\nattendees: [A]\n")
    try repo.commit(change)
    #expect(moved.withLock { $0 } && plainCommitRefused.withLock { $0 })
    #expect(
      try box.git("log", "--format=%s")
        == "Add a file\nplain git commit\nSet up dinger data repository\n")
    #expect(
      try box.git("ls-files", ":!.dinger/schemas")
        == ".dinger/config.yaml\n.gitattributes\nREADME.md\nscrums/x.yaml\n")
    #expect(try box.git("status", "--porcelain") == "?? notes.txt\n")
    #expect(!FileManager.default.fileExists(atPath: box.data.path + "/.git/index.lock"))
  }

  /// A sync's work beside a write: `built` hears the commit and the bytes before any file is
  /// written; the check of what came in may finish while the files are being written, and
  /// what it throws then puts them back with nothing published.
  @Test func aRefusalBeforePublishingPutsTheFilesBackAndPublishesNothing() throws {
    let (box, repo) = try repository()
    let head = try box.git("rev-parse", "HEAD")
    let index = try Data(contentsOf: box.data.appendingPathComponent(".git/index"))
    struct Refused: Error {}
    let planned = Mutex<(PlannedWrite, onDisk: Bool)?>(nil)
    let published = Mutex<(onDisk: Bool, head: String)?>(nil)
    var change = Change(subject: "Add a file", trailers: [("Dinger-Action", "test")])
    change.write("scrums/x.yaml", "title: X\nlength: 5\nattendees: [A]\n")
    change.write("README.md", "replaced\n")
    change.remove(".gitattributes")
    let x = box.data.path + "/scrums/x.yaml"
    let hooks = WriteHooks(
      built: { write in
        planned.withLock { $0 = (write, FileManager.default.fileExists(atPath: x)) }
      },
      beforePublishing: {
        let now = try box.git("rev-parse", "HEAD")
        published.withLock { $0 = (FileManager.default.fileExists(atPath: x), now) }
        throw Refused()
      })
    #expect(throws: Refused.self) { try repo.commit(change, hooks: hooks) }
    let (write, existedWhenBuilt) = try #require(planned.withLock { $0 })
    #expect(!existedWhenBuilt)
    #expect(
      write.files.map(\.path).sorted() == ["README.md", "scrums/x.yaml"]
        && write.files.allSatisfy { change.writes[$0.path] == $0.bytes })
    #expect(write.removals == [".gitattributes"])
    #expect(try box.git("cat-file", "-t", write.commit.hex) == "commit\n")
    let (existedBeforePublishing, headThen) = try #require(published.withLock { $0 })
    #expect(existedBeforePublishing && headThen == head)
    #expect(try box.git("rev-parse", "HEAD") == head)
    #expect(try Data(contentsOf: box.data.appendingPathComponent(".git/index")) == index)
    #expect(try box.git("status", "--porcelain") == "")
    #expect(!FileManager.default.fileExists(atPath: box.data.path + "/.git/index.lock"))
    // The next write goes through as usual.
    try repo.commit(change)
    #expect(try box.git("show", "HEAD:README.md") == "replaced\n")
  }

  @Test func locateFollowsOptionEnvironmentEnclosingThenDefault() throws {
    let (box, repo) = try repository()
    let elsewhere = box.home.url.appendingPathComponent("elsewhere")
    try FileManager.default.createDirectory(
      at: elsewhere.appendingPathComponent("deep"), withIntermediateDirectories: true)
    var found = try DataRepository.locate(
      option: box.data.path, environment: [:], workingDirectory: elsewhere)
    #expect(found.origin == .option)
    found = try DataRepository.locate(
      option: nil, environment: ["DINGER_REPO": box.data.path], workingDirectory: elsewhere)
    #expect(found.origin == .environment)
    found = try DataRepository.locate(
      option: nil, environment: [:], workingDirectory: box.data.appendingPathComponent("scrums"))
    #expect(found.origin == .enclosing)
    #expect(found.repository.root.path == repo.root.path)
    // The default location is made with its own git repository; give it an identity through
    // a template-free route: make the folder a repository with local config first.
    let xdg = box.home.url.appendingPathComponent("xdg")
    // NB: a folder of its own (only a new git repository in it): a default is made only in a
    // new or empty folder, or one holding nothing but `.git`.
    let defaultRepo = xdg.appendingPathComponent("data")
    try FileManager.default.createDirectory(at: defaultRepo, withIntermediateDirectories: true)
    try box.git("init", "-q", in: defaultRepo)
    try box.git("config", "user.name", "Ada", in: defaultRepo)
    try box.git("config", "user.email", "ada@example.com", in: defaultRepo)
    // Without a chosen default: refused, nothing made.
    #expect(throws: StorageError.self) {
      try DataRepository.locate(
        option: nil, environment: ["XDG_CONFIG_HOME": xdg.path], workingDirectory: elsewhere)
    }
    #expect(
      !FileManager.default.fileExists(atPath: defaultRepo.appendingPathComponent(".dinger").path))
    try FileManager.default.createDirectory(
      at: xdg.appendingPathComponent("dinger"), withIntermediateDirectories: true)
    try "repository: \(defaultRepo.path)\n".write(
      to: xdg.appendingPathComponent("dinger/config.yaml"), atomically: true, encoding: .utf8)
    found = try DataRepository.locate(
      option: nil, environment: ["XDG_CONFIG_HOME": xdg.path],
      workingDirectory: elsewhere.appendingPathComponent("deep"))
    #expect(found.origin == .userDefault(created: true))
    #expect(found.repository.root.path == defaultRepo.path)
    found = try DataRepository.locate(
      option: nil, environment: ["XDG_CONFIG_HOME": xdg.path], workingDirectory: elsewhere)
    #expect(found.origin == .userDefault(created: false))
  }

  @Test func trailersAreRead() {
    let message = "Add scrum X\n\nA body.\n\nDinger-Action: scrum.add\nDinger-Record: abc\n"
    #expect(TrailerParser.value("Dinger-Action", in: message) == "scrum.add")
    #expect(TrailerParser.value("Dinger-Record", in: message) == "abc")
    #expect(TrailerParser.trailers(of: "Just a subject\n").isEmpty)
    #expect(TrailerParser.trailers(of: "Subject\n\nnot a trailer line\n").isEmpty)
  }
}

/// The journal a write keeps in dinger's writer lock file.
@Suite struct WriteJournalTests {
  @Test func aJournalReadsBackAndEndsAtItsEndLine() throws {
    var journal = WriteJournal(step: .moving, indexLock: FileIdentity(device: 64769, inode: 42))
    journal.branch = "refs/heads/main"
    journal.head = ObjectID(hex: String(repeating: "a", count: 40))
    journal.commit = ObjectID(hex: String(repeating: "b", count: 40))
    #expect(WriteJournal(text: journal.text) == journal)
    // A shorter journal written over a longer one, killed before the file was cut to length.
    let short = WriteJournal(step: .locked, indexLock: FileIdentity(device: 1, inode: 2))
    #expect(
      WriteJournal(text: short.text + "commit \(String(repeating: "c", count: 40))\nend\n") == short
    )
    // Cut short, or not a journal at all: none.
    #expect(WriteJournal(text: String(journal.text.dropLast(5))) == nil)
    #expect(WriteJournal(text: "") == nil)
    #expect(WriteJournal(text: "\u{1}garbage\nend\n") == nil)
  }
}

/// The activity index reads a record's id, scrum and duration from raw lines, not YAML.
@Suite struct ActivityIndexFieldTests {
  @Test func aTopLevelFieldIsReadFromItsLine() {
    func field(_ key: String, _ text: String) -> String? {
      ActivityIndex.field(key, in: Array(text.utf8))
    }
    #expect(field("duration", "id: X\nduration: 720\n") == "720")
    // Windows line ends, spaces and a comment around the value; case folded like ids.
    #expect(field("duration", "id: X\r\nduration:  720 \t# seconds\r\n") == "720")
    #expect(field("id", "id: ABC-def\r\n") == "abc-def")
    #expect(field("duration", "duration: 720\r\n") == "720")
    // Nested keys, other keys that start the same, and empty values are not it.
    #expect(field("id", "  id: nested\nidentity: x\nid:   # none\n") == nil)
    #expect(field("scrum", "") == nil)
  }
}

/// The working tree's writer refuses every path that could leave the repository.
@Suite struct WorkTreeTests {
  @Test(arguments: [
    "../x.yaml", "/etc/passwd", "scrums/../../x", ".git/config", "scrums//x", "a/.GIT/x", "",
  ])
  func pathsThatLeaveTheTreeAreRefused(path: String) throws {
    let box = try TemporaryDirectory()
    let tree = WorkTree(root: box.url)
    #expect(throws: WorkTree.Refusal.badName(path)) { try tree.write(path, [1]) }
    #expect(throws: WorkTree.Refusal.badName(path)) { try tree.remove(path) }
    #expect(throws: WorkTree.Refusal.badName(path)) { _ = try tree.read(path) }
  }

  /// A writer of many files checks each name even in the folder it has open, and a folder in a
  /// file's place is refused by name (the rename says so), leaving no temporary file.
  @Test func aWriterChecksEachNameAndRefusesAFolderInAFilesPlace() throws {
    let box = try TemporaryDirectory()
    try FileManager.default.createDirectory(
      at: box.url.appendingPathComponent("scrums/b.yaml/inner"), withIntermediateDirectories: true)
    let writer = WorkTree.Writer(WorkTree(root: box.url))
    defer { writer.close() }
    try writer.write("scrums/a.yaml", Array("a\n".utf8))
    #expect(throws: WorkTree.Refusal.badName("scrums/..")) {
      try writer.write("scrums/..", Array("x\n".utf8))
    }
    #expect(throws: WorkTree.Refusal.badName("scrums/.GIT")) {
      try writer.write("scrums/.GIT", Array("x\n".utf8))
    }
    #expect(throws: WorkTree.Refusal.isAFolder("scrums/b.yaml")) {
      try writer.write("scrums/b.yaml", Array("b\n".utf8))
    }
    try writer.write("scrums/c.yaml", Array("c\n".utf8))
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: box.path("scrums")).sorted()
        == ["a.yaml", "b.yaml", "c.yaml"])
    #expect(try box.read("scrums/c.yaml") == "c\n")
  }

  @Test func writesReplaceALinkInsteadOfFollowingIt() throws {
    let box = try TemporaryDirectory()
    try box.write("outside.txt", "keep\n")
    try FileManager.default.createDirectory(
      at: box.url.appendingPathComponent("repo/scrums"), withIntermediateDirectories: true)
    let tree = WorkTree(root: box.url.appendingPathComponent("repo"))
    try FileManager.default.createSymbolicLink(
      atPath: box.path("repo/scrums/a.yaml"), withDestinationPath: box.path("outside.txt"))
    #expect(throws: WorkTree.Refusal.link("scrums/a.yaml")) {
      try tree.checkWritable("scrums/a.yaml")
    }
    #expect(throws: WorkTree.Refusal.link("scrums/a.yaml")) { _ = try tree.read("scrums/a.yaml") }
    // Even when asked to (the check came first and raced), the link itself is replaced.
    try tree.write("scrums/a.yaml", Array("new\n".utf8))
    #expect(try box.read("outside.txt") == "keep\n")
    #expect(try tree.read("scrums/a.yaml") == Array("new\n".utf8))
  }
}

/// A data repository set up by dinger in a sandbox, with Ada as git's user (the storage suites'
/// common start).
func newDataRepository() throws -> (Sandbox, DataRepository) {
  let box = try Sandbox()
  try FileManager.default.createDirectory(at: box.data, withIntermediateDirectories: true)
  try box.git("init", "-q", "-b", "main")
  try box.git("config", "user.name", "Ada Lovelace")
  try box.git("config", "user.email", "ada@example.com")
  return (box, try DataRepository.initialize(at: box.data))
}
