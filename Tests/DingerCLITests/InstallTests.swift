import Foundation
import TestSupport
import Testing

/// `make install-files` (what `make install` copies, from binaries built beside the tests):
/// the binary, the man page and the completions land under PREFIX, and bash's completion of
/// `dinger scrum show de` offers the scrum names of the data repository.
enum InstallSetup {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
  static var binDir: URL { URL(fileURLWithPath: dingerBinary).deletingLastPathComponent() }
  static var ready: Bool {
    FileManager.default.isExecutableFile(
      atPath: binDir.appendingPathComponent("generate-manual").path)
      && ProcessRunner.which("make") != nil && ProcessRunner.which("bash") != nil
  }
}

@Suite(
  .enabled(
    if: Prerequisite.met(InstallSetup.ready),
    "needs make, bash and generate-manual beside dinger (make test builds it)"))
struct InstallTests {
  static let root = InstallSetup.root
  static var binDir: URL { InstallSetup.binDir }

  /// `make install` asks only for what building needs: every command it would run (make's dry
  /// run, through the targets it depends on) names none of the test servers and tools.
  @Test func installAsksOnlyForWhatBuildingNeeds() throws {
    let r = try ProcessRunner.run(
      ProcessRunner.which("make")!,
      ["-n", "-B", "-C", Self.root.path, "install", "PREFIX=/nonexistent/prefix"], timeout: 300)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains("libgit2-dev") && r.stdout.contains("swift build -c release"))
    for tool in [
      "apache2", "openssh-server", "pulseaudio", "chromium", "flite", "khal", "matrix-synapse",
      "tmux", "anki", "pocketsphinx-en-us",
    ] {
      #expect(!r.stdout.contains(tool), "make install would install \(tool)")
    }
    // The test target still does.
    let test = try ProcessRunner.run(
      ProcessRunner.which("make")!, ["-n", "-B", "-C", Self.root.path, "deps"], timeout: 300)
    #expect(test.stdout.contains("apache2") && test.stdout.contains("chromium"))
  }

  @Test func installPutsEverythingInPlaceAndBashCompletesNames() throws {
    let box = try Sandbox()
    let prefix = box.home.url.appendingPathComponent("prefix")
    let make = try ProcessRunner.run(
      ProcessRunner.which("make")!,
      [
        "-s", "-C", Self.root.path, "install-files", "PREFIX=\(prefix.path)",
        "BIN_DIR=\(Self.binDir.path)",
      ])
    #expect(make.status == 0, "\(make.stdout) \(make.stderr)")
    for file in [
      "bin/dinger", "bin/dinger-transcribe", "share/man/man1/dinger.1",
      "share/bash-completion/completions/dinger",
      "share/zsh/site-functions/_dinger", "share/fish/vendor_completions.d/dinger.fish",
    ] {
      #expect(
        FileManager.default.fileExists(atPath: prefix.appendingPathComponent(file).path), "\(file)")
    }
    // dinger finds its helper beside itself: the installed one answers in its line protocol.
    let helper = try ProcessRunner.run(
      prefix.appendingPathComponent("bin/dinger-transcribe").path, ["nonsense"])
    #expect(
      helper.status == 64 && helper.stdout.hasPrefix("error usage: dinger-transcribe"),
      "\(helper.stdout)")
    let man = try String(
      contentsOf: prefix.appendingPathComponent("share/man/man1/dinger.1"), encoding: .utf8)
    #expect(man.contains(".Dt DINGER 1") && man.contains("scrum"), "\(man.prefix(300))")

    #expect(try box.dinger("init").status == 0)
    #expect(try box.dinger("scrum", "new", "Design", "--attendee", "Ada").status == 0)
    #expect(try box.dinger("scrum", "new", "Deploy", "--attendee", "Ada").status == 0)
    #expect(try box.dinger("scrum", "new", "Ops", "--attendee", "Ada").status == 0)
    #expect(try box.dinger("library", "new", "Spanish basics", "--language", "es").status == 0)
    #expect(
      try box.dinger("word", "add", "agua", "--library", "spanish-basics", "--definition", "water")
        .status == 0)
    func complete(_ line: [String]) throws -> [String] {
      let words = line.map { "'\($0)'" }.joined(separator: " ")
      let script = """
        source '\(prefix.path)/share/bash-completion/completions/dinger'
        COMP_WORDS=(\(words)); COMP_CWORD=\(line.count - 1)
        COMP_LINE="\(line.joined(separator: " "))"; COMP_POINT=${#COMP_LINE}
        _dinger dinger '\(line[line.count - 1])' '\(line[line.count - 2])'; printf '%s\\n' "${COMPREPLY[@]}"
        """
      let r = try ProcessRunner.run(
        "/bin/bash", ["-c", script], in: box.data,
        environment: box.environment.merging(["PATH": "\(prefix.path)/bin:/usr/bin:/bin"]) { $1 })
      return r.stdout.split(separator: "\n").map(String.init).sorted()
    }
    #expect(try complete(["dinger", "scrum", "show", "de"]) == ["deploy", "design"])
    #expect(try complete(["dinger", "meet", "o"]) == ["ops"])
    #expect(try complete(["dinger", "word", "show", "ag"]).contains("agua"))
    #expect(try complete(["dinger", "library", "show", "sp"]) == ["spanish-basics"])
    #expect(try complete(["dinger", "scrum", "new", "x", "--theme", "yel"]) == ["yellow"])
    #expect(try complete(["dinger", "hi"]) == ["history"])

    // Real bash in a real terminal: Tab in the data repository (which has a history/ folder)
    // completes the command, not the folder (the script was registered with -o filenames).
    try FileManager.default.createDirectory(
      at: box.data.appendingPathComponent("history"), withIntermediateDirectories: true)
    let tmux = Tmux()
    let env = box.environment.merging(["PATH": "\(prefix.path)/bin:/usr/bin:/bin", "PS1": "$ "]) {
      $1
    }
    .map { "\($0.key)='\($0.value)'" }.joined(separator: " ")
    let started = system(
      "\(tmux.tmux) -L \(tmux.socket) new-session -d -s main -x 100 -y 20 \"cd '\(box.data.path)' && env \(env) bash --norc --noprofile\" </dev/null >/dev/null 2>&1"
    )
    #expect(started == 0)
    tmux.keys("source '\(prefix.path)/share/bash-completion/completions/dinger'", "Enter")
    tmux.keys("dinger hi", "Tab")
    #expect(tmux.wait(for: "dinger history"), "\(tmux.screen())")
    usleep(300_000)
    #expect(!tmux.screen().contains("dinger history/"), "\(tmux.screen())")
    tmux.keys("C-u", "dinger --repo hi", "Tab")
    #expect(
      tmux.wait(for: "dinger --repo history/"),
      "folders still complete as folders: \(tmux.screen())")
  }
}
