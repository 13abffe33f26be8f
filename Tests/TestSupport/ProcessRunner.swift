import Foundation

/// What a finished process printed and returned.
public struct ProcessResult: Sendable {
  /// Exit status.
  public var status: Int32
  /// Standard output.
  public var stdout: String
  /// Standard error.
  public var stderr: String
}

/// Runs programs and collects their output.
public enum ProcessRunner {
  /// Runs `executable` with `arguments` in `directory`, feeding `input` on standard input.
  // NB: posix_spawn and a blocking waitpid on the one child, not Foundation's Process: with many
  // tests running processes at once (and servers started beside them), Process sometimes never
  // noticed a child had exited, and the test hung with the child left a zombie.
  @discardableResult
  public static func run(
    _ executable: String, _ arguments: [String], in directory: URL? = nil,
    environment: [String: String] = [:], input: String? = nil, timeout: Double? = nil
  ) throws -> ProcessResult {
    var env = ProcessInfo.processInfo.environment
    env["NO_COLOR"] = "1"
    env.removeValue(forKey: "DINGER_REPO")
    for (k, v) in environment { env[k] = v }
    var fds: [[Int32]] = []
    for _ in 0..<3 {
      var pair: [Int32] = [0, 0]
      guard GNU.pipe2(&pair, O_CLOEXEC) == 0 else { throw SpawnError("pipe: \(errno)") }
      fds.append(pair)
    }
    let (stdin, stdout, stderr) = (fds[0], fds[1], fds[2])
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, stdin[0], 0)
    posix_spawn_file_actions_adddup2(&actions, stdout[1], 1)
    posix_spawn_file_actions_adddup2(&actions, stderr[1], 2)
    if let directory { _ = GNU.addchdir(&actions, directory.path) }
    let pid = try spawn(executable, arguments, env, &actions, flags: 0)
    close(stdin[0])
    close(stdout[1])
    close(stderr[1])
    if let input {
      let bytes = Array(input.utf8)
      var done = 0
      while done < bytes.count {
        let n = bytes.withUnsafeBytes {
          write(stdin[1], $0.baseAddress! + done, bytes.count - done)
        }
        if n <= 0 { break }
        done += n
      }
    }
    close(stdin[1])
    let limit = timeout ?? childTimeout
    let (out, err, killed) = drain(stdout[0], stderr[0], child: pid, timeout: limit)
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let code = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    var errors = String(decoding: err, as: UTF8.self)
    if killed {
      errors += "\n[the test harness killed \(executable) after \(Int(limit)) s: a hang]\n"
    }
    return ProcessResult(
      status: code, stdout: String(decoding: out, as: UTF8.self), stderr: errors)
  }

  /// Starts a long-lived program (a server) in its own session with stdio on /dev/null; the
  /// caller stops it with `stop(pid)`.
  public static func start(_ executable: String, _ arguments: [String]) throws -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    for fd: Int32 in 0...2 {
      posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
    }
    return try spawn(
      executable, arguments, ProcessInfo.processInfo.environment, &actions,
      flags: GNU.spawnSetsid)
  }

  /// Runs a program and kills it with SIGKILL after `microseconds` unless it ended before;
  /// returns its exit status (137 when the kill ended it). Output goes to /dev/null.
  public static func runKilled(
    _ executable: String, _ arguments: [String], in directory: URL,
    environment: [String: String], after microseconds: UInt32
  ) throws -> Int32 {
    var env = ProcessInfo.processInfo.environment
    env["NO_COLOR"] = "1"
    env.removeValue(forKey: "DINGER_REPO")
    for (k, v) in environment { env[k] = v }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    for fd: Int32 in 0...2 {
      posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
    }
    _ = GNU.addchdir(&actions, directory.path)
    let pid = try spawn(executable, arguments, env, &actions, flags: 0)
    usleep(microseconds)
    kill(pid, SIGKILL)
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    return (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
  }

  /// The port a server started by `start` writes to `file` (a number and a newline) once it
  /// listens; stops the server and throws when none comes within 15 s.
  public static func port(writtenTo file: String, by pid: pid_t) throws -> Int {
    var text = ""
    for _ in 0..<300 {
      text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
      if text.hasSuffix("\n") { break }
      usleep(50_000)
    }
    guard let port = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
      stop(pid)
      throw CancellationError()
    }
    return port
  }

  /// Stops a program `start` started, and reaps it.
  public static func stop(_ pid: pid_t) {
    kill(pid, SIGKILL)
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
  }

  private static func spawn(
    _ executable: String, _ arguments: [String], _ env: [String: String],
    _ actions: inout posix_spawn_file_actions_t, flags: Int16
  ) throws -> pid_t {
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    // NB: children start with no signal blocked and every signal at its default: the calling
    // thread (a dispatch worker) blocks most signals, and a server spawned with SIGTERM blocked
    // could not be stopped.
    var none = sigset_t()
    sigemptyset(&none)
    posix_spawnattr_setsigmask(&attributes, &none)
    var all = sigset_t()
    sigfillset(&all)
    posix_spawnattr_setsigdefault(&attributes, &all)
    posix_spawnattr_setflags(
      &attributes, flags | Int16(POSIX_SPAWN_SETSIGMASK) | Int16(POSIX_SPAWN_SETSIGDEF))
    // NB: a child keeps no descriptor past stdio. Files other test threads are writing (an
    // editor script) would otherwise stay open for writing in long-lived children, and running
    // them would fail with "Text file busy".
    _ = GNU.closeFrom?(&actions, 3)
    let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
    let envp: [UnsafeMutablePointer<CChar>?] = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      argv.forEach { free($0) }
      envp.forEach { free($0) }
    }
    var pid: pid_t = 0
    let rc = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
    guard rc == 0 else {
      throw SpawnError("could not start \(executable): \(String(cString: strerror(rc)))")
    }
    return pid
  }

  /// Reads two pipes to their ends at once (so neither fills and blocks the child).
  /// Seconds a child may run before the harness kills it (`DINGER_TEST_CHILD_TIMEOUT`,
  /// default 300): a hung command fails its test instead of the whole run.
  public static var childTimeout: Double {
    ProcessInfo.processInfo.environment["DINGER_TEST_CHILD_TIMEOUT"].flatMap(Double.init) ?? 300
  }

  private static func drain(_ a: Int32, _ b: Int32, child: pid_t, timeout: Double) -> (
    [UInt8], [UInt8], Bool
  ) {
    var outputs: [[UInt8]] = [[], []]
    var open = [a, b]
    var buffer = [UInt8](repeating: 0, count: 65536)
    var deadline = Date().addingTimeInterval(timeout)
    var killed = false
    while open.contains(where: { $0 >= 0 }) {
      var polls = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
      let left = deadline.timeIntervalSinceNow
      if left <= 0 {
        // NB: once killed, a moment for what it wrote; a grandchild holding the pipes open
        // must not keep the test waiting either.
        if killed { break }
        kill(child, SIGKILL)
        killed = true
        deadline = Date().addingTimeInterval(2)
        continue
      }
      if poll(&polls, nfds_t(polls.count), Int32(min(left, 60) * 1000) + 1) < 0 {
        if errno == EINTR { continue }
        break
      }
      for i in 0..<2 where open[i] >= 0 && polls[i].revents != 0 {
        let n = buffer.withUnsafeMutableBytes { read(open[i], $0.baseAddress, $0.count) }
        if n > 0 {
          outputs[i] += buffer[0..<n]
        } else if n == 0 || errno != EINTR {
          close(open[i])
          open[i] = -1
        }
      }
    }
    for fd in open where fd >= 0 { close(fd) }
    return (outputs[0], outputs[1], killed)
  }

  /// Finds a program on PATH.
  public static func which(_ name: String) -> String? {
    for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
      let candidate = "\(dir)/\(name)"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
  }
}

/// glibc's GNU extensions, which the Glibc module does not export (looked up at run time).
private enum GNU {
  typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32
  typealias AddChdir =
    @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
  static let pipe2 = unsafeBitCast(dlsym(nil, "pipe2"), to: Pipe2.self)
  static let addchdir = unsafeBitCast(
    dlsym(nil, "posix_spawn_file_actions_addchdir_np"), to: AddChdir.self)
  typealias CloseFrom =
    @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
  /// glibc 2.34 and later.
  static let closeFrom = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np").map {
    unsafeBitCast($0, to: CloseFrom.self)
  }
  /// POSIX_SPAWN_SETSID in glibc's spawn.h.
  static let spawnSetsid: Int16 = 0x80
}

struct SpawnError: Error, CustomStringConvertible {
  var description: String
  init(_ d: String) { description = d }
}

/// The `dinger` binary built next to the tests (or `$DINGER_TEST_BIN`).
public var dingerBinary: String {
  if let bin = ProcessInfo.processInfo.environment["DINGER_TEST_BIN"] { return bin }
  // The test bundle lives in the build folder, next to the executable.
  let bundle = Bundle.main.bundleURL
  for dir in [bundle, bundle.deletingLastPathComponent()] {
    let candidate = dir.appendingPathComponent("dinger").path
    if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
  }
  return packageRoot.appendingPathComponent(".build/debug/dinger").path
}
