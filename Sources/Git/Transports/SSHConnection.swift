import Base
import Dispatch
import FoundationEssentials
import Glibc
import Processes
import Synchronization

/// One `ssh` child carrying the smart protocol over its stdin and stdout. Its stderr is kept
/// (the last 8 KiB) for messages: a refused key, an unknown or changed host key, a connection
/// refused all read as ssh said them. A read that waits longer than the idle time (no byte from
/// a server that stopped answering) fails instead of waiting forever.
final class SSHConnection {
  let target: SSHTarget
  /// Who is talking, for messages ("ssh to host", "git receive-pack in /srv/team.git").
  let label: String
  private let child: ChildProcess
  private var toChild: Int32
  private var fromChild: Int32
  private let errors = StderrCollector()
  /// Looks for a shallow repository in the server's first answer (its advertisement).
  private var sniffer = ShallowSniffer()

  /// Seconds a read may wait for the next byte: `DINGER_SSH_IDLE_TIMEOUT`, default 120.
  static var idleTimeout: Double {
    getenv("DINGER_SSH_IDLE_TIMEOUT").flatMap { Double(String(cString: $0)) } ?? 120
  }

  /// receive-pack of a repository in a folder on this machine, run as git push runs it (so
  /// the repository's hooks and permissions apply), spoken to like ssh.
  init(receivePackAt path: String) throws(SSHError) {
    target = SSHTarget(user: nil, host: "localhost", port: nil, path: path)
    label = "git receive-pack in \(path)"
    signal(SIGPIPE, SIG_IGN)
    (child, toChild, fromChild) = try Self.start(["git", "receive-pack", path], errors: errors)
  }

  /// Starts `argv` with pipes; its stderr goes to `errors`.
  private static func start(_ argv: [String], errors: StderrCollector) throws(SSHError) -> (
    ChildProcess, Int32, Int32
  ) {
    // NB: in dinger's process group, as git runs ssh: a passphrase or host-key prompt reads
    // the terminal (from a group of its own, that read would stop ssh).
    let child: ChildProcess
    do {
      child = try ChildProcess(
        .init(argv, input: .pipe, output: .pipe, errors: .pipe, group: .dingers))
    } catch {
      throw .cannotStart("\(argv[0]): \(error.reason)")
    }
    let (input, output, errorStream) = child.takeStreams()
    if let errorStream { errors.start(errorStream) }
    return (child, input ?? -1, output ?? -1)
  }

  init(target: SSHTarget, service: String, command configured: String?) throws(SSHError) {
    self.target = target
    label = "ssh to \(target.host)"
    // NB: a server that goes away mid-write is an error (EPIPE), not a silent death.
    signal(SIGPIPE, SIG_IGN)
    let env = ProcessInfo.processInfo.environment
    var sshArguments: [String] = []
    if let port = target.port { sshArguments += ["-p", String(port)] }
    sshArguments += [target.destination, target.remoteCommand(service)]
    var argv: [String]
    if let command = [env["GIT_SSH_COMMAND"], configured].compactMap({ $0 }).first(where: {
      !$0.isEmpty
    }) {
      // git's way: the user's command line through sh, our arguments as "$@" (never shell text).
      argv = ["/bin/sh", "-c", command + " \"$@\"", command] + sshArguments
    } else if let program = env["GIT_SSH"], !program.isEmpty {
      argv = [program] + sshArguments
    } else {
      var options: [String] = []
      // Without a terminal nobody can answer a prompt: fail at once instead of hanging, unless
      // an askpass program will ask (as ssh does with SSH_ASKPASS and no terminal).
      let askpass =
        !(env["SSH_ASKPASS"] ?? "").isEmpty
        && (env["SSH_ASKPASS_REQUIRE"] == "force" || env["DISPLAY"] != nil)
      // NB: "a terminal" is the controlling terminal, where ssh asks (it opens /dev/tty), not
      // standard input: `dinger sync < /dev/null` on a terminal asks for the key's passphrase,
      // as git does.
      if !Self.hasControllingTerminal() && !askpass { options += ["-o", "BatchMode=yes"] }
      // Keep-alives, so a push on a stalled network fails instead of waiting forever; only
      // where the user's ssh configuration sets none.
      options += SSHConnection.keepAlives(for: target)
      argv = ["ssh"] + options + sshArguments
    }
    (child, toChild, fromChild) = try Self.start(argv, errors: errors)
  }

  deinit { finish() }

  /// Whether this process has a controlling terminal ssh can ask on.
  static func hasControllingTerminal() -> Bool {
    let fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
    guard fd >= 0 else { return false }
    close(fd)
    return true
  }

  /// Up to `size` bytes from the server (at least one).
  func read(into buffer: UnsafeMutableRawPointer, size: Int) throws(SSHError) -> Int {
    let timeout = Self.idleTimeout
    while true {
      var p = pollfd(fd: fromChild, events: Int16(POLLIN), revents: 0)
      let ready = poll(&p, 1, Int32(min(timeout * 1000, Double(Int32.max))))
      if ready < 0 && errno == EINTR { continue }
      if ready == 0 {
        throw .failed(
          "\(label) sent nothing for \(Int(timeout)) s; the server or the network stopped answering (DINGER_SSH_IDLE_TIMEOUT sets how long to wait)"
        )
      }
      let n = Glibc.read(fromChild, buffer, size)
      if n > 0 {
        if !sniffer.done {
          sniffer.see(UnsafeRawBufferPointer(start: buffer, count: n))
          if sniffer.isShallow {
            throw .failed(ShallowSniffer.refusal("\(target.host):\(target.path)"))
          }
        }
        return n
      }
      if n < 0 && errno == EINTR { continue }
      throw .failed(ended("closed the connection"))
    }
  }

  /// Sends all of `bytes` to the server.
  func write(_ bytes: UnsafeRawBufferPointer) throws(SSHError) {
    var done = 0
    while done < bytes.count {
      let n = Glibc.write(toChild, bytes.baseAddress! + done, bytes.count - done)
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else { throw .failed(ended("stopped taking data")) }
      done += n
    }
  }

  /// What to say when the connection ended early: ssh's own words when it left any.
  private func ended(_ what: String) -> String {
    let status = waitBriefly()
    errors.settle(timeout: 2)
    let said = errors.text.split(separator: "\n").map {
      $0.trimmingSpaces()
    }.filter { !$0.isEmpty && !$0.hasPrefix("Warning: Permanently added") }
    var message = "\(label) \(what)"
    if !said.isEmpty { message += ": \(said.suffix(3).joined(separator: "; "))" }
    if said.isEmpty, let status, status != 0 { message += " (it exited with status \(status))" }
    let lower = message.lowercased()
    if lower.containsText("host key verification failed")
      || lower.containsText("remote host identification has changed")
    {
      message +=
        "; check the server's host key in ~/.ssh/known_hosts (connect once with 'ssh -p PORT HOST' to record it)"
    } else if lower.containsText("permission denied") {
      message +=
        "; the server refused your keys: load one into ssh-agent (ssh-add), name it in ~/.ssh/config (IdentityFile), or check the user in the address"
    } else if lower.containsText("could not resolve") || lower.containsText("connection refused")
      || lower.containsText("timed out")
    {
      message += "; check the address and that the server is up"
    }
    return message
  }

  /// The child's exit status if it ends within a second.
  private func waitBriefly() -> Int32? {
    for _ in 0..<100 {
      if let ended = child.poll() {
        exited = true
        return ended.code
      }
      usleep(10_000)
    }
    return nil
  }

  /// `-o ServerAliveInterval=15 -o ServerAliveCountMax=4` unless `ssh -G` says the user's
  /// configuration for this host sets an interval of its own.
  static func keepAlives(for target: SSHTarget) -> [String] {
    var args = ["-G"]
    if let port = target.port { args += ["-p", String(port)] }
    let configured = try? ChildProcess.run(
      .init(["ssh"] + args + [target.destination], errors: .null), limit: 1 << 20, timeout: 5)
    let interval = configured?.outputText.split(separator: "\n")
      .first { $0.hasPrefix("serveraliveinterval ") }?.split(separator: " ").last
    if let interval, interval != "0" { return [] }
    return ["-o", "ServerAliveInterval=15", "-o", "ServerAliveCountMax=4"]
  }

  private var exited = false

  /// Ends the conversation: stdin closed (ssh and the server end), the child reaped (killed if
  /// it lingers), stderr collected.
  func finish() {
    guard toChild >= 0 else { return }
    close(toChild)
    toChild = -1
    if !exited && waitBriefly() == nil {
      child.kill(SIGTERM)
      if waitBriefly() == nil {
        child.kill(SIGKILL)
        child.wait()
      }
    }
    close(fromChild)
    fromChild = -1
    errors.join()
  }
}

/// Reads a child's stderr on its own thread, keeping the last 8 KiB. It stops at the pipe's
/// end, or when told to (a grandchild the ssh command left behind may hold the pipe open).
final class StderrCollector: Sendable {
  private struct State {
    var bytes: [UInt8] = []
    var stopping = false
    var started = false
  }
  private let state = Mutex(State())
  private let done = DispatchSemaphore(value: 0)

  func start(_ fd: Int32) {
    state.withLock { $0.started = true }
    Threads.start { [self] in
      var buffer = [UInt8](repeating: 0, count: 4096)
      while !state.withLock({ $0.stopping }) {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ready = poll(&p, 1, 100)
        if ready == 0 || (ready < 0 && errno == EINTR) { continue }
        let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else { break }
        state.withLock { state in
          state.bytes += buffer[0..<n]
          if state.bytes.count > 8192 { state.bytes.removeFirst(state.bytes.count - 8192) }
        }
      }
      close(fd)
      done.signal()
    }
  }

  var text: String { state.withLock { String(decoding: $0.bytes, as: UTF8.self) } }

  /// Waits (a bounded time) until all the child wrote is read.
  func settle(timeout: Double) {
    guard state.withLock({ $0.started }) else { return }
    if done.wait(timeout: .now() + timeout) == .success { done.signal() }
  }

  /// Waits for the pipe's end for a moment, then stops reading.
  func join() {
    guard state.withLock({ $0.started }) else { return }
    if done.wait(timeout: .now() + 0.5) == .timedOut {
      state.withLock { $0.stopping = true }
      done.wait()
    }
    state.withLock { $0.started = false }
  }
}
