import ArgumentParser
import Base
import Components
import FoundationEssentials
import Glibc
import Models
import Providers

/// `dinger remote add|list|rm`: where the team's shared copy lives.
struct RemoteCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "remote",
    abstract: "Add, list or remove the remotes this data repository syncs with.",
    discussion: """
      A remote is any git repository: a path or file:// URL, git://, ssh:// (or user@host:path), \
      or https://. 'dinger sync' uses 'origin' unless told otherwise.

      Examples:
        dinger remote add origin git@example.com:team/scrums.git
        dinger remote add origin /srv/git/scrums.git
        dinger remote list
        dinger remote rm origin
      """,
    subcommands: [Add.self, List.self, Remove.self], defaultSubcommand: List.self)

  struct Add: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "add",
      abstract: "Add a remote.",
      discussion: "Example:\n  dinger remote add origin https://example.com/team/scrums.git")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Its name (origin for the one 'dinger sync' uses by default).") var name: String
    @Argument(help: "Where it is: a path, file://, git://, ssh:// or https:// URL.") var url: String

    func run() throws {
      try reporting {
        let provider = SyncProvider.live(repository: try global.repository())
        try provider.addRemote(name, url)
        // NB: as the provider shows it (a password is not echoed).
        let shown = try provider.remotes().first { $0.name == name }?.url ?? ""
        Terminal.output("added remote \(name) -> \(shown)\n")
      }
    }
  }

  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "list", abstract: "List the remotes.",
      discussion: "Example:\n  dinger remote list --json", aliases: ["ls"])
    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
      try reporting {
        let remotes = try SyncProvider.live(repository: try global.repository()).remotes()
        if output.json {
          struct Item: Encodable {
            let name: String
            let url: String
          }
          Terminal.output(
            try JSONView.render(
              "remotes", remotes.map { Item(name: $0.name, url: SecretRedaction.scrub($0.url)) }))
          return
        }
        if remotes.isEmpty {
          Terminal.output("no remotes; add one with 'dinger remote add origin URL'\n")
        }
        let width = remotes.map(\.name.count).max() ?? 0
        for remote in remotes {
          Terminal.output(
            remote.name.padded(to: width) + "  "
              + SecretRedaction.scrub(remote.url) + "\n")
        }
      }
    }
  }

  struct Remove: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "rm", abstract: "Remove a remote (the data stays).",
      discussion: "Example:\n  dinger remote rm origin")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The remote's name.") var name: String

    func run() throws {
      try reporting {
        try SyncProvider.live(repository: try global.repository()).removeRemote(name)
        Terminal.output("removed remote \(name)\n")
      }
    }
  }
}
