import ArgumentParser
import Base
import FoundationEssentials
import Glibc
import Providers

/// `dinger init [PATH]`: makes a folder a data repository.
struct Init: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "init",
    abstract: "Make a folder a dinger data repository (a git repository with .dinger/).",
    discussion: """
      Creates a git repository (or uses the one whose top the folder is), adds the scaffold \
      (.dinger/config.yaml, .gitattributes, a README on hand-editing) and commits it, and \
      configures git's merge driver so plain 'git pull' merges records like 'dinger sync'.

      Examples:
        dinger init                 the current folder
        dinger init ~/team-scrums   a new folder
      """)

  @Argument(help: "The folder (default: the current one).")
  var path: String?

  func run() throws {
    try reporting {
      let url = URL(fileURLWithPath: path ?? FileManager.default.currentDirectoryPath)
      let root = try GitIntegration.initialize(at: url, executable: Executable.path)
      Terminal.output("initialized a dinger data repository in \(root.path)\n")
    }
  }
}
