import ArgumentParser
import Base
import FoundationEssentials
import Glibc

/// `dinger where`: which data repository commands here use, and why.
struct Where: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "where",
    abstract: "Show which data repository dinger uses here, and how it was chosen.",
    discussion: """
      The order: --repo PATH, else $DINGER_REPO, else the enclosing directory that has \
      .dinger/, else the default you chose with 'repository: PATH' in \
      ${XDG_CONFIG_HOME:-~/.config}/dinger/config.yaml (created on first use).

      Examples:
        dinger where
        cd "$(dinger where --path)"
      """)

  @OptionGroup var global: GlobalOptions

  @Flag(help: "Print only the path.") var path = false

  func run() throws {
    try reporting {
      let (repository, origin) = try global.located(remindConflicts: false)
      if path {
        Terminal.output(repository.root.path + "\n")
        return
      }
      let why =
        switch origin {
        case .option: "from --repo"
        case .environment: "from $DINGER_REPO"
        case .enclosing: "the enclosing data repository"
        case .userDefault: "your default one (from your settings): no other was named or found here"
        }
      Terminal.output("\(repository.root.path)  (\(why))\n")
    }
  }
}
