import Foundation
import TestSupport
import Testing

/// libgit2 and its 15 libraries (Kerberos, libcrypto, mbedTLS, ssh2) are loaded with dlopen on
/// the first libgit2 call (Sources/CGit2): half of a warm start went to mapping and relocating
/// them, and most commands read the working tree without ever calling libgit2.
@Suite struct LazyLibgit2Tests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// The libraries the dynamic loader opened while dinger ran (LD_DEBUG=files names each).
  func loaded(_ sandbox: Sandbox, _ args: String...) throws -> (ProcessResult, [String]) {
    let r = try sandbox.dinger(args, env: ["LD_DEBUG": "files"])
    let opened = r.stderr.split(separator: "\n").compactMap { line -> String? in
      guard let at = line.range(of: "file=") else { return nil }
      return String(line[at.upperBound...].prefix { $0 != " " && $0 != "\t" })
    }
    return (r, opened)
  }

  /// The stubs are those scripts/git2-stubs.py writes from the libgit2 functions the code calls.
  @Test func theStubsMatchTheCallsTheCodeMakes() throws {
    let r = try ProcessRunner.run(
      ProcessRunner.which("python3") ?? "/usr/bin/python3",
      [Self.root.appendingPathComponent("scripts/git2-stubs.py").path, "--check"])
    #expect(r.status == 0, "\(r.stderr)")
  }

  @Test func dingerDoesNotNeedLibgit2ToStart() throws {
    let r = try ProcessRunner.run("/usr/bin/readelf", ["-d", dingerBinary])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains("(NEEDED)"), "\(r.stdout)")
    #expect(!r.stdout.contains("libgit2"), "\(r.stdout)")
  }

  /// Listing reads the working tree: no libgit2. Committing and the log need it, load it,
  /// and work (the commit is git's to read).
  @Test func onlyCommandsThatUseGitLoadIt() throws {
    let sandbox = try Sandbox()
    #expect(try sandbox.dinger("init").status == 0)
    let (version, atVersion) = try loaded(sandbox, "--version")
    #expect(version.status == 0)
    #expect(!atVersion.isEmpty, "LD_DEBUG said nothing: \(version.stderr)")
    #expect(!atVersion.contains { $0.contains("libgit2") }, "\(atVersion)")

    let (made, atNew) = try loaded(
      sandbox, "scrum", "new", "Daily", "--attendee", "Ada", "--attendee", "Bo")
    #expect(made.status == 0, "\(made.stderr)")
    #expect(atNew.contains { $0.contains("libgit2") }, "\(atNew)")
    #expect(try sandbox.git("log", "-1", "--format=%s").contains("Daily"))

    let (list, atList) = try loaded(sandbox, "scrum", "list")
    #expect(list.status == 0 && list.stdout.contains("Daily"), "\(list.stdout)")
    #expect(!atList.contains { $0.contains("libgit2") }, "\(atList)")

    let (log, atLog) = try loaded(sandbox, "log")
    #expect(log.status == 0 && log.stdout.contains("Daily"), "\(log.stdout)\(log.stderr)")
    #expect(atLog.contains { $0.contains("libgit2") }, "\(atLog)")
  }

  /// No process-wide symbol interposition (docs/architecture.md): dinger defines none of the
  /// functions of the libraries it loads, so each of libgit2's calls reaches its own library
  /// (dinger used to export two mbedTLS functions to skip libgit2's certificate parsing).
  @Test func dingerInterposesNoLibrarysSymbols() throws {
    let nm = try #require(ProcessRunner.which("nm"), "binutils' nm")
    let r = try ProcessRunner.run(nm, ["-D", "--defined-only", dingerBinary])
    #expect(r.status == 0, "\(r.stderr)")
    let foreign = r.stdout.split(separator: "\n").filter { line in
      ["mbedtls_", "git_", "curl_", "yaml_", "ssl_", "SSL_"].contains { line.contains(" " + $0) }
    }
    #expect(foreign.isEmpty, "\(foreign.prefix(5))")
  }

  /// Without a loadable libgit2 a command that needs it says what to install and exits 1; the
  /// others still work (the dynamic loader used to refuse to start dinger at all). libgit2 is
  /// hidden behind an empty file in a mount namespace of the test's own (root only).
  static let installed = "/lib/x86_64-linux-gnu/libgit2.so.1.5"
  @Test(.enabled(if: getuid() == 0 && FileManager.default.fileExists(atPath: installed)))
  func aMissingLibgit2IsNamedWithItsPackage() throws {
    let sandbox = try Sandbox()
    #expect(try sandbox.dinger("init").status == 0)
    let library = try FileManager.default.destinationOfSymbolicLink(
      atPath: Self.installed)
    let script = """
      mount --bind /dev/null /lib/x86_64-linux-gnu/\(library) || exit 99
      "$0" log; echo "log=$?"
      "$0" scrum list; echo "list=$?"
      """
    let r = try ProcessRunner.run(
      "/usr/bin/unshare", ["-m", "/bin/sh", "-c", script, dingerBinary], in: sandbox.data,
      environment: sandbox.environment)
    #expect(r.stdout.contains("log=1"), "\(r.stdout)\(r.stderr)")
    #expect(r.stdout.contains("list=0"), "\(r.stdout)\(r.stderr)")
    #expect(r.stderr.contains("can't load libgit2.so.1.5"), "\(r.stderr)")
    #expect(r.stderr.contains("apt-get install libgit2-1.5"), "\(r.stderr)")
  }
}
