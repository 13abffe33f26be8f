import Foundation

/// A private PulseAudio daemon for a test: its own runtime folder and socket, one null sink
/// (`virt`, 16 kHz mono) as the default sink, and its monitor as the default source, so that
/// what `paplay` plays into it is what a recorder hears. Stopped (and reaped) when the test ends.
public final class PulseServer: @unchecked Sendable {
  public let folder: TemporaryDirectory
  public let pid: pid_t
  /// `PULSE_SERVER` for clients.
  public let address: String

  public init() throws {
    guard let daemon = ProcessRunner.which("pulseaudio") else {
      throw ProcessError("pulseaudio is needed for the transcription tests (make deps installs it)")
    }
    folder = try TemporaryDirectory("dinger-pulse")
    let runtime = folder.url.appendingPathComponent("run")
    try FileManager.default.createDirectory(
      at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    let socket = runtime.appendingPathComponent("native").path
    address = "unix:" + socket
    // NB: -n: none of the system's default modules (no suspend-on-idle: a suspended sink's
    // monitor gives nothing for its first two seconds).
    pid = try ProcessRunner.start(
      "/usr/bin/env",
      [
        "HOME=\(folder.url.path)", "XDG_RUNTIME_DIR=\(runtime.path)", daemon, "-n",
        "--daemonize=no", "--exit-idle-time=-1", "--use-pid-file=no", "--log-target=stderr",
        "-L", "module-native-protocol-unix auth-anonymous=1 socket=\(socket)",
        "-L", "module-null-sink sink_name=virt rate=16000 channels=1",
        "-L", "module-always-sink",
      ])
    let deadline = Date().addingTimeInterval(10)
    while Date() < deadline {
      if (try? pactl("info").status) == 0 { break }
      usleep(100_000)
    }
    guard try pactl("set-default-sink", "virt").status == 0,
      try pactl("set-default-source", "virt.monitor").status == 0
    else {
      ProcessRunner.stop(pid)
      throw ProcessError("the test's pulseaudio did not take its null sink")
    }
  }

  /// Runs `pactl` against this server.
  @discardableResult
  public func pactl(_ args: String...) throws -> ProcessResult {
    try ProcessRunner.run("/usr/bin/pactl", args, environment: environment)
  }

  /// What a client needs to use this server.
  public var environment: [String: String] { ["PULSE_SERVER": address] }

  /// Plays a WAV file into the sink (returns when it has been played).
  public func play(_ wav: URL) throws {
    let r = try ProcessRunner.run("/usr/bin/paplay", [wav.path], environment: environment)
    guard r.status == 0 else { throw ProcessError(r.stderr) }
  }

  private var stopped = false

  public func stop() {
    guard !stopped else { return }
    stopped = true
    ProcessRunner.stop(pid)
  }

  deinit { stop() }
}

public struct ProcessError: Error, CustomStringConvertible {
  public var description: String
  public init(_ d: String) { description = d }
}
