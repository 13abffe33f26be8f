import Base
import FoundationEssentials
import Glibc

/// A folder's new version checked against its previous version, itself checked already.
///
/// A catch-up brings one version of a thousand-entry folder per commit, each differing from
/// the one before in an entry or two; checking every version entry by entry was most of the
/// incoming-tree check. A version is read whole only where it differs from the version before:
/// the entries it starts with and ends with, byte for byte, are the checked version's own
/// entries, in order and each named once; only the entries between them, and their neighbours
/// on each side, are read and judged, as `checkOrder` would.
extension Repository {
  /// What is known of a checked tree: where each of its entries starts.
  struct CheckedTree {
    var id: ObjectID
    var starts: [Int]
  }

  typealias ChangedEntry = (RawTreeEntry.Kind, ObjectID, ObjectID?, RawTreeEntry)

  /// Where each of a tree's entries starts, from its entries parsed in order.
  static func starts(of entries: [RawTreeEntry]) -> [Int] {
    var starts: [Int] = []
    starts.reserveCapacity(entries.count)
    var at = 0
    for entry in entries {
      starts.append(at)
      at = entry.end
    }
    return starts
  }

  /// `checkOrder` and `changedEntries` of the tree `new` against `old`, a tree checked before
  /// whose entries start at `oldStarts`: throws what `checkOrder` would, and returns where
  /// `new`'s entries start and the entries that differ from `old`'s.
  static func checkChanged(
    _ new: [UInt8], against old: [UInt8], oldStarts: [Int], path: String, commit: ObjectID
  ) throws -> (starts: [Int], changed: [ChangedEntry]) {
    var problem: String?
    var result: (starts: [Int], changed: [ChangedEntry]) = ([], [])
    try new.withUnsafeBufferPointer { (n) throws(GitError) in
      try old.withUnsafeBufferPointer { (o) throws(GitError) in
        let span = try changedSpan(n, o, oldStarts)
        let before = span.first > 0 ? try RawTreeEntry(n, at: span.starts[span.first - 1]) : nil
        let after = span.end < n.count ? try RawTreeEntry(n, at: span.end) : nil
        problem = judge(span.middle, between: before, and: after, in: n, starts: span.starts)
        if problem == nil {
          problem = linkProblem(span.middle, in: n, path: path)
        }
        guard problem == nil else { return }
        result = (span.starts, try diff(span.middle, in: n, against: span.oldMiddle, in: o))
      }
    }
    if let problem { throw IncomingTreeProblem(commit: commit, path: path, problem: problem) }
    return result
  }

  /// Where `n` differs from `o`: its entries' starts, and the entries between the whole
  /// entries both begin with (`first` of them) and the bytes both end with (from `end` in `n`;
  /// `oldMiddle`, the old entries that were there).
  private static func changedSpan(
    _ n: UnsafeBufferPointer<UInt8>, _ o: UnsafeBufferPointer<UInt8>, _ oldStarts: [Int]
  ) throws(GitError) -> (
    starts: [Int], first: Int, end: Int, middle: [RawTreeEntry], oldMiddle: [RawTreeEntry]
  ) {
    func oldEnd(_ i: Int) -> Int { i + 1 < oldStarts.count ? oldStarts[i + 1] : o.count }
    let prefix = RawTreeEntry.commonPrefix(n, o)
    // The old entries that end within the prefix are the new tree's first entries as well.
    var low = 0
    var high = oldStarts.count
    while low < high {
      let mid = (low + high) / 2
      if oldEnd(mid) <= prefix { low = mid + 1 } else { high = mid }
    }
    let first = low
    let from = first < oldStarts.count ? oldStarts[first] : o.count
    let suffix = RawTreeEntry.commonSuffix(n, o, from: from)
    let shift = n.count - o.count
    var middle: [RawTreeEntry] = []
    var middleStarts: [Int] = []
    var x = from
    var k = first
    // NB: the middle ends at a new entry whose bytes to the end are the old tree's, from one
    // of its entries: from there on the entries are the old ones, moved by `shift`.
    while true {
      if n.count - x <= suffix {
        while k < oldStarts.count && oldStarts[k] < x - shift { k += 1 }
        if k < oldStarts.count ? oldStarts[k] == x - shift : x - shift == o.count { break }
      }
      let entry = try RawTreeEntry(n, at: x)
      middle.append(entry)
      middleStarts.append(x)
      x = entry.end
    }
    var oldMiddle: [RawTreeEntry] = []
    for i in first..<k { oldMiddle.append(try RawTreeEntry(o, at: oldStarts[i])) }
    let starts = Array(oldStarts[..<first]) + middleStarts + oldStarts[k...].map { $0 + shift }
    return (starts, first, x, middle, oldMiddle)
  }

  /// The problem `checkOrder` would find among the middle entries: out of order or named
  /// twice with their neighbours, or a file and a folder of one name anywhere in the tree.
  private static func judge(
    _ middle: [RawTreeEntry], between before: RawTreeEntry?, and after: RawTreeEntry?,
    in n: UnsafeBufferPointer<UInt8>, starts: [Int]
  ) -> String? {
    for entry in middle {
      if let bad = badName(UnsafeBufferPointer(rebasing: n[entry.nameStart..<entry.nameEnd])) {
        return bad
      }
    }
    let chain = (before.map { [$0] } ?? []) + middle + (after.map { [$0] } ?? [])
    for (u, v) in zip(chain, chain.dropFirst()) {
      let order = RawTreeEntry.order(u, in: n, v, in: n)
      if order > 0 { return "a tree whose entries are not in git's order (treeNotSorted)" }
      if order == 0 { return twice(v, in: n) }
    }
    // NB: the same name twice is next to itself in git's order, except a file and a folder
    // (which sorts as `name/`): each middle entry's other kind is looked up in the tree (no
    // name holds a '/', so git's order is a total one and the search finds it).
    for entry in middle {
      var other = entry
      other.kind = entry.kind == .tree ? .blob : .tree
      var low = 0
      var high = starts.count
      while low < high {
        let mid = (low + high) / 2
        guard let probe = try? RawTreeEntry(n, at: starts[mid]) else { return twice(entry, in: n) }
        if RawTreeEntry.order(probe, in: n, other, in: n) < 0 { low = mid + 1 } else { high = mid }
      }
      if low < starts.count, let probe = try? RawTreeEntry(n, at: starts[low]),
        RawTreeEntry.order(probe, in: n, other, in: n) == 0
      {
        return twice(entry, in: n)
      }
    }
    return nil
  }

  private static func twice(_ entry: RawTreeEntry, in n: UnsafeBufferPointer<UInt8>) -> String {
    "two entries named '\(entry.name(in: n))' (duplicateEntries)"
  }

  /// A symbolic link among the middle entries where dinger keeps a folder of its own.
  private static func linkProblem(
    _ middle: [RawTreeEntry], in n: UnsafeBufferPointer<UInt8>, path: String
  ) -> String? {
    for entry in middle where entry.isLink {
      let full = (path.isEmpty ? "" : path + "/") + entry.name(in: n)
      if dingersFolders.contains(full) || full.hasPrefix(".dinger/") {
        return "a symbolic link where dinger keeps its own folder ('\(full)')"
      }
    }
    return nil
  }

  /// The middle entries that differ from the old middle's, each with the old id of a same-kind
  /// entry of that name (as `changedEntries`).
  private static func diff(
    _ middle: [RawTreeEntry], in n: UnsafeBufferPointer<UInt8>, against old: [RawTreeEntry],
    in o: UnsafeBufferPointer<UInt8>
  ) throws(GitError) -> [ChangedEntry] {
    var changed: [ChangedEntry] = []
    var j = 0
    for entry in middle {
      while j < old.count && RawTreeEntry.order(entry, in: n, old[j], in: o) > 0 { j += 1 }
      let same =
        j < old.count && RawTreeEntry.order(entry, in: n, old[j], in: o) == 0 ? old[j] : nil
      if let same,
        memcmp(n.baseAddress! + entry.nameEnd + 1, o.baseAddress! + same.nameEnd + 1, 20) == 0
      {
        continue
      }
      changed.append(
        (
          entry.kind, entry.id(in: n), same.flatMap { $0.kind == entry.kind ? $0.id(in: o) : nil },
          entry
        ))
    }
    return changed
  }
}
