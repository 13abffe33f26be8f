import Glibc
import Synchronization

/// Files to remove if dinger is interrupted (SIGINT: Ctrl-C; SIGTERM; SIGHUP: the terminal
/// closed) while they exist: an `AtomicFile` write's temporary file. The handler removes every
/// registered path, then ends dinger with the same signal, as git's tempfile does. Slots are C
/// strings allocated before any signal, so the handler touches nothing else.
public enum SignalCleanup {
  static let capacity = 16
  /// The registered paths (nil: a free slot).
  nonisolated(unsafe) static let slots: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = {
    let slots = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: capacity)
    slots.initialize(repeating: nil, count: capacity)
    return slots
  }()
  static let taken = Mutex<[Bool]>(Array(repeating: false, count: capacity))
  /// Installs the handlers, once; a signal dinger ignores (SIGINT while an editor runs) stays
  /// ignored.
  static let installed: Void = {
    _ = slots
    var action = sigaction()
    action.__sigaction_handler.sa_handler = { signal in
      for i in 0..<SignalCleanup.capacity {
        if let path = SignalCleanup.slots[i] { _ = unlink(path) }
      }
      var restore = sigaction()
      restore.__sigaction_handler.sa_handler = SIG_DFL
      sigaction(signal, &restore, nil)
      _ = raise(signal)
    }
    sigemptyset(&action.sa_mask)
    for s in [SIGINT, SIGTERM, SIGHUP] {
      var old = sigaction()
      sigaction(s, nil, &old)
      let handler = unsafeBitCast(old.__sigaction_handler.sa_handler, to: Int.self)
      // NB: only where nothing else handles it (SIG_DFL): an ignored signal stays ignored, and
      // a handler of dinger's own (TemporaryFileCleanup's) is left to do its work.
      guard handler == 0 else { continue }
      sigaction(s, &action, nil)
    }
  }()

  /// Registers `path`; the slot to `release`, or nil when every slot is busy.
  public static func register(_ path: String) -> Int? {
    _ = installed
    guard
      let slot = taken.withLock({ taken -> Int? in
        guard let i = taken.firstIndex(of: false) else { return nil }
        taken[i] = true
        return i
      })
    else { return nil }
    slots[slot] = strdup(path)
    return slot
  }

  /// Forgets a path registered at `slot` (it was renamed into place, or removed).
  public static func release(_ slot: Int?) {
    guard let slot else { return }
    let path = slots[slot]
    slots[slot] = nil
    free(path)
    taken.withLock { $0[slot] = false }
  }
}
