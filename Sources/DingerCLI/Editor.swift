import Base
import Components
import FoundationEssentials
import Glibc
import Models
import Processes
import Providers

/// Runs the user's editor on a temporary copy of a file, as git runs it for a commit message.
enum Editor {
  /// Opens `text` in the editor until `attempt` accepts what was written: its diagnostics are
  /// shown on top for the next try (without a terminal they are printed and the command fails).
  /// `attempt` returns nil for "nothing to do"; an empty file ends with `emptyMessage`.
  static func editUntilValid<T>(
    _ text: String, name: String, repository: Workspace?, instead: String, emptyMessage: String,
    errorsMessage: String, attempt: (String) throws -> Result<T, DiagnosticList>?
  ) throws -> T? {
    var text = text
    var errors: [Diagnostic] = []
    while true {
      let written: String
      do {
        written = try edit(
          text, header: bufferDiagnostics(errors), name: name, repository: repository,
          instead: instead)
      } catch let failure as Failure {
        // NB: quitting the editor (`:cq`) after an error keeps what was typed before it.
        if !errors.isEmpty, let kept = keepTyped(text, name: name) {
          throw CLIError("\(failure); nothing changed; what you wrote is kept in \(kept)")
        }
        throw CLIError("\(failure); nothing changed")
      }
      guard !written.trimmed().isEmpty else {
        throw CLIError(emptyMessage)
      }
      // NB: every error found after the editor closed (an unknown key, a bound, a date, a
      // hidden character) reopens the buffer as a YAML error does: the typed answers are
      // never thrown away with the error.
      let outcome: Result<T, DiagnosticList>?
      do {
        outcome = try attempt(written)
      } catch let list as DiagnosticList {
        outcome = .failure(list)
      } catch {
        outcome = .failure(
          DiagnosticList(items: [Diagnostic(.error, file: "\(name).yaml", message: "\(error)")]))
      }
      switch outcome {
      case nil: return nil
      case .success(let value)?: return value
      case .failure(let list)?:
        errors = list.items
        text = written
        if !isInteractive {
          Terminal.error(DiagnosticsView(errors).render())
          // NB: what was written is not thrown away: it is kept where the message says.
          if let kept = keepTyped(written, name: name) {
            throw CLIError("\(errorsMessage); what you wrote is kept in \(kept)")
          }
          throw CLIError(errorsMessage)
        }
      }
    }
  }

  /// Keeps typed text in the temporary folder; its path, or nil when it could not be written.
  static func keepTyped(_ text: String, name: String) -> String? {
    let kept = FileManager.default.temporaryDirectory
      .appendingPathComponent("dinger-kept-\(name)-\(UUID().uuidString.prefix(8)).yaml")
    return (try? text.write(to: kept, atomically: true, encoding: .utf8)) != nil ? kept.path : nil
  }

  /// The errors as the reopened buffer shows them: their line numbers are the buffer's, which
  /// has the header on top (the file's own numbers sent `:12` to the wrong line).
  static func bufferDiagnostics(_ errors: [Diagnostic]) -> [String] {
    guard !errors.isEmpty else { return [] }
    let lines = errors.map { DiagnosticsView.render($0) }.joined()
      .split(separator: "\n", omittingEmptySubsequences: true).count
    // NB: the header is one line of its own and then each non-empty line of the errors.
    return errors.map { error in
      var shifted = error
      shifted.line = error.line.map { $0 + 1 + lines }
      return DiagnosticsView.render(shifted)
    }
  }

  static let marker = "# dinger: "

  /// Keeps text that could not be committed in `.git/dinger/edits/`, and says where.
  static func keep(_ text: String, name: String, root: URL) throws -> URL {
    let folder = root.appendingPathComponent(".git/dinger/edits")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let stamp = Date().ISO8601Format().replacingText(":", with: "")
    let file = folder.appendingPathComponent("\(name)-\(stamp).yaml")
    try text.write(to: file, atomically: true, encoding: .utf8)
    return file
  }

  /// False when dinger runs without a terminal and the editor is a script (tests, CI): errors are
  /// then reported instead of reopening the editor forever.
  static var isInteractive: Bool { isatty(0) == 1 && isatty(1) == 1 }

  /// Why an edit ended without text: the editor failed, or was interrupted (Ctrl-C).
  struct Failure: Error, CustomStringConvertible {
    var editor: String
    var termination: ChildProcess.Termination

    /// The editor was ended by Ctrl-C (or Ctrl-\).
    var interrupted: Bool {
      [SIGINT, SIGQUIT].contains(termination.signal ?? 0) || termination.status == 130
    }

    var description: String {
      interrupted
        ? "the editor '\(editor)' was interrupted"
        : "the editor '\(editor)' failed (\(termination))"
    }
  }

  /// The editor command, in git's order: `GIT_EDITOR`, `core.editor`, `VISUAL`, `EDITOR`, else
  /// `vi` (only on a terminal: vi on a pipe is no editor). Nil when none may run.
  static func command(
    environment: [String: String], repository: Workspace?, terminal: Bool
  ) -> String? {
    let configured = [
      environment["GIT_EDITOR"], repository?.gitConfig("core.editor"),
      // NB: as git: VISUAL only on a terminal that can show a full-screen editor.
      environment["TERM"] == "dumb" ? nil : environment["VISUAL"], environment["EDITOR"],
    ].compactMap { $0 }.first { !$0.trimmingSpaces().isEmpty }
    if let configured { return configured }
    return terminal && environment["TERM"] != "dumb" ? "vi" : nil
  }

  /// Lets the user edit `text`; `header` lines (the errors of the last try) are shown on top as
  /// comments and removed again afterwards. The editor runs through the shell, in dinger's own
  /// process group with the terminal (see `ChildProcess.runInTerminal`); the temporary file is
  /// removed on every way out, a kill of dinger included.
  static func edit(
    _ text: String, header: [String], name: String, repository: Workspace?, instead: String
  ) throws -> String {
    let env = ProcessInfo.processInfo.environment
    guard
      let editor = command(
        environment: env, repository: repository, terminal: isatty(0) == 1 && isatty(1) == 1)
    else {
      throw CLIError(
        "an editor needs a terminal, and none is set (EDITOR, VISUAL, core.editor); without one, use \(instead), or set EDITOR to a program that edits without a terminal"
      )
    }
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("dinger-\(name)-\(UUID().uuidString.prefix(8)).yaml")
    var prefix = ""
    if !header.isEmpty {
      prefix += marker + "fix these errors, then save and quit (these lines are removed):\n"
      for line in header.joined().split(separator: "\n", omittingEmptySubsequences: false)
      where !line.isEmpty {
        prefix += marker + line + "\n"
      }
    }
    let cleanup = TemporaryFileCleanup(file.path)
    defer { cleanup.remove() }
    try (prefix + text).write(to: file, atomically: true, encoding: .utf8)
    let termination: ChildProcess.Termination
    do {
      // NB: as git: the user's setting is a shell command line; the file is "$1", never spliced.
      termination = try ChildProcess.runInTerminal(
        .shell(editor + " \"$@\"", name: editor, arguments: [file.path]))
    } catch {
      throw CLIError("\(error); nothing changed")
    }
    guard termination.succeeded else { throw Failure(editor: editor, termination: termination) }
    let edited = try String(contentsOf: file, encoding: .utf8)
    return edited.parts(separatedBy: "\n").filter { !$0.hasPrefix(marker) }.joined(
      separator: "\n")
  }
}
