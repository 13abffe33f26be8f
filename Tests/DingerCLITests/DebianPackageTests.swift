import Foundation
import TestSupport
import Testing

/// The package `make test` built (`make deb`), named in DINGER_TEST_DEB.
enum BuiltPackage {
  static var path: String? {
    guard let path = ProcessInfo.processInfo.environment["DINGER_TEST_DEB"],
      FileManager.default.fileExists(atPath: path)
    else { return nil }
    return path
  }
}

/// The helper's package, built beside dinger's (`make deb`).
enum BuiltHelperPackage {
  static var path: String? {
    guard let dinger = BuiltPackage.path else { return nil }
    let real = URL(fileURLWithPath: dinger).resolvingSymlinksInPath()
    let name = real.lastPathComponent.replacingOccurrences(
      of: "dinger_", with: "dinger-transcribe_")
    let path = real.deletingLastPathComponent().appendingPathComponent(name).path
    return FileManager.default.fileExists(atPath: path) ? path : nil
  }
}

/// `make deb`: two packages, dinger and dinger-transcribe (the speech helper, with PocketSphinx
/// and PulseAudio's library), each without a lintian error. dinger alone, installed without
/// recommends, pulls in nothing of speech or sound, and its stand-ups, digest and sync work;
/// `meet --transcribe` then says which package to install. With the helper's package, every file
/// is in place (man pages, completions), and `apt-get remove` takes all away again. `make test`
/// builds the packages first and names dinger's in DINGER_TEST_DEB; installing needs root (the
/// CI machine runs as root).
@Suite(
  .serialized,
  .enabled(
    if: Prerequisite.met(BuiltPackage.path != nil && BuiltHelperPackage.path != nil),
    "needs the packages: make test builds them (make deb) and names dinger's in DINGER_TEST_DEB"))
struct DebianPackageTests {
  static var package: String { BuiltPackage.path! }
  static var helper: String { BuiltHelperPackage.path! }

  static func field(_ name: String, of package: String) throws -> String {
    try ProcessRunner.run("/usr/bin/dpkg-deb", ["-f", package, name]).stdout
      .trimmingCharacters(in: .whitespacesAndNewlines)
  }

  @Test(arguments: ["dinger", "dinger-transcribe"]) func lintianFindsNoError(name: String) throws {
    let lintian = try #require(ProcessRunner.which("lintian"), "make deb installs lintian")
    let file = name == "dinger" ? Self.package : Self.helper
    let r = try ProcessRunner.run(lintian, [file], timeout: 300)
    let errors = r.stdout.split(separator: "\n").filter { $0.hasPrefix("E:") }
    #expect(errors.isEmpty, "\(errors.joined(separator: "\n"))")
    #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
  }

  @Test func dingersPackageNeedsNothingOfSpeechOrSound() throws {
    let depends = try Self.field("Depends", of: Self.package)
    for library in ["libgit2-", "libcurl4", "libyaml-0-2"] {
      #expect(depends.contains(library), "Depends: \(depends)")
    }
    #expect(try Self.field("Recommends", of: Self.package).contains("bash-completion"))
    #expect(try Self.field("Suggests", of: Self.package).contains("dinger-transcribe"))
    // Everything apt would install for it without recommends, resolved by apt itself: no
    // PocketSphinx, no PulseAudio.
    let names = depends.split(separator: ",").map {
      String($0.split(separator: " ")[0].split(separator: "|")[0]).trimmingCharacters(
        in: .whitespaces)
    }
    let closure = try ProcessRunner.run(
      "/usr/bin/apt-cache",
      [
        "depends", "--recurse", "--no-recommends", "--no-suggests", "--no-conflicts", "--no-breaks",
        "--no-replaces", "--no-enhances",
      ] + names, timeout: 300)
    #expect(closure.status == 0, "\(closure.stderr)")
    let pulled = closure.stdout.split(separator: "\n").filter { !$0.hasPrefix(" ") }
    #expect(pulled.count > names.count, "apt resolved nothing: \(closure.stdout.prefix(300))")
    for line in pulled {
      #expect(
        !line.contains("pocketsphinx") && !line.contains("pulse") && !line.contains("sphinxbase"),
        "dinger pulls in \(line)")
    }
    let files = try ProcessRunner.run("/usr/bin/dpkg-deb", ["-c", Self.package]).stdout
    for file in [
      "./usr/bin/dinger", "./usr/share/man/man1/dinger.1.gz",
      "./usr/share/bash-completion/completions/dinger",
      "./usr/share/zsh/vendor-completions/_dinger",
      "./usr/share/fish/vendor_completions.d/dinger.fish", "./usr/share/doc/dinger/copyright",
      "./usr/share/doc/dinger/changelog.Debian.gz",
    ] {
      #expect(files.contains(file + "\n"), "\(file) is not in the package")
    }
    #expect(!files.contains("dinger-transcribe"), "the helper is in dinger's package")
    let helper = try ProcessRunner.run("/usr/bin/dpkg-deb", ["-c", Self.helper]).stdout
    for file in [
      "./usr/bin/dinger-transcribe", "./usr/share/man/man1/dinger-transcribe.1.gz",
      "./usr/share/doc/dinger-transcribe/copyright",
    ] {
      #expect(helper.contains(file + "\n"), "\(file) is not in the helper's package")
    }
    let helperDepends = try Self.field("Depends", of: Self.helper)
    for library in ["libpocketsphinx", "libpulse", "pocketsphinx-en-us", "dinger (= "] {
      #expect(helperDepends.contains(library), "Depends: \(helperDepends)")
    }
  }

  @Test(
    .enabled(if: getuid() == 0, "installing a package needs root"),
    .enabled(
      if: !FileManager.default.fileExists(atPath: "/usr/bin/dinger"),
      "a dinger is installed in /usr/bin already; not replacing it"))
  func installsAloneOrWithTheHelperAndRemovesCleanly() throws {
    try SystemPackages.exclusive {
      defer { SystemPackages.removeDinger() }
      try installAndCheck()
    }
  }

  func installAndCheck() throws {
    let install = try ProcessRunner.run(
      "/usr/bin/apt-get", ["install", "-y", "-qq", "--no-install-recommends", Self.package],
      environment: ["DEBIAN_FRONTEND": "noninteractive", "PATH": "/usr/sbin:/usr/bin:/sbin:/bin"],
      timeout: 300)
    #expect(install.status == 0, "\(install.stdout)\(install.stderr)")
    let version = try Self.field("Version", of: Self.package)
    // On PATH, with nothing of the toolchain: a clean environment.
    let box = try Sandbox()
    let env = box.environment.merging(["PATH": "/usr/bin:/bin"]) { $1 }
    let which = try ProcessRunner.run("/bin/sh", ["-c", "command -v dinger"], environment: env)
    #expect(which.stdout == "/usr/bin/dinger\n")
    let v = try ProcessRunner.run("/usr/bin/dinger", ["--version"], environment: env)
    #expect(
      v.status == 0
        && version.hasPrefix(v.stdout.trimmingCharacters(in: .whitespacesAndNewlines) + "-"),
      "\(v.stdout) against \(version)")
    let ldd = try ProcessRunner.run("/usr/bin/ldd", ["/usr/bin/dinger"])
    #expect(!ldd.stdout.contains("libswift"), "\(ldd.stdout)")
    // A teammate who writes stand-ups, reads the digest and syncs: all without the helper.
    try FileManager.default.createDirectory(at: box.data, withIntermediateDirectories: true)
    func installed(_ args: String...) throws -> ProcessResult {
      try ProcessRunner.run("/usr/bin/dinger", args, in: box.data, environment: env)
    }
    #expect(try installed("init").status == 0)
    #expect(try installed("scrum", "new", "Design", "--attendee", "Ada").status == 0)
    let standup = try installed("standup", "design", "--as", "Ada", "--today", "Ship the package")
    #expect(standup.status == 0, "\(standup.stderr)")
    let digest = try installed("digest")
    #expect(digest.status == 0 && digest.stdout.contains("Ship the package"), "\(digest.stderr)")
    _ = try box.git(["init", "-q", "--bare", box.home.path("remote.git")], in: box.home.url)
    #expect(try installed("remote", "add", "origin", box.home.path("remote.git")).status == 0)
    let sync = try installed("sync")
    #expect(sync.status == 0, "\(sync.stderr)")
    // A recording to transcribe (a second of silence): the helper is what is missing.
    var wav = Data("RIFF".utf8)
    func le(_ v: UInt32, _ n: Int) -> Data { Data((0..<n).map { UInt8((v >> (8 * $0)) & 0xff) }) }
    wav += le(36 + 32_000, 4) + Data("WAVEfmt ".utf8) + le(16, 4) + le(1, 2) + le(1, 2)
    wav += le(16_000, 4) + le(32_000, 4) + le(2, 2) + le(16, 2) + Data("data".utf8)
    wav += le(32_000, 4) + Data(count: 32_000)
    let recording = box.home.url.appendingPathComponent("stand-up.wav")
    try wav.write(to: recording)
    let transcribe = try installed(
      "meet", "design", "--record", "--audio", recording.path, "--turn", "Ada=0")
    #expect(transcribe.status != 0)
    #expect(
      transcribe.stderr.contains("install the dinger-transcribe package"), "\(transcribe.stderr)")

    let man = try ProcessRunner.run(
      "/usr/bin/man", ["-P", "cat", "dinger"], environment: env.merging(["MANWIDTH": "80"]) { $1 })
    #expect(man.status == 0 && man.stdout.contains("scrum"), "\(man.stderr)")
    let complete = try ProcessRunner.run(
      "/bin/bash",
      [
        "-c",
        """
        source /usr/share/bash-completion/completions/dinger
        COMP_WORDS=(dinger hi); COMP_CWORD=1; COMP_LINE="dinger hi"; COMP_POINT=9
        _dinger dinger hi dinger; printf '%s\\n' "${COMPREPLY[@]}"
        """,
      ], environment: env)
    #expect(complete.stdout == "history\n", "\(complete.stdout)\(complete.stderr)")

    // With the helper's package: its program and man page.
    let helper = try ProcessRunner.run(
      "/usr/bin/apt-get", ["install", "-y", "-qq", Self.helper],
      environment: ["DEBIAN_FRONTEND": "noninteractive", "PATH": "/usr/sbin:/usr/bin:/sbin:/bin"],
      timeout: 300)
    #expect(helper.status == 0, "\(helper.stdout)\(helper.stderr)")
    let usage = try ProcessRunner.run("/usr/bin/dinger-transcribe", ["nonsense"], environment: env)
    #expect(usage.status == 64, "\(usage.stdout)\(usage.stderr)")
    let helperMan = try ProcessRunner.run(
      "/usr/bin/man", ["-P", "cat", "dinger-transcribe"],
      environment: env.merging(["MANWIDTH": "80"]) { $1 })
    #expect(
      helperMan.status == 0 && helperMan.stdout.contains("speech recognition helper"),
      "\(helperMan.stderr)")

    let remove = try ProcessRunner.run(
      "/usr/bin/apt-get", ["remove", "-y", "-qq", "dinger-transcribe", "dinger"], timeout: 300)
    #expect(remove.status == 0, "\(remove.stdout)\(remove.stderr)")
    for path in [
      "/usr/bin/dinger", "/usr/bin/dinger-transcribe", "/usr/share/man/man1/dinger.1.gz",
      "/usr/share/man/man1/dinger-transcribe.1.gz",
      "/usr/share/bash-completion/completions/dinger", "/usr/share/doc/dinger",
    ] {
      #expect(!FileManager.default.fileExists(atPath: path), "\(path) is left behind")
    }
  }
}
