import Base
internal import CGit2
import FoundationEssentials
import Glibc

// Pushing to a repository in a folder on this machine (a path or file:// URL) with libgit2's
// own pieces rather than its push: libgit2's push enumerates objects by walking every tree of
// every new commit and marking the remote's whole tree as seen (about a second for 500 commits
// on a 40,000-file repository); here only the subtrees each commit changed are visited, and
// objects the remote already has are skipped. The pack is streamed into the remote's object
// database and the branch moved by compare-and-swap, as receive-pack would.
extension Repository {
  /// The folder a remote URL names when it is on this machine, else nil.
  public static func localPath(of url: String) -> URL? {
    if url.hasPrefix("file://") { return URL(string: url)?.standardizedFileURL }
    if url.containsText("://") { return nil }
    // scp-like `host:path` is ssh; a path with a colon before any slash is not local.
    if let colon = url.firstIndex(of: ":"), !url[..<colon].containsText("/") { return nil }
    return URL(fileURLWithPath: url).standardizedFileURL
  }

  /// Pushes `branch` to the repository at `path`; `.rejected` when the remote branch moved
  /// since we fetched (it is not in our history).
  public func pushLocal(to path: URL, remote: String, branch: String) throws(GitError)
    -> PushOutcome
  {
    let target = try Repository.openRemote(path, named: remote, doing: "push to \(remote)")
    let ref = "refs/heads/\(branch)"
    guard let ours = try resolve(ref) else {
      throw GitError(code: -1, operation: "push", message: "there is no local branch \(branch)")
    }
    if let workdir = target.workdir, (try? target.head().branch) == ref {
      throw GitError(
        code: -1, operation: "push to \(path.path)",
        message:
          "the remote is a working copy with \(branch) checked out, which a push would leave out of date; share a bare repository instead (git clone --bare \(workdir.path) team.git)"
      )
    }
    let theirs = try target.resolve(ref)
    if theirs == ours {
      // NB: a push killed after the remote's branch moved and before ours did: the remote has
      // it all, and the tracking branch still names what it had (kills during sync, 2 in 150).
      try moveTracking(remote: remote, branch: branch, to: ours)
      return .pushed
    }
    if let theirs {
      guard try hasObject(theirs), try contains(ours, ancestor: theirs) else {
        return .rejected("\(ref): the remote has commits we do not (fetch first)")
      }
    }
    var remoteODB: OpaquePointer?
    try Check.rc(git_repository_odb(&remoteODB, target.raw), "open the remote's objects")
    defer { git_odb_free(remoteODB) }
    let objects = try newObjects(
      from: ours, hiding: theirs.map { [$0] } ?? [], remoteODB: remoteODB)
    try send(objects, into: remoteODB)
    var newRef: OpaquePointer?
    var new = ours.oid
    let rc: Int32
    if let theirs {
      var old = theirs.oid
      rc = git_reference_create_matching(&newRef, try target.raw, ref, &new, 1, &old, "push")
    } else {
      rc = git_reference_create(&newRef, try target.raw, ref, &new, 0, "push")
    }
    git_reference_free(newRef)
    if rc == GIT_EMODIFIED.rawValue || rc == GIT_EEXISTS.rawValue {
      return .rejected("\(ref): the remote moved while pushing")
    }
    if rc == GIT_ELOCKED.rawValue {
      // NB: another push holds the ref: a lost race, merged and retried like a moved branch.
      let lock = target.gitDirectory.appendingPathComponent(ref + ".lock").path
      return .rejected(
        "\(lock) exists: another push is under way, or one was killed; if none is running, remove that file"
      )
    }
    try Check.rc(rc, "update \(ref) in \(path.path)")
    target.pointHeadIfDangling(at: ref)
    try moveTracking(remote: remote, branch: branch, to: ours)
    return .pushed
  }

  /// Points `refs/remotes/<remote>/<branch>` at what the remote's branch now is, after a push
  /// (it only remembers what the remote had: a failure leaves it behind, as git's would).
  func moveTracking(remote: String, branch: String, to id: ObjectID) throws(GitError) {
    var tracking: OpaquePointer?
    let handle = try raw
    var new = id.oid
    let trackingRef = "refs/remotes/\(remote)/\(branch)"
    try claimingRefLocks([trackingRef]) { () throws(GitError) in
      _ = git_reference_create(&tracking, handle, trackingRef, &new, 1, "dinger sync: push")
    }
    git_reference_free(tracking)
  }

  /// Points HEAD at `ref` when it names a branch that does not exist (a bare repository made
  /// with `git init --bare`, whose HEAD is master, receiving main), so that `git clone` of it
  /// checks out what was pushed. A HEAD that names an existing branch is left alone.
  func pointHeadIfDangling(at ref: String) {
    let head = gitDirectory.appendingPathComponent("HEAD")
    guard let text = try? String(contentsOf: head, encoding: .utf8), text.hasPrefix("ref: ") else {
      return
    }
    let target = text.dropFirst(5).trimmed()
    guard target != ref, (try? resolve(target)) == .some(nil), let raw = try? raw else { return }
    _ = git_repository_set_head(raw, ref)
  }

  /// The branches of the repository in the folder `path`, sorted (main and master first).
  public static func branchNames(inRepositoryAt path: URL) throws(GitError) -> [String] {
    let repository = try Repository.open(path)
    var iterator: OpaquePointer?
    try Check.rc(
      git_branch_iterator_new(&iterator, repository.raw, GIT_BRANCH_LOCAL), "list branches")
    defer { git_branch_iterator_free(iterator) }
    var names: [String] = []
    var ref: OpaquePointer?
    var type = GIT_BRANCH_LOCAL
    while git_branch_next(&ref, &type, iterator) == 0 {
      names.append(String(cString: git_reference_shorthand(ref)))
      git_reference_free(ref)
    }
    return names.sorted {
      (["main", "master"].contains($0) ? 0 : 1, $0) < (["main", "master"].contains($1) ? 0 : 1, $1)
    }
  }

  /// `pointHeadIfDangling` for the repository in the folder `path` (after a push to it).
  public static func pointHeadIfDangling(ofRepositoryAt path: URL, at ref: String) {
    (try? Repository.open(path))?.pointHeadIfDangling(at: ref)
  }

  /// Makes `remote`/`branch` the upstream of the local `branch` when it has none, as
  /// `git push -u` does, so that plain `git pull` and `git push` work after dinger's first sync.
  public func setUpstreamIfUnset(remote: String, branch: String) {
    guard config("branch.\(branch).remote") == nil, config("branch.\(branch).merge") == nil else {
      return
    }
    try? setConfig("branch.\(branch).remote", remote)
    try? setConfig("branch.\(branch).merge", "refs/heads/\(branch)")
  }

  func hasObject(_ id: ObjectID) throws(GitError) -> Bool {
    var odb: OpaquePointer?
    try Check.rc(git_repository_odb(&odb, raw), "open objects")
    defer { git_odb_free(odb) }
    var oid = id.oid
    return git_odb_exists(odb, &oid) == 1
  }

  /// Every object reachable from `head` and not from `hidden` that the remote lacks. With
  /// `distrustPresent`, a commit or tree the remote has is looked into all the same (a killed
  /// copy of an older dinger left commits without their trees): only what is absent is listed.
  func newObjects(
    from head: ObjectID, hiding hidden: [ObjectID], remoteODB: OpaquePointer?,
    distrustPresent: Bool = false
  ) throws(GitError) -> [ObjectID] {
    // NB: parents before children. A commit's tree is compared with its parents' and only what
    // differs from every one of them is visited, which is complete only if each parent's tree
    // was visited before or is the remote's (an undo brings back an older tree: visited newest
    // first, each side trusted the other). A merge is compared with both sides: against its
    // first parent alone, a catch-up's merge sent every file the teammates had already pushed.
    let commits = try self.commits(from: [head], hiding: hidden, oldestFirst: true)
    let reader = ObjectReader(self)
    var out: [ObjectID] = []
    var seen: Set<ObjectID> = []
    func missing(_ id: ObjectID) -> Bool {
      guard seen.insert(id).inserted else { return false }
      guard let remoteODB else { return true }  // a network remote: the walk alone decides
      var oid = id.oid
      // NB: without NO_REFRESH every object the remote lacks re-reads its pack folder.
      return git_odb_exists_ext(remoteODB, &oid, UInt32(GIT_ODB_LOOKUP_NO_REFRESH.rawValue)) != 1
    }
    func present(_ id: ObjectID) -> Bool {
      guard let remoteODB else { return false }
      var oid = id.oid
      return git_odb_exists_ext(remoteODB, &oid, UInt32(GIT_ODB_LOOKUP_NO_REFRESH.rawValue)) == 1
    }
    for commit in commits {
      if distrustPresent {
        // NB: visited even when present; listed only when absent.
        guard seen.insert(commit).inserted else { continue }
        if !present(commit) { out.append(commit) }
      } else {
        guard missing(commit) else { continue }
        out.append(commit)
      }
      let info = try commitInfo(commit)
      let tree = try treeID(of: commit)
      if distrustPresent {
        let parentTree = try info.parents.first.map { p throws(GitError) in try treeID(of: p) }
        try collectDistrusting(
          tree, against: parentTree, reader: reader, seen: &seen, present: present, into: &out)
      } else {
        let parentTrees = try info.parents.map { p throws(GitError) in try treeID(of: p) }
        try collect(tree, against: parentTrees, reader: reader, missing: missing, into: &out)
      }
    }
    return out
  }

  /// A tree and what under it differs from each parent's tree at the same place (`olds`, one
  /// per parent, nil where a parent has none; each is already sent, or in the remote). Trees
  /// are read raw from the packs (`ObjectReader`: the history folders' trees are long delta
  /// chains, which libgit2 re-applies on every read) and entries, in git's order, are walked
  /// side by side with each parent's, comparing ids in place.
  private func collect(
    _ tree: ObjectID, against olds: [ObjectID?], reader: ObjectReader,
    missing: (ObjectID) -> Bool, into out: inout [ObjectID]
  ) throws(GitError) {
    guard !olds.contains(tree), missing(tree) else { return }
    out.append(tree)
    let new = try reader.read(tree).bytes
    var entries = try Self.entries(of: new)
    // NB: what differs from the first parent, narrowed by each other parent in turn; each
    // entry keeps the id it had in every parent, for the folders below it.
    var befores: [[ObjectID?]] = entries.map { _ in [] }
    for old in olds.isEmpty ? [nil] : olds {
      let previous = try old.map { (id) throws(GitError) in try reader.read(id).bytes } ?? []
      let changed = try Self.changedEntries(new, parsed: entries, against: previous)
      var kept = changed.startIndex
      var narrowed: [[ObjectID?]] = []
      for (i, entry) in entries.enumerated() where kept < changed.endIndex {
        guard changed[kept].3.nameStart == entry.nameStart else { continue }
        narrowed.append(befores[i] + [changed[kept].2])
        kept += 1
      }
      entries = changed.map(\.3)
      befores = narrowed
    }
    for (entry, before) in zip(entries, befores) {
      let id = new.withUnsafeBufferPointer { entry.id(in: $0) }
      switch entry.kind {
      case .tree: try collect(id, against: before, reader: reader, missing: missing, into: &out)
      case .blob: if missing(id) { out.append(id) }
      case .submodule: continue  // not ours to send
      }
    }
  }

  /// The entries of a raw tree, in order.
  static func entries(of tree: [UInt8]) throws(GitError) -> [RawTreeEntry] {
    var entries: [RawTreeEntry] = []
    try tree.withUnsafeBufferPointer { (n) throws(GitError) in
      var i = 0
      while i < n.count {
        let entry = try RawTreeEntry(n, at: i)
        entries.append(entry)
        i = entry.end
      }
    }
    return entries
  }

  /// `collect`, looking into trees the remote has too (see `newObjects`).
  private func collectDistrusting(
    _ tree: ObjectID, against old: ObjectID?, reader: ObjectReader, seen: inout Set<ObjectID>,
    present: (ObjectID) -> Bool, into out: inout [ObjectID]
  ) throws(GitError) {
    guard tree != old, seen.insert(tree).inserted else { return }
    if !present(tree) { out.append(tree) }
    let new = try reader.read(tree).bytes
    let previous = try old.map { (id) throws(GitError) in try reader.read(id).bytes } ?? []
    for (kind, id, before) in try Self.changedEntries(new, against: previous) {
      switch kind {
      case .tree:
        try collectDistrusting(
          id, against: before, reader: reader, seen: &seen, present: present, into: &out)
      case .blob: if seen.insert(id).inserted && !present(id) { out.append(id) }
      case .submodule: continue
      }
    }
  }

  /// The entries of raw tree `new` whose id differs from the entry of the same name and kind in
  /// raw tree `old` (with that entry's id), in order.
  static func changedEntries(_ new: [UInt8], against old: [UInt8]) throws(GitError)
    -> [(RawTreeEntry.Kind, ObjectID, ObjectID?)]
  {
    try changedEntries(new, parsed: try entries(of: new), against: old).map { ($0.0, $0.1, $0.2) }
  }

  /// `changedEntries` of a tree whose entries were parsed already (`parsed`, in order), each
  /// with the entry it came from (for its name).
  static func changedEntries(_ new: [UInt8], parsed: [RawTreeEntry], against old: [UInt8])
    throws(GitError) -> [(RawTreeEntry.Kind, ObjectID, ObjectID?, RawTreeEntry)]
  {
    var changed: [(RawTreeEntry.Kind, ObjectID, ObjectID?, RawTreeEntry)] = []
    var failure: GitError?
    new.withUnsafeBufferPointer { n in
      old.withUnsafeBufferPointer { o in
        do throws(GitError) {
          var j = 0
          var previous: RawTreeEntry? = j < o.count ? try RawTreeEntry(o, at: j) : nil
          for entry in parsed {
            var same: RawTreeEntry?
            while let candidate = previous {
              let order = RawTreeEntry.order(entry, in: n, candidate, in: o)
              if order > 0 {
                j = candidate.end
                previous = j < o.count ? try RawTreeEntry(o, at: j) : nil
                continue
              }
              if order == 0 { same = candidate }
              break
            }
            if let same,
              memcmp(n.baseAddress! + entry.nameEnd + 1, o.baseAddress! + same.nameEnd + 1, 20) == 0
            {
              continue
            }
            changed.append(
              (
                entry.kind, entry.id(in: n),
                same.flatMap { $0.kind == entry.kind ? $0.id(in: o) : nil }, entry
              ))
          }
        } catch {
          failure = error
        }
      }
    }
    if let failure { throw failure }
    return changed
  }

  /// Packs `objects` (reusing the local packs' entries, `PackWriter`) and streams the pack
  /// into `odb`, which indexes it.
  func send(_ objects: [ObjectID], into odb: OpaquePointer?) throws(GitError) {
    guard !objects.isEmpty else { return }
    var writer: UnsafeMutablePointer<git_odb_writepack>?
    try Check.rc(git_odb_write_pack(&writer, odb, nil, nil), "write a pack into the remote")
    defer { writer?.pointee.free(writer) }
    let sink = PackSink(writer: writer!)
    // NB: the indexer takes pieces of any size; a few hundred KiB at a time keeps calls few.
    var pending: [UInt8] = []
    pending.reserveCapacity(1 << 19)
    func flush() throws(GitError) {
      guard !pending.isEmpty else { return }
      let rc = pending.withUnsafeBytes {
        sink.writer.pointee.append(sink.writer, $0.baseAddress, $0.count, &sink.stats)
      }
      pending.removeAll(keepingCapacity: true)
      try Check.rc(rc, "send objects")
    }
    try PackWriter(self).write(objects) { (bytes) throws(GitError) in
      pending.append(contentsOf: bytes)
      if pending.count >= 1 << 19 { try flush() }
    }
    try flush()
    var stats = sink.stats
    try Check.rc(writer!.pointee.commit(writer, &stats), "index the pack in the remote")
  }
}

private final class PackSink {
  let writer: UnsafeMutablePointer<git_odb_writepack>
  var stats = git_indexer_progress()
  init(writer: UnsafeMutablePointer<git_odb_writepack>) { self.writer = writer }
}
