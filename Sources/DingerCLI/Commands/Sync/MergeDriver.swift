import ArgumentParser
import Foundation
import Providers
import Storage
import Sync

/// `dinger merge-driver %O %A %B %P`, run by git.
struct MergeDriverCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "merge-driver",
    abstract: "The record-aware merge for plain git (git runs it; see setup-git).",
    discussion: """
      Follows git's merge driver contract: merges the ancestor %O, ours %A and theirs %B of \
      the file %P, writes the result into %A, exits 0 when clean. Never writes conflict \
      markers: on a conflict the file keeps our value, the other goes into \
      .dinger/conflicts/, and the exit status is 1 so git stops before committing; \
      'git add -A && git commit' finishes the merge.

      Configured by 'dinger init', 'dinger clone' and 'dinger setup-git' as:
        [merge "dinger"]
          driver = dinger merge-driver %O %A %B %P
      """)

  @Argument(help: "The common ancestor's version (%O).") var base: String
  @Argument(help: "Our version, where the result goes (%A).") var ours: String
  @Argument(help: "Their version (%B).") var theirs: String
  @Argument(help: "The file's path in the repository (%P).") var path: String

  func run() throws {
    let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    let outcome = MergeDriver.run(
      base: URL(fileURLWithPath: base, relativeTo: cwd),
      ours: URL(fileURLWithPath: ours, relativeTo: cwd),
      theirs: URL(fileURLWithPath: theirs, relativeTo: cwd), path: path, workdir: cwd)
    for line in outcome.messages { Terminal.error(line + "\n") }
    if outcome.status != 0 { throw ExitCode(outcome.status) }
  }
}

/// `dinger setup-git`: configure an existing clone for plain-git teammates.
struct SetupGit: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "setup-git",
    abstract: "Make plain 'git pull' use dinger's record merge in this clone.",
    discussion: """
      Sets merge.dinger.driver in .git/config (to this dinger executable) and makes sure \
      .gitattributes has '*.yaml merge=dinger' (committing it when it was missing). 'dinger init' \
      and 'dinger clone' do this already; run it in clones made with plain 'git clone'.

      Example:
        git clone git@example.com:team/scrums.git && cd scrums && dinger setup-git
      """)

  @OptionGroup var global: GlobalOptions

  func run() throws {
    try reporting {
      let done = try SyncProvider.live(repository: try global.repository()).setupGit(
        Executable.path)
      Terminal.output(done.isEmpty ? "already set up\n" : done.joined(separator: "\n") + "\n")
    }
  }
}
