import ArgumentParser
import Base
import Components
import FoundationEssentials
import Glibc
import Models

/// `dinger`: stand-up meetings, their history and word libraries, as YAML in a git repository.
@main
struct Dinger: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "dinger",
    abstract: "Stand-up meetings, their history and word libraries, kept as YAML in git.",
    discussion: """
      Data lives in a data repository: --repo PATH, else $DINGER_REPO, else the enclosing \
      directory that has .dinger/, else the default you chose with 'repository: PATH' in \
      ~/.config/dinger/config.yaml (created on first use in a new or empty folder); else dinger refuses, as git does \
      outside a repository.

      Examples:
        dinger init ~/team
        dinger scrum new Design --attendee Ada --attendee Grace
        dinger scrum edit design --length 15
        dinger meet design
        dinger history design
        dinger log design
        dinger library new "Spanish basics" --language es
        dinger word add hola --library spanish-basics --definition hello
        dinger quiz --library spanish-basics
        dinger clone git@example.com:team/scrums.git
        dinger sync
        dinger check
      """,
    version: DingerVersion.current,
    subcommands: [
      Init.self, ScrumCommand.self, Meet.self, StandupCommand.self, BlockersCommand.self,
      BlockerCommand.self, History.self, Log.self, LibraryCommand.self,
      WordCommand.self, Quiz.self, Clone.self, RemoteCommand.self, SyncCommand.self,
      Agenda.self, Next.self, CalendarCommand.self, Report.self, Stats.self, DigestCommand.self,
      RemindCommand.self, CollectCommand.self, ImportCommand.self, ExportCommand.self,
      Conflicts.self, Resolve.self, Undo.self, Redo.self, Repair.self, Check.self,
      SchemaCommand.self, Where.self,
      SetupGit.self,
      MergeDriverCommand.self, DiffDriverCommand.self,
    ]
  )

  // NB: declared here too so that `dinger --repo PATH scrum list` parses; subcommands read it
  // through their own @OptionGroup.
  @OptionGroup var global: GlobalOptions

  static func main() async {
    // A transfer whose server hangs up must end in a message, not in death by SIGPIPE (a long
    // push used to end silently with status 141); writes to a closed pipe return EPIPE.
    signal(SIGPIPE, SIG_IGN)
    let arguments = gitStyleCounts(Array(CommandLine.arguments.dropFirst()))
    // NB: as git does, `--version` alone answers before the parser is built (a third of the
    // time of a command this small went to building it).
    if arguments == ["--version"] {
      Terminal.output(DingerVersion.current + "\n")
      Glibc.exit(0)
    }
    if arguments == ["--generate-completion-script", "bash"] {
      Terminal.output(bashCompletion(completionScript(for: .bash)))
      Glibc.exit(0)
    }
    if let problem = unknownCommand(arguments) {
      Terminal.error(Style.severityLabel(color: Terminal.colorOnStderr) + " " + problem + "\n")
      Glibc.exit(64)
    }
    // NB: parsed and run here rather than by ArgumentParser's main, so that usage errors read
    // `error: ...` like every other dinger error (ArgumentParser says `Error:`).
    do {
      var command = try parseAsRoot(arguments)
      if var asyncCommand = command as? AsyncParsableCommand {
        try await asyncCommand.run()
      } else {
        try command.run()
      }
    } catch {
      let code = exitCode(for: error)
      let message = fullMessage(for: error)
      if code == .success {
        if !message.isEmpty { Terminal.output(message + "\n") }
      } else if !message.isEmpty {
        let text = message.hasPrefix("Error: ") ? String(message.dropFirst(7)) : message
        Terminal.error(Style.severityLabel(color: Terminal.colorOnStderr) + " " + text + "\n")
      }
      Glibc.exit(code.rawValue)
    }
  }

  /// ArgumentParser's bash script, registered without `-o filenames` (which made `dinger hi<Tab>`
  /// complete to `history/` in a data repository, where a folder of that name exists): file
  /// name handling is switched on only where files or folders are completed.
  static func bashCompletion(_ script: String) -> String {
    script
      .replacingText(
        "complete -o filenames -F _dinger dinger", with: "complete -F _dinger dinger"
      )
      .replacingText(
        "__dinger_add_completions() {\n    local completion\n",
        with: """
          __dinger_add_completions() {
              local completion
              case "${1}" in -d|-f|-o) compopt -o filenames 2>/dev/null ;; esac

          """)
  }

  /// git's habits for counts in `log` and `history`: `-3` and `-n3` mean `-n 3`.
  static func gitStyleCounts(_ arguments: [String]) -> [String] {
    guard let command = arguments.first(where: { !$0.hasPrefix("-") }),
      command == "log" || command == "history"
    else { return arguments }
    return arguments.flatMap { argument -> [String] in
      let digits = argument.dropFirst(argument.hasPrefix("-n") ? 2 : 1)
      guard argument.hasPrefix("-"), !argument.hasPrefix("--"), !digits.isEmpty,
        digits.allSatisfy({ $0.isASCII && $0.isNumber })
      else { return [argument] }
      return ["-n", String(digits)]
    }
  }

  /// A first word that names no command (`dinger srcum list`, `dinger help nonexistent`): said
  /// with the closest commands, instead of ArgumentParser's "unexpected arguments" (or a help
  /// page and status 0).
  static func unknownCommand(_ arguments: [String]) -> String? {
    let names = configuration.subcommands.map { $0._commandName }
    var words = arguments
    let asksHelp = words.first == "help"
    if asksHelp { words.removeFirst() }
    guard let first = words.first, !first.hasPrefix("-") else { return nil }
    if let group = configuration.subcommands.first(where: { $0._commandName == first }) {
      // NB: a group's second word too (`dinger scrum lst`): its subcommands and their aliases.
      let subcommands = group.configuration.subcommands
      guard !subcommands.isEmpty, words.count > 1, !words[1].hasPrefix("-") else { return nil }
      let known = subcommands.flatMap { [$0._commandName] + $0.configuration.aliases }
      let second = words[1]
      if known.contains(second) || group.configuration.defaultSubcommand != nil { return nil }
      var message = "'\(first) \(second)' is not a dinger command"
      let close = Suggestions.closest(to: second, in: subcommands.map { $0._commandName }, limit: 2)
      message +=
        close.isEmpty
        ? "; 'dinger \(first) --help' lists them"
        : "; did you mean " + close.map { "'\(first) \($0)'" }.joined(separator: " or ") + "?"
      return message
    }
    var message = "'\(first)' is not a dinger command"
    let close = Suggestions.closest(to: first, in: names, limit: 2)
    if !close.isEmpty {
      message += "; did you mean " + close.map { "'\($0)'" }.joined(separator: " or ") + "?"
    } else {
      message += "; 'dinger --help' lists them"
    }
    return message
  }
}

/// The version `--version` prints.
enum DingerVersion {
  static let current = "0.1.0"
}
