import Components
import Foundation

/// Long output through a pager on a terminal, as git pages its log: `$DINGER_PAGER`, else
/// `$PAGER`, else `less` with `LESS=FRX` (quit when it fits one screen, keep colours, leave
/// the text on the screen). Never when stdout is not a terminal; `PAGER=cat` (or an empty
/// one) turns it off. The pager command is the user's own setting and runs through `sh -c`,
/// as git runs it; only dinger's already-escaped text goes to it.
enum Pager {
  /// Shows `text`: through the pager on a terminal, else straight to stdout.
  static func show(_ text: String) {
    let env = ProcessInfo.processInfo.environment
    let command = env["DINGER_PAGER"] ?? env["PAGER"] ?? "less"
    // NB: without less installed (a minimal container), the default pager would swallow the text.
    let chosen = env["DINGER_PAGER"] != nil || env["PAGER"] != nil
    let lessFound = (env["PATH"] ?? "/usr/bin:/bin").split(separator: ":").contains {
      access("\($0)/less", X_OK) == 0
    }
    guard isatty(1) == 1, !command.trimmingCharacters(in: .whitespaces).isEmpty, command != "cat",
      chosen || lessFound
    else {
      Terminal.output(text)
      return
    }
    var fds: [Int32] = [0, 0]
    guard pipe(&fds) == 0 else {
      Terminal.output(text)
      return
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, fds[0], 0)
    posix_spawn_file_actions_addclose(&actions, fds[1])
    var environment = env
    if environment["LESS"] == nil { environment["LESS"] = "FRX" }
    if environment["LV"] == nil { environment["LV"] = "-c" }
    let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { envp.forEach { free($0) } }
    let words: [String] = ["/bin/sh", "-c", command]
    let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    let rc = posix_spawn(&pid, "/bin/sh", &actions, nil, argv, envp)
    close(fds[0])
    guard rc == 0 else {
      close(fds[1])
      Terminal.output(text)
      return
    }
    // NB: a pager quit early (q) closes the pipe: EPIPE ends the writing, not dinger.
    let safe = Printable.escaped(text, keepColors: true)
    safe.utf8CString.withUnsafeBufferPointer { buffer in
      var done = 0
      let count = buffer.count - 1
      while done < count {
        let n = write(fds[1], buffer.baseAddress! + done, count - done)
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { break }
        done += n
      }
    }
    close(fds[1])
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
  }
}
