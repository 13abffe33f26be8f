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

/// What the decoding thread takes, in the order it happened: audio, a new turn, the end.
enum Item {
  case audio([Int16])
  case turn(Int)
  case end
}

/// A queue between capture (and dinger's commands) and the decoder, so that decoding never
/// holds up capture. Bounded: past a minute of audio behind, audio is dropped (and said).
final class ItemQueue: @unchecked Sendable {
  private let condition = NSCondition()
  private var items: [Item] = []
  private var head = 0
  private var audioQueued = 0
  static let mostAudio = 600  // chunks of 100 ms

  /// False when the audio was dropped.
  @discardableResult
  func push(_ item: Item) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    if case .audio = item {
      guard audioQueued < Self.mostAudio else { return false }
      audioQueued += 1
    }
    items.append(item)
    condition.signal()
    return true
  }

  func pop() -> Item {
    condition.lock()
    defer { condition.unlock() }
    while head == items.count { condition.wait() }
    let item = items[head]
    head += 1
    if head > 1024 {
      items.removeFirst(head)
      head = 0
    }
    if case .audio = item { audioQueued -= 1 }
    return item
  }
}

/// Decodes what the queue gives until its end: each turn's utterances as `heard` lines.
func decode(_ queue: ItemQueue, with recognizer: Recognizer) {
  var turn = 0
  while true {
    switch queue.pop() {
    case .audio(let samples):
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
