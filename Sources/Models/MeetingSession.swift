/// Runs a `MeetingTimer` on a clock: one tick a second while the meeting is not over. The clock
/// is injected, so tests drive it with a test clock and the terminal with the real one.
public actor MeetingSession {
  /// The timer's current state.
  public private(set) var timer: MeetingTimer
  private let onEvent: @Sendable (MeetingTimer.Event, MeetingTimer) -> Void

  /// A session for a timer; `onEvent` hears each ding and the end (to play a sound, redraw).
  public init(
    _ timer: MeetingTimer,
    onEvent: @escaping @Sendable (MeetingTimer.Event, MeetingTimer) -> Void = { _, _ in }
  ) {
    self.timer = timer
    self.onEvent = onEvent
  }

  /// Ticks once a `second` (a second unless a test speeds it up) on `clock` until the meeting
  /// is over or the task is cancelled.
  public func run<C: Clock>(clock: C, second: Duration = .seconds(1)) async
  where C.Duration == Duration {
    while !timer.isFinished {
      do { try await clock.sleep(for: second) } catch { return }
      if let event = timer.tick() { onEvent(event, timer) }
    }
  }

  /// Applies a key press or a choice to the timer.
  public func update(_ change: @Sendable (inout MeetingTimer) -> MeetingTimer.Event?) {
    if let event = change(&timer) { onEvent(event, timer) }
  }
}
