import Foundation
import TestSupport
import Testing

/// `dinger meet` in a real pseudo-terminal: tmux runs it, send-keys types, capture-pane reads.
@Suite(.serialized) struct MeetTimerTerminalTests {
  final class Tmux {
    let socket = "dinger-test-\(UUID().uuidString.prefix(8))"
    let tmux = ProcessRunner.which("tmux") ?? "/usr/bin/tmux"

    func run(_ args: String...) throws -> String {
      try ProcessRunner.run(tmux, ["-L", socket] + args).stdout
    }

    func screen() -> String { (try? run("capture-pane", "-p", "-t", "meet")) ?? "" }

    /// Waits up to `seconds` for the screen to show `text`.
    func wait(for text: String, seconds: Double = 15) -> Bool {
      let deadline = Date().addingTimeInterval(seconds)
      while Date() < deadline {
        if screen().contains(text) { return true }
        usleep(100_000)
      }
      return false
    }

    func keys(_ keys: String...) { _ = try? run(["send-keys", "-t", "meet"] + keys) }
    func run(_ args: [String]) throws -> String {
      try ProcessRunner.run(tmux, ["-L", socket] + args).stdout
    }

    deinit { _ = system("\(tmux) -L \(socket) kill-server </dev/null >/dev/null 2>&1") }
  }

  func start(_ box: Sandbox) throws -> (Tmux, URL) {
    guard ProcessRunner.which("tmux") != nil else {
      Issue.record("tmux is needed for the terminal test (make deps installs it)")
      throw CancellationError()
    }
    #expect(try box.dinger("init").status == 0)
    #expect(
      try box.dinger(
        "scrum", "new", "Standup", "--length", "1", "--attendee", "Ada", "--attendee", "Grace"
      ).status == 0)
    let exit = box.home.url.appendingPathComponent("exit")
    let env = box.environment.map { "\($0.key)='\($0.value)'" }.joined(separator: " ")
    let command =
      "cd '\(box.data.path)' && env \(env) NO_COLOR=1 '\(dingerBinary)' meet standup; echo $? > '\(exit.path)'; sleep 30"
    let tmux = Tmux()
    // NB: through the shell with stdio on /dev/null: tmux's client forks a server that
    // daemonizes, and Foundation's Process never saw that client exit.
    let escaped = command.replacingOccurrences(of: "\"", with: "\\\"")
    let rc = system(
      "\(tmux.tmux) -L \(tmux.socket) new-session -d -s meet -x 80 -y 24 \"\(escaped)\" </dev/null >/dev/null 2>&1"
    )
    #expect(rc == 0)
    return (tmux, exit)
  }

  func exitStatus(_ url: URL) -> String? {
    let deadline = Date().addingTimeInterval(15)
    while Date() < deadline {
      if let text = try? String(contentsOf: url, encoding: .utf8), text.hasSuffix("\n") {
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
      }
      usleep(100_000)
    }
    return nil
  }

  @Test func movesThroughTheSpeakersSavesAndCommits() throws {
    let box = try Sandbox()
    let (tmux, exit) = try start(box)
    #expect(tmux.wait(for: "Speaker 1 of 2: Ada"), "\(tmux.screen())")
    #expect(tmux.screen().contains(" Standup"))
    tmux.keys("n")
    #expect(tmux.wait(for: "Last speaker: Grace"), "\(tmux.screen())")
    #expect(tmux.screen().contains("Done: Ada"))
    tmux.keys("q")
    #expect(
      tmux.wait(for: "End meeting?  s save and end · d discard · r resume"), "\(tmux.screen())")
    tmux.keys("s")
    #expect(tmux.wait(for: "Notes for the transcript"), "\(tmux.screen())")
    tmux.keys("Ada shipped the picker", "Enter", "Enter")
    #expect(exitStatus(exit) == "0", "\(tmux.screen())")
    let files = try box.git("ls-files", "history").split(separator: "\n")
    #expect(files.count == 1)
    let text = try box.read(String(files.first ?? ""))
    #expect(text.contains("attendees: [Ada, Grace]\nspeakers:\n  - {name: Ada, seconds: "))
    #expect(text.contains("  - {name: Grace, seconds: "))
    #expect(text.hasSuffix("transcript: |\n  Ada shipped the picker\n"))
    #expect(
      try box.git("log", "-1", "--format=%s").hasPrefix(
        "Record meeting of Standup (0 min, 2 attendees)"))
    #expect(try box.gitAgrees().status == "")
  }

  @Test func discardingRecordsNothing() throws {
    let box = try Sandbox()
    let (tmux, exit) = try start(box)
    #expect(tmux.wait(for: "Speaker 1 of 2: Ada"), "\(tmux.screen())")
    let head = try box.head()
    tmux.keys("p")
    #expect(tmux.wait(for: "PAUSED"), "\(tmux.screen())")
    tmux.keys("Escape")
    #expect(tmux.wait(for: "End meeting?"), "\(tmux.screen())")
    tmux.keys("d")
    #expect(exitStatus(exit) == "0")
    #expect(tmux.wait(for: "meeting discarded; nothing recorded"), "\(tmux.screen())")
    #expect(try box.head() == head)
  }
}
