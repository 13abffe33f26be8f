import Base
import Components
import FoundationEssentials
import Glibc

/// The terminal in full-screen raw mode: alternate screen, no echo, keys one by one; put back
/// as it was on every way out (normal end, error, Ctrl-C, SIGTERM).
final class RawTerminal: Sendable {
  nonisolated(unsafe) private static var saved = termios()
  nonisolated(unsafe) private static var active = false

  /// Enters raw mode on the alternate screen.
  init() {
    tcgetattr(0, &Self.saved)
    var raw = Self.saved
    raw.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG | IEXTEN)
    raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
    tcsetattr(0, TCSAFLUSH, &raw)
    Self.active = true
    Terminal.control("\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J")
    // SIGTERM, SIGHUP and a SIGINT sent from outside (raw mode reads Ctrl-C as a key) restore
    // the terminal before the process goes.
    for sig in [SIGTERM, SIGHUP, SIGINT] {
      signal(sig) { number in
        RawTerminal.restoreNow()
        signal(number, SIG_DFL)
        raise(number)
      }
    }
  }

  /// Puts the terminal back (once).
  func restore() { Self.restoreNow() }

  private static func restoreNow() {
    guard active else { return }
    active = false
    tcsetattr(0, TCSAFLUSH, &saved)
    let text = "\u{1B}[?25h\u{1B}[?1049l"
    _ = text.withCString { write(1, $0, strlen($0)) }
  }

  /// Columns and rows (80×24 when the terminal does not say).
  var size: (width: Int, height: Int) {
    var ws = winsize()
    guard ioctl(1, UInt(TIOCGWINSZ), &ws) == 0, ws.ws_col > 0 else { return (80, 24) }
    return (Int(ws.ws_col), Int(ws.ws_row))
  }

  /// Rings the terminal bell: the ding.
  func bell() { Terminal.control("\u{07}") }

  /// Keys as they are pressed, read on their own thread until `stop` says so. Escape
  /// sequences (arrow keys) come whole; Esc alone only when nothing follows it within 40 ms.
  func keys(stop: @escaping @Sendable () -> Bool) -> AsyncStream<Key> {
    AsyncStream { continuation in
      Threads.start {
        var decoder = KeyDecoder()
        var fds = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
        while !stop() {
          guard poll(&fds, 1, decoder.isPending ? 40 : 100) > 0 else {
            for key in decoder.pause() { continuation.yield(key) }
            continue
          }
          var byte: UInt8 = 0
          guard read(0, &byte, 1) == 1 else { break }
          for key in decoder.feed(byte) { continuation.yield(key) }
        }
        continuation.finish()
      }
    }
  }
}
