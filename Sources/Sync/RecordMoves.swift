import Base
import Git
import Models
import Storage
import YAML

/// How one side of a merge moved record files since the common ancestor: a record is its `id`,
/// so a file removed from one path and a file with the same id added at another is a move
/// (dinger's `scrum rename`, `library rename`, or a teammate's `git mv`), whatever else changed
/// in it.
struct RecordMoves {
  /// Ancestor path -> this side's path, for each moved record file.
  var moved: [String: String] = [:]
  /// Ancestor paths this side removed (and did not move).
  var removed: Set<String> = []
  /// The ids of the scrums and libraries this side removed (and did not move), with their paths.
  var removedParents: [String: String] = [:]
  /// Record files this side added that are not moves, with their blobs.
  var added: [String: ObjectID] = [:]
  /// The meeting and quiz folders that moved with a scrum or library
  /// (`history/design` -> `history/design-review`).
  var folders: [String: String] = [:]
  /// Scrum and library paths where this side has another record than the ancestor had (a twin
  /// separated into `infra-2.yaml` and another `Infra` at `infra.yaml`): the ancestor's record
  /// was removed or moved from there, and this side's is added there (seed 31337).
  var replaced: Set<String> = []

  /// The moves from `base` to `tip`; none without a common ancestor.
  init(_ git: Repository, base: ObjectID?, tip: ObjectID) throws {
    guard let base else { return }
    var gone: [String: ObjectID] = [:]
    var new: [String: ObjectID] = [:]
    for file in try git.filesChanged(from: base, to: tip) {
      guard let kind = RecordLayout.kind(ofPath: file.path), kind != .config else { continue }
      switch (file.base, file.theirs) {
      case (let old?, nil): gone[file.path] = old
      case (nil, let blob?): new[file.path] = blob
      case (let old?, let blob?) where kind == .scrum || kind == .library:
        // NB: the id line is read first (a library may be 64 MB); a file without one is parsed.
        guard let was = try Self.quickID(git.blob(old)), let now = try Self.quickID(git.blob(blob)),
          was != now
        else { continue }
        gone[file.path] = old
        new[file.path] = blob
        replaced.insert(file.path)
      default: continue
      }
    }
    added = new
    removed = Set(gone.keys)
    defer {
      // NB: a path holding another record now is not a removed parent to bring back there.
      for path in removed where !replaced.contains(path) {
        let kind = RecordLayout.kind(ofPath: path)
        guard kind == .scrum || kind == .library, let blob = gone[path],
          let id = try? Self.id(git.blob(blob))
        else { continue }
        removedParents[id] = path
      }
    }
    guard !gone.isEmpty, !new.isEmpty else { return }
    try pairByID(git, gone: gone, new: new)
    try pairEntries(git, gone: gone, new: new)
    try findMovedFolders(git, tip: tip)
  }

  /// A record removed at one path and added at another with the same id (and kind) moved.
  /// Only files removed on this side are parsed for their ids, and files added only when
  /// something was removed: a merge that moved nothing reads nothing more.
  private mutating func pairByID(
    _ git: Repository, gone: [String: ObjectID], new: [String: ObjectID]
  ) throws {
    var byID: [String: String] = [:]
    for (path, blob) in gone {
      if let id = Self.id(try git.blob(blob)) { byID[id] = path }
    }
    for (path, blob) in new.sorted(by: { $0.key < $1.key }) {
      guard let id = Self.id(try git.blob(blob)), let from = byID[id],
        RecordLayout.kind(ofPath: from) == RecordLayout.kind(ofPath: path), moved[from] == nil
      else { continue }
      moved[from] = path
      removed.remove(from)
      added[path] = nil
    }
  }

  /// Written stand-up entries that moved with their scrum. An entry has no id: it is its scrum
  /// and its file name (`<day>-<person>.yaml`), so one moved with its scrum is found by that name
  /// in the new folder, from the old folder or from any folder naming the same scrum (a
  /// teammate's `git mv` of the scrum file alone leaves its entries in a folder of another
  /// name, seed 9300). Indexed once: gone entries by file name, arrived entries by folder, and
  /// each file's scrum read at most once, so a push of many folders costs no more than their
  /// entries.
  private mutating func pairEntries(
    _ git: Repository, gone: [String: ObjectID], new: [String: ObjectID]
  ) throws {
    var goneByName: [Substring: [String]] = [:]
    for path in gone.keys.sorted() where path.hasPrefix("standups/") {
      let parts = path.split(separator: "/")
      if parts.count == 3 { goneByName[parts[2], default: []].append(path) }
    }
    var arrivedByFolder: [Substring: [Substring]] = [:]
    for path in added.keys where path.hasPrefix("standups/") {
      let parts = path.split(separator: "/")
      if parts.count == 3 { arrivedByFolder[parts[1], default: []].append(parts[2]) }
    }
    var scrums: [ObjectID: String?] = [:]
    func scrumOf(_ blob: ObjectID) throws -> String? {
      if let known = scrums[blob] { return known }
      let found = Self.scrumOf(try git.blob(blob))
      scrums[blob] = found
      return found
    }
    for (from, to) in moved.sorted(by: { $0.key < $1.key })
    where RecordLayout.kind(ofPath: from) == .scrum {
      let oldFolder = "standups/\(RecordLayout.slug(ofPath: from))/"
      let newSlug = RecordLayout.slug(ofPath: to)
      var scrum: String??
      for name in arrivedByFolder[Substring(newSlug)]?.sorted() ?? [] {
        let there = "standups/\(newSlug)/\(name)"
        guard let arrived = added[there] else { continue }
        for path in goneByName[name] ?? [] where moved[path] == nil {
          if !path.hasPrefix(oldFolder) {
            if scrum == nil { scrum = .some(try new[to].flatMap { Self.id(try git.blob($0)) }) }
            guard let id = scrum ?? nil, let was = gone[path], try scrumOf(was) == id,
              try scrumOf(arrived) == id
            else { continue }
          }
          moved[path] = there
          removed.remove(path)
          added[there] = nil
          break
        }
      }
    }
  }

  /// The folders of a moved scrum (or library) moved with it when this side left nothing in
  /// them (dinger's rename); a `git mv` of the scrum file alone leaves its meetings and entries
  /// where they are, and new ones stay beside them.
  private mutating func findMovedFolders(_ git: Repository, tip: ObjectID) throws {
    for (from, to) in moved {
      let tops: [String]
      switch RecordLayout.kind(ofPath: from) {
      case .scrum?: tops = ["history/", "standups/"]
      case .library?: tops = ["quizzes/"]
      default: continue
      }
      for top in tops {
        let old = top + RecordLayout.slug(ofPath: from)
        guard try git.names(in: old, of: tip).isEmpty else { continue }
        folders[old] = top + RecordLayout.slug(ofPath: to)
      }
    }
  }

  /// Where a file this side did not touch belongs after the other side's folder moves: a meeting
  /// added under `history/design/` goes to `history/design-review/` when the scrum moved there.
  func relocated(_ path: String) -> String? {
    let parts = path.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 3, let to = folders[parts[0] + "/" + parts[1]] else { return nil }
    return to + "/" + parts[2]
  }

  /// The record id a file's text holds, lowercased; read from its `id:` line when the YAML does
  /// not parse (a teammate's committed conflict markers must not hide a move).
  static func id(_ bytes: [UInt8]) -> String? {
    RecordMerger.id(RecordMerger.parse(bytes)) ?? ActivityIndex.unquotedField("id", in: bytes)
  }

  /// The record id of a scrum or library file: its top-level `id:` line when it has one, else
  /// what `id` finds.
  static func quickID(_ bytes: [UInt8]) -> String? {
    ActivityIndex.unquotedField("id", in: bytes)?.lowercased() ?? id(bytes)?.lowercased()
  }

  /// The scrum a written stand-up entry names, lowercased.
  static func scrumOf(_ bytes: [UInt8]) -> String? {
    (RecordMerger.parse(bytes)?["scrum"]?.scalarText
      ?? ActivityIndex.unquotedField("scrum", in: bytes))?.lowercased()
  }
}

/// The three-way files of a merge, made to follow records that moved: a record moved on one
/// side and changed on the other is merged at its new path; moved to two places, or moved
/// against removed, it is kept once and the disagreement recorded as a conflict; meetings and
/// quiz results added beside a folder the other side moved go with it.
struct MoveReconciliation {
  /// The files to merge, by path.
  var files: [String: ThreeWayFile]
  /// Merged paths whose ours version is at another path of ours (theirs moved it): the merge is
  /// written at the new path and ours' old path removed.
  var oursElsewhere: [String: String] = [:]
  /// Files of ours to move (path -> where to), by blob.
  var oursMoved: [(from: String, to: String, blob: ObjectID)] = []
  /// Scrums and libraries ours removed that come back (their ancestor's blob), because theirs
  /// recorded a meeting or quiz result for them.
  var restoredParents: [(path: String, blob: ObjectID)] = []
  /// What the merge did that a person should know: a twin of ours moved to a free name.
  var notes: [String] = []
  /// Disagreements about where a record lives, with the paths each side has it at.
  var conflicts: [(file: String, record: String?, conflict: FieldConflict, theirsFile: String)] = []

  init(
    _ git: Repository, files list: [ThreeWayFile], base: ObjectID?, ours: ObjectID,
    theirs: ObjectID
  ) throws {
    files = Dictionary(list.map { ($0.path, $0) }, uniquingKeysWith: { a, _ in a })
    guard let base else { return }
    let mine = try RecordMoves(git, base: base, tip: ours)
    let yours = try RecordMoves(git, base: base, tip: theirs)
    try followTheirMoves(git, mine: mine, yours: yours, base: base, ours: ours, theirs: theirs)
    try followOurMoves(git, mine: mine, yours: yours, ours: ours)
    try followMovedFolders(git, mine: mine, yours: yours, theirs: theirs)
    try keepParents(git, base: base, mine: mine, yours: yours)
    try addReplacements(git, mine: mine, yours: yours, ours: ours, theirs: theirs)
    try separateTwins(git, ours: ours, theirs: theirs, mine: mine)
  }

  /// A path where a side put another record than the ancestor's (a twin separated to
  /// `infra-2.yaml`, another `Infra` at `infra.yaml`): once the ancestor's record was followed
  /// (moved, merged where it went, or its removal recorded), the path holds the new record as an
  /// addition, so that no record is merged into another's file and a move of the old one takes
  /// only the old one (seed 31337). An old record one side changed where the other put a new
  /// one, without moving the old one, stays beside it as a twin, separated next.
  private mutating func addReplacements(
    _ git: Repository, mine: RecordMoves, yours: RecordMoves, ours: ObjectID, theirs: ObjectID
  ) throws {
    for path in mine.replaced.union(yours.replaced).sorted() {
      let (oNew, tNew) = (mine.replaced.contains(path), yours.replaced.contains(path))
      let b = files[path]?.base
      let o = try git.blobID(at: path, in: ours)
      let t = try git.blobID(at: path, in: theirs)
      // What stays of the old record at this path on the side that kept it there: a change of
      // it that no move took elsewhere.
      let oursOld = !oNew && o != nil && o != b && yours.moved[path] == nil ? o : nil
      let theirsOld = !tNew && t != nil && t != b && mine.moved[path] == nil ? t : nil
      let (keptO, keptT) = (oNew ? o : oursOld, tNew ? t : theirsOld)
      if tNew {
        // NB: ours' old record that theirs moved is not removed from here: the new one is here.
        for (to, from) in oursElsewhere where from == path { oursElsewhere[to] = nil }
      }
      guard keptT != nil, keptO != keptT else {
        // Only ours' new record: it stays as ours has it.
        files[path] = nil
        continue
      }
      let modes = try (
        keptO == nil ? 0 : git.fileMode(at: path, in: ours) ?? regularFileMode,
        git.fileMode(at: path, in: theirs) ?? regularFileMode
      )
      files[path] = ThreeWayFile(
        path: path, base: nil, ours: keptO, theirs: keptT, baseMode: 0, oursMode: modes.0,
        theirsMode: modes.1)
    }
  }

  /// The parsed record of a blob, for a conflict's kept value (an empty scalar for none).
  private static func node(_ git: Repository, _ blob: ObjectID?) throws -> Node {
    guard let blob else { return .scalar("") }
    return RecordMerger.parse(try git.blob(blob)) ?? .scalar("")
  }

  /// Records theirs moved: moved on both sides (one file, at our path), moved against our
  /// removal (a conflict), or changed by us where it was (merged at their path).
  private mutating func followTheirMoves(
    _ git: Repository, mine: RecordMoves, yours: RecordMoves, base: ObjectID, ours: ObjectID,
    theirs: ObjectID
  ) throws {
    func node(_ blob: ObjectID?) throws -> Node { try Self.node(git, blob) }
    for (from, to) in yours.moved.sorted(by: { $0.key < $1.key }) {
      let baseBlob = try git.blobID(at: from, in: base)
      let theirsBlob = try git.blobID(at: to, in: theirs)
      let record = RecordMoves.id(try git.blob(theirsBlob ?? baseBlob!))
      if let oursTo = mine.moved[from] {
        // Both moved it: one file, at our path, merged against the ancestor.
        files[from] = nil
        files[to] = nil
        let oursBlob = try git.blobID(at: oursTo, in: ours)
        if oursBlob != theirsBlob {
          files[oursTo] = ThreeWayFile(
            path: oursTo, base: baseBlob, ours: oursBlob, theirs: theirsBlob,
            baseMode: regularFileMode, oursMode: regularFileMode, theirsMode: regularFileMode)
        }
        // NB: a meeting that moved only because each side moved its scrum follows the scrum's
        // conflict (resolving that one moves the folder); it is no conflict of its own.
        let followsFolders = mine.relocated(from) == oursTo && yours.relocated(from) == to
        if oursTo != to && !followsFolders {
          conflicts.append(
            (
              oursTo, record,
              FieldConflict(
                path: FieldPath(), kind: .rename, kept: .scalar(oursTo), other: .scalar(to),
                keptSide: .ours), to
            ))
        }
      } else if mine.removed.contains(from) {
        // Moved against removed: the moved file stays (as git keeps it); the removal is a
        // conflict to settle.
        conflicts.append(
          (
            to, record,
            FieldConflict(
              path: FieldPath(), kind: .delete, kept: try node(theirsBlob), other: nil,
              keptSide: .theirs), to
          ))
      } else if let entry = files[from], let oursBlob = entry.ours, oursBlob != entry.base {
        // Ours changed it where it was: merged at their path, ours' path removed.
        files[from] = nil
        files[to] = ThreeWayFile(
          path: to, base: baseBlob, ours: oursBlob, theirs: theirsBlob, baseMode: entry.baseMode,
          oursMode: entry.oursMode, theirsMode: regularFileMode)
        oursElsewhere[to] = from
      }
    }
  }

  /// Records we moved and theirs did not: against their removal (a conflict), or changed by
  /// them where it was (merged at our path).
  private mutating func followOurMoves(
    _ git: Repository, mine: RecordMoves, yours: RecordMoves, ours: ObjectID
  ) throws {
    func node(_ blob: ObjectID?) throws -> Node { try Self.node(git, blob) }
    for (from, to) in mine.moved.sorted(by: { $0.key < $1.key }) where yours.moved[from] == nil {
      let oursBlob = try git.blobID(at: to, in: ours)
      if yours.removed.contains(from) {
        conflicts.append(
          (
            to, oursBlob.flatMap { try? RecordMoves.id(git.blob($0)) },
            FieldConflict(
              path: FieldPath(), kind: .delete, kept: try node(oursBlob), other: nil,
              keptSide: .ours), from
          ))
      } else if let entry = files[from], let theirsBlob = entry.theirs {
        // Theirs changed it where it was: merged at our path.
        files[from] = nil
        files[to] = ThreeWayFile(
          path: to, base: entry.base, ours: oursBlob, theirs: theirsBlob, baseMode: entry.baseMode,
          oursMode: regularFileMode, theirsMode: entry.theirsMode)
      }
    }
  }

  /// Meetings and quiz results added in a folder the other side moved follow it.
  private mutating func followMovedFolders(
    _ git: Repository, mine: RecordMoves, yours: RecordMoves, theirs: ObjectID
  ) throws {
    // NB: a side that moved no folder relocates nothing (a catch-up's 20,000 added meetings
    // were sorted and split for it).
    for (path, _) in mine.folders.isEmpty ? [] : yours.added.sorted(by: { $0.key < $1.key }) {
      guard let target = mine.relocated(path), yours.relocated(path) == nil,
        let entry = files[path], entry.ours == nil, files[target] == nil
      else { continue }
      files[path] = nil
      var moved = entry
      moved.path = target
      files[target] = moved
    }
    for (path, blob) in yours.folders.isEmpty ? [] : mine.added.sorted(by: { $0.key < $1.key }) {
      guard let target = yours.relocated(path), mine.relocated(path) == nil,
        try git.blobID(at: target, in: theirs) == nil
      else { continue }
      oursMoved.append((path, target, blob))
    }
  }

  /// Two different records added at one path (two teammates made a scrum of one title at the
  /// same time) are two records: theirs, already shared (teammates may have it, and may move it
  /// with plain `git mv` meanwhile), keeps the path; ours, not shared yet, goes to the next free
  /// name with its meetings, as a second `scrum new` of that title would. Seed 31337: ours kept
  /// the path and theirs moved, so a teammate's `git mv` of theirs met, in git's own merge, a
  /// file that now held ours, and git moved the wrong record. (Before that, they were merged
  /// field by field into one record, the other id lost.)
  private mutating func separateTwins(
    _ git: Repository, ours: ObjectID, theirs: ObjectID, mine: RecordMoves
  ) throws {
    // NB: only files both sides added can be twins (a catch-up's 20,000 files taken as they
    // came were sorted and their kinds found for it).
    let added = files.values.filter { $0.base == nil && $0.ours != nil && $0.theirs != nil }
    for file in added.sorted(by: { $0.path < $1.path }) {
      let kind = RecordLayout.kind(ofPath: file.path)
      guard kind == .scrum || kind == .library, file.base == nil, let o = file.ours,
        let t = file.theirs, let oursID = RecordMoves.id(try git.blob(o)),
        let theirsID = RecordMoves.id(try git.blob(t)), oursID != theirsID
      else { continue }
      let folder = kind == .scrum ? "scrums" : "libraries"
      let slug = RecordLayout.slug(ofPath: file.path)
      var n = 2
      var target = "\(folder)/\(slug)-\(n).yaml"
      func taken(_ path: String) throws -> Bool {
        try files[path] != nil || git.blobID(at: path, in: ours) != nil
          || git.blobID(at: path, in: theirs) != nil
      }
      while try taken(target) {
        n += 1
        target = "\(folder)/\(slug)-\(n).yaml"
      }
      // NB: both as files taken from the merge's result: theirs written at the path (over
      // ours'), ours written at the new name.
      files[file.path] = ThreeWayFile(
        path: file.path, base: nil, ours: nil, theirs: t, theirsMode: file.theirsMode)
      files[target] = ThreeWayFile(
        path: target, base: nil, ours: nil, theirs: o, theirsMode: file.oursMode)
      notes.append(
        "\(file.path) holds a teammate's \(kind == .scrum ? "scrum" : "library") of that \(kind == .scrum ? "title" : "name"), shared first; yours is now \(target)"
      )
      // Ours' meetings (quiz results), added under the shared folder, go with it.
      let top = kind == .scrum ? "history/" : "quizzes/"
      for (path, blob) in mine.added.sorted(by: { $0.key < $1.key })
      where path.hasPrefix(top + slug + "/") {
        guard files[path]?.theirs == nil, let node = RecordMerger.parse(try git.blob(blob)),
          (node["scrum"] ?? node["library"])?.scalarText?.lowercased() == oursID
        else { continue }
        let moved = top + "\(slug)-\(n)/" + path.dropFirst(top.count + slug.count + 1)
        files[path] = ThreeWayFile(path: path, base: blob, ours: blob, theirs: nil)
        files[moved] = ThreeWayFile(
          path: moved, base: nil, ours: nil, theirs: blob, theirsMode: regularFileMode)
      }
    }
  }

  /// A meeting (or quiz result) one side recorded for a scrum (or library) the other side
  /// removed keeps its parent: the removal becomes a conflict to settle, never a meeting of no
  /// scrum.
  private mutating func keepParents(
    _ git: Repository, base: ObjectID, mine: RecordMoves, yours: RecordMoves
  ) throws {
    guard !mine.removedParents.isEmpty || !yours.removedParents.isEmpty else { return }
    // The children the merge will hold that changed on one side: added, or kept against a
    // removal.
    var children: [(side: Side, blob: ObjectID)] = []
    for (_, blob) in yours.added.sorted(by: { $0.key < $1.key }) {
      children.append((.theirs, blob))
    }
    for (_, blob) in mine.added.sorted(by: { $0.key < $1.key }) { children.append((.ours, blob)) }
    for file in files.values.sorted(by: { $0.path < $1.path }) {
      let kind = RecordLayout.kind(ofPath: file.path)
      guard kind == .meeting || kind == .quiz || kind == .standup else { continue }
      if let t = file.theirs, file.ours == nil { children.append((.theirs, t)) }
      if let o = file.ours, file.theirs == nil, o != file.base { children.append((.ours, o)) }
    }
    var kept: Set<String> = []
    for child in children {
      guard let node = RecordMerger.parse(try git.blob(child.blob)),
        let parent = (node["scrum"] ?? node["library"])?.scalarText?.lowercased()
      else { continue }
      // NB: the side that removed the parent is the other one.
      let (remover, adder) = child.side == .theirs ? (mine, yours) : (yours, mine)
      // NB: a parent the adding side moved is a rename against a removal, settled above.
      guard let path = remover.removedParents[parent], adder.moved[path] == nil,
        kept.insert(path).inserted,
        let baseBlob = try git.blobID(at: path, in: base)
      else { continue }
      let restored = RecordMerger.parse(try git.blob(baseBlob)) ?? .scalar("")
      if child.side == .theirs {
        // Ours removed it: it comes back as it was (unless theirs changed it: then the merge
        // keeps theirs and records the removal already).
        guard files[path] == nil else { continue }
        restoredParents.append((path, baseBlob))
      } else if let entry = files[path], entry.ours == entry.base {
        // Theirs removed it and ours left it as it was: ours keeps it.
        files[path] = nil
      } else {
        // Ours changed it too: the merge already keeps it and records the removal.
        continue
      }
      conflicts.append(
        (
          path, parent,
          FieldConflict(
            path: FieldPath(), kind: .delete, kept: restored, other: nil,
            keptSide: child.side == .theirs ? .theirs : .ours), path
        ))
    }
  }
}
