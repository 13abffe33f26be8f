import Base
import FoundationEssentials
import Glibc

/// The Swift objects behind libgit2's C structs for one custom transport, by the structs'
/// addresses: the setting the transport callback leaves for the subtransport it is about to
/// make, the subtransports, and their streams. One lock; every change is one locked step (a
/// read-then-write of a whole dictionary could lose another thread's entry).
final class TransportRegistry<Pending: Sendable, Subtransport, Stream>: @unchecked Sendable {
  // NB: @unchecked because the objects it holds are not Sendable: each is made, used and
  // dropped by the thread of the one libgit2 call that made it (libgit2 calls a transport back
  // on the thread that called it). The registry is global only to find them by the C struct's
  // address; its tables are shared, and live in the monitor.
  private struct State {
    var pending: Pending?
    var subtransports: [UnsafeMutableRawPointer: Subtransport] = [:]
    var streams: [UnsafeMutableRawPointer: Stream] = [:]
  }
  private let state = Monitor(State())

  /// Leaves a setting for the next subtransport.
  func leave(_ value: Pending?) { state.withLock { $0.pending = value } }

  /// Takes the setting left for this subtransport (nil once taken).
  func take() -> Pending? {
    state.withLock { $0.pending.take() }
  }

  func subtransport<T>(_ raw: UnsafeMutablePointer<T>?) -> Subtransport? {
    guard let raw else { return nil }
    return state.withLock { $0.subtransports[UnsafeMutableRawPointer(raw)] }
  }

  func setSubtransport<T>(_ value: Subtransport?, for raw: UnsafeMutablePointer<T>) {
    state.withLock { $0.subtransports[UnsafeMutableRawPointer(raw)] = value }
  }

  func stream<T>(_ raw: UnsafeMutablePointer<T>?) -> Stream? {
    guard let raw else { return nil }
    return state.withLock { $0.streams[UnsafeMutableRawPointer(raw)] }
  }

  func setStream<T>(_ value: Stream?, for raw: UnsafeMutablePointer<T>) {
    state.withLock { $0.streams[UnsafeMutableRawPointer(raw)] = value }
  }

  /// Removes a stream's object and returns it (to be finished outside the lock).
  func removeStream<T>(_ raw: UnsafeMutablePointer<T>) -> Stream? {
    state.withLock { $0.streams.removeValue(forKey: UnsafeMutableRawPointer(raw)) }
  }
}
