import ArgumentParser
import Foundation
import Git
import Providers
import Sync

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
      in .dinger/conflicts/ (see 'dinger conflicts'), and the sync goes on. Then pushes; when \
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

  func run() throws {
    try reporting {
      let repository = try global.repository()
      let progress = ProgressLine()
      // NB: the progress line is ended before any message, an error's too.
      defer { progress.finish() }
      let report = try SyncProvider.live(repository: repository).sync(
        remote, dryRun, { progress.show($0) })
      progress.finish()
      for warning in report.warnings { Terminal.error("warning: \(warning)\n") }
      Terminal.output(Self.describe(report))
    }
  }

  static func describe(_ report: Syncer.Report) -> String {
    let would = report.dryRun ? "would " : ""
    var lines: [String] = []
    for step in report.steps {
      switch step {
      case .upToDate:
        lines.append("already up to date with \(report.remote)/\(report.branch)")
      case .fastForwarded(let files):
        lines.append(
          "\(report.dryRun ? "would update" : "updated") \(files) file\(files == 1 ? "" : "s") from \(report.remote)/\(report.branch)"
        )
      case .merged(let taken, let merged):
        lines.append(
          "\(report.dryRun ? "would merge" : "merged") \(report.remote)/\(report.branch): \(taken) file\(taken == 1 ? "" : "s") taken, \(merged) merged record by record"
        )
      case .pushed:
        lines.append(
          "\(would)push\(report.dryRun ? "" : "ed") to \(report.remote)/\(report.branch)")
      }
    }
    if !report.conflicts.isEmpty {
      lines.append(
        "\(report.conflicts.count) conflict\(report.conflicts.count == 1 ? "" : "s") \(report.dryRun ? "would be " : "")recorded (your value kept, the other saved):"
      )
      for c in report.conflicts {
        lines.append(
          "  \(c.shortID)  \(c.file) \(c.path): kept \(ConflictRecord.describe(c.kept)), other \(ConflictRecord.describe(c.other)) (\(c.otherFrom.author))"
        )
      }
      if !report.dryRun {
        lines.append("settle them with 'dinger resolve ID --ours|--theirs|--value V'")
      }
    }
    if report.rounds > 1 {
      lines.append("(the remote moved during the sync; took \(report.rounds) rounds)")
    }
    return lines.joined(separator: "\n") + "\n"
  }
}

/// Transfer progress on stderr, only when stderr is a terminal, as git shows it: one line per
/// stage (counting, compressing, writing; receiving, resolving), updated in place.
final class ProgressLine: @unchecked Sendable {
  private let enabled = isatty(2) == 1
  private var shown = false
  private var stage: TransferProgress.Stage?
  private var last = ""

  func show(_ p: TransferProgress) {
    guard enabled, p.total > 0 || p.stage == .counting else { return }
    if let stage, stage != p.stage, shown { Terminal.status("\n") }
    stage = p.stage
    var text = "\r\(p.stage.rawValue): "
    if p.stage == .sending, p.total > 0 {
      text += "\(p.received * 100 / p.total)% (\(p.received / 1024)/\(p.total / 1024) KiB)"
    } else if p.total > 0 {
      text += "\(p.received * 100 / p.total)% (\(p.received)/\(p.total))"
    } else {
      text += "\(p.received)"
    }
    // NB: written when the percentage (or, counting, the thousand) moves, not per object.
    let key = p.total > 0 ? "\(p.stage)\(p.received * 100 / p.total)" : "\(p.stage)\(p.received / 1000)"
    guard key != last else { return }
    last = key
    if p.bytes > 0, p.stage != .sending { text += ", \(p.bytes / 1024) KiB" }
    shown = true
    Terminal.status(text)
  }

  /// Ends the line (once), so that what follows starts on a line of its own.
  func finish() {
    if shown { Terminal.status("\n") }
    shown = false
    stage = nil
  }
}
