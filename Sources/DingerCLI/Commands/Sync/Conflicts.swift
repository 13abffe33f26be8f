import ArgumentParser
import Base
import Components
import FoundationEssentials
import Glibc
import Models
import Providers

/// `dinger conflicts`: the values a sync could not place.
struct Conflicts: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "conflicts",
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
        let note =
          r.kind == "rename"
          ? "  (moved to a different place on each side)"
          : r.deleted ? "  (deleted on one side, changed on the other)" : ""
        let (kept, other) = (
          Self.value(r.kept, yaml: r.keptYAML), Self.value(r.other, yaml: r.otherYAML)
        )
        Terminal.output(
          """
          \(r.shortID)  \(r.file)  \(r.field)\(note)
            kept:  \(kept.line)  (\(r.keptBy), \(r.keptCommit.prefix(7)))\(kept.block)
            other: \(other.line)  (\(r.otherBy), \(r.otherCommit.prefix(7)))\(other.block)

          """)
      }
      Terminal.output(
        "settle one with 'dinger resolve ID --ours' (keep), '--theirs' (take the other) or '--value V'\n"
      )
    }
  }
}

extension Conflicts {
  /// A value as the listing shows it: one line when it fits, else (a whole record) its YAML
  /// indented under the label, at most 12 lines.
  static func value(_ short: String, yaml: String?) -> (line: String, block: String) {
    guard let yaml, yaml.contains("\n") else { return (short, "") }
    let lines = yaml.split(separator: "\n", omittingEmptySubsequences: false)
    var shown = lines.prefix(12).map { "\n      " + $0 }.joined()
    if lines.count > 12 { shown += "\n      ... (\(lines.count - 12) more lines)" }
    return ("(whole record)", shown)
  }
}

/// `dinger resolve ID --ours|--theirs|--value V`.
struct Resolve: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "resolve",
    abstract: "Settle a recorded conflict, as a commit.",
    discussion: """
      --ours keeps the value now in the data; --theirs takes the other value (or applies the \
      other side's deletion, a scrum's meetings going with it; or, for a file each side moved \
      to another name, moves it and its meetings to the other side's name); --value sets a new \
      one (YAML: 15, Grace, "[a, b]"). The record is validated like any edit; the conflict \
      record, and any other record of the same field, is removed in the same commit.

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
      let choice: ConflictChoice = ours ? .kept : theirs ? .other : .value(value ?? "")
      let provider = SyncProvider.live(repository: repository)
      let record = try provider.resolve(id, choice)
      Terminal.output("resolved \(record.shortID): \(record.file) \(record.field)\n")
      let left = provider.conflictCount()
      if left > 0 { Terminal.output("\(left) conflict\(left == 1 ? "" : "s") left\n") }
    }
  }
}

/// A conflict record as `conflicts --json` shows it (absent values as null).
private struct ConflictJSON: Encodable {
  let info: ConflictInfo

  init(_ info: ConflictInfo) { self.info = info }

  enum Keys: String, CodingKey {
    case id, file, record, field, kind, kept, other, keptBy, keptCommit, otherBy, otherCommit
  }

  func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: Keys.self)
    let r = info
    try c.encode(r.id, forKey: .id)
    try c.encode(r.file, forKey: .file)
    try c.encode(r.record, forKey: .record)
    try c.encode(r.field, forKey: .field)
    try c.encode(r.kind, forKey: .kind)
    try c.encode(r.keptYAML, forKey: .kept)
    try c.encode(r.otherYAML, forKey: .other)
    try c.encode(r.keptBy, forKey: .keptBy)
    try c.encode(r.keptCommit, forKey: .keptCommit)
    try c.encode(r.otherBy, forKey: .otherBy)
    try c.encode(r.otherCommit, forKey: .otherCommit)
  }
}
