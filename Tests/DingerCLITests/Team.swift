import Foundation
import TestSupport
import Testing

/// A team for sync tests: a bare remote and clones, each with its own git identity, all in one
/// sandbox. The first clone makes the data repository and a scrum, then the others clone it.
final class Team: @unchecked Sendable {
  let box: Sandbox
  let remote: URL
  private(set) var members: [String: URL] = [:]
  private(set) var plainMembers: Set<String> = []

  /// What serves the remote over a network: its address, the variables clients need, and the
  /// server to keep alive.
  typealias Serve = (Sandbox, URL) throws -> (url: String, env: [String: String], server: AnyObject)
  private var server: AnyObject?

  /// `dingers` clone with `dinger clone`; `plain` ones with `git clone` and use only git.
  /// With `serve`, everyone reaches the remote through that server (ssh, https, git://).
  init(
    dingers: [String] = ["ada", "grace", "linus"], plain: [String] = [], remoteURL: String? = nil,
    serve: Serve? = nil
  ) throws {
    box = try Sandbox()
    remote = box.home.url.appendingPathComponent("remote.git")
    try box.git("init", "-q", "--bare", "-b", "main", remote.path, in: box.home.url)
    var remoteURL = remoteURL
    var cloneURL = remote.path
    if let serve {
      let served = try serve(box, remote)
      (remoteURL, cloneURL, server) = (served.url, served.url, served.server)
      box.extraEnvironment = served.env
    }
    let first = dingers[0]
    let firstDir = box.home.url.appendingPathComponent(first)
    try expectOK(box.dinger("init", firstDir.path, in: box.home.url))
    members[first] = firstDir
    try identify(first)
    try expectOK(run(first, "remote", "add", "origin", remoteURL ?? remote.path))
    try expectOK(
      run(
        first, "scrum", "new", "Design Review", "--attendee", "Ada", "--attendee", "Grace",
        "--length", "10"))
    try expectOK(run(first, "sync"))
    for name in dingers.dropFirst() {
      try expectOK(box.dinger("clone", cloneURL, name, in: box.home.url))
      members[name] = box.home.url.appendingPathComponent(name)
      try identify(name)
    }
    for name in plain {
      try box.git("clone", "-q", cloneURL, name, in: box.home.url)
      members[name] = box.home.url.appendingPathComponent(name)
      plainMembers.insert(name)
      try identify(name)
      // What the README tells a plain-git teammate to run once.
      try git(name, "config", "merge.dinger.driver", "\(dingerBinary) merge-driver %O %A %B %P")
      try git(name, "config", "pull.rebase", "false")
    }
  }

  private func identify(_ name: String) throws {
    try git(name, "config", "user.name", name.capitalized)
    try git(name, "config", "user.email", "\(name)@example.com")
  }

  func dir(_ name: String) -> URL { members[name]! }

  @discardableResult
  func run(_ name: String, _ args: String...) throws -> ProcessResult {
    try box.dinger(args, in: dir(name))
  }

  @discardableResult
  func git(_ name: String, _ args: String...) throws -> String {
    try box.git(args, in: dir(name))
  }

  /// Runs git and returns the whole result (for commands expected to fail).
  func gitResult(_ name: String, _ args: String...) throws -> ProcessResult {
    try ProcessRunner.run(
      ProcessRunner.which("git") ?? "/usr/bin/git", args, in: dir(name),
      environment: box.environment)
  }

  func read(_ name: String, _ path: String) throws -> String {
    try String(contentsOf: dir(name).appendingPathComponent(path), encoding: .utf8)
  }

  func write(_ name: String, _ path: String, _ text: String) throws {
    let url = dir(name).appendingPathComponent(path)
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try text.write(to: url, atomically: true, encoding: .utf8)
  }

  /// Every dinger member syncs in turn, twice round, so everyone ends with everything.
  func syncAll(sourceLocation: SourceLocation = #_sourceLocation) throws {
    for _ in 0..<2 {
      for name in members.keys.sorted() where !isPlain(name) {
        let r = try run(name, "sync")
        // NB: a sync that recorded conflicts exits 1 and says so; it still synced.
        let conflicted = r.status == 1 && r.stderr.contains("error: the sync finished, but ")
        #expect(r.status == 0 || conflicted, "\(name): \(r.stderr)", sourceLocation: sourceLocation)
      }
    }
  }

  func isPlain(_ name: String) -> Bool { plainMembers.contains(name) }

  /// All members and the remote hold one tree; git is happy everywhere; no conflict markers.
  func expectConverged(sourceLocation: SourceLocation = #_sourceLocation) throws {
    let remoteTree = try box.git("rev-parse", "main^{tree}", in: remote)
    for name in members.keys.sorted() {
      #expect(
        try git(name, "rev-parse", "HEAD^{tree}") == remoteTree, "\(name)",
        sourceLocation: sourceLocation)
      #expect(
        try git(name, "status", "--porcelain") == "", "\(name)", sourceLocation: sourceLocation)
      #expect(try git(name, "fsck", "--full") == "", "\(name)", sourceLocation: sourceLocation)
      let markers = try gitResult(name, "grep", "-n", "-E", "^(<<<<<<<|>>>>>>>|=======)")
      #expect(markers.stdout == "", "\(name): \(markers.stdout)", sourceLocation: sourceLocation)
    }
    #expect(try box.git("fsck", "--full", in: remote) == "", sourceLocation: sourceLocation)
  }
}

func expectOK(_ result: ProcessResult, sourceLocation: SourceLocation = #_sourceLocation) {
  #expect(result.status == 0, "\(result.stdout)\(result.stderr)", sourceLocation: sourceLocation)
}
