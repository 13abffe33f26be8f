import ArgumentParser
import Foundation

/// `dinger`: stand-up meetings, their history and word libraries, as YAML in a git repository.
@main
struct Dinger: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "dinger",
    abstract: "Stand-up meetings, their history and word libraries, kept as YAML in git.",
    discussion: """
      Data lives in a data repository: --repo PATH, else $DINGER_REPO, else the enclosing \
      directory that has .dinger/, else ${XDG_DATA_HOME:-~/.local/share}/dinger (created on \
      first use).

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
      Init.self, ScrumCommand.self, Meet.self, History.self, Log.self, LibraryCommand.self,
      WordCommand.self, Quiz.self, Clone.self, RemoteCommand.self, SyncCommand.self,
      Conflicts.self, Resolve.self, Undo.self, Check.self, SetupGit.self, MergeDriverCommand.self,
    ]
  )

  // NB: declared here too so that `dinger --repo PATH scrum list` parses; subcommands read it
  // through their own @OptionGroup.
  @OptionGroup var global: GlobalOptions

  static func main() async {
    // A transfer whose server hangs up must end in a message, not in death by SIGPIPE (a long
    // push used to end silently with status 141); writes to a closed pipe return EPIPE.
    signal(SIGPIPE, SIG_IGN)
    await main(nil)
  }
}

/// The version `--version` prints.
enum DingerVersion {
  static let current = "0.1.0"
}
