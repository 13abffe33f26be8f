import ArgumentParser
import Providers

/// `dinger repair`: finishes a dinger write whose process was killed, or gives it up.
struct Repair: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "repair",
    abstract: "Finish a dinger change that was interrupted (killed), or give it up.",
    discussion: """
      Every command finishes an interrupted change by itself before it writes; this runs that \
      step alone and says what it did. When it cannot finish (a file it needs is unreadable, \
      say), --abandon gives the change up: dinger's locks are removed and its journal \
      cleared; a commit it already made stays in history, and 'git status' shows what differs.

      Examples:
        dinger repair
        dinger repair --abandon
      """)

  @OptionGroup var global: GlobalOptions
  @Flag(help: "Give the interrupted change up when it cannot be finished.") var abandon = false

  func run() throws {
    try reporting {
      let repository = try global.repository(remindConflicts: false)
      Terminal.output(try repository.repair(abandon: abandon) + "\n")
    }
  }
}
