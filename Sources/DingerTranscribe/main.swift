// dinger-transcribe: the helper `dinger meet --transcribe` starts, so that the audio and speech
// libraries cost the other commands nothing. It speaks the line protocol of
// `TranscriberMessage` on its standard input and output.
//
//   dinger-transcribe listen [--word NAME]...            the default source, turns from stdin
//   dinger-transcribe file FILE.wav [--turn NAME=SECONDS]... [--word NAME]...
//   dinger-transcribe ding                                 plays the ding
//
// --model DIR (or DINGER_SPEECH_MODEL) names the speech model folder.

import Foundation
import Speech

// NB: a child inherits its spawning thread's blocked signals and its parent's ignored ones
// (dinger's runtime threads block SIGTERM and SIGINT): start with the usual ones.
var none = sigset_t()
sigemptyset(&none)
sigprocmask(SIG_SETMASK, &none, nil)
for sig in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] { signal(sig, SIG_DFL) }
signal(SIGPIPE, SIG_IGN)
var arguments = Array(CommandLine.arguments.dropFirst())
let mode = arguments.first ?? ""
if !arguments.isEmpty { arguments.removeFirst() }

var words: [String] = []
var turns: [(name: String, seconds: Double)] = []
var file: String?
var model = ProcessInfo.processInfo.environment["DINGER_SPEECH_MODEL"] ?? Recognizer.defaultModel
var i = 0
while i < arguments.count {
  let a = arguments[i]
  let value = i + 1 < arguments.count ? arguments[i + 1] : nil
  switch a {
  case "--word", "--model", "--turn":
    guard let value else { Output.fail("\(a) needs a value", status: 64) }
    if a == "--word" { words.append(value) }
    if a == "--model" { model = value }
    if a == "--turn" {
      guard let eq = value.lastIndex(of: "="), let s = Double(value[value.index(after: eq)...]),
        s >= 0
      else { Output.fail("--turn takes NAME=SECONDS, found '\(value)'", status: 64) }
      turns.append((String(value[..<eq]), s))
    }
    i += 2
  default:
    if mode == "file" && file == nil && !a.hasPrefix("-") {
      file = a
      i += 1
    } else {
      Output.fail("unknown argument '\(a)'", status: 64)
    }
  }
}

/// The recognizer, with the team's names taught; a missing model ends the helper.
@MainActor func recognizer() -> Recognizer {
  let recognizer: Recognizer
  do {
    recognizer = try Recognizer(model: model)
  } catch {
    Output.fail(error.message, status: 3)
  }
  for (word, phones) in recognizer.learn(names: words) {
    Output.send(.note("added '\(word)' to the dictionary as \(phones)"))
  }
  return recognizer
}

switch mode {
case "ding":
  do {
    try PulseStream(recording: false, name: "ding").play(Ding.samples())
  } catch {
    Output.fail("can't play through the sound server: \(error.message)", status: 4)
  }

case "file":
  guard let file else { Output.fail("file needs a WAV file", status: 64) }
  guard let handle = FileHandle(forReadingAtPath: file) else {
    Output.fail("can't read '\(file)'", status: 66)
  }
  // NB: bounded before reading: 4 hours of 16-bit stereo at 48 kHz.
  let size = (try? handle.seekToEnd()) ?? 0
  guard size <= 2_800_000_000 else {
    Output.fail("'\(file)' is too large to be a meeting's recording")
  }
  try? handle.seek(toOffset: 0)
  let bytes = [UInt8](handle.readDataToEndOfFile())
  let samples: [Int16]
  do {
    samples = try WAVFile.samples(bytes)
  } catch {
    Output.fail("\(file): \(error.description)", status: 65)
  }
  let recognizer = recognizer()
  Output.send(.ready)
  let queue = ItemQueue()
  let marks = turns.enumerated().map { (Int($0.element.seconds * Double(WAVFile.rate)), $0.offset) }
    .sorted { $0.0 < $1.0 }
  var next = 0
  let chunk = WAVFile.rate / 10
  var at = 0
  // Decoding runs beside reading, as when listening.
  let finished = DispatchSemaphore(value: 0)
  let worker = Thread {
    decode(queue, with: recognizer)
    finished.signal()
  }
  worker.start()
  while at < samples.count || next < marks.count {
    while next < marks.count && marks[next].0 <= at {
      if marks[next].1 > 0 { queue.push(.turn(marks[next].1)) }
      next += 1
    }
    guard at < samples.count else { break }
    let end = min(samples.count, at + chunk)
    while !queue.push(.audio(Array(samples[at..<end]))) { usleep(2000) }
    at = end
  }
  queue.push(.end)
  finished.wait()
  Output.send(.done)

case "listen":
  let recognizer = recognizer()
  let stream: PulseStream
  do {
    stream = try PulseStream(recording: true, name: "meeting transcript")
  } catch {
    Output.fail(
      "can't record from the sound server: \(error.message) (is PulseAudio or PipeWire running? Without one, record elsewhere and use 'dinger meet S --record --audio FILE.wav')",
      status: 4)
  }
  // DINGER_TEST_TRANSCRIBE_QUEUE: a smaller backlog (chunks of 100 ms), so that a test
  // can make the decoder fall behind in seconds.
  let queue = ItemQueue(
    mostAudio: ProcessInfo.processInfo.environment["DINGER_TEST_TRANSCRIBE_QUEUE"].flatMap {
      Int($0)
    } ?? ItemQueue.defaultMostAudio)
  let marks = TurnMarks()
  let stop = NSCondition()
  nonisolated(unsafe) var stopping = false
  // dinger's commands: each turn as it begins; the end (or dinger gone).
  let commands = Thread {
    var turn = 0
    while let line = readLine(strippingNewline: true) {
      switch TranscriberMessage(line: Substring(line)) {
      case .turn?:
        turn += 1
        marks.begin(turn)
      case .end?:
        stop.withLock { stopping = true }
        return
      default:
        Output.send(.note("ignored a line dinger sent: \(line.prefix(40))"))
      }
    }
    stop.withLock { stopping = true }
  }
  commands.start()
  let finished = DispatchSemaphore(value: 0)
  let worker = Thread {
    decode(queue, with: recognizer)
    finished.signal()
  }
  worker.start()
  Output.send(.ready)
  var buffer = [Int16](repeating: 0, count: WAVFile.rate / 10)
  var lost = LostAudio(rate: WAVFile.rate)
  var position = 0
  while !stop.withLock({ stopping }) {
    do {
      try buffer.withUnsafeMutableBufferPointer { try stream.read(into: $0) }
    } catch {
      Output.send(
        .note("recording stopped: \((error as? PulseStream.Failure)?.message ?? "\(error)")"))
      break
    }
    Output.send(.level(buffer.withUnsafeBufferPointer { Level.of($0) }))
    let queued = marks.queue(buffer, waiting: stream.pendingSamples(), into: queue)
    if let message = lost.after(chunkAt: position, count: buffer.count, queued: queued) {
      Output.send(message)
    }
    position += buffer.count
  }
  if let message = lost.finish(at: position) { Output.send(message) }
  queue.push(.end)
  finished.wait()
  Output.send(.done)

default:
  Output.fail(
    "usage: dinger-transcribe listen|file FILE.wav|ding [--word NAME] [--turn NAME=SECONDS] [--model DIR]",
    status: 64)
}
