import Foundation
import Testing

@testable import Speech

/// The helper's pure parts: WAV files from elsewhere, the ding, the meter, pronunciations and
/// the line protocol.
@Suite struct SpeechTests {
  @Test func aWAVFileReadsBackAsWritten() throws {
    let samples: [Int16] = (0..<1000).map { Int16(truncatingIfNeeded: $0 * 37 - 18000) }
    #expect(try WAVFile.samples(WAVFile.bytes(samples)) == samples)
  }

  @Test func stereoAndOtherRatesBecome16kHzMono() throws {
    // 8 kHz stereo, left 1000 and right 3000: 16 kHz mono of 2000, twice as many samples.
    var bytes = WAVFile.bytes([Int16](repeating: 0, count: 800), rate: 8000)
    bytes[22] = 2  // channels
    bytes[32] = 4  // block align
    let data = [Int16](repeating: 0, count: 400).flatMap { _ in [Int16(1000), Int16(3000)] }
    bytes.replaceSubrange(44..., with: data.flatMap { [UInt8($0 & 0xff), UInt8($0 >> 8)] })
    let out = try WAVFile.samples(bytes)
    #expect(out.count == 800)
    // NB: the filter starts and ends against silence; between, the level is the average.
    #expect(out[100..<700].allSatisfy { abs(Int($0) - 2000) <= 2 }, "\(out[100..<110])")
  }

  /// The resampler's low-pass: a 1 kHz tone at 48 kHz keeps its level at 16 kHz; a 12 kHz one
  /// (above the 8 kHz the output can hold) is gone rather than folded to 4 kHz, which is what
  /// linear interpolation did. Fed in pieces, it gives what it gives in one go.
  @Test func resamplingFiltersWhatTheNewRateCannotHold() {
    func tone(_ hz: Double, seconds: Double = 1) -> [Int16] {
      (0..<Int(48_000 * seconds)).map {
        Int16(10_000 * sin(2 * Double.pi * hz * Double($0) / 48_000))
      }
    }
    func rms(_ s: ArraySlice<Int16>) -> Double {
      (s.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(s.count)).squareRoot()
    }
    var low = Resampler(from: 48_000, to: 16_000)
    let kept = low.process(tone(1000)) + low.finish()
    #expect(kept.count == 16_000)
    #expect(
      abs(rms(kept[2000..<14000]) - 10_000 / 2.squareRoot()) < 150, "\(rms(kept[2000..<14000]))")
    var high = Resampler(from: 48_000, to: 16_000)
    let gone = high.process(tone(12_000)) + high.finish()
    #expect(rms(gone[2000..<14000]) < 70, "12 kHz folded into the band: \(rms(gone[2000..<14000]))")
    let input = tone(440, seconds: 0.7) + tone(3000, seconds: 0.3)
    var whole = Resampler(from: 44_100, to: 16_000)
    let once = whole.process(input) + whole.finish()
    var pieces = Resampler(from: 44_100, to: 16_000)
    var streamed: [Int16] = []
    var at = 0
    for size in [1, 7, 4410, 13, 20_000, 99_999] where at < input.count {
      streamed += pieces.process(input[at..<min(input.count, at + size)])
      at += size
    }
    streamed += pieces.finish()
    #expect(streamed == once)
    #expect(once.count == input.count * 16_000 / 44_100)
  }

  @Test func brokenWAVFilesAreRefusedWithTheReason() throws {
    let good = WAVFile.bytes([1, 2, 3, 4])
    func problem(_ bytes: [UInt8]) -> String? {
      do {
        _ = try WAVFile.samples(bytes)
        return nil
      } catch { return error.description }
    }
    #expect(problem(Array("hello".utf8))?.contains("not a WAV file") == true)
    var eightBit = good
    eightBit[34] = 8
    #expect(problem(eightBit)?.contains("not 16-bit PCM") == true)
    var huge = good
    huge[16] = 0xff; huge[17] = 0xff; huge[18] = 0xff; huge[19] = 0x7f  // fmt size
    #expect(problem(huge)?.contains("cut short") == true)
    #expect(problem(Array(good.prefix(36)))?.contains("no audio data") == true)
    // A data size larger than the file (a recorder stopped early): the samples there are.
    var long = good
    long[40] = 0xff
    #expect(try WAVFile.samples(long) == [1, 2, 3, 4])
  }

  @Test func theDingIsAShortFadingToneWithinRange() {
    let ding = Ding.samples()
    #expect(ding.count == 7200)
    let loud = ding.prefix(800).map { abs(Int($0)) }.max() ?? 0
    let tail = ding.suffix(800).map { abs(Int($0)) }.max() ?? 0
    #expect(loud > 10000)
    #expect(tail < loud / 10)
  }

  @Test func theMeterReadsSilenceAsZeroAndFullScaleAs100() {
    let silence = [Int16](repeating: 0, count: 1600)
    let full = (0..<1600).map { $0 % 2 == 0 ? Int16.max : Int16.min }
    let quiet = [Int16](repeating: 33, count: 1600)  // -60 dBFS
    #expect(silence.withUnsafeBufferPointer(Level.of) == 0)
    #expect(full.withUnsafeBufferPointer(Level.of) == 100)
    #expect(quiet.withUnsafeBufferPointer(Level.of) <= 1)
  }

  @Test func namesAreSoundedOutInTheModelsPhones() {
    #expect(Pronouncer.words(of: "Mary-Jane O'Neil") == ["mary", "jane", "o'neil"])
    #expect(Pronouncer.phones("jane") == "JH EY N")
    #expect(Pronouncer.phones("kate") == "K EY T")
    #expect(Pronouncer.phones("chella") == "CH EH L AH")
    #expect(Pronouncer.phones("darla") == "D AA R L AH")
    #expect(Pronouncer.phones("lindsey") == "L IH N D S IY")
    let phones = Set(
      "AA AE AH AO AW AY B CH D DH EH ER EY F G HH IH IY JH K L M N NG OW OY P R S SH T TH UH UW V W Y Z ZH"
        .split(separator: " ").map(String.init))
    for name in ["Xiomara", "Siobhan", "Yusuf", "Qi", "Zoë", "Brzęczyszczykiewicz", "aaaa", "x"] {
      for word in Pronouncer.words(of: name) {
        let out = Pronouncer.phones(word).split(separator: " ").map(String.init)
        #expect(!out.isEmpty && out.allSatisfy(phones.contains), "\(word): \(out)")
      }
    }
  }

  @Test func messagesSurviveTheirLinesAndNothingStartsASecondOne() {
    let messages: [TranscriberMessage] = [
      .ready, .level(0), .level(100), .heard(turn: 3, text: "good morning team"),
      .note("added 'chella'"), .error("no model"), .done, .turn("Ana María"), .end,
    ]
    for m in messages {
      #expect(TranscriberMessage(line: Substring(m.line.dropLast())) == m)
    }
    let hostile = TranscriberMessage.turn("Bob\nend\u{1B}[2J")
    #expect(hostile.line.filter { $0 == "\n" }.count == 1)
    #expect(TranscriberMessage(line: Substring(hostile.line.dropLast())) == .turn("Bob end [2J"))
    #expect(TranscriberMessage(line: "level 101") == nil)
    #expect(TranscriberMessage(line: "heard -1 x") == nil)
    #expect(TranscriberMessage(line: "launch missiles") == nil)
  }

  @Test func aRecordingsLengthComesFromItsHeader() {
    let second = WAVFile.bytes([Int16](repeating: 0, count: 16000))
    #expect(WAVFile.seconds(header: second, fileSize: second.count) == 1.0)
    // A data size past the end of the file (a recorder stopped early): what the file holds.
    #expect(WAVFile.seconds(header: Array(second.prefix(44 + 8000)), fileSize: 44 + 8000) == 0.25)
    var stereo = WAVFile.bytes([Int16](repeating: 0, count: 16000), rate: 8000)
    stereo[22] = 2
    #expect(WAVFile.seconds(header: stereo, fileSize: stereo.count) == 1.0)
    #expect(WAVFile.seconds(header: Array("RIFF....WAVE".utf8), fileSize: 12) == nil)
    #expect(WAVFile.seconds(header: Array("hello".utf8), fileSize: 5) == nil)
  }

  @Test func aTurnBeginsAtTheAudioCapturedWhenItsKeyCameNotAtTheNextChunk() {
    let queue = ItemQueue()
    let marks = TurnMarks()
    let chunk = (0..<1600).map { Int16($0) }
    marks.queue(chunk, waiting: 800, into: queue)  // 1,600 read, 800 more wait in the server
    marks.begin(1)  // the key: at sample 2,400, half-way into the next chunk
    marks.queue(chunk, waiting: 0, into: queue)
    marks.begin(2)  // nothing waits: at the start of the next chunk
    marks.queue(chunk, waiting: 0, into: queue)
    queue.push(.end)
    var items: [Item] = []
    while true {
      let item = queue.pop()
      if item == .end { break }
      items.append(item)
    }
    #expect(
      items == [
        .audio(chunk), .audio(Array(chunk[..<800])), .turn(1), .audio(Array(chunk[800...])),
        .turn(2), .audio(chunk),
      ])
  }

  @Test func theQueueDropsAudioPastAMinuteBehindButNeverATurn() {
    let queue = ItemQueue()
    for _ in 0..<ItemQueue.defaultMostAudio { #expect(queue.push(.audio([0]))) }
    #expect(!queue.push(.audio([0])))
    #expect(queue.push(.turn(1)))
    #expect(queue.pop() == .audio([0]))
    #expect(queue.push(.audio([0])))
  }

  /// A full queue's drops become spans: one message when a span begins, one when it ends.
  @Test func droppedAudioIsToldAsSpansInSeconds() {
    var lost = LostAudio(rate: 16000)
    #expect(lost.after(chunkAt: 0, count: 1600, queued: true) == nil)
    #expect(lost.after(chunkAt: 32000, count: 1600, queued: false) == .lost(start: 2, seconds: 0))
    #expect(lost.after(chunkAt: 33600, count: 1600, queued: false) == nil)
    #expect(
      lost.after(chunkAt: 40000, count: 1600, queued: true) == .lost(start: 2, seconds: 0.5))
    #expect(lost.after(chunkAt: 41600, count: 1600, queued: false) != nil)
    #expect(lost.finish(at: 48000) == .lost(start: 2.6, seconds: 0.4))
    #expect(lost.finish(at: 48000) == nil)
    for message in [
      TranscriberMessage.lost(start: 12.5, seconds: 3.2), .lost(start: 0, seconds: 0),
    ] {
      #expect(TranscriberMessage(line: Substring(message.line.dropLast())) == message)
    }
    #expect(TranscriberMessage(line: "lost -1 2") == nil)
    #expect(TranscriberMessage(line: "lost 1 nan") == nil)
    #expect(TranscriberMessage(line: "lost 1") == nil)
  }

  /// A speaker change is cut at the pause nearest its key, never inside a word.
  @Test func turnsAreCutAtThePauseNearestTheKey() {
    // "done here" (0-1 s), a 0.6 s pause, "next one is mine" (1.6-4.6 s); 16 kHz.
    let words = [
      HeardWord("done", start: 0, end: 8000), HeardWord("here", start: 8000, end: 16_000),
      HeardWord("next", start: 25_600, end: 33_600), HeardWord("one", start: 33_600, end: 41_600),
      HeardWord("is", start: 41_600, end: 49_600), HeardWord("mine", start: 49_600, end: 73_600),
    ]
    func split(_ at: Int) -> [[String]] {
      TurnCuts.split(words, current: 0, keys: [(at, 1)]).map(\.words)
    }
    let right = [["done", "here"], ["next", "one", "is", "mine"]]
    #expect(split(20_000) == right, "in the pause")
    #expect(split(25_600 + 11_200) == right, "0.7 s late")
    #expect(split(25_600 - 11_200) == right, "0.7 s early (inside the last word before)")
    // Beyond a second from any pause: the nearest gap between words, no word split.
    #expect(split(47_000) == [["done", "here", "next", "one", "is"], ["mine"]])
    #expect(TurnCuts.split(words, current: 2, keys: []).map(\.turn) == [2])
    // Two keys: the second never cuts before the first.
    let both = TurnCuts.split(words, current: 0, keys: [(20_000, 1), (21_000, 2)])
    #expect(both.map(\.turn) == [0, 2] && both.last?.words == ["next", "one", "is", "mine"])
  }
}
