import Foundation
import TestSupport
import Testing

/// The layers of docs/development.md, held by the imports: each target may import only
/// what the arrows allow. Commands reach data through providers; the few command files that
/// still reach below them are listed, and the list may only shrink.
@Suite struct ArchitectureTests {
  static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources")

  /// Foundation is FoundationEssentials everywhere `dinger` links (full Foundation brings ICU's
  /// 34 MB); Base has what it lacked. The transcription helper is a program of its own.
  static let essentials: Set<String> = ["FoundationEssentials", "Base", "Dispatch"]
  static let allowed: [String: Set<String>] = [
    "Base": ["FoundationEssentials"],
    "Models": essentials,
    "Processes": essentials,
    "YAML": essentials.union(["CYAML"]),
    "HTTP": essentials.union(["CCurl"]),
    "Git": essentials.union(["CGit2", "CZlib", "HTTP", "Processes"]),
    "Schedules": essentials.union(["Models"]),
    "Storage": essentials.union(["Models", "YAML", "Git", "Schedules"]),
    "Sync": essentials.union(["Models", "YAML", "Git", "Storage", "Processes"]),
    "Speech": essentials,
    "Providers": essentials.union([
      "Models", "YAML", "Git", "Storage", "Sync", "Speech", "Processes", "Schedules", "HTTP",
    ]),
    // The helper program: the audio and speech libraries, and nothing of dinger's data.
    "DingerTranscribe": ["Foundation", "Speech", "CSphinx", "CPulse"],
    "Components": essentials.union(["Models"]),
    "DingerCLI": essentials.union([
      "ArgumentParser", "Components", "Models", "Providers", "Processes",
    ]),
  ]

  /// Command files that still import a layer below the providers (to be moved behind them).
  static let commandsBelowProviders: Set<String> = []

  /// Package.swift gives the command-line target exactly the layers the arrows allow.
  @Test func theCommandLineTargetDependsOnProvidersComponentsAndModelsOnly() throws {
    let manifest = try String(
      contentsOf: Self.sources.deletingLastPathComponent().appendingPathComponent("Package.swift"),
      encoding: .utf8)
    guard let start = manifest.range(of: "name: \"DingerCLI\""),
      let deps = manifest[start.upperBound...].range(of: "dependencies: ["),
      let end = manifest[deps.upperBound...].range(of: "],")
    else {
      Issue.record("DingerCLI's dependencies not found in Package.swift")
      return
    }
    let listed = manifest[deps.upperBound..<end.lowerBound]
    let names = listed.split(separator: "\"").enumerated().filter { $0.offset % 2 == 1 }.map {
      String($0.element)
    }
    #expect(
      Set(names.filter { $0 != "swift-argument-parser" }) == [
        "Base", "Models", "Providers", "Components", "Processes", "ArgumentParser",
      ],
      "\(names)")
  }

  /// docs/architecture.md's module table and graph are what Package.swift says (the script that
  /// writes them, in check mode).
  @Test func theArchitecturePageMatchesThePackage() throws {
    let root = Self.sources.deletingLastPathComponent()
    let r = try ProcessRunner.run(
      ProcessRunner.which("python3") ?? "/usr/bin/python3",
      [root.appendingPathComponent("scripts/architecture.py").path, "--check"])
    #expect(r.status == 0, "\(r.stderr)")
  }

  /// Every `DINGER_*` variable the code, the tests or the scripts read is in
  /// docs/environment.md.
  @Test func everyEnvironmentVariableIsDocumented() throws {
    let root = Self.sources.deletingLastPathComponent()
    let page = try String(
      contentsOf: root.appendingPathComponent("docs/environment.md"), encoding: .utf8)
    let pattern = try Regex(#"DINGER_[A-Z][A-Z_]*[A-Z]"#)
    var found = Set<String>()
    for folder in ["Sources", "Tests", "scripts"] {
      let base = root.appendingPathComponent(folder)
      for case let file as String in FileManager.default.enumerator(atPath: base.path) ?? .init()
      where file.hasSuffix(".swift") || file.hasSuffix(".sh") || file.hasSuffix(".py") {
        let text = try String(contentsOf: base.appendingPathComponent(file), encoding: .utf8)
        for m in text.matches(of: pattern) { found.insert(String(text[m.range])) }
      }
    }
    #expect(found.count > 10)
    let missing = found.filter { !page.contains($0) && $0 != "DINGER_TEST_" }.sorted()
    #expect(missing.isEmpty, "not in docs/environment.md: \(missing)")
  }

  /// `dinger` links no part of full Foundation, so no ICU: the test build links Swift's
  /// libraries dynamically, and any use of full Foundation (a `String(format:)`, a
  /// `CharacterSet`) would add libFoundation.so to what it needs.
  @Test func theDingerBinaryLinksNoICU() throws {
    let r = try ProcessRunner.run("/usr/bin/ldd", [dingerBinary])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains("libFoundationEssentials"), "\(r.stdout)")
    for library in ["libFoundation.so", "libFoundationInternationalization", "_FoundationICU"] {
      #expect(!r.stdout.contains(library), "dinger links \(library):\n\(r.stdout)")
    }
  }

  @Test func everyTargetImportsOnlyWhatItsLayerMay() throws {
    var checked = 0
    for (target, allowed) in Self.allowed {
      let folder = Self.sources.appendingPathComponent(target)
      let files =
        FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String }
        .filter { $0.hasSuffix(".swift") } ?? []
      #expect(!files.isEmpty, "\(target) has no sources")
      for file in files {
        let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
        checked += 1
        for line in text.split(separator: "\n") {
          let words = line.split(separator: " ")
          let i: Int
          if words.first == "import" {
            i = 0
          } else if words.count > 1, words[1] == "import",
            ["internal", "public", "private", "fileprivate", "@testable", "@_exported"].contains(
              words[0])
          {
            i = 1
          } else {
            continue
          }
          guard i + 1 < words.count else { continue }
          let module = String(words[i + 1])
          // The C library is everyone's.
          if allowed.contains(module) || ["Glibc", "Darwin", "Synchronization"].contains(module) {
            continue
          }
          if target == "DingerCLI", ["Git", "Storage", "Sync", "YAML"].contains(module),
            Self.commandsBelowProviders.contains(file)
          {
            continue
          }
          Issue.record("\(target)/\(file) imports \(module), which its layer may not")
        }
      }
    }
    #expect(checked > 100)
  }
}

/// The test harness itself: a hung child fails its test instead of the whole run.
@Suite struct HarnessTests {
  @Test func aHungChildIsKilledAtItsTimeout() throws {
    let started = Date()
    let r = try ProcessRunner.run("/bin/sleep", ["60"], timeout: 1)
    #expect(r.status == 137)
    #expect(r.stderr.contains("the test harness killed /bin/sleep after 1 s"), "\(r.stderr)")
    #expect(Date().timeIntervalSince(started) < 20)
  }
}
