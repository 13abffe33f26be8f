import Glibc

/// Removes a temporary file when dinger ends, however it ends: `remove()` on the normal ways
/// out, and a handler for SIGTERM, SIGHUP (the terminal closed) and SIGINT that removes it and
/// then ends dinger with the same signal, as git's tempfile does. One file at a time.
public final class TemporaryFileCleanup {
  // NB: the signal handler may only touch memory allocated before the signal: a C string.
  nonisolated(unsafe) private static var armed: UnsafeMutablePointer<CChar>?
  private static let signals = [SIGTERM, SIGHUP, SIGINT]
  private var previous: [Int32: sigaction] = [:]
  private let path: UnsafeMutablePointer<CChar>

  /// Watches `path` from now on.
  public init(_ path: String) {
    self.path = strdup(path)
    TemporaryFileCleanup.armed = self.path
    var action = sigaction()
    action.__sigaction_handler.sa_handler = { signal in
      if let path = TemporaryFileCleanup.armed { _ = unlink(path) }
      var restore = sigaction()
      restore.__sigaction_handler.sa_handler = SIG_DFL
      sigaction(signal, &restore, nil)
      _ = raise(signal)
    }
    sigemptyset(&action.sa_mask)
    for s in TemporaryFileCleanup.signals {
      var old = sigaction()
      sigaction(s, nil, &old)
      // NB: a signal dinger ignores (SIGINT while an editor runs) stays ignored.
      if handlerAddress(old) == 1 { continue }
      sigaction(s, &action, &old)
      previous[s] = old
    }
  }

  /// Removes the file and puts the signal handling back.
  public func remove() {
    _ = unlink(path)
    for (s, old) in previous {
      var old = old
      sigaction(s, &old, nil)
    }
    previous = [:]
    if TemporaryFileCleanup.armed == path { TemporaryFileCleanup.armed = nil }
  }

  deinit {
    remove()
    free(path)
  }
}
