import Base
import FoundationEssentials
import Glibc
import Synchronization

/// What the decoding thread takes, in the order it happened: audio, a new turn, the end.
public enum Item: Sendable, Equatable {
  case audio([Int16])
  case turn(Int)
  case end
}

/// A queue between capture (and dinger's commands) and the decoder, so that decoding never
/// holds up capture. Bounded: past five minutes of audio behind (9.6 MB), audio is dropped,
/// and the helper says which.
public final class ItemQueue: Sendable {
  private struct State {
    var items: [Item] = []
    var head = 0
    var audioQueued = 0
  }
  private let state = Monitor(State())
  /// Chunks of audio (100 ms each) it holds before it drops.
  public let mostAudio: Int
  public static let defaultMostAudio = 3000

  /// A queue holding at most `mostAudio` chunks of audio.
  public init(mostAudio: Int = ItemQueue.defaultMostAudio) { self.mostAudio = max(1, mostAudio) }

  /// False when the audio was dropped.
  @discardableResult
  public func push(_ item: Item) -> Bool {
    state.change { state in
      if case .audio = item {
        guard state.audioQueued < mostAudio else { return false }
        state.audioQueued += 1
      }
      state.items.append(item)
      return true
    }
  }

  public func pop() -> Item {
    state.wait(until: { $0.head < $0.items.count }) { state, _ in
      let item = state.items[state.head]
      state.head += 1
      if state.head > 1024 {
        state.items.removeFirst(state.head)
        state.head = 0
      }
      if case .audio = item { state.audioQueued -= 1 }
      return item
    }
  }
}

/// Where in the recorded audio each turn begins. A key press reaches the helper while the sound
/// of that moment may still wait in the server's buffers, so a turn is placed at the audio
/// captured by then (what was read, plus what waits), not at the chunk read next.
public final class TurnMarks: Sendable {
  private struct State {
    var read = 0
    var waiting = 0
    var pending: [(position: Int, turn: Int)] = []
  }
  private let state = Mutex(State())

  public init() {}

  /// A turn begins now.
  public func begin(_ turn: Int) {
    state.withLock { $0.pending.append(($0.read + $0.waiting, turn)) }
  }

  /// Queues a chunk just read, cut where turns began inside it; `waiting` is what the server
  /// still holds after it.
  @discardableResult
  public func queue(_ chunk: [Int16], waiting now: Int, into queue: ItemQueue) -> Bool {
    let (start, marks) = state.withLock { state -> (Int, [(position: Int, turn: Int)]) in
      let start = state.read
      state.read += chunk.count
      state.waiting = now
      let read = state.read
      let due = state.pending.filter { $0.position < read }
      state.pending.removeAll { $0.position < read }
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

/// The spans of audio a full queue dropped, as the helper reports them: `lost START 0` when a
/// span begins (the screen says so at once), `lost START SECONDS` when it ends.
public struct LostAudio: Sendable {
  private var start: Int?
  private let rate: Int

  /// Spans counted in samples at `rate` per second.
  public init(rate: Int) { self.rate = rate }

  /// After a chunk of `count` samples starting at sample `at`: `queued` false when some of it
  /// was dropped. The message to send, if one is due.
  public mutating func after(chunkAt at: Int, count: Int, queued: Bool) -> TranscriberMessage? {
    if !queued {
      guard start == nil else { return nil }
      start = at
      return .lost(start: seconds(at), seconds: 0)
    }
    return finish(at: at)
  }

  /// Ends a span under way at sample `at` (a chunk was taken again, or the recording ended).
  public mutating func finish(at: Int) -> TranscriberMessage? {
    guard let begun = start else { return nil }
    start = nil
    return .lost(start: seconds(begun), seconds: seconds(at - begun))
  }

  private func seconds(_ samples: Int) -> Double { Double(samples) / Double(rate) }
}
