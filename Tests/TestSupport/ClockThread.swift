import Foundation
import Synchronization

/// A task executor with a thread of its own, for the tests that step a `TestClock`.
///
/// Such a test hops between tasks hundreds of times (each `advance` yields, each tick resumes
/// the session's actor). On the shared pool, every hop queued behind the tests that block a pool
/// thread on a child process: on 2 cores a 0.25 s test then took 240 s of a full run. With this
/// executor preferred (`onClockThread`, `Task(executorPreference: ClockThread.shared)`), the
/// hops, the session actors' turns and the timers' wake-ups all run here instead.
public final class ClockThread: TaskExecutor, Sendable {
  public static let shared = ClockThread()

  private let jobs = Mutex<[UnownedJob]>([])
  private let ready = DispatchSemaphore(value: 0)

  private init() {
    let thread = Thread { [self] in serve() }
    thread.name = "dinger-test-clock"
    thread.start()
  }

  public func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    jobs.withLock { $0.append(job) }
    ready.signal()
  }

  private func serve() {
    while true {
      ready.wait()
      let job = jobs.withLock { $0.removeFirst() }
      job.runSynchronously(on: asUnownedTaskExecutor())
    }
  }
}

/// Runs `body` with `ClockThread.shared` preferred, so that it and its child tasks never wait
/// for a thread of the shared pool.
public func onClockThread<T>(_ body: () async -> T) async -> T {
  await withTaskExecutorPreference(ClockThread.shared, operation: body)
}

/// `onClockThread` for a body that throws.
public func onClockThread<T>(_ body: () async throws -> T) async throws -> T {
  try await withTaskExecutorPreference(ClockThread.shared, operation: body)
}
