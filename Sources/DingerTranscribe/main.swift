// dinger-transcribe: the helper `dinger meet --transcribe` starts, so that the audio and speech
// libraries cost the other commands nothing. It speaks the line protocol of
// `TranscriberMessage` on its standard input and output.
//
//   dinger-transcribe listen [--word NAME]... [--list FILE]   the default source, turns from stdin
//   dinger-transcribe file FILE.wav [--turn NAME=SECONDS]... [--word NAME]...
//   dinger-transcribe ding                                 plays the ding
//   dinger-transcribe weigh --team-lm FILE     the team model's best weight for the held-out
//                                              sentences on stdin (one a line), printed
//
// --list FILE reads more --word and --turn values from a file (dinger passes them this way, so a
// long name never meets the kernel's limit on an argument): entries `w:NAME` and
// `t:NAME=SECONDS`, each ended by a NUL byte; at most 16 MiB.
// --team-lm FILE and --team-weight W (0 to 1) interpolate the team's model with the general one.
// --model DIR (or DINGER_SPEECH_MODEL) names the speech model folder.

import Foundation
import Speech
import Synchronization

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
var teamModel: String?
var teamWeight: Float = 0.3
var model = ProcessInfo.processInfo.environment["DINGER_SPEECH_MODEL"] ?? Recognizer.defaultModel
@MainActor func addTurn(_ value: String) {
  guard let eq = value.lastIndex(of: "="), let s = Double(value[value.index(after: eq)...]),
    s >= 0
  else { Output.fail("--turn takes NAME=SECONDS, found '\(value)'", status: 64) }
  turns.append((String(value[..<eq]), s))
}

/// Reads `--list FILE`: its size bounded before it is read.
@MainActor func readList(_ path: String) {
  let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
  var st = stat()
  guard fd >= 0, fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else {
    Output.fail("can't read the list \(path)", status: 66)
  }
  defer { close(fd) }
  guard st.st_size <= 16 << 20 else {
    Output.fail("the list \(path) is over 16 MiB (\(st.st_size) bytes)", status: 65)
  }
  var bytes = [UInt8](repeating: 0, count: Int(st.st_size))
  var done = 0
  while done < bytes.count {
    let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + done, $0.count - done) }
    if n < 0 && errno == EINTR { continue }
    guard n > 0 else { break }
    done += n
  }
  for entry in bytes[0..<done].split(separator: 0) {
    let text = String(decoding: entry, as: UTF8.self)
    if text.hasPrefix("w:") {
      words.append(String(text.dropFirst(2)))
    } else if text.hasPrefix("t:") {
      addTurn(String(text.dropFirst(2)))
    } else {
      Output.fail("the list \(path) holds an entry that is neither w: nor t:", status: 65)
    }
  }
}

var i = 0
while i < arguments.count {
  let a = arguments[i]
  let value = i + 1 < arguments.count ? arguments[i + 1] : nil
  switch a {
  case "--word", "--model", "--turn", "--team-lm", "--team-weight", "--list":
    guard let value else { Output.fail("\(a) needs a value", status: 64) }
    if a == "--word" { words.append(value) }
    if a == "--model" { model = value }
    if a == "--team-lm" { teamModel = value }
    if a == "--team-weight" {
      guard let w = Float(value), w >= 0, w <= 1 else {
        Output.fail("--team-weight takes a number from 0 to 1, found '\(value)'", status: 64)
      }
      teamWeight = w
    }
    if a == "--turn" { addTurn(value) }
    if a == "--list" { readList(value) }
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
  if let teamModel {
    do {
      let added = try recognizer.useTeamModel(teamModel, weight: teamWeight)
      Output.send(
        .note(
          "the team's words are in use (weight \(teamWeight), \(added.count) added to the dictionary)"
        ))
    } catch {
      Output.fail(error.message, status: 3)
    }
  }
  return recognizer
}

switch mode {
case "weigh":
  guard let teamModel else { Output.fail("weigh needs --team-lm FILE", status: 64) }
  var heldOut: [[String]] = []
  while let line = readLine(), heldOut.count < 100_000 {
    let words = line.split(separator: " ").map(String.init)
    if !words.isEmpty { heldOut.append(words) }
  }
  let recognizer: Recognizer
  do {
    recognizer = try Recognizer(model: model)
    print(try recognizer.bestTeamWeight(teamModel, heldOut: heldOut))
  } catch {
    Output.fail(error.message, status: 3)
  }

case "ding":
  do {
    try PulseStream(recording: false, name: "ding").play(Ding.samples())
  } catch {
    Output.fail("can't play through the sound server: \(error.message)", status: 4)
  }

case "file":
  guard let file else { Output.fail("file needs a WAV file", status: 64) }
  // NB: streamed: the header checked, the length bounded by it, a tenth of a second read at
  // a time (reading the whole file twice took 1.22 GB for 60 minutes of 44.1 kHz stereo).
  let reader: WAVReader
  do {
    reader = try WAVReader(path: file)
  } catch {
    Output.fail("\(file): \(error.description)", status: 65)
  }
  let length = reader.header.seconds
  if let late = turns.first(where: { $0.seconds > length }) {
    Output.fail(
      "--turn \(late.name)=\(late.seconds) is past the end of the recording (\(Int(length.rounded())) s)",
      status: 64)
  }
  let recognizer = recognizer()
  Output.send(.ready)
  let queue = ItemQueue()
  let marks = turns.enumerated().map { (Int($0.element.seconds * Double(WAVFile.rate)), $0.offset) }
    .sorted { $0.0 < $1.0 }
  var next = 0
  var at = 0
  // Decoding runs beside reading, as when listening.
  let finished = DispatchSemaphore(value: 0)
  let handed = Mutex<Recognizer?>(recognizer)
  let worker = Thread {
    decode(queue, with: handed.withLock { $0.take()! })
    finished.signal()
  }
  worker.start()
  func push(_ chunk: ArraySlice<Int16>) {
    while !queue.push(.audio(Array(chunk))) { usleep(2000) }
  }
  do {
    while let chunk = try reader.next() {
      var from = 0
      while next < marks.count && marks[next].0 < at + chunk.count {
        let cut = max(from, marks[next].0 - at)
        if cut > from { push(chunk[from..<cut]) }
        if marks[next].1 > 0 { queue.push(.turn(marks[next].1)) }
        from = cut
        next += 1
      }
      if from < chunk.count { push(chunk[from...]) }
      at += chunk.count
    }
  } catch {
    Output.fail("\(file): \(error.description)", status: 65)
  }
  while next < marks.count {
    if marks[next].1 > 0 { queue.push(.turn(marks[next].1)) }
    next += 1
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
  let stopping = Mutex(false)
  // dinger's commands: each turn as it begins; the end (or dinger gone).
  let commands = Thread {
    var turn = 0
    while let line = readLine(strippingNewline: true) {
      switch TranscriberMessage(line: Substring(line)) {
      case .turn?:
        turn += 1
        marks.begin(turn)
      case .end?:
        stopping.withLock { $0 = true }
        return
      default:
        Output.send(.note("ignored a line dinger sent: \(line.prefix(40))"))
      }
    }
    stopping.withLock { $0 = true }
  }
  commands.start()
  let finished = DispatchSemaphore(value: 0)
  let handed = Mutex<Recognizer?>(recognizer)
  let worker = Thread {
    decode(queue, with: handed.withLock { $0.take()! })
    finished.signal()
  }
  worker.start()
  Output.send(.ready)
  var buffer = [Int16](repeating: 0, count: WAVFile.rate / 10)
  var lost = LostAudio(rate: WAVFile.rate)
  var position = 0
  while !stopping.withLock({ $0 }) {
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
