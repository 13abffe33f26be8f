import ArgumentParser
import Providers

/// `dinger undo`: reverts the newest dinger change as a new commit.
struct Undo: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "undo",
    abstract: "Undo the newest dinger change (as a new commit; history keeps both).",
    discussion: """
      Refuses when a later commit changed the same files again, when the newest dinger change \
      set up the repository, or when the files it would touch have uncommitted edits.

      Examples:
        dinger scrum rm design && dinger undo
        dinger undo && dinger undo      the second undo redoes
      """)

  @OptionGroup var global: GlobalOptions

  func run() throws {
    try reporting {
      Terminal.output(try UndoProvider.live(repository: try global.repository()).undo() + "\n")
    }
  }
}
