import ArgumentParser
import Base
import Components
import FoundationEssentials
import Glibc
import Models
import Providers
import Synchronization

/// `dinger sync`: fetch, merge record by record, push.
struct SyncCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "sync",
    abstract: "Share changes with the team: fetch, merge record by record, push.",
    discussion: """
      Fetches the remote's branch; fast-forwards when only the remote moved; otherwise merges \
      record by record against the common ancestor: different fields and list additions from \
      both sides combine. When both sides set the same field to different values (or one \
      deleted what the other changed), your value stays, the other goes into a conflict record \
      in .dinger/conflicts/ (see 'dinger conflicts'), and the sync goes on. A record that \
      arrives in two files (a plain-git teammate's merge kept both) is kept in one, the other \
      file's text in a conflict record. Then pushes; when \
      someone pushed in between, it fetches and merges again (up to 3 rounds).

      Files with uncommitted edits that the merge would change stop the sync before anything \
      is written; commit or undo them first.

      Examples:
        dinger sync
        dinger sync --dry-run        what would happen, without merging or pushing
        dinger sync --remote backup
      """)

  @OptionGroup var global: GlobalOptions
  @Option(help: "The remote to sync with.") var remote = "origin"
  @Flag(help: "Fetch and report what a sync would do, without merging, committing or pushing.")
  var dryRun = false
  @Flag(help: "Merge a remote whose history shares no commit with this one (another team's data?).")
  var allowUnrelatedHistories = false

  func run() throws {
    try reporting {
      let repository = try global.repository()
      let progress = ProgressLine()
      // NB: the progress line is ended before any message, an error's too.
      defer { progress.finish() }
      let report = try SyncProvider.live(repository: repository).sync(
        remote, dryRun, allowUnrelatedHistories, { progress.show($0) })
      progress.finish()
      for warning in report.warnings { Terminal.error("warning: \(warning)\n") }
      for line in report.remoteMessages { Terminal.error("remote: \(line)\n") }
      Terminal.output(SyncReportView(report).render())
      // NB: a sync that recorded conflicts did its work, but a script or CI step must notice
      // that a person has to decide: exit 1, as git pull does after a conflicted merge.
      if !dryRun && !report.conflicts.isEmpty {
        throw CLIError(
          "the sync finished, but \(report.conflicts.count == 1 ? "a conflict is" : "\(report.conflicts.count) conflicts are") saved in .dinger/conflicts/ for a person to settle: see 'dinger conflicts', then 'dinger resolve ID --ours|--theirs'"
        )
      }
    }
  }
}

/// Transfer progress on stderr, only when stderr is a terminal, as git shows it: one line per
/// stage (counting, compressing, writing; receiving, resolving), updated in place.
final class ProgressLine: Sendable {
  private let enabled = isatty(2) == 1
  /// What is on the line: progress may come from libgit2's threads.
  private struct State {
    var shown = false
    var stage: SyncProgress.Stage?
    var last = ""
  }
  private let state = Mutex(State())

  func show(_ p: SyncProgress) {
    if p.stage == .waiting { return waiting(seconds: p.done) }
    guard enabled, p.total > 0 || p.stage == .counting else { return }
    state.withLock { state in
      if let stage = state.stage, stage != p.stage, state.shown { Terminal.status("\n") }
      state.stage = p.stage
      var text = "\r\(p.stage.rawValue): "
      if p.stage == .sending, p.total > 0 {
        text += "\(p.done * 100 / p.total)% (\(p.done / 1024)/\(p.total / 1024) KiB)"
      } else if p.total > 0 {
        text += "\(p.done * 100 / p.total)% (\(p.done)/\(p.total))"
      } else {
        text += "\(p.done)"
      }
      // NB: written when the percentage (or, counting, the thousand) moves, not per object.
      let key = p.total > 0 ? "\(p.stage)\(p.done * 100 / p.total)" : "\(p.stage)\(p.done / 1000)"
      guard key != state.last else { return }
      state.last = key
      if p.bytes > 0, p.stage != .sending { text += ", \(p.bytes / 1024) KiB" }
      state.shown = true
      Terminal.status(text)
    }
  }

  /// A server silent while it prepares its answer (a big fetch's pack): said in place on a
  /// terminal, and elsewhere (a CI log) as a line at 10 s and each minute, so a long wait is
  /// never mistaken for a hang.
  private func waiting(seconds: Int) {
    let text = "waiting for the server to prepare what is new (\(seconds) s so far)"
    state.withLock { state in
      if enabled {
        if let stage = state.stage, stage != .waiting, state.shown { Terminal.status("\n") }
        state.stage = .waiting
        state.shown = true
        Terminal.status("\r" + text)
      } else if seconds == 10 || (seconds > 0 && seconds % 60 == 0) {
        Terminal.status(text + "\n")
      }
    }
  }

  /// Ends the line (once), so that what follows starts on a line of its own.
  func finish() {
    state.withLock { state in
      if state.shown { Terminal.status("\n") }
      state.shown = false
      state.stage = nil
    }
  }
}
