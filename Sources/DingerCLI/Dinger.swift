import ArgumentParser

/// `dinger`: stand-up meetings, their history and word libraries, as YAML in a git repository.
@main
struct Dinger: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "dinger",
    abstract: "Stand-up meetings, their history and word libraries, kept as YAML in git.",
    discussion: """
      Data lives in a data repository: --repo PATH, else $DINGER_REPO, else the enclosing \
      directory that has .dinger/.

      Examples:
        dinger check                     check every record
        dinger check scrums/design.yaml  check one file
        dinger check --json              findings as JSON
      """,
    version: DingerVersion.current,
    subcommands: [Check.self]
  )
}

/// The version `--version` prints.
enum DingerVersion {
  static let current = "0.1.0"
}
