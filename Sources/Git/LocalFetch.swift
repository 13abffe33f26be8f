import Base
internal import CGit2
import FoundationEssentials
import Glibc

// Fetching from a repository in a folder on this machine. libgit2's fetch packs every new object
// again (it cannot reuse the deltas already in the remote's packs, as git's upload-pack does),
// which was most of a sync's time. Packs are immutable and named by their content, so, as
// `git clone --local` does, the remote's packs we lack are hard-linked into our object folder;
// whatever is still missing after that (loose objects, or packs on another file system) is
// copied object by object or packed. Only then does the remote-tracking branch move.
extension Repository {
  /// Fetches `branch` from the repository at `path` into `refs/remotes/<remote>/<branch>`;
  /// returns what that now points at (nil when the remote has no such branch).
  public func fetchLocal(
    from path: URL, remote: String, branch: String, warn: (String) -> Void = { _ in }
  ) throws(GitError) -> ObjectID? {
    let source = try Repository.openRemote(path, named: remote, doing: "fetch from \(remote)")
    let tracking = "refs/remotes/\(remote)/\(branch)"
    guard let theirs = try source.resolve("refs/heads/\(branch)") else { return nil }
    // NB: a commit we have is not trusted to be complete (a fetch killed before this order
    // was kept left commits without their trees): what is reachable from the remote's branch
    // and not from our own complete history is checked object by object, every time.
    var odb: OpaquePointer?
    try Check.rc(git_repository_odb(&odb, raw), "open objects")
    defer { git_odb_free(odb) }
    // NB: what HEAD reaches is complete (it is checked out); the tracking branch is trusted only
    // where HEAD contains it (an older dinger's killed fetch could leave it at a commit whose
    // trees never arrived: then everything it reaches is checked again, and refetched).
    var hidden: [ObjectID] = []
    let head = try? resolve("HEAD")
    if let head, (try? source.hasObject(head)) == true { hidden.append(head) }
    if let id = try? resolve(tracking), (try? source.hasObject(id)) == true,
      let head, (try? contains(head, ancestor: id)) == true
    {
      hidden.append(id)
    }
    var missing = try source.newObjects(
      from: theirs, hiding: hidden, remoteODB: odb, distrustPresent: true)
    if !missing.isEmpty {
      linkPacks(from: source.gitDirectory.appendingPathComponent("objects/pack"))
      try Check.rc(git_odb_refresh(odb), "read the linked packs")
      missing = try source.newObjects(
        from: theirs, hiding: hidden, remoteODB: odb, distrustPresent: true)
    }
    if missing.count > 100 {
      // NB: a pack is written under a temporary name and only renamed into place whole.
      try source.send(missing, into: odb)
    } else if !missing.isEmpty {
      try source.copy(missing, into: odb)
    }
    // NB: the tracking branch only remembers what the remote had: a lock on it that a killed
    // sync (or git) left must not stop the sync, which goes on with what it fetched; the lock
    // is named, as git names it, for plain `git fetch`'s sake.
    var ref: OpaquePointer?
    var oid = theirs.oid
    var rc: Int32 = 0
    let handle = try raw
    try claimingRefLocks([tracking]) { () throws(GitError) in
      for attempt in 0..<20 {
        rc = git_reference_create(&ref, handle, tracking, &oid, 1, "dinger sync: fetch")
        git_reference_free(ref)
        ref = nil
        guard rc == GIT_ELOCKED.rawValue, attempt < 19 else { break }
        usleep(50_000)
      }
    }
    if rc == GIT_ELOCKED.rawValue {
      let lock = gitDirectory.appendingPathComponent(tracking + ".lock").path
      warn(
        "\(tracking) is locked (\(lock) exists: another git process, or one that was killed); the sync went on without updating it. If no git is running: rm -f '\(lock)'"
      )
    } else {
      try Check.rc(rc, "update \(tracking)")
    }
    return theirs
  }

  /// Opens a remote repository in a folder, or says what to do when it is not there.
  static func openRemote(_ path: URL, named remote: String, doing operation: String)
    throws(GitError) -> Repository
  {
    let repository: Repository
    do {
      repository = try Repository.open(path)
    } catch {
      if error.isDubiousOwnership {
        throw GitError(code: error.code, operation: operation, message: error.message)
      }
      let what =
        FileManager.default.fileExists(atPath: path.path)
        ? "is not a git repository" : "does not exist (moved, deleted, or a drive not mounted?)"
      throw GitError(
        code: error.code, operation: operation,
        message:
          "the remote '\(remote)' at \(path.path) \(what); nothing local changed. Check it with 'dinger remote list'; if it moved: dinger remote rm \(remote) && dinger remote add \(remote) NEW-PATH"
      )
    }
    try repository.refuseShallow(operation: operation, shown: path.path)
    return repository
  }

  /// Throws when this repository is shallow (`.git/shallow` names its boundary commits): its
  /// objects lack the history before them (a clone of it had commits whose parents were
  /// missing, and every history command failed).
  public func refuseShallow(operation: String, shown: String) throws(GitError) {
    var st = stat()
    guard stat(gitDirectory.appendingPathComponent("shallow").path, &st) == 0, st.st_size > 0
    else { return }
    throw GitError(
      code: GIT_ERROR.rawValue, operation: operation, message: ShallowSniffer.refusal(shown))
  }

  /// Hard-links the packs (and their indexes) in `folder` that our object folder lacks; a pack
  /// that cannot be linked (another file system) is left for the object copy.
  private func linkPacks(from folder: URL) {
    let ours = gitDirectory.appendingPathComponent("objects/pack")
    let fm = FileManager.default
    guard let names = try? fm.contentsOfDirectory(atPath: folder.path) else { return }
    try? fm.createDirectory(at: ours, withIntermediateDirectories: true)
    for name in names where name.hasSuffix(".pack") {
      let base = String(name.dropLast(".pack".count))
      let idx = base + ".idx"
      guard names.contains(idx), !fm.fileExists(atPath: ours.appendingPathComponent(idx).path)
      else { continue }
      // NB: the pack before its index: readers find packs by their index.
      let packTarget = ours.appendingPathComponent(name).path
      guard link(folder.appendingPathComponent(name).path, packTarget) == 0 || errno == EEXIST
      else { continue }
      if link(folder.appendingPathComponent(idx).path, ours.appendingPathComponent(idx).path) != 0 {
        unlink(packTarget)
      }
    }
  }

  /// Copies objects one by one into `odb` (as loose objects), in dependency order: blobs,
  /// then trees (each after the trees it holds), then commits (each after its parents), so
  /// that a copy killed at any instant never leaves an object whose parts are missing.
  func copy(_ objects: [ObjectID], into odb: OpaquePointer?) throws(GitError) {
    var mine: OpaquePointer?
    try Check.rc(git_repository_odb(&mine, raw), "open objects")
    defer { git_odb_free(mine) }
    var parts: [ObjectID] = []
    var commits: [ObjectID] = []
    for object in objects {
      var oid = object.oid
      var size = 0
      var type = GIT_OBJECT_INVALID
      try Check.rc(git_odb_read_header(&size, &type, mine, &oid), "read \(object.short)")
      if type == GIT_OBJECT_COMMIT { commits.append(object) } else { parts.append(object) }
    }
    // NB: `newObjects` lists a tree before what it holds, and commits oldest first.
    for object in parts.reversed() + commits {
      var oid = object.oid
      var read: OpaquePointer?
      try Check.rc(git_odb_read(&read, mine, &oid), "read \(object.short)")
      defer { git_odb_object_free(read) }
      var out = git_oid()
      try Check.rc(
        git_odb_write(
          &out, odb, git_odb_object_data(read), git_odb_object_size(read),
          git_odb_object_type(read)), "copy \(object.short)")
      // NB: a test-only stop point (as Storage's StopPoint): a kill after an object is in place.
      if let stop = getenv("DINGER_TEST_STOP_AT"), String(cString: stop) == "fetch.object" {
        kill(getpid(), SIGKILL)
      }
    }
  }
}
