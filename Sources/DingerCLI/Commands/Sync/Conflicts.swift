import ArgumentParser
import Components
import Foundation
import Providers
import Storage
import Sync
import YAML

/// `dinger conflicts`: the values a sync could not place.
struct Conflicts: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "List the conflicts syncs recorded (values both sides changed differently).",
    discussion: """
      Each conflict names the record file and field, the value kept in the data and the other \
      one, with who wrote each and in which commit. Settle one with 'dinger resolve'.

      Examples:
        dinger conflicts
        dinger conflicts --json
      """)

  @OptionGroup var global: GlobalOptions
  @OptionGroup var output: OutputOptions

  func run() throws {
    try reporting {
      let repository = try global.repository(remindConflicts: false)
      let (records, unreadable) = SyncProvider.live(repository: repository).conflicts()
      for path in unreadable {
        Terminal.error("warning: \(path) is not a readable conflict record\n")
      }
      if output.json {
        Terminal.output(try JSONView.render("conflicts", records.map(ConflictJSON.init)))
        return
      }
      if records.isEmpty {
        Terminal.output("no conflicts\n")
        return
      }
      for r in records {
        Terminal.output(
          """
          \(r.shortID)  \(r.file)  \(r.path)\(r.kind == .delete ? "  (deleted on one side, changed on the other)" : "")
            kept:  \(ConflictRecord.describe(r.kept))  (\(r.keptFrom.author), \(r.keptFrom.commit.prefix(7)))
            other: \(ConflictRecord.describe(r.other))  (\(r.otherFrom.author), \(r.otherFrom.commit.prefix(7)))

          """)
      }
      Terminal.output(
        "settle one with 'dinger resolve ID --ours' (keep), '--theirs' (take the other) or '--value V'\n"
      )
    }
  }
}

/// `dinger resolve ID --ours|--theirs|--value V`.
struct Resolve: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Settle a recorded conflict, as a commit.",
    discussion: """
      --ours keeps the value now in the data; --theirs takes the other value (or applies the \
      other side's deletion); --value sets a new one (YAML: 15, Grace, "[a, b]"). The record is \
      validated like any edit; the conflict record is removed in the same commit.

      Examples:
        dinger resolve 1b2c3d4e --ours
        dinger resolve 1b2c --theirs
        dinger resolve 1b2c --value 20
      """)

  @OptionGroup var global: GlobalOptions
  @Argument(help: "The conflict's id (or a unique prefix), from 'dinger conflicts'.") var id: String
  @Flag(help: "Keep the value now in the data.") var ours = false
  @Flag(help: "Take the other value.") var theirs = false
  @Option(help: "Set this value instead (YAML).") var value: String?

  func validate() throws {
    let chosen = [ours, theirs, value != nil].filter { $0 }.count
    guard chosen == 1 else {
      throw ValidationError("choose exactly one of --ours, --theirs or --value V")
    }
  }

  func run() throws {
    try reporting {
      let repository = try global.repository(remindConflicts: false)
      let choice: ConflictStore.Choice = ours ? .kept : theirs ? .other : .value(value ?? "")
      let record = try SyncProvider.live(repository: repository).resolve(id, choice)
      Terminal.output("resolved \(record.shortID): \(record.file) \(record.path)\n")
      let left = ConflictStore.count(in: repository.root)
      if left > 0 { Terminal.output("\(left) conflict\(left == 1 ? "" : "s") left\n") }
    }
  }
}

/// A conflict record as `conflicts --json` shows it (absent values as null).
private struct ConflictJSON: Encodable {
  let record: ConflictRecord

  enum Keys: String, CodingKey {
    case id, file, record, field, kind, kept, other, keptBy, keptCommit, otherBy, otherCommit
  }

  func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: Keys.self)
    let r = record
    func text(_ node: Node?) -> String? {
      node.map { NodeWriter.text($0).trimmingCharacters(in: .newlines) }
    }
    try c.encode(r.id.uuidString.lowercased(), forKey: .id)
    try c.encode(r.file, forKey: .file)
    try c.encode(r.record, forKey: .record)
    try c.encode(r.path.description, forKey: .field)
    try c.encode(r.kind.rawValue, forKey: .kind)
    try c.encode(text(r.kept), forKey: .kept)
    try c.encode(text(r.other), forKey: .other)
    try c.encode(r.keptFrom.author, forKey: .keptBy)
    try c.encode(r.keptFrom.commit, forKey: .keptCommit)
    try c.encode(r.otherFrom.author, forKey: .otherBy)
    try c.encode(r.otherFrom.commit, forKey: .otherCommit)
  }
}
