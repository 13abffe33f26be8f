import Foundation

/// Timing helpers: best-of-N wall-clock time, which is the least noisy figure on a shared machine.
enum Measure {
  /// The fastest of `runs` runs of `body`, in seconds.
  static func best(runs: Int = 7, _ body: () -> Void) -> Double {
    var best = Double.infinity
    for _ in 0..<runs {
      let start = DispatchTime.now().uptimeNanoseconds
      body()
      let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
      best = min(best, elapsed)
    }
    return best
  }

  /// The fastest run of each body over `rounds` rounds that run the bodies in turn, so that a
  /// busy moment on the machine slows all of them alike and ratios stay fair.
  static func interleaved(rounds: Int = 9, _ bodies: [() -> Void]) -> [Double] {
    var best = [Double](repeating: .infinity, count: bodies.count)
    for _ in 0..<rounds {
      for (i, body) in bodies.enumerated() {
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        best[i] = min(best[i], Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
      }
    }
    return best
  }

  /// `12.3 MB/s`.
  static func throughput(bytes: Int, seconds: Double) -> String {
    String(format: "%7.1f MB/s", Double(bytes) / seconds / 1e6)
  }

  /// One result line: name, time, throughput, and a ratio with its target.
  static func line(_ name: String, seconds: Double, bytes: Int) {
    print(
      "  \(name.padding(toLength: 34, withPad: " ", startingAt: 0))"
        + String(format: "%8.1f ms", seconds * 1000) + "  "
        + throughput(bytes: bytes, seconds: seconds))
  }

  /// `ratio 1.62 (target <= 2.00) ok`.
  static func ratio(_ name: String, _ value: Double, target: Double) {
    let verdict = value <= target ? "ok" : "OVER TARGET"
    print(
      "  \(name.padding(toLength: 34, withPad: " ", startingAt: 0))"
        + String(format: "ratio %.2f (target <= %.2f) %@", value, target, verdict))
  }
}

/// A deterministic generator for realistic data (SplitMix64).
struct BenchRandom {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
  mutating func int(_ range: ClosedRange<Int>) -> Int {
    range.lowerBound + Int(next() % UInt64(range.count))
  }
  mutating func pick<T>(_ items: [T]) -> T { items[int(0...(items.count - 1))] }
}
