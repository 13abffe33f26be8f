// `make bench`: Dinger's performance figures, each with the baseline it is judged against.
// Run in release mode; prints figures, never asserts.

import Foundation

print("Dinger benchmarks (release build)\n")
// `DingerBench sync` (or yaml, storage, library) runs one group only.
let only = CommandLine.arguments.dropFirst().first
func wanted(_ group: String) -> Bool { only == nil || only == group }
if wanted("yaml") { YAMLBench.run() }

// The release `dinger` built beside this benchmark.
let binDir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
let dinger = binDir.appendingPathComponent("dinger").path
// The generated repository is kept under the package's .build/ (never beside the binary: for
// `.build/release/DingerBench` two folders up was the repository's root): DINGER_BENCH_CACHE
// (the Makefile passes it), else found from this file's place in the package.
let cache =
  ProcessInfo.processInfo.environment["DINGER_BENCH_CACHE"].map { URL(fileURLWithPath: $0) }
  ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent().appendingPathComponent(".build/bench-repo-v1")
/// Runs one group, printing its failure instead of stopping the others.
func group(_ name: String, _ body: () throws -> Void) {
  guard wanted(name) else { return }
  do { try body() } catch { print("\(name) benchmark failed: \(error)") }
}
group("startup") { try StartupBench.run(dinger: dinger) }
group("transcribe") {
  try TranscribeBench.run(
    dinger: dinger,
    packageRoot: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent())
}
group("teamwords") {
  try TeamWordsBench.run(dinger: dinger, root: cache.deletingLastPathComponent())
}
group("storage") { try StorageBench.run(dinger: dinger, cache: cache) }
group("library") { try LibraryBench.run(dinger: dinger) }
group("edit") { try EditBench.run(dinger: dinger) }
group("sync") { try SyncBench.run(dinger: dinger, cache: cache) }
// NB: kept beside the storage group's repository, under the package's .build/.
let scaleRoot = cache.deletingLastPathComponent()
group("interchange") { try InterchangeBench.run(dinger: dinger, root: scaleRoot) }
group("standups") { try StandupBench.run(dinger: dinger, root: cache.deletingLastPathComponent()) }
group("schedule") { try ScheduleBench.run(dinger: dinger, root: cache.deletingLastPathComponent()) }
group("transport") { try TransportBench.run(dinger: dinger, root: scaleRoot) }
if only == "catch-up" {
  try TransportBench.run(dinger: dinger, root: scaleRoot, catchUpOnly: true)
}
group("scale") {
  try ScaleBench.run(dinger: dinger, root: scaleRoot, sizes: [10_000, 40_000, 130_000])
}
if only == "scale-quick" { try ScaleBench.run(dinger: dinger, root: scaleRoot, sizes: [10_000]) }
