import Base
import Components
import FoundationEssentials
import Glibc

/// The notes prompt on a terminal: raw keys (no echo, no line discipline, Ctrl-C a key) fed to
/// `NotesEditor`, the terminal's settings put back on every way out.
enum NotesPrompt {
  nonisolated(unsafe) private static var saved = termios()
  nonisolated(unsafe) private static var active = false

  /// The notes typed, nil when none; throws when Ctrl-C ended the typing.
  static func read() throws -> String? {
    tcgetattr(0, &saved)
    var raw = saved
    raw.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG | IEXTEN)
    raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
    tcsetattr(0, TCSADRAIN, &raw)
    active = true
    var previous: [Int32: sigaction] = [:]
    for sig in [SIGTERM, SIGHUP] {
      var action = sigaction()
      action.__sigaction_handler.sa_handler = { number in
        NotesPrompt.restore()
        signal(number, SIG_DFL)
        raise(number)
      }
      var old = sigaction()
      sigaction(sig, &action, &old)
      previous[sig] = old
    }
    defer {
      restore()
      for (sig, old) in previous {
        var old = old
        sigaction(sig, &old, nil)
      }
    }
    var editor = NotesEditor()
    var decoder = KeyDecoder()
    // NB: the editor's output is terminal control (redraws); the typed text in it was made
    // printable by the editor, so it goes out as it is, not through the data's escaping.
    Terminal.control(NotesEditor.prompt)
    var fds = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
    while true {
      guard poll(&fds, 1, decoder.isPending ? 40 : 500) > 0 else {
        for key in decoder.pause() {
          if try handle(key, &editor) { return editor.text }
        }
        continue
      }
      var byte: UInt8 = 0
      let n = Glibc.read(0, &byte, 1)
      if n < 0 && errno == EINTR { continue }
      // NB: the terminal went away: what was typed is kept.
      guard n == 1 else { return editor.text }
      for key in decoder.feed(byte) {
        if try handle(key, &editor) { return editor.text }
      }
    }
  }

  /// Applies a key; true when the notes are complete.
  private static func handle(_ key: Key, _ editor: inout NotesEditor) throws -> Bool {
    var ws = winsize()
    let width = ioctl(1, UInt(TIOCGWINSZ), &ws) == 0 && ws.ws_col > 0 ? Int(ws.ws_col) : 80
    let outcome = editor.apply(key, width: width)
    Terminal.control(editor.output)
    switch outcome {
    case .editing: return false
    case .done: return true
    case .interrupted: throw CLIError("interrupted while typing notes")
    }
  }

  private static func restore() {
    guard active else { return }
    active = false
    tcsetattr(0, TCSADRAIN, &saved)
  }
}
