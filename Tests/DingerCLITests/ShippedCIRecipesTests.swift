import Foundation
import TestSupport
import Testing

/// Installing a package on this machine, one test at a time (the package tests and the
/// recipes that install dinger's package share /usr/bin/dinger).
enum SystemPackages {
  private static let lock = NSLock()

  /// Runs `body` alone among the tests that install packages.
  static func exclusive<T>(_ body: () throws -> T) rethrows -> T {
    lock.lock()
    defer { lock.unlock() }
    return try body()
  }

  /// Removes dinger's packages, as a job's container is thrown away after it.
  static func removeDinger() {
    _ = try? ProcessRunner.run(
      "/usr/bin/apt-get", ["remove", "-y", "-qq", "dinger-transcribe", "dinger"], timeout: 300)
  }
}

/// The CI recipes that ship with dinger, run as their runners run them: every shell step in
/// order (Fixtures/CI/runner.py: the runner's shell, variables and conditions, a checkout owned
/// by another user as in a container job, caches kept between runs), on a real data repository
/// cloned from a bare remote, with dinger installed exactly as the recipe installs it (its
/// package, downloaded from a local server standing in for the releases page), reminders and
/// digests posted to a local webhook. The release recipe builds the packages the others
/// install. A copy without its safe.directory step, or with a Swift image older than
/// Package.swift's tools version, fails.
@Suite(
  .serialized,
  .enabled(
    if: Prerequisite.met(
      BuiltPackage.path != nil && getuid() == 0 && ProcessRunner.which("python3") != nil
        && !FileManager.default.fileExists(atPath: "/usr/bin/dinger")),
    "needs root, python3 and the package (make test builds it), and no dinger in /usr/bin"))
struct ShippedCIRecipesTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
  static let runner = root.appendingPathComponent("Tests/DingerCLITests/Fixtures/CI/runner.py")

  /// A team's data repository with a stand-up about to start and today's entries, its bare
  /// remote, the package on a local "releases" server and a webhook receiver.
  final class Rig {
    let box: Sandbox
    let remote: String
    var servers: [pid_t] = []
    var debURL = ""
    var hook = ""
    let hookLog: String

    init() throws {
      box = try Sandbox()
      expectOK(try box.dinger("init"))
      // A stand-up five minutes from now (UTC), every day: `remind --before 10m` is due.
      let soon = Date().addingTimeInterval(300)
      var utc = Calendar(identifier: .gregorian)
      utc.timeZone = TimeZone(identifier: "UTC")!
      let at = String(
        format: "%02d:%02d", utc.component(.hour, from: soon), utc.component(.minute, from: soon))
      expectOK(
        try box.dinger(
          "scrum", "new", "Platform", "--attendee", "Ada Lovelace", "--attendee", "Grace Hopper",
          "--at", at, "--days", "daily", "--zone", "UTC"))
      expectOK(
        try box.dinger(["standup", "platform", "--yesterday", "Reviews", "--today", "Release 2.4"]))
      remote = box.home.path("remote.git")
      let ready = box.home.path("hook-port")
      hookLog = ready + ".log"
      _ = try box.git(["clone", "-q", "--bare", box.data.path, remote], in: box.home.url)
      let package = try #require(BuiltPackage.path)
      let real = URL(fileURLWithPath: package).resolvingSymlinksInPath()
      debURL =
        "http://127.0.0.1:\(try serve(real.deletingLastPathComponent()))/\(real.lastPathComponent)"
      try box.home.write("receiver.py", DigestPostTests.receiver)
      servers.append(
        try ProcessRunner.start(
          ProcessRunner.which("python3")!, [box.home.path("receiver.py"), ready]))
      let port = try waitForLine(ready).split(separator: " ")[0]
      hook = "http://127.0.0.1:\(port)/ok/T000/B000/SECRET"
    }

    deinit { servers.forEach { ProcessRunner.stop($0) } }

    /// Serves `folder` over http on 127.0.0.1; its port.
    func serve(_ folder: URL) throws -> Int {
      let port = GitDaemon.freePort()
      servers.append(
        try ProcessRunner.start(
          ProcessRunner.which("python3")!,
          ["-m", "http.server", "--bind", "127.0.0.1", "--directory", folder.path, String(port)]))
      #expect(GitDaemon.waitListening(port))
      return port
    }

    func waitForLine(_ path: String) throws -> String {
      for _ in 0..<400 {
        if let text = try? String(contentsOfFile: path, encoding: .utf8), !text.isEmpty {
          return text
        }
        usleep(25_000)
      }
      throw CancellationError()
    }

    /// What the webhook received, a JSON line a post.
    var posts: [String] {
      ((try? String(contentsOfFile: hookLog, encoding: .utf8)) ?? "").split(separator: "\n")
        .map(String.init)
    }

    /// A copy of `recipe` with its placeholder set, as the person setting it up does, and
    /// `edit` applied.
    func copy(_ recipe: String, edit: (String) -> String = { $0 }) throws -> String {
      let text = try String(
        contentsOf: ShippedCIRecipesTests.root.appendingPathComponent(recipe), encoding: .utf8)
      let placeholder =
        "\"REPLACE-ME: the https address of dinger_VERSION-1_amd64.deb from dinger's releases\""
      #expect(text.contains(placeholder), "\(recipe) lost its placeholder")
      let path = box.home.path(
        "recipe-\(UUID().uuidString).yml")
      try edit(text.replacingOccurrences(of: placeholder, with: "\"\(debURL)\"")).write(
        toFile: path, atomically: true, encoding: .utf8)
      return path
    }

    /// The runner on `file`; the package is removed afterwards, as the job's container is.
    func run(_ kind: String, _ file: String, _ arguments: [String]) throws -> ProcessResult {
      try SystemPackages.exclusive {
        defer { SystemPackages.removeDinger() }
        return try ProcessRunner.run(
          ProcessRunner.which("python3")!,
          [
            ShippedCIRecipesTests.runner.path, kind, file, "--repo", remote, "--work",
            box.home.path("runs"), "--cache", box.home.path("ci-cache"),
            "--secret", "STANDUP_WEBHOOK=\(hook)", "--var", "STANDUP_FORMAT=slack",
          ] + arguments,
          // NB: the runner's own PATH finds the toolchain, which stands in for a Swift image.
          environment: ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"],
          timeout: 600)
      }
    }
  }

  static func passed(_ r: ProcessResult, _ steps: [String]) {
    #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
    for step in steps {
      #expect(
        r.stdout.contains("step \(step): ok"), "\(step) did not pass:\n\(r.stdout)\(r.stderr)")
    }
  }

  @Test func theGitHubRecipeRunsOnEveryEvent() throws {
    let rig = try Rig()
    let recipe = try rig.copy("docs/examples/github-actions.yml")
    let push = try rig.run("github", recipe, ["--event", "push"])
    Self.passed(
      push,
      [
        "Install dinger", "Trust the checkout", "Check the records",
        "Calendar and report", "actions/upload-pages-artifact@v3",
      ])
    #expect(
      push.stdout.contains("job remind: skipped") && push.stdout.contains("job digest: skipped"))
    let pages = rig.box.home.url.appendingPathComponent("runs/publish/workspace/site")
    #expect(
      FileManager.default.fileExists(atPath: pages.appendingPathComponent("standups.ics").path))

    // A reminder run: install and remind in under a minute, one post, the secret in no log.
    let started = Date()
    let remind = try rig.run(
      "github", recipe, ["--event", "schedule", "--schedule", "*/5 6-18 * * 1-5"])
    let took = Date().timeIntervalSince(started)
    Self.passed(remind, ["Install dinger", "Reminders"])
    #expect(took < 60, "the reminder job took \(took) s")
    #expect(rig.posts.count == 1 && rig.posts[0].contains("Platform"), "\(rig.posts)")
    #expect(!remind.stdout.contains("SECRET") && !remind.stderr.contains("SECRET"))
    // The next tick: the cache carries what was sent, nothing is sent twice.
    let again = try rig.run(
      "github", recipe, ["--event", "schedule", "--schedule", "*/5 6-18 * * 1-5"])
    Self.passed(again, ["Reminders"])
    #expect(rig.posts.count == 1, "\(rig.posts)")

    let digest = try rig.run(
      "github", recipe, ["--event", "schedule", "--schedule", "30 17 * * 1-5"])
    Self.passed(digest, ["Digest"])
    #expect(rig.posts.count == 2 && rig.posts[1].contains("Release 2.4"), "\(rig.posts)")
  }

  @Test func theGitLabRecipeRunsOnEveryPipeline() throws {
    let rig = try Rig()
    let recipe = try rig.copy("docs/examples/gitlab-ci.yml")
    let push = try rig.run("gitlab", recipe, ["--source", "push"])
    Self.passed(push, ["check", "pages"])
    #expect(push.stdout.contains("job remind: skipped"))
    let started = Date()
    let remind = try rig.run(
      "gitlab", recipe, ["--source", "schedule", "--var", "STANDUP_JOB=remind"])
    let took = Date().timeIntervalSince(started)
    Self.passed(remind, ["remind"])
    #expect(took < 60, "the reminder job took \(took) s")
    #expect(remind.stdout.contains("job digest: skipped"))
    #expect(rig.posts.count == 1 && rig.posts[0].contains("Platform"), "\(rig.posts)")
    let again = try rig.run(
      "gitlab", recipe, ["--source", "schedule", "--var", "STANDUP_JOB=remind"])
    Self.passed(again, ["remind"])
    #expect(rig.posts.count == 1, "\(rig.posts)")
    let digest = try rig.run(
      "gitlab", recipe, ["--source", "schedule", "--var", "STANDUP_JOB=digest"])
    Self.passed(digest, ["digest"])
    #expect(rig.posts.count == 2 && rig.posts[1].contains("Release 2.4"), "\(rig.posts)")
  }

  /// The checkout belongs to another user: without the safe.directory line, dinger refuses the
  /// repository (as git does) and the job fails.
  @Test(arguments: ["github", "gitlab"]) func withoutSafeDirectoryTheJobFails(kind: String) throws {
    let rig = try Rig()
    let file = kind == "github" ? "docs/examples/github-actions.yml" : "docs/examples/gitlab-ci.yml"
    let recipe = try rig.copy(file) { text in
      text.split(separator: "\n", omittingEmptySubsequences: false)
        .filter {
          !$0.contains("safe.directory") || $0.trimmingCharacters(in: .whitespaces).hasPrefix("#")
        }
        .joined(separator: "\n")
        .replacingOccurrences(of: "      - *safe\n", with: "")
        .replacingOccurrences(of: "      - &safe\n        name: Trust the checkout\n", with: "")
    }
    let r = try rig.run(
      kind, recipe, kind == "github" ? ["--event", "push"] : ["--source", "push"])
    #expect(r.status == 1, "\(r.stdout)")
    #expect(r.stderr.contains("detected dubious ownership"), "\(r.stderr)")
  }

  /// A copy still holding its placeholder fails at once, saying what to set.
  @Test func anUnsetPackageAddressIsSaid() throws {
    let rig = try Rig()
    let text = try String(
      contentsOf: Self.root.appendingPathComponent("docs/examples/github-actions.yml"),
      encoding: .utf8)
    let path = rig.box.home.path("as-shipped.yml")
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    let r = try rig.run("github", path, ["--event", "push"])
    #expect(r.status == 1)
    #expect(r.stdout.contains("set DINGER_DEB"), "\(r.stdout)")
  }

  /// dinger's release recipe, run on this tree for a version tag: `make deb` builds both
  /// packages, and both are attached. An image whose Swift is older than Package.swift's tools
  /// version fails as SwiftPM would.
  @Test func theReleaseRecipeBuildsBothPackages() throws {
    let rig = try Rig()
    let recipe = Self.root.appendingPathComponent(".github/workflows/release.yml").path
    let version = try ProcessRunner.run(dingerBinary, ["--version"]).stdout
      .trimmingCharacters(in: .whitespacesAndNewlines)
    let r = try rig.run(
      "github", recipe,
      ["--event", "push", "--source-tree", Self.root.path, "--ref-name", "v\(version)"])
    Self.passed(r, ["Build the packages", "softprops/action-gh-release@v2"])
    #expect(r.stdout.contains("release asset: dinger_\(version)-1_"), "\(r.stdout)")
    #expect(r.stdout.contains("release asset: dinger-transcribe_\(version)-1_"), "\(r.stdout)")
  }

  @Test func anOlderSwiftImageFailsTheRelease() throws {
    let rig = try Rig()
    let text = try String(
      contentsOf: Self.root.appendingPathComponent(".github/workflows/release.yml"),
      encoding: .utf8)
    let tools = try Self.toolsVersion()
    let image = "swift:\(tools)-bookworm"
    #expect(text.contains("container: \(image)"), "the release image is not \(image)")
    let older = text.replacingOccurrences(
      of: "container: \(image)", with: "container: swift:6.1-bookworm")
    let path = rig.box.home.path("release-old.yml")
    try older.write(toFile: path, atomically: true, encoding: .utf8)
    let r = try rig.run("github", path, ["--event", "push", "--source-tree", Self.root.path])
    #expect(r.status != 0)
    #expect(r.stdout.contains("SwiftPM refuses the package"), "\(r.stdout)\(r.stderr)")
  }

  static func toolsVersion() throws -> String {
    let package = try String(
      contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
    let first = package.split(separator: "\n")[0]
    return String(try #require(first.split(separator: ":").last)).trimmingCharacters(
      in: .whitespaces)
  }
}

/// The Swift image of every recipe and example is the swift-tools-version Package.swift
/// declares: the two cannot drift apart (a 6.1 image refused the 6.2 package).
@Suite struct ToolchainImageTests {
  @Test func everySwiftImageIsThePackagesToolsVersion() throws {
    let tools = try ShippedCIRecipesTests.toolsVersion()
    let root = ShippedCIRecipesTests.root
    var files = [".github/workflows/release.yml"]
    for folder in ["docs", "docs/examples"] {
      files += try FileManager.default.contentsOfDirectory(
        atPath: root.appendingPathComponent(folder).path
      ).filter { $0.hasSuffix(".md") || $0.hasSuffix(".yml") }.map { "\(folder)/\($0)" }
    }
    var images = 0
    for file in files + ["README.md"] {
      let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
      for line in text.split(separator: "\n") where line.contains("swift:") {
        guard let range = line.range(of: #"swift:\d+\.\d+"#, options: .regularExpression)
        else { continue }
        images += 1
        #expect(
          line[range] == "swift:\(tools)",
          "\(file): \(line.trimmingCharacters(in: .whitespaces)) is not Swift \(tools)")
      }
    }
    #expect(images >= 1)
  }
}
