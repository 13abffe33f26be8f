import Base
import FoundationEssentials
import Glibc

/// What the decoding thread takes, in the order it happened: audio, a new turn, the end.
public enum Item: Sendable, Equatable {
  case audio([Int16])
  case turn(Int)
  case end
}

/// A queue between capture (and dinger's commands) and the decoder, so that decoding never
/// holds up capture. Bounded: past a minute of audio behind, audio is dropped (and said).
public final class ItemQueue: @unchecked Sendable {
  private let condition = Condition()
  private var items: [Item] = []
  private var head = 0
  private var audioQueued = 0
  public static let mostAudio = 600  // chunks of 100 ms

  public init() {}

  /// False when the audio was dropped.
  @discardableResult
  public func push(_ item: Item) -> Bool {
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

  public func pop() -> Item {
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

/// Where in the recorded audio each turn begins. A key press reaches the helper while the sound
/// of that moment may still wait in the server's buffers, so a turn is placed at the audio
/// captured by then (what was read, plus what waits), not at the chunk read next.
public final class TurnMarks: @unchecked Sendable {
  private let lock = Lock()
  private var read = 0
  private var waiting = 0
  private var pending: [(position: Int, turn: Int)] = []

  public init() {}

  /// A turn begins now.
  public func begin(_ turn: Int) {
    lock.withLock { pending.append((read + waiting, turn)) }
  }

  /// Queues a chunk just read, cut where turns began inside it; `waiting` is what the server
  /// still holds after it.
  @discardableResult
  public func queue(_ chunk: [Int16], waiting now: Int, into queue: ItemQueue) -> Bool {
    let (start, marks) = lock.withLock { () -> (Int, [(position: Int, turn: Int)]) in
      let start = read
      read += chunk.count
      waiting = now
      let due = pending.filter { $0.position < read }
      pending.removeAll { $0.position < read }
      return (start, due)
    }
    var from = 0
    var queued = true
    for mark in marks {
      let cut = min(chunk.count, max(from, mark.position - start))
      if cut > from { queued = queue.push(.audio(Array(chunk[from..<cut]))) && queued }
      queue.push(.turn(mark.turn))
      from = cut
    }
    if from < chunk.count { queued = queue.push(.audio(Array(chunk[from...]))) && queued }
    return queued
  }
}
