import Base
import FoundationEssentials
import Glibc

/// The ding played at each speaker change: a short bell (two partials, a quick attack and an
/// exponential decay), made here rather than shipped as a file.
public enum Ding {
  /// 0.45 s at `rate`.
  public static func samples(rate: Int = WAVFile.rate) -> [Int16] {
    let count = rate * 45 / 100
    return (0..<count).map { i in
      let t = Double(i) / Double(rate)
      let attack = min(1, t / 0.004)
      let decay = exp(-t * 7)
      let tone = sin(2 * .pi * 1318.5 * t) + 0.45 * sin(2 * .pi * 2637 * t) * exp(-t * 12)
      return Int16((tone / 1.45 * attack * decay * 0.6 * 32767).rounded())
    }
  }
}
