import Base
import Components
import FoundationEssentials
import Glibc
import Processes

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
    guard isatty(1) == 1, !command.trimmingSpaces().isEmpty, command != "cat",
      chosen || lessFound
    else {
      Terminal.output(text)
      return
    }
    var environment = env
    if environment["LESS"] == nil { environment["LESS"] = "FRX" }
    if environment["LV"] == nil { environment["LV"] = "-c" }
    // NB: in dinger's process group with the terminal, as git runs its pager: less reads keys
    // from the terminal, and Ctrl-C while paging ends the pager, not dinger.
    let safe = Printable.escaped(text, keepColors: true)
    do {
      _ = try ChildProcess.runInTerminal(
        .shell(command, name: "dinger-pager", environment: environment), input: Array(safe.utf8))
    } catch {
      Terminal.output(text)
    }
  }
}
