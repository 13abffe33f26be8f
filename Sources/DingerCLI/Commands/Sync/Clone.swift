import ArgumentParser
import Base
import FoundationEssentials
import Glibc
import Providers

/// `dinger clone URL [DIR]`: a teammate's copy of a shared data repository.
struct Clone: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "clone",
    abstract: "Copy a shared data repository and set it up for 'dinger sync'.",
    discussion: """
      Clones with libgit2 (paths, file://, git://, ssh://, https://), checks that it is a dinger \
      data repository, and configures the merge driver for plain git (see 'dinger setup-git').

      Examples:
        dinger clone git@example.com:team/scrums.git
        dinger clone /srv/git/scrums.git ~/scrums
      """)

  @Argument(help: "Where the shared repository is.") var url: String
  @Argument(help: "The folder to create (default: the repository's name).") var directory: String?

  func run() throws {
    try reporting {
      let name =
        directory
        ?? String(
          (url.split(whereSeparator: { $0 == "/" || $0 == ":" }).last ?? "dinger-data")
            .replacingText(".git", with: ""))
      let target = URL(
        fileURLWithPath: name,
        relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
      ).standardizedFileURL
      if let contents = try? FileManager.default.contentsOfDirectory(atPath: target.path),
        !contents.isEmpty
      {
        throw CLIError("'\(target.path)' already exists and is not empty; choose another folder")
      }
      let progress = ProgressLine()
      // NB: the progress line is ended before any message, an error's too.
      defer { progress.finish() }
      let warnings = try SyncProvider.clone(
        url, into: target, executable: Executable.path, progress: { progress.show($0) })
      progress.finish()
      for warning in warnings { Terminal.error("warning: \(warning)\n") }
      Terminal.output(
        "cloned \(SyncProvider.redacted(url)) into \(target.path)\nnext: cd \(name) && dinger scrum list\n"
      )
    }
  }
}
