import ArgumentParser
import Foundation
import Git
import Storage

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
      abstract: "Add a remote.",
      discussion: "Example:\n  dinger remote add origin https://example.com/team/scrums.git")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Its name (origin for the one 'dinger sync' uses by default).") var name: String
    @Argument(help: "Where it is: a path, file://, git://, ssh:// or https:// URL.") var url: String

    func run() throws {
      try reporting {
        let git = try global.repository().gitRepository
        if let existing = try git.remotes().first(where: { $0.name == name }) {
          throw CLIError(
            "a remote named '\(name)' already exists (\(existing.url)); remove it first with 'dinger remote rm \(name)'"
          )
        }
        try git.addRemote(name, url: url)
        Terminal.output("added remote \(name) -> \(url)\n")
      }
    }
  }

  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "list", abstract: "List the remotes.",
      discussion: "Example:\n  dinger remote list --json")
    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
      try reporting {
        let remotes = try global.repository().gitRepository.remotes()
        if output.json {
          let items = remotes.map { ["name": $0.name, "url": $0.url] }
          let data = try JSONSerialization.data(
            withJSONObject: items, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
          Terminal.output(String(decoding: data, as: UTF8.self) + "\n")
          return
        }
        if remotes.isEmpty {
          Terminal.output("no remotes; add one with 'dinger remote add origin URL'\n")
        }
        let width = remotes.map(\.name.count).max() ?? 0
        for remote in remotes {
          Terminal.output(
            remote.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + remote.url
              + "\n")
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
        let git = try global.repository().gitRepository
        let remotes = try git.remotes()
        guard remotes.contains(where: { $0.name == name }) else {
          let known = remotes.map(\.name)
          throw CLIError(
            "no remote named '\(name)'"
              + (known.isEmpty ? "" : " (remotes: \(known.joined(separator: ", ")))"))
        }
        try git.removeRemote(name)
        Terminal.output("removed remote \(name)\n")
      }
    }
  }
}
