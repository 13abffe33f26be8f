import Base
import FoundationEssentials
import Glibc

/// The Swift objects behind libgit2's C structs for one custom transport, by the structs'
/// addresses: the setting the transport callback leaves for the subtransport it is about to
/// make, the subtransports, and their streams. One lock; every change is one locked step (a
/// read-then-write of a whole dictionary could lose another thread's entry).
final class TransportRegistry<Pending: Sendable, Subtransport, Stream>: @unchecked Sendable {
  private let lock = Lock()
  private var pending: Pending?
  private var subtransports: [UnsafeMutableRawPointer: Subtransport] = [:]
  private var streams: [UnsafeMutableRawPointer: Stream] = [:]

  /// Leaves a setting for the next subtransport.
  func leave(_ value: Pending?) { lock.withLock { pending = value } }

  /// Takes the setting left for this subtransport (nil once taken).
  func take() -> Pending? {
    lock.withLock {
      defer { pending = nil }
      return pending
    }
  }

  func subtransport<T>(_ raw: UnsafeMutablePointer<T>?) -> Subtransport? {
    guard let raw else { return nil }
    return lock.withLock { subtransports[UnsafeMutableRawPointer(raw)] }
  }

  func setSubtransport<T>(_ value: Subtransport?, for raw: UnsafeMutablePointer<T>) {
    lock.withLock { subtransports[UnsafeMutableRawPointer(raw)] = value }
  }

  func stream<T>(_ raw: UnsafeMutablePointer<T>?) -> Stream? {
    guard let raw else { return nil }
    return lock.withLock { streams[UnsafeMutableRawPointer(raw)] }
  }

  func setStream<T>(_ value: Stream?, for raw: UnsafeMutablePointer<T>) {
    lock.withLock { streams[UnsafeMutableRawPointer(raw)] = value }
  }

  /// Removes a stream's object and returns it (to be finished outside the lock).
  func removeStream<T>(_ raw: UnsafeMutablePointer<T>) -> Stream? {
    lock.withLock { streams.removeValue(forKey: UnsafeMutableRawPointer(raw)) }
  }
}
