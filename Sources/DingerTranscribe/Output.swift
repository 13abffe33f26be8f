import Foundation
import Speech

/// Messages to dinger on standard output, one whole line per write, from any thread.
enum Output {
  private static let lock = NSLock()

  static func send(_ message: TranscriberMessage) {
    lock.withLock {
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

/// Decodes what the queue gives until its end: each turn's utterances as `heard` lines.
func decode(_ queue: ItemQueue, with recognizer: Recognizer) {
  var turn = 0
  // DINGER_TEST_DECODE_DELAY_MS: a slower decoder (each 100 ms of audio takes this much
  // longer), as on a busy machine, for the test of audio dropped and reported.
  let delay = ProcessInfo.processInfo.environment["DINGER_TEST_DECODE_DELAY_MS"].flatMap {
    UInt32($0)
  }
  while true {
    switch queue.pop() {
    case .audio(let samples):
      if let delay { usleep(delay * 1000) }
      if let text = samples.withUnsafeBufferPointer({ recognizer.process($0) }) {
        Output.send(.heard(turn: turn, text: text))
      }
    case .turn(let next):
      if let text = recognizer.finish() { Output.send(.heard(turn: turn, text: text)) }
      turn = next
    case .end:
      if let text = recognizer.finish() { Output.send(.heard(turn: turn, text: text)) }
      return
    }
  }
}
