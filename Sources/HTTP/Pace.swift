import Glibc

/// How fast an http answer comes, judged as the transfer goes (curl's progress callback, about
/// once a second and on every piece): a server preparing its answer (nothing received yet, the
/// request sent whole) may stay silent for `HTTPSettings.preparingTime`; once bytes flow, less
/// than `lowSpeedLimit` bytes a second over `lowSpeedTime` seconds is a stall, as curl's
/// low-speed limit (and git's) judges it. Pure: time is given.
struct Pace {
  enum Verdict: Equatable {
    case fine
    /// Still preparing, silent for this many whole seconds (said every `every` seconds).
    case waiting(Int)
    case stalled(HTTPFailure)
  }

  let limit: Int
  let time: Double
  let preparing: Double
  /// How often a silent server's wait is reported, in seconds.
  let every = 5.0
  /// Since when the server has been silent (the request start, or the end of its upload).
  private var silentSince: Double
  private var uploadDone = false
  private var reported = 0.0
  /// The start of the current low-speed window, and the bytes moved by then.
  private var windowStart: Double
  private var windowBytes = 0

  init(settings: HTTPSettings, now: Double) {
    limit = settings.lowSpeedLimit
    time = Double(settings.lowSpeedTime)
    preparing = Double(settings.preparingTime)
    silentSince = now
    windowStart = now
  }

  /// Monotonic seconds.
  static func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
  }

  mutating func observe(sent: Int, of total: Int, received: Int, at now: Double) -> Verdict {
    let moved = sent + received
    if received == 0, sent >= total {
      // Nothing of the answer yet, and nothing (more) to send: the server is preparing.
      if !uploadDone {
        uploadDone = true
        if total > 0 { silentSince = now }
      }
      let silent = now - silentSince
      if silent >= preparing {
        return .stalled(.preparing(seconds: Int(preparing)))
      }
      if silent - reported >= every {
        reported = silent - silent.truncatingRemainder(dividingBy: every)
        return .waiting(Int(reported))
      }
      windowStart = now
      windowBytes = moved
      return .fine
    }
    if now - windowStart >= time {
      if moved - windowBytes < limit * Int(time) {
        return .stalled(
          .timedOut(
            "less than \(limit) byte\(limit == 1 ? "" : "s") a second for \(Int(time)) s",
            seconds: Int(time)))
      }
      windowStart = now
      windowBytes = moved
    }
    return .fine
  }
}
