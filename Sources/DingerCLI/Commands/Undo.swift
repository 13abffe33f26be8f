import ArgumentParser
import Providers

/// `dinger undo`: reverts your newest change still in effect, as a new commit.
struct Undo: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "undo",
    abstract: "Undo your newest change (as a new commit; history keeps both).",
    discussion: """
      Undoes the newest dinger change made by you (git's user.email) in this clone: teammates' \
      changes that a sync brought, and merges, are passed over and stay. A second undo steps \
      further back; 'dinger redo' brings an undone change back. Refuses when a later commit \
      changed the same files again (it names that commit and its author), when nothing of \
      yours is left to undo, or when the files it would touch have uncommitted edits.

      Examples:
        dinger scrum rm design && dinger undo
        dinger undo && dinger undo      two steps back
        dinger redo                     the last undo, undone
      """)

  @OptionGroup var global: GlobalOptions

  func run() throws {
    try reporting {
      report(try UndoProvider.live(repository: try global.repository()).undo())
    }
  }
}

/// `dinger redo`: brings back what your newest undo took away.
struct Redo: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "redo",
    abstract: "Redo your newest undo (as a new commit).",
    discussion: """
      Works right after one or more 'dinger undo's: each redo brings back one undone change, \
      newest first. After a new change of yours there is nothing to redo.

      Examples:
        dinger undo && dinger redo
      """)

  @OptionGroup var global: GlobalOptions

  func run() throws {
    try reporting {
      report(try UndoProvider.live(repository: try global.repository()).redo())
    }
  }
}

/// Prints what an undo or redo did, and whose newer changes it passed over.
private func report(_ outcome: UndoProvider.Outcome) {
  Terminal.output(outcome.subject + "\n")
  guard !outcome.passedOver.isEmpty else { return }
  var names: [String] = []
  for name in outcome.passedOver where !names.contains(name) { names.append(name) }
  let count = outcome.passedOver.count
  Terminal.error(
    "note: undid your change \(outcome.reverted); \(count == 1 ? "a newer change" : "\(count) newer changes") by \(names.joined(separator: ", ")) \(count == 1 ? "stays" : "stay")\n"
  )
}
