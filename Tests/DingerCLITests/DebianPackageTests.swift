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

/// `make deb`: the package passes lintian (Debian's own checker) without an error, installs with
/// `dpkg -i` to a `dinger` on PATH whose `--version`, man page and bash completion work, and
/// `apt-get remove` takes every file away again. `make test` builds the package first and names
/// it in DINGER_TEST_DEB; installing needs root (the CI machine runs as root).
@Suite(
  .serialized,
  .enabled(
    if: Prerequisite.met(BuiltPackage.path != nil),
    "needs the package: make test builds it (make deb) and names it in DINGER_TEST_DEB"))
struct DebianPackageTests {
  static var package: String? { BuiltPackage.path }

  @Test func lintianFindsNoError() throws {
    let lintian = try #require(ProcessRunner.which("lintian"), "make deb installs lintian")
    let r = try ProcessRunner.run(lintian, [Self.package!], timeout: 300)
    let errors = r.stdout.split(separator: "\n").filter { $0.hasPrefix("E:") }
    #expect(errors.isEmpty, "\(errors.joined(separator: "\n"))")
    #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
    let info = try ProcessRunner.run("/usr/bin/dpkg-deb", ["-f", Self.package!, "Depends"])
    for library in ["libgit2-", "libcurl4", "libyaml-0-2"] {
      #expect(info.stdout.contains(library), "Depends: \(info.stdout)")
    }
    // The Swift runtime is inside: nothing links a library from the toolchain.
    let files = try ProcessRunner.run("/usr/bin/dpkg-deb", ["-c", Self.package!]).stdout
    for file in [
      "./usr/bin/dinger", "./usr/bin/dinger-transcribe", "./usr/share/man/man1/dinger.1.gz",
      "./usr/share/bash-completion/completions/dinger",
      "./usr/share/zsh/vendor-completions/_dinger",
      "./usr/share/fish/vendor_completions.d/dinger.fish", "./usr/share/doc/dinger/copyright",
      "./usr/share/doc/dinger/changelog.Debian.gz",
    ] {
      #expect(files.contains(file + "\n"), "\(file) is not in the package")
    }
  }

  @Test(
    .enabled(if: getuid() == 0, "installing a package needs root"),
    .enabled(
      if: !FileManager.default.fileExists(atPath: "/usr/bin/dinger"),
      "a dinger is installed in /usr/bin already; not replacing it"))
  func installsAndRemovesCleanly() throws {
    let install = try ProcessRunner.run("/usr/bin/dpkg", ["-i", Self.package!], timeout: 300)
    defer {
      _ = try? ProcessRunner.run(
        "/usr/bin/apt-get", ["remove", "-y", "-qq", "dinger"], timeout: 300)
    }
    #expect(install.status == 0, "\(install.stdout)\(install.stderr)")
    let version = try ProcessRunner.run(
      "/usr/bin/dpkg-deb", ["-f", Self.package!, "Version"]
    ).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    // On PATH, with nothing of the toolchain: a clean environment.
    let env = ["PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory()]
    let which = try ProcessRunner.run("/bin/sh", ["-c", "command -v dinger"], environment: env)
    #expect(which.stdout == "/usr/bin/dinger\n")
    let v = try ProcessRunner.run("/usr/bin/dinger", ["--version"], environment: env)
    #expect(
      v.status == 0
        && version.hasPrefix(v.stdout.trimmingCharacters(in: .whitespacesAndNewlines) + "-"),
      "\(v.stdout) against \(version)")
    let ldd = try ProcessRunner.run("/usr/bin/ldd", ["/usr/bin/dinger"])
    #expect(!ldd.stdout.contains("libswift"), "\(ldd.stdout)")
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
    let remove = try ProcessRunner.run(
      "/usr/bin/apt-get", ["remove", "-y", "-qq", "dinger"], timeout: 300)
    #expect(remove.status == 0, "\(remove.stdout)\(remove.stderr)")
    for path in [
      "/usr/bin/dinger", "/usr/bin/dinger-transcribe", "/usr/share/man/man1/dinger.1.gz",
      "/usr/share/bash-completion/completions/dinger", "/usr/share/doc/dinger",
    ] {
      #expect(!FileManager.default.fileExists(atPath: path), "\(path) is left behind")
    }
    let status = try ProcessRunner.run(
      "/usr/bin/dpkg-query", ["-W", "-f=${Status}", "dinger"])
    #expect(
      !status.stdout.contains("installed") || status.stdout.contains("not-installed"),
      "\(status.stdout)")
  }
}
