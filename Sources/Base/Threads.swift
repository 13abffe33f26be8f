import FoundationEssentials
import Glibc

// Locks, a condition and threads on pthreads: what Foundation's NSLock, NSCondition and Thread
// gave us (they live in full Foundation, which links ICU).

/// A mutual-exclusion lock.
public final class Lock: @unchecked Sendable {
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

  /// A lock; `recursive` lets the thread holding it take it again.
  public init(recursive: Bool = false) {
    var attributes = pthread_mutexattr_t()
    pthread_mutexattr_init(&attributes)
    if recursive { pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE)) }
    pthread_mutex_init(mutex, &attributes)
    pthread_mutexattr_destroy(&attributes)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  /// Takes the lock, waiting for it.
  public func lock() { pthread_mutex_lock(mutex) }
  /// Gives the lock back.
  public func unlock() { pthread_mutex_unlock(mutex) }

  /// `body` with the lock held.
  public func withLock<T>(_ body: () throws -> T) rethrows -> T {
    lock()
    defer { unlock() }
    return try body()
  }

  fileprivate var raw: UnsafeMutablePointer<pthread_mutex_t> { mutex }
}

/// A lock with a condition to wait on, as NSCondition.
public final class Condition: @unchecked Sendable {
  private let lockValue = Lock()
  private let cond = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

  /// A condition.
  public init() {
    var attributes = pthread_condattr_t()
    pthread_condattr_init(&attributes)
    pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
    pthread_cond_init(cond, &attributes)
    pthread_condattr_destroy(&attributes)
  }

  deinit {
    pthread_cond_destroy(cond)
    cond.deallocate()
  }

  /// Takes the lock.
  public func lock() { lockValue.lock() }
  /// Gives the lock back.
  public func unlock() { lockValue.unlock() }
  /// `body` with the lock held.
  public func withLock<T>(_ body: () throws -> T) rethrows -> T { try lockValue.withLock(body) }
  /// Waits (the lock held) until signalled.
  public func wait() { pthread_cond_wait(cond, lockValue.raw) }

  /// Waits (the lock held) until signalled or `seconds` have passed; false when they have.
  @discardableResult
  public func wait(seconds: Double) -> Bool {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    let total = Double(now.tv_sec) + Double(now.tv_nsec) / 1e9 + max(0, seconds)
    var deadline = timespec(
      tv_sec: Int(total), tv_nsec: Int((total - total.rounded(.down)) * 1e9))
    return pthread_cond_timedwait(cond, lockValue.raw, &deadline) == 0
  }

  /// Waits (the lock held) until signalled or `deadline`; false when it has passed.
  @discardableResult
  public func wait(until deadline: Date) -> Bool { wait(seconds: deadline.timeIntervalSinceNow) }

  /// Wakes one waiter.
  public func signal() { pthread_cond_signal(cond) }
  /// Wakes every waiter.
  public func broadcast() { pthread_cond_broadcast(cond) }
}

/// A thread of its own for work that blocks (a read, a C library's loop).
public enum Threads {
  private final class Box {
    let body: () -> Void
    init(_ body: @escaping () -> Void) { self.body = body }
  }

  /// Starts `body` on a new, detached thread.
  public static func start(_ body: @escaping @Sendable () -> Void) {
    let box = Unmanaged.passRetained(Box(body)).toOpaque()
    var thread = pthread_t()
    let started = pthread_create(
      &thread, nil,
      { raw in
        let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
        box.body()
        return nil
      }, box)
    precondition(started == 0, "dinger could not start a thread (error \(started))")
    pthread_detach(thread)
  }
}
