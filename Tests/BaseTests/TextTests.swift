import Base
import Foundation
import Testing

/// Base's string functions do what full Foundation's did (compared with Foundation itself,
/// which tests may link), scalar by scalar.
@Suite struct TextTests {
  static let samples = [
    "", " ", "\t a b \t", "\n\r\n x \u{2028}", "\u{00A0}nbsp\u{3000}", "é", "e\u{301} ",
    "a\r\nb", " \r\n", "Grüße, Zoë!", "🇩🇪 flag ", "tab\tinside",
  ]

  @Test func trimmingMatchesFoundation() {
    for s in Self.samples {
      #expect(
        s.trimmed() == s.trimmingCharacters(in: .whitespacesAndNewlines), "\(s.debugDescription)")
      #expect(s.trimmingSpaces() == s.trimmingCharacters(in: .whitespaces), "\(s.debugDescription)")
    }
  }

  @Test func searchIsScalarByScalar() {
    // NB: the standard library compares Characters (CR LF is one, holding no LF or CR); this
    // file imports Foundation, whose `contains` would hide that, so only Base's are checked.
    #expect("a\r\nb".containsText("\n") && "a\r\nb".containsText("\r"))
    #expect("a\r\nb".replacingText("\n", with: "\\n") == "a\r\\nb")
    #expect("a\r\nb".parts(separatedBy: "\r") == ["a", "\nb"])
    #expect(
      "x = 1 # a # b".lastRange(ofText: " #").map { "x = 1 # a # b"[$0.lowerBound...] } == " # b")
    #expect("abcabc".firstRange(ofText: "ca").map { "abcabc"[$0] } == "ca")
    #expect("aaa".replacingText("aa", with: "b") == "ba")
    #expect("abc".firstRange(ofText: "") == nil && "".firstRange(ofText: "a") == nil)
    for s in Self.samples where !s.isEmpty {
      #expect(s.parts(separatedBy: " ") == s.components(separatedBy: " "), "\(s.debugDescription)")
    }
  }

  @Test func numbersAsPrintfWritesThem() {
    #expect(String(cFormat: "%.1f", 2.25) == String(format: "%.1f", 2.25))
    #expect(String(cFormat: "%04x", 300) == "012c")
    #expect(String(cFormat: "%040x", 7) == String(repeating: "0", count: 39) + "7")
    #expect(String(cFormat: "%02d:%02d", 3, 7) == "03:07")
    #expect(String(cFormat: "%.4f", 1.0 / 3) == "0.3333")
    #expect(String(cFormat: "%0300d", 1).count == 300, "longer than the first buffer")
  }

  @Test func unicodeForms() {
    #expect("e\u{301}cole".composed.unicodeScalars.count == 5)
    #expect("e\u{301}cole".composed == "e\u{301}cole".precomposedStringWithCanonicalMapping)
    #expect("Crème Brûlée Ça".withoutMarks == "Creme Brulee Ca")
    #expect("Grüße".padded(to: 7) == "Grüße  " && "Grüße".padded(to: 3) == "Grü")
  }

  @Test func percentEncoding() {
    #expect("a%2Fb%20c".percentDecoded == "a/b c")
    #expect("%zz".percentDecoded == nil && "%4".percentDecoded == nil)
    #expect("%FF".percentDecoded == nil, "not UTF-8")
    #expect("a/b c?é".percentEncoded(keeping: "@") == "a%2Fb%20c%3F%C3%A9")
    for s in ["hello wörld/;?#%", "x:y@z!$&'()*+,="] {
      #expect(s.percentEncoded(keeping: "!$&'()*+,=:@").percentDecoded == s)
    }
  }

  /// The last slash found in the bytes is where the standard library's search finds it, past
  /// names beyond ASCII too.
  @Test(arguments: ["history/équipe/2026-11-27.yaml", "a/b/", "/", "no-slash", "", "日本/語/x", "é/"])
  func theLastByteIsWhereTheSlowSearchFindsIt(path: String) {
    #expect(
      path.lastIndex(ofASCII: UInt8(ascii: "/")) == path.utf8.lastIndex(of: UInt8(ascii: "/")))
    if let slash = path.lastIndex(ofASCII: UInt8(ascii: "/")) {
      #expect(path[path.utf8.index(after: slash)...].utf8.contains(UInt8(ascii: "/")) == false)
    }
  }
}

/// Monitors and threads on pthreads.
@Suite struct ThreadTests {
  /// Runs cover every item once, in order; below the minimum there is one run; each run's
  /// result comes back in its place whichever thread did it.
  @Test func runsCoverEveryItemOnceAndComeBackInOrder() {
    #expect(Runs.split(0, minimum: 1) == [0..<0])
    #expect(Runs.split(10, minimum: 100) == [0..<10])
    for count in [1, 7, 1_000, 1_003] {
      let runs = Runs.split(count, minimum: 1)
      #expect(runs.first?.lowerBound == 0 && runs.last?.upperBound == count, "\(runs)")
      #expect(zip(runs, runs.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound })
      let done = Monitor(0)
      let sums = Runs.map(runs) { run in
        done.withLock { $0 += 1 }
        return run.reduce(0, +)
      }
      #expect(sums == runs.map { $0.reduce(0, +) })
      #expect(done.withLock { $0 } == runs.count)
    }
  }

  @Test func threadsCountInAMonitorAndAWaiterSeesTheirEnd() {
    struct Counts {
      var value = 0
      var finished = 0
    }
    let counts = Monitor(Counts())
    for _ in 0..<8 {
      Threads.start {
        for _ in 0..<10_000 { counts.withLock { $0.value += 1 } }
        counts.change { $0.finished += 1 }
      }
    }
    let (ended, value) = counts.wait(seconds: 10, until: { $0.finished == 8 }) {
      counts, ready in (ready, counts.value)
    }
    #expect(ended, "threads did not finish")
    #expect(value == 80_000)
  }

  @Test func aWaitWithADeadlineEndsAndSaysSo() {
    let monitor = Monitor(false)
    let started = Date()
    let ready = monitor.wait(seconds: 0.2, until: { $0 }) { _, ready in ready }
    #expect(!ready)
    #expect(Date().timeIntervalSince(started) >= 0.19)
  }

  @Test func aChangeWakesAWaiterThatWaitsWithoutADeadline() {
    let monitor = Monitor(0)
    Threads.start {
      usleep(50_000)
      monitor.change { $0 = 42 }
    }
    #expect(monitor.wait(until: { $0 != 0 }) { value, _ in value } == 42)
  }
}
