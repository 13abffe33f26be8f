import Foundation

/// What the team simulation knows of the data: every acknowledged change as a value of one
/// flattened key (`<id>/length`, `<id>/attendee:Ada`, `<id>/path`, `meeting:<file>/exists`),
/// and which of them a later change by someone who had seen it replaced.
///
/// The invariant it checks after the clones converge: every key's final value is the value of
/// each change to it that nobody replaced knowingly; where two such changes disagree (made
/// without seeing each other), the ones not kept are named by a conflict record.
struct SimulationLedger {
  /// One acknowledged change.
  struct Write {
    var key: String
    /// The value after the change; `absent` when it removed the key.
    var value: String
    var member: String
    var step: Int
    /// The commit that made it (HEAD after the command).
    var commit: String
    var superseded = false
  }

  static let absent = "(absent)"

  private(set) var writes: [Write] = []
  /// Records (ids) a step broke on purpose, or that lived in a file a step broke: their keys are
  /// not accounted for (check names them instead).
  var exempt: Set<String> = []

  /// Records the differences between two snapshots of one clone as changes by `member`.
  /// `knows` tells whether a commit is in that member's history (before the change).
  /// `asserts` false: the step put back what a step of its own had changed (`undo`, `redo`):
  /// it replaces what it undoes, but git sees no change of its own against a teammate's, so a
  /// teammate's edit made meanwhile may win (seed 9201: an undone removal against an edit).
  mutating func record(
    before: [String: String], after: [String: String], member: String, step: Int, commit: String,
    asserts: Bool = true, knows: (String) -> Bool
  ) {
    for key in Set(before.keys).union(after.keys).sorted() {
      let (old, new) = (before[key] ?? Self.absent, after[key] ?? Self.absent)
      guard old != new, !exempt.contains(Self.record(of: key)) else { continue }
      for i in writes.indices where writes[i].key == key && !writes[i].superseded {
        if knows(writes[i].commit) { writes[i].superseded = true }
      }
      writes.append(
        Write(
          key: key, value: new, member: member, step: step, commit: commit, superseded: !asserts))
    }
  }

  /// Marks every change to `record` made so far as replaced: a person settled it knowingly
  /// (a conflict resolved with its two values in view).
  mutating func settle(record: String) {
    for i in writes.indices where Self.record(of: writes[i].key) == record {
      writes[i].superseded = true
    }
  }

  /// Marks the changes to one key made so far as replaced by what the system did knowingly and
  /// said (a sync that moved a twin scrum to a free name says so).
  mutating func supersede(key: String) {
    for i in writes.indices where writes[i].key == key { writes[i].superseded = true }
  }

  /// The record a key belongs to (the part before `/`).
  static func record(of key: String) -> String {
    String(key.split(separator: "/", maxSplits: 1).first ?? "")
  }

  /// The ledger's record of a meeting or stand-up entry file (by file name; an entry's has a
  /// `standup-` prefix, as snapshots key it).
  static func fileRecord(_ path: String) -> String {
    let name = path.split(separator: "/").last.map(String.init) ?? ""
    return path.hasPrefix("standups/") ? "meeting:standup-\(name)" : "meeting:\(name)"
  }

  /// The acknowledged changes missing from `final` that no conflict record names: each as a
  /// line for the failure message.
  func lost(in final: [String: String], conflicted: Set<String>) -> [String] {
    var out: [String] = []
    for write in writes where !write.superseded && !exempt.contains(Self.record(of: write.key)) {
      let now = final[write.key] ?? Self.absent
      guard now != write.value else { continue }
      if conflicted.contains(Self.record(of: write.key)) { continue }
      // NB: a meeting or word of a record removed later by someone who had seen it goes with it.
      out.append(
        "step \(write.step): \(write.member) set \(write.key) = \(write.value) (commit \(write.commit.prefix(8))); after convergence it is \(now), and no conflict record names it"
      )
    }
    return out
  }
}
