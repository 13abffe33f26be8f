import Base
import FoundationEssentials
import Glibc

/// How loud a stretch of audio is, as a meter shows it: 0 (silence, -60 dBFS or less) to 100
/// (full scale).
public enum Level {
  public static func of(_ samples: UnsafeBufferPointer<Int16>) -> Int {
    guard !samples.isEmpty else { return 0 }
    var sum = 0.0
    for s in samples { sum += Double(s) * Double(s) }
    let rms = (sum / Double(samples.count)).squareRoot()
    guard rms > 0 else { return 0 }
    let db = 20 * log10(rms / 32768)
    return max(0, min(100, Int(((db + 60) / 60 * 100).rounded())))
  }
}
