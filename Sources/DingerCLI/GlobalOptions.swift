import ArgumentParser
import Base
import Components
import FoundationEssentials
import Glibc
import Models
import Processes
import Providers

/// Options every command takes.
struct GlobalOptions: ParsableArguments {
  @Option(
    name: .long, help: "The data repository (default: $DINGER_REPO, else the enclosing one).",
    completion: .directory)
  var repo: String?

  /// What `check` checks: --repo, DINGER_REPO, or the enclosing directory with `.dinger/`.
  func checkTarget() throws -> CheckProvider.Target {
    let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    guard
      let target = try Workspace.checkTarget(
        option: repo, environment: ProcessInfo.processInfo.environment, workingDirectory: cwd)
    else {
      throw CLIError(
        "no data repository here: run inside one (a directory with .dinger/), pass --repo PATH, or set DINGER_REPO"
      )
    }
    return target
  }
}

extension GlobalOptions {
  /// The git-backed data repository, found in DESIGN.md's order; creating the per-user default
  /// prints a one-line notice.
  func repository(remindConflicts: Bool = true) throws -> Workspace {
    try located(remindConflicts: remindConflicts).repository
  }

  /// The data repository and how it was found (`dinger where` says so).
  func located(remindConflicts: Bool = true) throws -> (
    repository: Workspace, origin: Workspace.Origin
  ) {
    Workspace.trace("arguments parsed")
    let env = ProcessInfo.processInfo.environment
    let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    let (repository, origin) = try Workspace.locate(
      option: repo, environment: env, workingDirectory: cwd)
    if origin == .userDefault(created: true) {
      Terminal.error(
        "note: created a data repository at \(repository.root.path) (choose another with --repo or DINGER_REPO)\n"
      )
    }
    for note in repository.notes { Terminal.error("note: \(note)\n") }
    Workspace.trace("repository opened")
    if remindConflicts {
      let count = repository.conflictCount
      if count > 0 {
        Terminal.error(
          "note: \(count) unresolved sync conflict\(count == 1 ? "" : "s"); see 'dinger conflicts'\n"
        )
      }
    }
    return (repository, origin)
  }
}

/// The repository's settings; defaults when the file is missing or broken (check reports it).
func repoConfig(_ repository: Workspace) throws -> RepoConfig { try repository.config() }

/// Says on stderr that some record files could not be read.
func warnUnreadable(_ problems: [Diagnostic], noun: String) {
  guard !problems.isEmpty else { return }
  // NB: a folder that can't be listed is said in its own words: its records are not merely
  // broken, they are unknown.
  for folder in problems where !folder.file.hasSuffix(".yaml") && !folder.file.hasSuffix(".yml") {
    Terminal.error("warning: \(folder.file): \(folder.message)\n")
  }
  let files = Set(problems.map(\.file).filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") })
    .sorted()
  guard !files.isEmpty else { return }
  Terminal.error(
    "warning: \(Style.plural(files.count, noun)) could not be read: \(files.joined(separator: ", ")); run 'dinger check'\n"
  )
}

/// The clock commands read: the real one, or `DINGER_TEST_NOW` (an ISO 8601 instant) in tests.
func currentDate() -> Date {
  if let fixed = ProcessInfo.processInfo.environment["DINGER_TEST_NOW"],
    // NB: the test clock's own text is absolute; `now` only matters to a relative one.
    let date = DateExpression.parse(fixed, now: Date(), zone: userZone)
  {
    return date
  }
  return Date()
}

/// A date a person typed (see `DateExpression`): ISO dates and times, `yesterday`,
/// `2 days ago`, `last monday`...; a day without a time is local midnight.
func userDate(_ text: String) -> Date? {
  DateExpression.parse(text, now: currentDate(), zone: userZone)
}

/// The end of the span an `--until` names: a whole day for a day, else the instant.
func userDateEnd(_ text: String) -> Date? {
  DateExpression.parseEnd(text, now: currentDate(), zone: userZone)
}

/// The user's time zone (`$TZ`, else the system's), read once.
let userZone: any WallClockZone = ViewerClock(now: Date()).zone

/// Fails validation unless each given date option parses as a date (`2026-11-01`).
func validateDates(_ options: [(name: String, value: String?)]) throws {
  for (name, value) in options {
    if let value, userDate(value) == nil {
      throw ValidationError(
        "\(name) must be a date like 2026-11-01, '2026-11-01 09:30', yesterday or '3 days ago', found '\(value)'"
      )
    }
  }
}

/// Options of read commands.
struct OutputOptions: ParsableArguments {
  @Flag(name: .long, help: "Print JSON instead of text.")
  var json = false
}

/// Names as typed: each argument may hold several, separated by commas
/// (`--attendee "Katie, Gray, Euna"` is three people); blanks are dropped.
func splitNames(_ arguments: [String]) -> [String] {
  arguments.flatMap { $0.split(separator: ",", omittingEmptySubsequences: true) }
    .map { $0.trimmingSpaces() }.filter { !$0.isEmpty }
}

/// A failure to report as `error: message` with exit status 1.
struct CLIError: Error, CustomStringConvertible {
  var description: String
  init(_ message: String) { description = message }
}

/// Where output goes and whether it may be coloured.
enum Terminal {
  /// True when stderr is a terminal and NO_COLOR is unset.
  static var colorOnStderr: Bool { allowsColor(fd: 2) }
  /// True when stdout is a terminal and NO_COLOR is unset.
  static var colorOnStdout: Bool { allowsColor(fd: 1) }

  static func allowsColor(fd: Int32) -> Bool {
    let env = ProcessInfo.processInfo.environment
    if env["NO_COLOR"] != nil || env["TERM"] == "dumb" { return false }
    return isatty(fd) == 1
  }

  /// Writes to standard error; on a terminal, control characters from the data are escaped.
  static func error(_ text: String) {
    // NB: a password or token in a remote's address never reaches a message (or a CI log).
    let text = SecretRedaction.scrub(text)
    let safe = isatty(2) == 1 ? Printable.escaped(text, keepColors: true) : Printable.unmarked(text)
    write(2, safe)
  }

  /// Writes to standard output; on a terminal, control characters from the data are escaped
  /// (dinger's colours stay). Piped output is the data's bytes.
  static func output(_ text: String) {
    let safe = isatty(1) == 1 ? Printable.escaped(text, keepColors: true) : Printable.unmarked(text)
    write(1, safe)
  }

  /// `output` for text already in UTF-8 (a long listing): written as it is to a pipe or file,
  /// escaped on a terminal.
  static func output(bytes: [UInt8]) {
    guard isatty(1) != 1 else { return output(String(decoding: bytes, as: UTF8.self)) }
    bytes.withUnsafeBytes { write(1, $0) }
  }

  /// `output(bytes:)` for a listing rendered a piece at a time: each piece written as it comes
  /// to a pipe or file; on a terminal, the whole text escaped.
  static func output(pieces render: ((UnsafeRawBufferPointer) -> Void) -> Void) {
    guard isatty(1) != 1 else {
      var all: [UInt8] = []
      render { all.append(contentsOf: $0) }
      return output(bytes: all)
    }
    render { write(1, $0) }
  }

  /// Writes dinger's own status line (progress with `\r`) to stderr as it is; the data in it
  /// is numbers.
  static func status(_ text: String) { write(2, text) }

  /// Writes dinger's own terminal control (a full-screen frame whose data parts were escaped
  /// by its view, the bell, screen switches) as it is.
  static func control(_ text: String) { write(1, text) }

  /// Writes all of `text`. SIGPIPE is ignored (a server closing a transfer must be an error,
  /// not a silent death), so a reader that went away (`dinger log | head`) ends dinger here the
  /// way git ends: quietly, with status 141.
  private static func write(_ fd: Int32, _ text: String) {
    var text = text
    text.withUTF8 { write(fd, UnsafeRawBufferPointer($0)) }
  }

  private static func write(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) {
    var done = 0
    while done < buffer.count {
      let n = Glibc.write(fd, buffer.baseAddress! + done, buffer.count - done)
      if n < 0 && errno == EINTR { continue }
      if n < 0 && errno == EPIPE {
        // NB: the reader went away: end as git does, by SIGPIPE (dinger ignores it for its
        // transfers, so it is made the default again first).
        signal(SIGPIPE, SIG_DFL)
        raise(SIGPIPE)
      }
      guard n > 0 else { return }
      done += n
    }
  }
}

extension ParsableCommand {
  /// Runs a command body, reporting a failure people can act on as `error: ...` with exit
  /// status 1.
  func reporting(_ body: () throws -> Void) throws {
    do { try body() } catch { try report(error) }
  }

  /// `reporting` for async command bodies.
  func reportingAsync(_ body: () async throws -> Void) async throws {
    do { try await body() } catch { try report(error) }
  }

  /// Ends with `error: message` for the errors dinger explains; rethrows the rest (usage
  /// errors and exit codes go to ArgumentParser).
  private func report(_ error: any Error) throws -> Never {
    switch error {
    case let e as CLIError: try fail(e.description)
    case _ where Workspace.refusesRepository(error):
      try fail(Workspace.message(of: error) ?? "\(error)", status: ExitCode(128))
    default:
      if let message = Workspace.message(of: error) { try fail(message) }
      throw error
    }
  }

  /// Says `error: message` and ends the command with `status`, thrown up to the entry point
  /// (the command's `defer`s run on the way).
  private func fail(_ message: String, status: ExitCode = .failure) throws -> Never {
    Terminal.error(Style.severityLabel(color: Terminal.colorOnStderr) + " " + message + "\n")
    throw status
  }
}

/// The running executable's absolute path (for git's merge driver configuration).
enum Executable {
  /// How git should run this dinger (in `merge.dinger.driver`, `diff.dinger.command`): the bare
  /// name `dinger` when the PATH finds this very binary, so a reinstall elsewhere keeps
  /// working; else its full path.
  static var path: String {
    let me =
      (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
      ?? URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path
    if let found = ChildProcess.resolve(
      "dinger", path: ProcessInfo.processInfo.environment["PATH"]),
      URL(fileURLWithPath: found).resolvingSymlinksInPath().path
        == URL(fileURLWithPath: me).resolvingSymlinksInPath().path
    {
      return "dinger"
    }
    return me
  }
}
