import Base
import FoundationEssentials
import Git
import Glibc
import Models
import Storage
import YAML

/// Merges `theirs` into `ours` file by file: a file only theirs changed is taken as is; a file
/// both changed (or both added) goes through `RecordMerger`; a file deleted on one side and
/// changed on the other keeps the changed version. Every value not kept becomes a conflict
/// record. The result is a `Change` ready to commit with two parents.
public struct TreeMerger {
  let git: Repository

  /// What a merge produced.
  public struct Plan: Sendable {
    /// Files written and removed (relative to ours), conflict records included.
    public var change: Change
    /// How many files came from theirs unchanged, and how many were merged record by record.
    public var taken: Int
    public var merged: Int
    /// The conflicts recorded.
    public var conflicts: [ConflictRecord]
    /// What the merge did that a person should know (`MoveReconciliation.notes`).
    public var notes: [String] = []
  }

  /// Reads the files taken as they came: a pack read of its own, without libgit2's object
  /// machinery, for a catch-up's 20,000 (28 -> 17 ms).
  private let reader: ObjectReader

  public init(_ git: Repository) {
    self.git = git
    reader = ObjectReader(git)
  }

  /// The merge of `theirs` into `ours` (their common ancestor `base`), not yet committed.
  public func plan(base: ObjectID?, ours: ObjectID, theirs: ObjectID, subject: String) throws
    -> Plan
  {
    // NB: records are matched by id, not path: a file one side moved is merged where it went.
    let considered = try git.filesToMerge(base: base, ours: ours, theirs: theirs)
    let moves = try MoveReconciliation(
      git, files: considered, base: base, ours: ours, theirs: theirs)
    let files = moves.files.values.sorted { $0.path < $1.path }
    var change = Change(subject: subject, trailers: [("Dinger-Action", "sync.merge")])
    change.merging = (theirs, ours)
    // NB: room for every file up front (a catch-up's 20,000 grew each table a dozen times).
    change.writes.reserveCapacity(files.count)
    change.knownBlobs.reserveCapacity(files.count)
    change.modes.reserveCapacity(files.count)
    var taken = 0
    var merged = 0
    var pending: [Pending] = moves.conflicts
    for (path, blob) in moves.restoredParents {
      change.writes[path] = try git.blob(blob)
      change.knownBlobs[path] = blob
    }
    for (from, to, blob) in moves.oursMoved {
      change.remove(from)
      change.writes[to] = try git.blob(blob)
      change.knownBlobs[to] = blob
    }
    for file in files {
      if file.ours == file.base {
        taken += 1
        try take(file, into: &change)
      } else {
        merged += 1
        try merge(file, movedFrom: moves.oursElsewhere[file.path], into: &change, &pending)
      }
    }
    try foldSecondCopies(&change, &pending, tip: ours, known: ours)
    let conflicts = try record(pending, in: &change, stop: base, ours: ours, theirs: theirs)
    if !conflicts.isEmpty {
      change.body =
        "Kept one value for each of \(conflicts.count) field(s) both sides changed; the others are in \(ConflictRecord.folder)/ (see 'dinger conflicts')."
    }
    change.differsFromMerged = try differences(
      of: change, theirs: considered, moved: files, base: base, ours: ours)
    return Plan(
      change: change, taken: taken, merged: merged, conflicts: conflicts, notes: moves.notes)
  }

  /// The paths at which the merge `change` makes of ours may differ from theirs, sorted; nil
  /// without an ancestor. `considered`: the files theirs changed, as its tree holds them;
  /// `moved`: the same where moves took them. Any other path is as the ancestor has it on both
  /// sides, or as theirs and ours both have it, or ours changed it alone; of the files the
  /// change writes, those written exactly as theirs' tree holds them are left out.
  // NB: a catch-up takes 20,000 files as they came: ours and 20,000 updates built the tree
  // (0.08 s), theirs and the one file ours changed builds the same.
  private func differences(
    of change: Change, theirs considered: [ThreeWayFile], moved: [ThreeWayFile], base: ObjectID?,
    ours: ObjectID
  ) throws -> [String]? {
    guard let base else { return nil }
    var paths = Set(change.writes.keys).union(change.removals)
    for file in considered + moved { paths.insert(file.path) }
    for file in try git.filesChanged(from: base, to: ours) { paths.insert(file.path) }
    // NB: only `filesToMerge`'s own entries say what theirs' tree holds; a moved record's
    // entry carries a blob from another path.
    for file in considered {
      let asTheirs =
        file.theirs == nil
        ? change.removals.contains(file.path) && change.writes[file.path] == nil
        : change.knownBlobs[file.path] == file.theirs && change.writes[file.path] != nil
          && change.modes[file.path] == file.theirsMode
      if asTheirs { paths.remove(file.path) }
    }
    return paths.sorted()
  }

  /// A file only theirs changed: taken as theirs (a mode only ours changed stays ours).
  private func take(_ file: ThreeWayFile, into change: inout Change) throws {
    guard let blob = file.theirs else {
      change.remove(file.path)
      return
    }
    change.writes[file.path] = try reader.blob(blob)
    change.knownBlobs[file.path] = blob
    change.modes[file.path] =
      file.theirsMode == file.baseMode && file.oursMode != 0 ? file.oursMode : file.theirsMode
  }

  /// A file both sides changed: a removal against a change keeps the change (and records the
  /// removal), two changes are merged record by record. `movedFrom`: ours' path of a record
  /// theirs moved, removed when the merge is written at their path.
  private func merge(
    _ file: ThreeWayFile, movedFrom old: String?, into change: inout Change,
    _ pending: inout [Pending]
  ) throws {
    switch (file.ours, file.theirs) {
    case (let o?, nil):
      // Theirs deleted what ours changed: keep ours.
      let node = RecordMerger.parse(try git.blob(o))
      pending.append(
        (
          file.path, RecordMerger.id(node),
          FieldConflict(
            path: FieldPath(), kind: .delete, kept: node ?? .scalar(""), other: nil,
            keptSide: .ours), file.path
        ))
    case (nil, let t?):
      // Ours deleted what theirs changed: keep theirs.
      let bytes = try git.blob(t)
      let node = RecordMerger.parse(bytes)
      change.writes[file.path] = bytes
      change.knownBlobs[file.path] = t
      change.modes[file.path] = file.theirsMode
      pending.append(
        (
          file.path, RecordMerger.id(node),
          FieldConflict(
            path: FieldPath(), kind: .delete, kept: node ?? .scalar(""), other: nil,
            keptSide: .theirs), file.path
        ))
    case (let o?, let t?):
      let oursBytes = try git.blob(o)
      let result = RecordMerger.merge(
        base: try file.base.map { b throws(GitError) in try git.blob(b) }, ours: oursBytes,
        theirs: try git.blob(t), path: file.path)
      if result.bytes != oursBytes { change.writes[file.path] = result.bytes }
      // NB: a mode only theirs changed (the executable bit) is theirs; else ours stays.
      if file.theirsMode != file.baseMode && file.theirsMode != file.oursMode {
        change.writes[file.path] = result.bytes
        change.modes[file.path] = file.theirsMode
      }
      if let old {
        // NB: theirs moved what ours changed: the merge lives at their path only.
        change.writes[file.path] = result.bytes
        change.remove(old)
      }
      pending += result.conflicts.map { (file.path, result.recordID, $0, file.path) }
    case (nil, nil):
      return
    }
  }

  typealias Pending = (file: String, record: String?, conflict: FieldConflict, theirsFile: String)

  /// The conflict records for what a merge did not keep, written into the change.
  private func record(
    _ pending: [Pending], in change: inout Change, stop: ObjectID?, ours: ObjectID,
    theirs: ObjectID
  ) throws -> [ConflictRecord] {
    var conflicts: [ConflictRecord] = []
    var finder = Attribution(git: git, stop: stop)
    for item in pending {
      let o = try finder.origin(.ours, file: item.file, field: item.conflict.path, from: ours)
      let t = try finder.origin(
        .theirs, file: item.theirsFile, field: item.conflict.path, from: theirs)
      let keptOurs = item.conflict.keptSide == .ours
      let record = ConflictRecord(
        file: item.file, record: item.record, conflict: item.conflict,
        keptFrom: keptOurs ? o : t, otherFrom: keptOurs ? t : o)
      change.write(record.storedPath, record.text)
      conflicts.append(record)
    }
    return conflicts
  }

  /// After a fast-forward from `before` to `tip`, the fold a merge does (`foldSecondCopies`), as
  /// a commit of its own; nil when the records arrived one file each.
  public func foldAfterFastForward(from before: ObjectID, to tip: ObjectID) throws -> Plan? {
    var change = Change(
      subject: "Keep one file per record", trailers: [("Dinger-Action", "sync.fold")])
    var pending: [Pending] = []
    try foldSecondCopies(&change, &pending, tip: tip, known: before)
    guard !pending.isEmpty else { return nil }
    let conflicts = try record(pending, in: &change, stop: before, ours: tip, theirs: tip)
    change.body =
      "A record arrived in two files; the second is in \(ConflictRecord.folder)/ (see 'dinger conflicts')."
    return Plan(change: change, taken: 0, merged: 0, conflicts: conflicts)
  }

  /// A scrum or library the result would hold in two files (one id at two paths) is held once:
  /// the file `known` did not have goes, and its text is kept whole as a conflict on the record
  /// where it was (`resolve --theirs` writes it there). The result is `tip` with `change`. A
  /// plain-git teammate makes such a pair when git's modify/delete keeps his edit of a file the
  /// record had moved out of (seed 9301: sync spread two files with one id to every clone).
  /// Files are read only when a scrum or library file arrives at a path `known` lacks.
  private func foldSecondCopies(
    _ change: inout Change, _ pending: inout [Pending], tip: ObjectID, known: ObjectID
  ) throws {
    let folders = ["scrums", "libraries"]
    func names(_ commit: ObjectID) throws -> Set<String> {
      var all: Set<String> = []
      for folder in folders {
        for name in try git.names(in: folder, of: commit) { all.insert("\(folder)/\(name)") }
      }
      return all
    }
    func isParent(_ path: String) -> Bool {
      let kind = RecordLayout.kind(ofPath: path)
      return (kind == .scrum || kind == .library) && path.split(separator: "/").count == 2
    }
    let held = try names(known)
    let result = try (tip == known ? held : names(tip)).subtracting(change.removals).union(
      change.writes.keys.filter(isParent))
    let arriving = result.filter { isParent($0) && !held.contains($0) }.sorted()
    guard !arriving.isEmpty else { return }
    func bytes(_ path: String) throws -> [UInt8]? {
      if let written = change.writes[path] { return written }
      guard !change.removals.contains(path), let blob = try git.blobID(at: path, in: tip) else {
        return nil
      }
      return try git.blob(blob)
    }
    var holder: [String: String] = [:]
    for path in result.intersection(held).sorted() where isParent(path) {
      if let text = try bytes(path), let id = RecordMoves.id(text), holder[id] == nil {
        holder[id] = path
      }
    }
    for path in arriving {
      guard let text = try bytes(path), let id = RecordMoves.id(text) else { continue }
      guard let home = holder[id], let kept = try bytes(home) else {
        holder[id] = path
        continue
      }
      if change.writes[path] != nil {
        change.writes[path] = nil
        change.knownBlobs[path] = nil
        change.modes[path] = nil
      } else {
        change.remove(path)
      }
      pending.removeAll { $0.file == path }
      pending.append(
        (
          home, id,
          FieldConflict(
            path: FieldPath(), kind: .edit,
            kept: RecordMerger.parse(kept) ?? RecordMerger.textNode(kept),
            other: RecordMerger.parse(text) ?? RecordMerger.textNode(text), keptSide: .ours),
          path
        ))
    }
  }
}

/// Finds who wrote a field's value: walks back from a side's tip while a parent holds the same
/// value (following the parent it came from through merges), and names the commit that set it.
struct Attribution {
  let git: Repository
  let stop: ObjectID?
  private var parsed: [ObjectID: Node?] = [:]

  init(git: Repository, stop: ObjectID?) {
    self.git = git
    self.stop = stop
  }

  mutating func origin(_ side: Side, file: String, field: FieldPath, from tip: ObjectID) throws
    -> ConflictRecord.Origin
  {
    var cursor = tip
    for _ in 0..<100_000 {
      let info = try git.commitInfo(cursor)
      let blob = try git.blobID(at: file, in: cursor)
      var next: ObjectID?
      for parent in info.parents where parent != stop {
        let other = try git.blobID(at: file, in: parent)
        if other == blob {
          next = parent
          break
        }
        if let a = try value(other, field), let b = try value(blob, field), same(a, b) {
          next = parent
          break
        }
      }
      guard let next else {
        return ConflictRecord.Origin(
          side: side, author: "\(info.author.name) <\(info.author.email)>", commit: cursor.hex)
      }
      cursor = next
    }
    return ConflictRecord.Origin(side: side, author: "unknown", commit: tip.hex)
  }

  private func same(_ a: Node?, _ b: Node?) -> Bool {
    switch (a, b) {
    case (nil, nil): return true
    case (let x?, let y?): return NodeWriter.same(x, y)
    default: return false
    }
  }

  /// The value at `field` in a blob (nil inside means absent); cached per blob.
  private mutating func value(_ blob: ObjectID?, _ field: FieldPath) throws -> Node?? {
    guard let blob else { return .some(nil) }
    if parsed[blob] == nil { parsed[blob] = RecordMerger.parse(try git.blob(blob)) }
    guard let root = parsed[blob]! else { return .some(nil) }
    return .some(NodeEditor.get(root, at: field.segments[...]))
  }
}
