import Base
import Glibc
import Synchronization

/// dinger's one way to start another program (an editor, the pager, ssh, a credential helper,
/// curl, diff, the transcriber). Each launch states where the child's standard streams go, which
/// process group it joins and what its signals are; `run` reads every output to its end (keeping
/// a bounded part, so a child that prints without end never blocks on a full pipe), and
/// `runInTerminal` hands the terminal to an interactive program as git's `launch_editor` does.
///
/// Thread safety: `kill` may come from another thread than `wait` (the transcriber's reader
/// waits while the meeting screen kills). The child is reaped only under the state's lock, after
/// `waitid(WNOWAIT)` saw it end, and `kill` signals only under that lock while it is not reaped:
/// a signal never reaches a pid the system may have given to another process.
public final class ChildProcess: Sendable {
  /// Where a standard stream of the child goes.
  public enum Stream: Sendable, Equatable {
    /// dinger's own (the terminal, or whatever dinger's stream is).
    case inherit
    /// `/dev/null`.
    case null
    /// A pipe whose other end dinger holds (`input`, `output`, `errors`).
    case pipe
  }

  /// The process group the child joins.
  public enum Group: Sendable, Equatable {
    /// dinger's own group: when dinger runs in the foreground of a terminal, so does the child,
    /// so it may read the terminal and Ctrl-C reaches it (editors, pagers, askpass prompts).
    case dingers
    /// A new group of its own: `kill` then reaches whatever the child started, and keys typed
    /// at the terminal never do (helpers, servers, ssh).
    case own
  }

  /// What to start and how.
  public struct Launch: Sendable {
    /// The program and its arguments. A name without a slash is looked up in the child's PATH.
    public var arguments: [String]
    /// The child's environment; nil: dinger's own.
    public var environment: [String: String]?
    /// The child's working directory; nil: dinger's.
    public var directory: String?
    public var input: Stream = .null
    public var output: Stream = .pipe
    public var errors: Stream = .pipe
    public var group: Group = .own

    public init(
      _ arguments: [String], environment: [String: String]? = nil, directory: String? = nil,
      input: Stream = .null, output: Stream = .pipe, errors: Stream = .pipe, group: Group = .own
    ) {
      self.arguments = arguments
      self.environment = environment
      self.directory = directory
      self.input = input
      self.output = output
      self.errors = errors
      self.group = group
    }

    /// `sh -c COMMAND NAME ARGS...`: a user's own command line (their editor or pager setting),
    /// with dinger's values as positional parameters, never spliced into the text.
    public static func shell(
      _ command: String, name: String, arguments: [String] = [],
      environment: [String: String]? = nil
    ) -> Launch {
      Launch(["/bin/sh", "-c", command, name] + arguments, environment: environment)
    }
  }

  /// How a child ended.
  public struct Termination: Sendable, Equatable, CustomStringConvertible {
    /// The exit status, when it exited.
    public var status: Int32?
    /// The signal that ended it, when one did.
    public var signal: Int32?

    /// A shell's `$?`: the exit status, or 128 plus the signal.
    public var code: Int32 { status ?? 128 + (signal ?? 0) }
    /// Exited with status 0.
    public var succeeded: Bool { status == 0 }

    /// "exit status 2", "killed by SIGINT".
    public var description: String {
      if let status { return "exit status \(status)" }
      return "killed by \(ChildProcess.signalName(signal ?? 0))"
    }

    init(waitStatus: Int32) {
      if waitStatus & 0x7f == 0 {
        status = (waitStatus >> 8) & 0xff
      } else {
        signal = waitStatus & 0x7f
      }
    }
  }

  /// What `run` gives back.
  public struct Result: Sendable {
    public var termination: Termination
    /// Standard output (its first `limit` bytes when it said more).
    public var output: [UInt8]
    /// Standard error (its first `limit` bytes).
    public var errors: [UInt8]
    /// The child was killed because it outlived its timeout.
    public var timedOut = false
    /// Some of the output or error was dropped past the limit.
    public var truncated = false

    /// Standard output as text (invalid UTF-8 repaired).
    public var outputText: String { String(decoding: output, as: UTF8.self) }
    /// Standard error as text, trimmed.
    public var errorText: String {
      String(decoding: errors, as: UTF8.self).trimmingWhitespace()
    }
  }

  /// Why a child could not be started.
  public struct LaunchError: Error, Sendable, CustomStringConvertible {
    public var program: String
    public var reason: String
    public var description: String { "cannot run '\(program)': \(reason)" }
  }

  public let pid: pid_t
  /// The write end of the child's standard input (`.pipe`), else nil.
  public var input: Int32? { state.withLock { $0.input } }
  /// The read end of the child's standard output (`.pipe`), else nil.
  public var output: Int32? { state.withLock { $0.output } }
  /// The read end of the child's standard error (`.pipe`), else nil.
  public var errors: Int32? { state.withLock { $0.errors } }
  public let group: Group

  /// dinger's ends of the pipes, and how the child ended once it is reaped.
  private struct State: Sendable {
    var input: Int32?
    var output: Int32?
    var errors: Int32?
    var ended: Termination?
  }
  private let state: Mutex<State>

  /// Starts `launch`.
  public init(_ launch: Launch) throws(LaunchError) {
    guard let name = launch.arguments.first, !name.isEmpty else {
      throw LaunchError(program: "", reason: "no program named")
    }
    let environment = launch.environment ?? ChildProcess.currentEnvironment()
    guard let path = ChildProcess.resolve(name, path: environment["PATH"]) else {
      throw LaunchError(program: name, reason: "not found (is it installed and in PATH?)")
    }
    if [launch.input, launch.output, launch.errors].contains(.pipe) {
      // NB: a child that stops reading must make a write fail (EPIPE), not kill dinger.
      signal(SIGPIPE, SIG_IGN)
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    let (mine, theirs) = try Self.addStreams(of: launch, program: name, to: &actions)
    let ours = mine.compactMap { $0 }
    if let directory = launch.directory {
      do throws(LaunchError) {
        try Self.addDirectory(directory, program: name, to: &actions)
      } catch {
        (ours + theirs).forEach { _ = close($0) }
        throw error
      }
    }
    var attributes = Self.spawnAttributes(group: launch.group)
    defer { posix_spawnattr_destroy(&attributes) }
    let argv: [UnsafeMutablePointer<CChar>?] = launch.arguments.map { strdup($0) } + [nil]
    let envp: [UnsafeMutablePointer<CChar>?] =
      environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      argv.forEach { free($0) }
      envp.forEach { free($0) }
    }
    var child: pid_t = 0
    let rc = posix_spawn(&child, path, &actions, &attributes, argv, envp)
    theirs.forEach { _ = close($0) }
    guard rc == 0 else {
      ours.forEach { _ = close($0) }
      throw LaunchError(program: name, reason: String(cString: strerror(rc)))
    }
    pid = child
    group = launch.group
    state = Mutex(State(input: mine[0], output: mine[1], errors: mine[2]))
  }

  /// File actions for the child's standard streams as `launch` asks: inherited, /dev/null, or
  /// a pipe. dinger's end of each (stdin, stdout, stderr; nil where no pipe) and the child's
  /// ends, which close after the spawn. Nothing stays open when a pipe cannot be made.
  private static func addStreams(
    of launch: Launch, program name: String, to actions: inout posix_spawn_file_actions_t
  ) throws(LaunchError) -> (mine: [Int32?], theirs: [Int32]) {
    var mine: [Int32?] = [nil, nil, nil]
    var theirs: [Int32] = []
    for (fd, stream) in [(Int32(0), launch.input), (1, launch.output), (2, launch.errors)] {
      switch stream {
      case .inherit: break
      case .null:
        posix_spawn_file_actions_addopen(
          &actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
      case .pipe:
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else {
          let reason = String(cString: strerror(errno))
          (mine.compactMap { $0 } + theirs).forEach { _ = close($0) }
          throw LaunchError(program: name, reason: reason)
        }
        for end in fds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        let (child, ours) = fd == 0 ? (fds[0], fds[1]) : (fds[1], fds[0])
        mine[Int(fd)] = ours
        theirs.append(child)
        // NB: dup2 onto 0/1/2 clears close-on-exec there; the originals close at exec.
        posix_spawn_file_actions_adddup2(&actions, child, fd)
      }
    }
    return (mine, theirs)
  }

  /// A file action that starts the child in `directory`.
  private static func addDirectory(
    _ directory: String, program name: String, to actions: inout posix_spawn_file_actions_t
  ) throws(LaunchError) {
    // NB: a glibc extension Swift's Glibc module does not show; found at run time.
    typealias AddChdir =
      @convention(c) (
        UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>
      ) -> Int32
    guard
      let symbol = dlsym(
        UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addchdir_np")
    else {
      throw LaunchError(
        program: name, reason: "this C library cannot start a program in another folder")
    }
    _ = unsafeBitCast(symbol, to: AddChdir.self)(&actions, directory)
  }

  /// The spawn's attributes (the caller destroys them): no blocked signals and the usual
  /// dispositions, whatever the spawning thread had blocked or dinger ignores (a runtime
  /// thread blocks SIGTERM; dinger ignores SIGPIPE, and SIGINT while an editor runs), else the
  /// child could not be stopped; a process group of its own for `.own`.
  private static func spawnAttributes(group: Group) -> posix_spawnattr_t {
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    var empty = sigset_t()
    sigemptyset(&empty)
    posix_spawnattr_setsigmask(&attributes, &empty)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for s in [
      SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGPIPE, SIGTSTP, SIGTTIN, SIGTTOU, SIGCHLD,
      SIGALRM, SIGUSR1, SIGUSR2,
    ] {
      sigaddset(&defaults, s)
    }
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    var flags = Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
    if group == .own {
      flags |= Int32(POSIX_SPAWN_SETPGROUP)
      posix_spawnattr_setpgroup(&attributes, 0)
    }
    posix_spawnattr_setflags(&attributes, Int16(flags))
    return attributes
  }

  deinit {
    state.withLock { s in
      [s.input, s.output, s.errors].compactMap { $0 }.forEach { _ = close($0) }
      // NB: a child nobody waited for is reaped here rather than left a zombie.
      if s.ended == nil { _ = waitpid(pid, nil, WNOHANG) }
    }
  }

  /// Hands dinger's ends of the pipes to the caller, who closes them from then on.
  public func takeStreams() -> (input: Int32?, output: Int32?, errors: Int32?) {
    state.withLock { s in
      defer { (s.input, s.output, s.errors) = (nil, nil, nil) }
      return (s.input, s.output, s.errors)
    }
  }

  /// Closes dinger's end of the child's standard input (the child then reads its end).
  public func closeInput() { closeEnd(\.input) }

  /// Closes dinger's end of the child's standard output.
  public func closeOutput() { closeEnd(\.output) }

  /// Closes dinger's end of the child's standard error.
  public func closeErrors() { closeEnd(\.errors) }

  private func closeEnd(_ end: WritableKeyPath<State, Int32?>) {
    state.withLock { s in
      if let fd = s[keyPath: end] { _ = Glibc.close(fd) }
      s[keyPath: end] = nil
    }
  }

  /// Sends `signal` to the child, or to its whole group when it has its own; nothing once it is
  /// reaped (its pid may be another process's by then).
  public func kill(_ signal: Int32 = SIGKILL) {
    state.withLock { s in
      guard s.ended == nil else { return }
      if group == .own {
        _ = Glibc.kill(-pid, signal)
      }
      _ = Glibc.kill(pid, signal)
    }
  }

  /// Blocks until the child has ended, without reaping it (so its pid stays its own).
  private func awaitEnd() {
    var info = siginfo_t()
    while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR {}
  }

  /// Waits for the child to end (once; later calls give the same answer).
  @discardableResult
  public func wait() -> Termination {
    if let ended = state.withLock({ $0.ended }) { return ended }
    awaitEnd()
    return state.withLock { s in
      if let ended = s.ended { return ended }
      var status: Int32 = 0
      while waitpid(pid, &status, 0) < 0 {
        if errno != EINTR {
          // NB: ECHILD: someone else reaped it (SIGCHLD ignored); nothing more can be known.
          status = 0
          break
        }
      }
      let termination = Termination(waitStatus: status)
      s.ended = termination
      return termination
    }
  }

  /// Waits for the child to end, with the resources it used (wait4's): CPU seconds (user and
  /// system) and peak resident memory in KiB. For `make bench`.
  public func waitWithUsage() -> (termination: Termination, cpu: Double, maxResidentKiB: Int) {
    awaitEnd()
    var status: Int32 = 0
    var usage = rusage()
    let termination = state.withLock { s in
      while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
      let termination = Termination(waitStatus: status)
      s.ended = termination
      return termination
    }
    let cpu =
      Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
      + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    return (termination, cpu, Int(usage.ru_maxrss))
  }

  /// The child's ending when it has ended, without waiting.
  public func poll() -> Termination? {
    state.withLock { s in
      if let ended = s.ended { return ended }
      var status: Int32 = 0
      guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
      let termination = Termination(waitStatus: status)
      s.ended = termination
      return termination
    }
  }

  /// Writes all of `bytes` to the child's standard input; false when the child stopped reading.
  @discardableResult
  public func write(_ bytes: [UInt8]) -> Bool {
    guard let input else { return false }
    return ChildProcess.writeAll(input, bytes)
  }

  // MARK: - Helpers

  /// Writes all of `bytes` to `fd` (blocking), retrying after EINTR; false on any failure.
  public static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBytes { FileDescriptor.writeAll(fd, $0) }
  }

  /// The full path of `name`: as it is when it has a slash, else the first executable file of
  /// that name in `path` (git's and the shell's rule).
  public static func resolve(_ name: String, path: String?) -> String? {
    if name.contains("/") { return name }
    for folder in (path ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":") {
      let candidate = (folder.isEmpty ? "." : String(folder)) + "/" + name
      var info = stat()
      if stat(candidate, &info) == 0, info.st_mode & S_IFMT == S_IFREG, access(candidate, X_OK) == 0
      {
        return candidate
      }
    }
    return nil
  }

  /// dinger's own environment.
  public static func currentEnvironment() -> [String: String] {
    var result: [String: String] = [:]
    var entry = environ
    while let pointer = entry.pointee {
      let text = String(cString: pointer)
      if let equals = text.firstIndex(of: "=") {
        result[String(text[..<equals])] = String(text[text.index(after: equals)...])
      }
      entry += 1
    }
    return result
  }

  /// "SIGINT" for 2.
  public static func signalName(_ signal: Int32) -> String {
    let names: [Int32: String] = [
      SIGHUP: "SIGHUP", SIGINT: "SIGINT", SIGQUIT: "SIGQUIT", SIGILL: "SIGILL", SIGABRT: "SIGABRT",
      SIGKILL: "SIGKILL", SIGSEGV: "SIGSEGV", SIGPIPE: "SIGPIPE", SIGALRM: "SIGALRM",
      SIGTERM: "SIGTERM", SIGBUS: "SIGBUS", SIGTRAP: "SIGTRAP",
    ]
    return names[signal] ?? "signal \(signal)"
  }
}

/// The address of a signal handler, to compare dispositions (SIG_IGN is 1, SIG_DFL 0).
func handlerAddress(_ action: sigaction) -> Int {
  unsafeBitCast(action.__sigaction_handler.sa_handler, to: Int.self)
}

extension String {
  func trimmingWhitespace() -> String {
    var text = Substring(self)
    while let c = text.first, c.isWhitespace { text.removeFirst() }
    while let c = text.last, c.isWhitespace { text.removeLast() }
    return String(text)
  }
}
