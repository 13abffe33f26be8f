import Models

/// `dinger sync`'s report: what it did, the conflicts it recorded, and how to settle them.
public struct SyncReportView {
  public var summary: SyncSummary

  public init(_ summary: SyncSummary) { self.summary = summary }

  public func render() -> String {
    let s = summary
    let upstream = "\(s.remote)/\(s.branch)"
    var lines: [String] = []
    for step in s.steps {
      switch step {
      case .upToDate:
        lines.append("already up to date with \(upstream)")
      case .fastForwarded(let files):
        lines.append(
          "\(s.dryRun ? "would update" : "updated") \(Style.plural(files, "file")) from \(upstream)"
        )
      case .merged(let taken, let merged):
        lines.append(
          "\(s.dryRun ? "would merge" : "merged") \(upstream): \(Style.plural(taken, "file")) taken, \(merged) merged record by record"
        )
      case .pushed:
        lines.append("\(s.dryRun ? "would push" : "pushed") to \(upstream)")
      }
    }
    lines += s.mergeNotes.map { "note: " + $0 }
    if !s.conflicts.isEmpty {
      lines.append(
        "\(Style.plural(s.conflicts.count, "conflict")) \(s.dryRun ? "would be " : "")recorded (your value kept, the other saved):"
      )
      for c in s.conflicts {
        lines.append(
          "  \(c.shortID)  \(c.file) \(c.field): kept \(c.kept), other \(c.other) (\(c.otherAuthor))"
        )
      }
      if !s.dryRun {
        lines.append("settle them with 'dinger resolve ID --ours|--theirs|--value V'")
      }
    }
    if s.rounds > 1 {
      lines.append("(the remote moved during the sync; took \(s.rounds) rounds)")
    }
    return lines.joined(separator: "\n") + "\n"
  }
}
