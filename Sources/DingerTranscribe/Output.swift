import Foundation
import Speech
import Synchronization

/// Messages to dinger on standard output, one whole line per write, from any thread.
enum Output {
  private static let lock = Mutex(())

  static func send(_ message: TranscriberMessage) {
    lock.withLock { _ in
      var line = message.line
      line.withUTF8 { buffer in
        var done = 0
        while done < buffer.count {
          let n = write(1, buffer.baseAddress! + done, buffer.count - done)
          if n < 0 && errno == EINTR { continue }
          // dinger went away: nobody is left to hear the rest.
          if n <= 0 { exit(0) }
          done += n
        }
      }
    }
  }

  /// Says what went wrong and exits with `status`.
  static func fail(_ message: String, status: Int32 = 2) -> Never {
    send(.error(message))
    exit(status)
  }
}

/// Decodes what the queue gives until its end: each turn's words as `heard` lines. A turn
/// change does not end the utterance under way: when it ends (at a pause), its words are
/// split among the turns at the pause nearest each key (`TurnCuts`), so a late or early key
/// moves no word to the wrong speaker.
func decode(_ queue: ItemQueue, with recognizer: Recognizer) {
  var turn = 0
  var fed = 0
  var keys: [(at: Int, turn: Int)] = []
  // DINGER_TEST_DECODE_DELAY_MS: a slower decoder (each 100 ms of audio takes this much
  // longer), as on a busy machine, for the test of audio dropped and reported.
  let delay = ProcessInfo.processInfo.environment["DINGER_TEST_DECODE_DELAY_MS"].flatMap {
    UInt32($0)
  }
  func heard(_ words: [HeardWord]) {
    // NB: keys up to the end of this utterance are settled by it; later ones wait.
    let end = words.last?.end ?? fed
    let due = keys.prefix { $0.at <= end + 16_000 || $0.at <= fed }
    for group in TurnCuts.split(words, current: turn, keys: Array(due)) {
      Output.send(.heard(turn: group.turn, text: group.words.joined(separator: " ")))
    }
    turn = due.last?.turn ?? turn
    keys.removeFirst(due.count)
  }
  while true {
    switch queue.pop() {
    case .audio(let samples):
      if let delay { usleep(delay * 1000) }
      if let words = samples.withUnsafeBufferPointer({ recognizer.process($0) }) { heard(words) }
      fed += samples.count
    case .turn(let next):
      keys.append((fed, next))
    case .end:
      if let words = recognizer.finish() { heard(words) }
      if let last = keys.last { turn = last.turn }
      return
    }
  }
}
