import FoundationEssentials
import Glibc

// Shared state has one idiom: it lives inside its lock and is reached only through a closure
// that holds the lock. `Mutex<State>` (Synchronization) where nobody waits for the state to
// change; `Monitor<State>` below where a thread does (a queue's reader, a helper's start).
// No free-standing locks or conditions: a lock that guards "these fields" by convention is how
// a field comes to be read without it.

/// State shared between threads, reachable only with its lock held, with a condition to wait on
/// until it changes: `Mutex` with waiting, on pthreads.
public final class Monitor<State>: @unchecked Sendable {
  // NB: @unchecked because the compiler cannot see that `state` is touched only with `mutex`
  // held; every path to it below takes the lock first.
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private let cond = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
  private var state: State

  /// A monitor over `initial`.
  public init(_ initial: State) {
    state = initial
    pthread_mutex_init(mutex, nil)
    var attributes = pthread_condattr_t()
    pthread_condattr_init(&attributes)
    pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
    pthread_cond_init(cond, &attributes)
    pthread_condattr_destroy(&attributes)
  }

  deinit {
    pthread_cond_destroy(cond)
    cond.deallocate()
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  /// `body` with the lock held. Waiters are not woken: use `change` for what they wait on.
  public func withLock<T>(_ body: (inout State) throws -> T) rethrows -> T {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&state)
  }

  /// `body` with the lock held, then every waiter woken to look again.
  public func change<T>(_ body: (inout State) throws -> T) rethrows -> T {
    pthread_mutex_lock(mutex)
    defer {
      pthread_cond_broadcast(cond)
      pthread_mutex_unlock(mutex)
    }
    return try body(&state)
  }

  /// Waits until `ready` holds (at most `seconds`, for ever when nil), then runs `body` with the
  /// lock still held; `body` is told whether `ready` held (false: the time ran out).
  public func wait<T>(
    seconds: Double? = nil, until ready: (State) -> Bool,
    then body: (inout State, _ ready: Bool) throws -> T
  ) rethrows -> T {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    var deadline = timespec()
    if let seconds {
      clock_gettime(CLOCK_MONOTONIC, &deadline)
      let total = Double(deadline.tv_sec) + Double(deadline.tv_nsec) / 1e9 + max(0, seconds)
      deadline = timespec(
        tv_sec: Int(total), tv_nsec: Int((total - total.rounded(.down)) * 1e9))
    }
    while !ready(state) {
      if seconds == nil {
        pthread_cond_wait(cond, mutex)
      } else if pthread_cond_timedwait(cond, mutex, &deadline) == ETIMEDOUT {
        return try body(&state, ready(state))
      }
    }
    return try body(&state, true)
  }
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

/// Work split into runs done on every core, each run's result kept in its own slot: what
/// `check` reads of a big tree, what `log` describes of many commits.
public enum Runs {
  /// `count` items cut into runs for the cores: one run below `minimum` items, else a few runs
  /// per core (so that a core that finishes early takes another).
  public static func split(_ count: Int, minimum: Int) -> [Range<Int>] {
    let runs =
      count < minimum ? 1 : 4 * max(1, ProcessInfo.processInfo.activeProcessorCount)
    let size = max(1, (count + runs - 1) / runs)
    return stride(from: 0, to: max(count, 1), by: size).map { $0..<min($0 + size, count) }
  }

  /// `body` of each run, on as many threads as there are cores (this one among them), the
  /// results in run order. Each thread takes the next run not yet taken.
  public static func map<T: Sendable>(
    _ runs: [Range<Int>], _ body: @escaping @Sendable (Range<Int>) -> T
  ) -> [T] {
    if runs.count == 1 { return [body(runs[0])] }
    let state = Monitor((next: 0, done: 0, results: [T?](repeating: nil, count: runs.count)))
    let work: @Sendable () -> Void = {
      while true {
        let i = state.withLock { s -> Int? in
          guard s.next < runs.count else { return nil }
          s.next += 1
          return s.next - 1
        }
        guard let i else { return }
        let result = body(runs[i])
        state.change {
          $0.results[i] = result
          $0.done += 1
        }
      }
    }
    let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)
    for _ in 1..<min(runs.count, cores) { Threads.start(work) }
    work()
    return state.wait(until: { $0.done == runs.count }) { s, _ in s.results.map { $0! } }
  }
}
