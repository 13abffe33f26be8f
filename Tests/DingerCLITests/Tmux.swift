import Foundation
import TestSupport
import Testing

/// A command in a real pseudo-terminal: tmux runs it, send-keys types, capture-pane reads.
final class Tmux {
  let socket = "dinger-test-\(UUID().uuidString.prefix(8))"
  let tmux = ProcessRunner.which("tmux") ?? "/usr/bin/tmux"

  func screen() -> String { (try? run(["capture-pane", "-p", "-t", "main"])) ?? "" }

  /// Waits up to `seconds` for the screen to show `text`.
  func wait(for text: String, seconds: Double = 15) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      if screen().contains(text) { return true }
      usleep(100_000)
    }
    return false
  }

  func keys(_ keys: String...) { _ = try? run(["send-keys", "-t", "main"] + keys) }

  func run(_ args: [String]) throws -> String {
    try ProcessRunner.run(tmux, ["-L", socket] + args).stdout
  }

  deinit { _ = system("\(tmux) -L \(socket) kill-server </dev/null >/dev/null 2>&1") }

  /// Runs `dinger ARGS` in the sandbox's data repository on an 80x24 terminal; the returned
  /// file gets its exit status.
  static func start(_ box: Sandbox, _ args: String...) throws -> (Tmux, URL) {
    guard ProcessRunner.which("tmux") != nil else {
      Issue.record("tmux is needed for the terminal tests (make deps installs it)")
      throw CancellationError()
    }
    let exit = box.home.url.appendingPathComponent("exit")
    let env = box.environment.map { "\($0.key)='\($0.value)'" }.joined(separator: " ")
    let quoted = args.map { "'\($0)'" }.joined(separator: " ")
    let command =
      "cd '\(box.data.path)' && stty -g > '\(box.home.path("stty-before"))'; env \(env) NO_COLOR=1 '\(dingerBinary)' \(quoted); echo $? > '\(exit.path)'; stty -g > '\(box.home.path("stty-after"))'; sleep 30"
    let tmux = Tmux()
    // NB: through the shell with stdio on /dev/null: tmux's client forks a server that
    // daemonizes, and Foundation's Process never saw that client exit.
    // NB: inside double quotes for the outer shell, so `$?` must reach the inner one intact
    // (unescaped, the outer shell expanded it to 0 and every exit status read as success).
    var escaped = command
    for c in ["\\", "\"", "$", "`"] {
      escaped = escaped.replacingOccurrences(of: c, with: "\\" + c)
    }
    let rc = system(
      "\(tmux.tmux) -L \(tmux.socket) new-session -d -s main -x 80 -y 24 \"\(escaped)\" </dev/null >/dev/null 2>&1"
    )
    #expect(rc == 0)
    return (tmux, exit)
  }

  /// The terminal's settings (`stty -g`) before dinger started and after it ended.
  static func terminalSettings(_ box: Sandbox) -> (before: String?, after: String?) {
    (
      try? String(contentsOfFile: box.home.path("stty-before"), encoding: .utf8),
      try? String(contentsOfFile: box.home.path("stty-after"), encoding: .utf8)
    )
  }

  /// The exit status written by `start`'s command, waiting up to 15 s for it.
  static func exitStatus(_ url: URL) -> String? {
    let deadline = Date().addingTimeInterval(15)
    while Date() < deadline {
      if let text = try? String(contentsOf: url, encoding: .utf8), text.hasSuffix("\n") {
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
      }
      usleep(100_000)
    }
    return nil
  }
}
