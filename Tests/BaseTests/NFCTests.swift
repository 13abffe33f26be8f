import Base
import Foundation
import Testing

/// `String.nfc` against Python's `unicodedata.normalize` (the same Unicode version as the
/// tables; Foundation's normalizer here leaves an LV syllable and a trailing jamo apart, so it
/// cannot judge), on the cases UAX #15 is made of: accents in either order, Hangul syllables and
/// jamo, composition exclusions, singletons, starter pairs of Indic scripts and random mixes.
@Suite(
  .enabled(
    if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "needs /usr/bin/python3"))
struct NFCTests {
  /// Python's NFC of each text, as scalar values (sent and read back as numbers, so that no
  /// JSON layer normalizes or escapes them).
  static func python(_ texts: [String]) throws -> [[UInt32]] {
    let script = """
      import sys, json, unicodedata
      texts = ["".join(map(chr, t)) for t in json.load(sys.stdin)]
      print(json.dumps([[ord(c) for c in unicodedata.normalize("NFC", t)] for t in texts]))
      """
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    p.arguments = ["-c", script]
    let (input, output) = (Pipe(), Pipe())
    p.standardInput = input
    p.standardOutput = output
    try p.run()
    input.fileHandleForWriting.write(
      try JSONEncoder().encode(texts.map { $0.unicodeScalars.map(\.value) }))
    try input.fileHandleForWriting.close()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return try JSONDecoder().decode([[UInt32]].self, from: data)
  }

  static let cases = [
    "", "plain ascii", "Cafe\u{301}", "Café", "e\u{301}\u{302}", "a\u{323}\u{302}",
    "\u{1EA1}\u{302}",
    "\u{1E0B}\u{323}", "\u{1112}\u{1161}\u{11AB}", "한국어 회의", "\u{1100}\u{1161}\u{11A8}\u{11A8}",
    "\u{304B}\u{3099}", "ガイド", "\u{0958}", "\u{0915}\u{093C}", "\u{212B}", "\u{2126}",
    "\u{0DD9}\u{0DCF}", "\u{09C7}\u{09BE}", "\u{0B47}\u{0B3E}\u{0B56}", "周会", "站会",
    "\u{03B1}\u{0313}\u{0301}\u{0345}", "\u{0301}leading mark", "Straße", "Ω\u{0308}",
  ]

  @Test func theCasesAreWhatPythonGives() throws {
    let expected = try Self.python(Self.cases)
    for (s, want) in zip(Self.cases, expected) {
      #expect(
        s.nfc.unicodeScalars.map(\.value) == want,
        "\(s.unicodeScalars.map { String($0.value, radix: 16) })")
      #expect(s.nfc.isNFC)
    }
    #expect(!"Cafe\u{301}".isNFC && "Café".isNFC && "周会".isNFC)
  }

  /// Seeded mixes of starters and marks from the scripts that compose, at most Unicode 14's
  /// characters (the tables' version); replay a failure with its printed seed.
  @Test func randomMixesAreWhatPythonGives() throws {
    let pools: [ClosedRange<UInt32>] = [
      0x41...0x7A, 0xC0...0x17F, 0x300...0x36F, 0x391...0x3C9, 0x1F00...0x1FFF, 0x900...0x97F,
      0x9C0...0x9D7, 0xB3E...0xB57, 0xDCA...0xDDF, 0x1100...0x1112, 0x1161...0x1175,
      0x11A8...0x11C2, 0xAC00...0xAC40, 0x3040...0x30FF, 0x2126...0x212B, 0x1E00...0x1EFF,
    ]
    var rng = SplitMix(seed: 0x5EED_2026)
    var texts: [String] = []
    for _ in 0..<20_000 {
      var s = String.UnicodeScalarView()
      for _ in 0..<(1 + Int(rng.next() % 6)) {
        let pool = pools[Int(rng.next() % UInt64(pools.count))]
        let v = pool.lowerBound + UInt32(rng.next() % UInt64(pool.count))
        guard let scalar = Unicode.Scalar(v), let age = scalar.properties.age,
          age.major <= 14
        else { continue }
        s.append(scalar)
      }
      texts.append(String(s))
    }
    var failures = 0
    for (text, want) in zip(texts, try Self.python(texts)) {
      if text.nfc.unicodeScalars.map(\.value) != want {
        failures += 1
        if failures <= 5 {
          Issue.record("\(text.unicodeScalars.map { String($0.value, radix: 16) })")
        }
      }
    }
    #expect(failures == 0)
  }
}

/// A small seeded generator (SplitMix64), so a failing mix can be replayed.
struct SplitMix {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
