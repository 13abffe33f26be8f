import ArgumentParser
import Base
import FoundationEssentials
import Glibc
import Providers

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
    let outcome = GitIntegration.merge(
      base: URL(fileURLWithPath: base, relativeTo: cwd),
      ours: URL(fileURLWithPath: ours, relativeTo: cwd),
      theirs: URL(fileURLWithPath: theirs, relativeTo: cwd), path: path, workdir: cwd)
    for line in outcome.messages { Terminal.error(line + "\n") }
    if outcome.status != 0 { throw ExitCode(outcome.status) }
  }
}

/// `dinger diff-driver PATH OLD-FILE OLD-HEX OLD-MODE NEW-FILE NEW-HEX NEW-MODE`, run by git.
struct DiffDriverCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "diff-driver",
    abstract: "The record-aware diff for plain git (git runs it; see setup-git).",
    discussion: """
      Follows git's external diff contract (GIT_EXTERNAL_DIFF): prints a '# dinger:' line \
      that says what changed in the record ("length 10 -> 15 min; add attendee Bob"), then \
      the usual unified diff. 'git diff' uses it by default; 'git log -p' and 'git show' with \
      --ext-diff. Without dinger set up, git shows its plain diff.

      Configured by 'dinger init', 'dinger clone' and 'dinger setup-git' as:
        [diff "dinger"]
          command = dinger diff-driver
      """)

  @Argument(help: "The file's path in the repository.") var path: String
  @Argument(help: "The old version's file (/dev/null when added).") var oldFile: String
  @Argument(help: "The old version's blob id.") var oldHex: String
  @Argument(help: "The old version's mode.") var oldMode: String
  @Argument(help: "The new version's file (/dev/null when deleted).") var newFile: String
  @Argument(help: "The new version's blob id.") var newHex: String
  @Argument(help: "The new version's mode.") var newMode: String

  func run() throws {
    Terminal.output(GitIntegration.diff(path: path, old: oldFile, new: newFile))
  }
}

/// `dinger setup-git`: configure an existing clone for plain-git teammates.
struct SetupGit: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "setup-git",
    abstract: "Make plain 'git pull' use dinger's record merge in this clone.",
    discussion: """
      Sets merge.dinger.driver and diff.dinger.command in .git/config (to this dinger \
      executable) and makes sure .gitattributes has '*.yaml merge=dinger diff=dinger' \
      (committing it when it was missing): plain 'git pull' merges record by record, and \
      'git diff' says what changed in each record above the line diff. 'dinger init' \
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
