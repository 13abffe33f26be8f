// swift-tools-version: 6.2
import PackageDescription

/// Warnings are errors in our own targets; dependencies keep their own settings.
let strict: [SwiftSetting] = [.treatAllWarnings(as: .error)]

let package = Package(
  name: "Dinger",
  products: [
    .executable(name: "dinger", targets: ["DingerCLI"]),
    // `dinger meet --transcribe` runs it; the audio and speech libraries stay out of `dinger`.
    .executable(name: "dinger-transcribe", targets: ["DingerTranscribe"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    // Tests only: TestClock drives the meeting timer.
    .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.1.1"),
  ],
  targets: [
    // C libraries from the system (apt: libyaml-dev, libgit2-dev, zlib1g-dev).
    .systemLibrary(
      name: "CYAML", pkgConfig: "yaml-0.1", providers: [.apt(["libyaml-dev"])]),
    // libgit2's headers (libgit2-dev); the library itself is loaded with dlopen on first use
    // (Sources/CGit2/loader.c, stubs.c from scripts/git2-stubs.py).
    .target(name: "CGit2"),
    // Byte classes marked a vector at a time (SSE2) for the reader of dinger's own YAML.
    // The activity index reads packs itself (Git/Objects): zlib inflates them.
    .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
    // http(s) remotes go through libcurl, loaded with dlopen on first use (headers only here).
    .systemLibrary(name: "CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
    // Transcription (the helper only): speech recognition and the sound server.
    .systemLibrary(
      name: "CSphinx", pkgConfig: "pocketsphinx", providers: [.apt(["libpocketsphinx-dev"])]),
    .systemLibrary(
      name: "CPulse", pkgConfig: "libpulse-simple", providers: [.apt(["libpulse-dev"])]),

    // Core
    // What full Foundation gave on top of FoundationEssentials (string trimming and search,
    // printf numbers, locks, threads), on the standard library: dinger links no ICU.
    .target(name: "Base", swiftSettings: strict),
    .target(name: "Models", dependencies: ["Base"], swiftSettings: strict),
    // The one way to start another program (editor, pager, ssh, helpers): no dinger types.
    .target(name: "Processes", dependencies: ["Base"], swiftSettings: strict),
    // Audio without C: WAV files, the ding, the level meter, pronunciations, the helper's lines.
    .target(name: "Speech", dependencies: ["Base"], swiftSettings: strict),
    .target(name: "YAML", dependencies: ["Base", "CYAML"], swiftSettings: strict),
    // The one HTTP stack: libcurl (loaded on first use) for git's http remotes and look-ups.
    .target(name: "HTTP", dependencies: ["Base", "CCurl"], swiftSettings: strict),
    .target(
      name: "Git", dependencies: ["Base", "CGit2", "CZlib", "HTTP", "Processes"],
      swiftSettings: strict),
    // Time zones (the system's tzdata), schedule occurrences, iCalendar.
    .target(name: "Schedules", dependencies: ["Base", "Models"], swiftSettings: strict),
    .target(
      name: "Storage", dependencies: ["Base", "Models", "YAML", "Git", "Schedules"],
      swiftSettings: strict),
    .target(
      name: "Sync", dependencies: ["Base", "Models", "YAML", "Git", "Storage", "Processes"],
      swiftSettings: strict),

    // Providers and components
    .target(
      name: "Providers",
      dependencies: [
        "Base", "Models", "Storage", "Sync", "YAML", "Git", "Speech", "Processes", "Schedules",
        "HTTP",
      ],
      swiftSettings: strict),
    .target(name: "Components", dependencies: ["Base", "Models"], swiftSettings: strict),

    // Modules: the executable
    .executableTarget(
      name: "DingerCLI",
      dependencies: [
        "Base", "Models", "Providers", "Components", "Processes",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      swiftSettings: strict),

    // The transcription helper.
    .executableTarget(
      name: "DingerTranscribe", dependencies: ["Speech", "CSphinx", "CPulse"], swiftSettings: strict
    ),

    // `make bench`
    .executableTarget(
      name: "DingerBench", dependencies: ["YAML", "Models", "Storage", "Processes", "TestSupport"],
      swiftSettings: strict),

    // `make fuzz`: libFuzzer harnesses (built with --sanitize fuzzer -DFUZZING)
    .executableTarget(
      name: "DingerFuzz",
      dependencies: [
        "YAML", "Models", "Storage", "Sync", "Git", "Providers", "Speech", "Schedules",
      ]),

    // Tests
    .target(name: "TestSupport", dependencies: ["Models", "YAML"], path: "Tests/TestSupport"),
    .testTarget(name: "BaseTests", dependencies: ["Base"], swiftSettings: strict),
    .testTarget(
      name: "YAMLTests", dependencies: ["YAML", "TestSupport"], swiftSettings: strict),
    .testTarget(
      name: "ModelsTests",
      dependencies: [
        "Models", "YAML", "Storage", "TestSupport",
        .product(name: "Clocks", package: "swift-clocks"),
      ],
      swiftSettings: strict),
    .testTarget(
      name: "StorageTests",
      dependencies: ["Storage", "Models", "Providers", "Git", "Sync", "YAML", "TestSupport"],
      exclude: ["Corpus"], swiftSettings: strict),
    .testTarget(
      name: "SyncTests", dependencies: ["Sync", "Storage", "Git", "YAML", "TestSupport"],
      swiftSettings: strict),
    .testTarget(name: "SpeechTests", dependencies: ["Speech"], swiftSettings: strict),
    .testTarget(
      name: "SchedulesTests", dependencies: ["Schedules", "Models", "TestSupport"],
      swiftSettings: strict),
    .testTarget(name: "ProcessesTests", dependencies: ["Processes"], swiftSettings: strict),
    .testTarget(name: "GitTests", dependencies: ["Git", "TestSupport"], swiftSettings: strict),
    .testTarget(name: "HTTPTests", dependencies: ["HTTP", "TestSupport"], swiftSettings: strict),
    .testTarget(
      name: "ComponentsTests", dependencies: ["Components", "Models", "TestSupport"],
      swiftSettings: strict),
    .testTarget(
      name: "ProvidersTests",
      dependencies: [
        "Providers", "Models", "Storage", "Sync", "YAML", "Git", "TestSupport",
        .product(name: "Clocks", package: "swift-clocks"),
      ],
      swiftSettings: strict),
    .testTarget(
      name: "DingerCLITests", dependencies: ["TestSupport"], exclude: ["Fixtures"],
      swiftSettings: strict),
  ]
)
