import Foundation
import TestSupport
import Testing

@testable import Git

/// A folder's version checked against the version before it (`checkChanged`) judges exactly as
/// the whole check (`checkOrder` and `changedEntries`): random trees, changed at random, many
/// of them broken (entries swapped, a name twice, a file and a folder of one name, a link
/// where dinger keeps a folder, a name no folder can hold). Seeds are printed to be replayed.
@Suite struct IncomingTreeCheckTests {
  struct Entry {
    var mode: String
    var name: [UInt8]
    var id: [UInt8]
    var isTree: Bool { mode == "40000" }
    var key: [UInt8] { name + (isTree ? [UInt8(ascii: "/")] : []) }
  }

  static let names = [
    "a", "a-b", "a.b", "a0", "ab", "b", "b-", "b.", "scrums", ".dinger", "Z", "é", "a/b", "..",
  ]
  static let modes = [
    "100644", "100644", "100644", "100755", "40000", "40000", "120000", "0120000", "160000",
  ]

  static func raw(_ entries: [Entry]) -> [UInt8] {
    var out: [UInt8] = []
    for entry in entries {
      out += Array(entry.mode.utf8)
      out.append(0x20)
      out += entry.name
      out.append(0)
      out += entry.id
    }
    return out
  }

  static func sorted(_ entries: [Entry]) -> [Entry] {
    entries.sorted { $0.key.lexicographicallyPrecedes($1.key) }
  }

  /// A valid tree: each name once, in git's order.
  static func tree(_ rng: inout SeededGenerator) -> [Entry] {
    var byName: [[UInt8]: Entry] = [:]
    for _ in 0..<Int.random(in: 0...40, using: &rng) {
      let name = Array(names.randomElement(using: &rng)!.utf8) + suffix(&rng)
      byName[name] = Entry(
        mode: modes.randomElement(using: &rng)!, name: name, id: id(&rng))
    }
    return sorted(Array(byName.values))
  }

  static func suffix(_ rng: inout SeededGenerator) -> [UInt8] {
    Bool.random(using: &rng) ? [] : Array(String(Int.random(in: 0..<6, using: &rng)).utf8)
  }

  static func id(_ rng: inout SeededGenerator) -> [UInt8] {
    (0..<20).map { _ in UInt8.random(in: 0...255, using: &rng) }
  }

  /// `old` changed a few times, sometimes into a broken tree.
  static func change(_ old: [Entry], _ rng: inout SeededGenerator) -> [Entry] {
    var new = old
    for _ in 0..<Int.random(in: 1...3, using: &rng) {
      let at = new.isEmpty ? 0 : Int.random(in: 0..<new.count, using: &rng)
      switch Int.random(in: 0..<9, using: &rng) {
      case 0 where !new.isEmpty: new.remove(at: at)
      case 1 where !new.isEmpty: new[at].id = id(&rng)
      case 2 where !new.isEmpty: new[at].mode = modes.randomElement(using: &rng)!
      case 3 where at + 1 < new.count: new.swapAt(at, at + 1)
      case 4 where !new.isEmpty: new.insert(new[at], at: at)
      case 5 where !new.isEmpty:
        // The same name as the other kind, in its sorted place or not.
        var other = new[at]
        other.mode = other.isTree ? "100644" : "40000"
        new.append(other)
        if Bool.random(using: &rng) { new = sorted(new) }
      default:
        let name = Array(names.randomElement(using: &rng)!.utf8) + suffix(&rng)
        if !new.contains(where: { $0.name == name }) {
          new = sorted(
            new + [Entry(mode: modes.randomElement(using: &rng)!, name: name, id: id(&rng))])
        }
      }
    }
    return new
  }

  /// What `make fuzz` found: a file `a/b` after a file `a` passed the whole check (in git's
  /// order) and failed the changed one (`a/b` compares equal to a folder `a`). A name with a
  /// '/' is refused by both, as git fsck does (`fullPathname`).
  @Test func aNameWithASlashIsRefusedByBothChecks() throws {
    let commit = ObjectID(hex: String(repeating: "12", count: 20))!
    let old = Self.raw([
      Entry(mode: "100644", name: Array("a".utf8), id: Array(repeating: 1, count: 20)),
      Entry(mode: "40000", name: Array("b".utf8), id: Array(repeating: 2, count: 20)),
    ])
    let new = Self.raw([
      Entry(mode: "100644", name: Array("a".utf8), id: Array(repeating: 1, count: 20)),
      Entry(mode: "100644", name: Array("a/b".utf8), id: Array(repeating: 3, count: 20)),
    ])
    var scratch: [RawTreeEntry] = []
    #expect(throws: IncomingTreeProblem.self) {
      try Repository.checkOrder(new, path: "", commit: commit, scratch: &scratch)
    }
    let problem = #expect(throws: IncomingTreeProblem.self) {
      try Repository.checkChanged(new, against: old, oldStarts: [0, 29], path: "", commit: commit)
    }
    #expect(problem?.description.contains("(fullPathname)") == true)
  }

  /// Also found by `make fuzz`: a link named `scrums` with a zero-padded mode ("0120000", a
  /// link to git) passed the whole check, which compared the mode's text.
  @Test func aZeroPaddedLinkWhereDingerKeepsAFolderIsRefused() throws {
    let commit = ObjectID(hex: String(repeating: "12", count: 20))!
    let tree = Self.raw([
      Entry(mode: "0120000", name: Array("scrums".utf8), id: Array(repeating: 1, count: 20))
    ])
    var scratch: [RawTreeEntry] = []
    let problem = #expect(throws: IncomingTreeProblem.self) {
      try Repository.checkOrder(tree, path: "", commit: commit, scratch: &scratch)
    }
    #expect(problem?.description.contains("a symbolic link where dinger keeps") == true)
  }

  @Test(arguments: [1, 2, 3, 4] as [UInt64])
  func aVersionCheckedAgainstTheOneBeforeIsJudgedAsAWholeCheck(seed: UInt64) throws {
    var rng = SeededGenerator(seed: seed)
    let commit = ObjectID(hex: String(repeating: "12", count: 20))!
    var broken = 0
    for round in 0..<3000 {
      let oldEntries = Self.tree(&rng)
      let old = Self.raw(oldEntries)
      let path = Bool.random(using: &rng) ? "" : "history"
      var scratch: [RawTreeEntry] = []
      // The old version must pass the whole check to count as checked.
      guard (try? Repository.checkOrder(old, path: path, commit: commit, scratch: &scratch)) != nil
      else { continue }
      let starts = Repository.starts(of: scratch)
      let new = Self.raw(Self.change(oldEntries, &rng))
      var wholeScratch: [RawTreeEntry] = []
      let whole = Result {
        try Repository.checkOrder(new, path: path, commit: commit, scratch: &wholeScratch)
        return try Repository.changedEntries(new, parsed: wholeScratch, against: old)
      }
      let changed = Result {
        try Repository.checkChanged(
          new, against: old, oldStarts: starts, path: path, commit: commit)
      }
      let context = "seed \(seed) round \(round): \(new) against \(old)"
      switch (whole, changed) {
      case (.success(let a), .success(let b)):
        #expect(
          a.map { "\($0.0) \($0.1) \(String(describing: $0.2)) \($0.3.nameStart)" }
            == b.changed.map { "\($0.0) \($0.1) \(String(describing: $0.2)) \($0.3.nameStart)" },
          "\(context)")
        #expect(Repository.starts(of: wholeScratch) == b.starts, "\(context)")
      case (.failure(let a), .failure(let b)):
        broken += 1
        #expect(a is IncomingTreeProblem && b is IncomingTreeProblem, "\(a) \(b) \(context)")
      default:
        Issue.record("the whole check says \(whole), the changed one \(changed); \(context)")
        return
      }
    }
    // NB: the changes break a good share of the trees, so both verdicts are exercised.
    #expect(broken > 150, "seed \(seed): only \(broken) broken trees")
  }
}
