import Foundation

/// Runs a helper program (git's credential helpers) in dinger's own process group and session,
/// so that it can ask on the terminal, as it does under git (Foundation's `Process` starts
/// children where a read of /dev/tty fails with "Input/output error").
enum ChildProcess {
  /// Runs `argv` with `input` on stdin; its stdout (at most 1 MiB) and exit status, or nil when
  /// it could not start. Its stderr is dropped (git's "fatal: could not read Username" would
  /// stand beside dinger's own message); prompts go to the terminal, not to stderr.
  static func run(_ argv: [String], input: [UInt8], environment: [String: String]) -> (
    status: Int32, output: [UInt8]
  )? {
    var toChild: [Int32] = [0, 0]
    var fromChild: [Int32] = [0, 0]
    guard pipe(&toChild) == 0 else { return nil }
    guard pipe(&fromChild) == 0 else {
      close(toChild[0])
      close(toChild[1])
      return nil
    }
    for fd in toChild + fromChild { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
    posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let args: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
    let env: [UnsafeMutablePointer<CChar>?] =
      environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      args.forEach { free($0) }
      env.forEach { free($0) }
    }
    var pid: pid_t = 0
    let rc = posix_spawnp(&pid, argv[0], &actions, nil, args, env)
    close(toChild[0])
    close(fromChild[1])
    guard rc == 0 else {
      close(toChild[1])
      close(fromChild[0])
      return nil
    }
    // NB: requests are a few hundred bytes, far below a pipe's buffer: written whole first.
    input.withUnsafeBytes { buffer in
      var done = 0
      while done < buffer.count {
        let n = write(toChild[1], buffer.baseAddress! + done, buffer.count - done)
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else { break }
        done += n
      }
    }
    close(toChild[1])
    var output: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while output.count < 1 << 20 {
      let n = chunk.withUnsafeMutableBytes { read(fromChild[0], $0.baseAddress, $0.count) }
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else { break }
      output += chunk[0..<n]
    }
    close(fromChild[0])
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let code = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    return (code, output)
  }
}
