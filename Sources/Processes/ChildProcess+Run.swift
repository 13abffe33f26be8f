import Glibc

extension ChildProcess {
  /// Runs `launch` to its end: writes `input` to its standard input, reads its output and error
  /// as they come (keeping the first `limit` bytes of each and draining the rest, so a chatty
  /// child never blocks on a full pipe), and kills its process group once `timeout` seconds
  /// have passed. Streams the launch does not pipe are left as it says.
  public static func run(
    _ launch: Launch, input: [UInt8]? = nil, limit: Int = 16 << 20, timeout: Double? = nil
  ) throws(LaunchError) -> Result {
    var launch = launch
    if input != nil { launch.input = .pipe }
    let child = try ChildProcess(launch)
    return child.collect(input: input ?? [], limit: limit, timeout: timeout)
  }

  /// Writes `input`, reads both outputs to their end and waits (see `run`).
  public func collect(input bytes: [UInt8] = [], limit: Int = 16 << 20, timeout: Double? = nil)
    -> Result
  {
    var streams = Streams(pending: bytes[...], limit: limit)
    var timedOut = false
    if let input {
      if streams.pending.isEmpty {
        closeInput()
      } else {
        _ = fcntl(input, F_SETFL, fcntl(input, F_GETFL) | O_NONBLOCK)
      }
    }
    var deadline = timeout.map { ChildProcess.now() + $0 }
    while output != nil || errors != nil || self.input != nil {
      var fds: [pollfd] = []
      if let input = self.input {
        fds.append(pollfd(fd: input, events: Int16(POLLOUT), revents: 0))
      }
      if let output { fds.append(pollfd(fd: output, events: Int16(POLLIN), revents: 0)) }
      if let errors { fds.append(pollfd(fd: errors, events: Int16(POLLIN), revents: 0)) }
      var wait: Int32 = -1
      if let end = deadline {
        let left = end - ChildProcess.now()
        if left <= 0 {
          if !timedOut {
            // NB: the whole group, so a grandchild holding the pipes open ends too; then a
            // short grace to read what is already written.
            timedOut = true
            kill(SIGKILL)
            closeInput()
            streams.pending = []
            deadline = ChildProcess.now() + 1
            continue
          }
          break
        }
        wait = Int32(min(left * 1000, 60_000)) + 1
      }
      let rc = Glibc.poll(&fds, nfds_t(fds.count), wait)
      if rc < 0 {
        if errno == EINTR { continue }
        break
      }
      for p in fds where p.revents != 0 { serve(p.fd, &streams) }
    }
    closeInput()
    closeOutput()
    closeErrors()
    let termination = wait()
    return Result(
      termination: termination, output: streams.out, errors: streams.err, timedOut: timedOut,
      truncated: streams.truncated)
  }

  /// What `collect` has still to write, and what it has read (each output kept to `limit`).
  private struct Streams {
    var pending: ArraySlice<UInt8>
    let limit: Int
    var out: [UInt8] = []
    var err: [UInt8] = []
    var truncated = false
    var chunk = [UInt8](repeating: 0, count: 65536)
  }

  /// One ready descriptor: the input takes what it can of what is pending (closed when all is
  /// written or the child stopped reading); an output gives a chunk (closed at its end).
  private func serve(_ fd: Int32, _ streams: inout Streams) {
    if fd == input {
      let n = streams.pending.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
      if n > 0 {
        streams.pending = streams.pending.dropFirst(n)
        if streams.pending.isEmpty { closeInput() }
      } else if n < 0 && (errno == EAGAIN || errno == EINTR) {
        return
      } else {
        // NB: the child closed its input (EPIPE; SIGPIPE is ignored or blocked by then).
        closeInput()
        streams.pending = []
      }
      return
    }
    let n = streams.chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
    if n < 0 && (errno == EINTR || errno == EAGAIN) { return }
    if n <= 0 {
      if fd == output { closeOutput() } else { closeErrors() }
      return
    }
    let isOutput = fd == output
    let room = streams.limit - (isOutput ? streams.out.count : streams.err.count)
    if room < n { streams.truncated = true }
    guard room > 0 else { return }
    if isOutput {
      streams.out += streams.chunk[0..<min(room, n)]
    } else {
      streams.err += streams.chunk[0..<min(room, n)]
    }
  }

  /// Runs an interactive program (an editor, a pager) on dinger's terminal as git's
  /// `launch_editor` does: in dinger's own process group, so the terminal's keys and output
  /// are the child's; dinger ignores SIGINT and SIGQUIT until it ends (Ctrl-C is the child's
  /// to handle: vim and nano keep running, a plain program ends) and then puts the terminal's
  /// settings back as they were, so a child that died in raw mode leaves a usable terminal.
  /// With `input`, the child reads it from a pipe (a pager); else every stream is dinger's.
  public static func runInTerminal(_ launch: Launch, input: [UInt8]? = nil) throws(LaunchError)
    -> Termination
  {
    var launch = launch
    launch.group = .dingers
    launch.input = input == nil ? .inherit : .pipe
    launch.output = .inherit
    launch.errors = .inherit
    let saved = TerminalState.save()
    var ignore = sigaction()
    ignore.__sigaction_handler.sa_handler = SIG_IGN
    sigemptyset(&ignore.sa_mask)
    var oldInterrupt = sigaction()
    var oldQuit = sigaction()
    sigaction(SIGINT, &ignore, &oldInterrupt)
    sigaction(SIGQUIT, &ignore, &oldQuit)
    defer {
      sigaction(SIGINT, &oldInterrupt, nil)
      sigaction(SIGQUIT, &oldQuit, nil)
    }
    let child = try ChildProcess(launch)
    if let input {
      // NB: a pager quit early (q) closes the pipe: EPIPE ends the writing, not dinger.
      child.write(input)
      child.closeInput()
    }
    let termination = child.wait()
    saved?.restore()
    return termination
  }

  static func now() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
  }
}

/// The terminal's settings on standard input, to restore after a child that changed them.
struct TerminalState {
  var settings: termios

  /// The current settings, when standard input is a terminal dinger owns (its foreground).
  static func save() -> TerminalState? {
    guard isatty(0) == 1, tcgetpgrp(0) == getpgrp() else { return nil }
    var settings = termios()
    guard tcgetattr(0, &settings) == 0 else { return nil }
    return TerminalState(settings: settings)
  }

  func restore() {
    // NB: only while dinger is still in the foreground: from the background, tcsetattr would
    // stop dinger with SIGTTOU.
    guard tcgetpgrp(0) == getpgrp() else { return }
    var settings = self.settings
    _ = tcsetattr(0, TCSADRAIN, &settings)
  }
}
