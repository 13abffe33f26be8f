// `make bench`: Dinger's performance figures, each with the baseline it is judged against.
// Run in release mode; prints figures, never asserts.

import Foundation

print("Dinger benchmarks (release build)\n")
YAMLBench.run()

// The release `dinger` built beside this benchmark.
let binDir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
let dinger = binDir.appendingPathComponent("dinger").path
let cache = binDir.deletingLastPathComponent().deletingLastPathComponent()
  .appendingPathComponent("bench-repo-v1")
do {
  try StorageBench.run(dinger: dinger, cache: cache)
} catch {
  print("storage benchmark failed: \(error)")
}
do {
  try LibraryBench.run(dinger: dinger)
} catch {
  print("library benchmark failed: \(error)")
}
