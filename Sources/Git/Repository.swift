import Base
internal import CGit2
import FoundationEssentials
import Glibc
import Synchronization

/// A git repository opened through libgit2. Owns its handle and frees it.
public final class Repository: Sendable {
  // NB: libgit2 repository handles are not safe for concurrent use; a `Repository` is used from
  // one task at a time (each command opens its own).
  // NB: the handle's address once it is open (0 before): read without the lock by every call,
  // so an atomic, stored once with release and read with acquire.
  private let opened = Atomic<UInt>(0)
  /// For a repository opened later: its working tree and `.git` folder.
  private let deferred: (root: URL, gitDirectory: URL)?
  /// Held while the deferred handle is opened, so it is opened once.
  private let opening = Mutex(())

  private var handle: OpaquePointer? {
    OpaquePointer(bitPattern: opened.load(ordering: .acquiring))
  }

  init(_ raw: OpaquePointer) {
    opened.store(UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(raw))), ordering: .releasing)
    self.deferred = nil
  }

  private init(deferred root: URL, gitDirectory: URL) {
    self.deferred = (root, gitDirectory)
  }

  deinit { if let handle { git_repository_free(handle) } }

  /// The libgit2 handle, opened on first use for a repository from `openLater`.
  var raw: OpaquePointer {
    get throws(GitError) {
      if let handle { return handle }
      let address = try opening.withLock { _ throws(GitError) -> UInt in
        let now = opened.load(ordering: .acquiring)
        if now != 0 { return now }
        guard let deferred else { preconditionFailure("a repository without a handle") }
        do throws(GitError) {
          let other = try Self.open(deferred.root)
          // NB: the handle moves here; the other instance then frees nothing.
          let taken = other.opened.exchange(0, ordering: .acquiringAndReleasing)
          opened.store(taken, ordering: .releasing)
          return taken
        } catch {
          // NB: as git's die(): `openLater` checked what could be checked without libgit2, so
          // this is a repository libgit2 refuses (an unknown format, a damaged config); no
          // command can go on without it. Thrown up to the command, which ends with status 128.
          var refused = error
          refused.refusesRepository = true
          throw refused
        }
      }
      return OpaquePointer(bitPattern: address)!
    }
  }

  /// The repository whose working tree is exactly `url`, opened by libgit2 only when something
  /// needs git. libgit2's start-up costs about 6 ms (it reads every system certificate), which
  /// commands that only read the working tree (`scrum list`, `word list`, `history`) then never
  /// pay. Checks here that `url` has a `.git` folder, or a `.git` file naming one.
  public static func openLater(_ url: URL) throws(GitError) -> Repository {
    let dotGit = url.appendingPathComponent(".git")
    var st = stat()
    guard lstat(dotGit.path, &st) == 0 else {
      throw GitError(
        code: GIT_ENOTFOUND.rawValue, operation: "open repository at \(url.path)",
        message: "there is no .git here")
    }
    var gitDirectory = dotGit
    if st.st_mode & S_IFMT == S_IFREG {
      // A linked worktree or submodule: `gitdir: PATH`, PATH relative to the working tree.
      guard let text = try? String(contentsOf: dotGit, encoding: .utf8), text.count < 4096,
        text.hasPrefix("gitdir: ")
      else { return try open(url) }
      let path = text.dropFirst(8).trimmed()
      gitDirectory =
        path.hasPrefix("/")
        ? URL(fileURLWithPath: path) : url.appendingPathComponent(path).standardizedFileURL
    } else if st.st_mode & S_IFMT != S_IFDIR {
      return try open(url)
    }
    var head = stat()
    guard stat(gitDirectory.appendingPathComponent("HEAD").path, &head) == 0 else {
      return try open(url)  // libgit2 says what is wrong
    }
    // NB: as git: a repository someone else owns is refused unless safe.directory names it (its
    // config could name programs to run); and a config that is there but can't be read stops
    // here, as git stops ("unable to access").
    try checkOwnership(worktree: url, gitDirectory: gitDirectory)
    let config = gitDirectory.appendingPathComponent("config").path
    if access(config, F_OK) == 0, access(config, R_OK) != 0 {
      throw GitError(
        code: GIT_ERROR.rawValue, operation: "open repository at \(url.path)",
        message: "unable to access '\(config)': \(String(cString: strerror(errno)))")
    }
    return Repository(deferred: url, gitDirectory: gitDirectory)
  }

  /// Opens the repository whose working tree (or `.git`) is exactly `url`.
  public static func open(_ url: URL) throws(GitError) -> Repository {
    _ = Check.initialized
    try checkOwnership(at: url)
    var out: OpaquePointer?
    try Check.rc(
      git_repository_open_ext(&out, url.path, UInt32(GIT_REPOSITORY_OPEN_NO_SEARCH.rawValue), nil),
      "open repository at \(url.path)")
    return Repository(out!)
  }

  /// Finds the repository that contains `url`, searching parent folders like git does.
  public static func discover(from url: URL) -> Repository? {
    _ = Check.initialized
    var out: OpaquePointer?
    guard git_repository_open_ext(&out, url.path, 0, nil) == 0, let out else { return nil }
    let found = Repository(out)
    let workdir = git_repository_workdir(out).map { URL(fileURLWithPath: String(cString: $0)) }
    let gitdir = URL(fileURLWithPath: String(cString: git_repository_path(out)))
    guard (try? checkOwnership(worktree: workdir, gitDirectory: gitdir)) != nil else { return nil }
    return found
  }

  /// Creates a new repository with a working tree at `url`, its first branch named `branch`.
  public static func create(at url: URL, branch: String = "main") throws(GitError) -> Repository {
    _ = Check.initialized
    var options = git_repository_init_options()
    try Check.rc(
      git_repository_init_options_init(&options, UInt32(GIT_REPOSITORY_INIT_OPTIONS_VERSION)),
      "prepare repository options")
    options.flags = UInt32(GIT_REPOSITORY_INIT_MKPATH.rawValue)
    var out: OpaquePointer?
    let rc = branch.withCString { name -> Int32 in
      options.initial_head = name
      return git_repository_init_ext(&out, url.path, &options)
    }
    try Check.rc(rc, "create repository at \(url.path)")
    return Repository(out!)
  }

  /// The working tree, or nil for a bare repository.
  public var workdir: URL? {
    if let deferred { return deferred.root }
    // NB: only a repository opened with its handle gets here.
    return git_repository_workdir(handle).map { URL(fileURLWithPath: String(cString: $0)) }
  }

  /// The `.git` folder.
  public var gitDirectory: URL {
    if let deferred { return deferred.gitDirectory }
    return URL(fileURLWithPath: String(cString: git_repository_path(handle)))
  }

  // MARK: HEAD

  /// The branch HEAD names (`refs/heads/main`) and the commit it points at (nil while unborn).
  public func head() throws(GitError) -> (branch: String, commit: ObjectID?) {
    var ref: OpaquePointer?
    try Check.rc(git_reference_lookup(&ref, raw, "HEAD"), "read HEAD")
    defer { git_reference_free(ref) }
    guard let target = git_reference_symbolic_target(ref) else {
      throw GitError(
        code: -1, operation: "read HEAD",
        message: "HEAD is detached; check out a branch (git switch main)")
    }
    let branch = String(cString: target)
    var oid = git_oid()
    let rc = git_reference_name_to_id(&oid, try raw, branch)
    if rc == GIT_ENOTFOUND.rawValue { return (branch, nil) }
    try Check.rc(rc, "read \(branch)")
    return (branch, ObjectID(oid))
  }

  /// Moves `branch` to `commit` only if it still points at `expected` (nil: does not exist yet).
  /// Throws a `GitError` with `isModified` when another writer moved it first.
  public func moveBranch(
    _ branch: String, to commit: ObjectID, from expected: ObjectID?, reflog: String
  ) throws(GitError) {
    var ref: OpaquePointer?
    var new = commit.oid
    let raw = try raw
    let rc: Int32
    if let expected {
      var current = expected.oid
      rc = git_reference_create_matching(&ref, raw, branch, &new, 1, &current, reflog)
    } else {
      rc = git_reference_create(&ref, raw, branch, &new, 0, reflog)
    }
    git_reference_free(ref)
    if rc == GIT_EEXISTS.rawValue {
      throw GitError(
        code: GIT_EMODIFIED.rawValue, operation: "update \(branch)",
        message: "created by another writer")
    }
    try Check.rc(rc, "update \(branch)")
  }

  // MARK: Objects

  /// Stores bytes as a blob.
  public func writeBlob(_ bytes: [UInt8]) throws(GitError) -> ObjectID {
    var oid = git_oid()
    let raw = try raw
    let rc = bytes.withUnsafeBytes {
      git_blob_create_from_buffer(&oid, raw, $0.baseAddress, $0.count)
    }
    try Check.rc(rc, "write blob")
    return ObjectID(oid)
  }

  /// The bytes of the file at `path` in a commit, or nil when it has none.
  public func file(_ path: String, in commit: ObjectID) throws(GitError) -> [UInt8]? {
    try blobID(at: path, in: commit).map { id throws(GitError) in try blob(id) }
  }

  func tree(of commit: ObjectID) throws(GitError) -> OpaquePointer {
    var oid = commit.oid
    var object: OpaquePointer?
    try Check.rc(git_commit_lookup(&object, raw, &oid), "read commit \(commit.short)")
    defer { git_commit_free(object) }
    var tree: OpaquePointer?
    try Check.rc(git_commit_tree(&tree, object), "read tree of \(commit.short)")
    return tree!
  }

  /// A new tree: the tree of `base` (empty when nil) with files set (blob id) or removed (nil).
  /// Only the touched paths are visited, so the cost follows the change, not the repository.
  public func tree(
    from base: ObjectID?, changing changes: [(path: String, blob: ObjectID?)],
    modes: [String: UInt32] = [:]
  ) throws(GitError) -> ObjectID {
    // NB: libgit2 will not turn a folder into a file (or the reverse) in one update; removals
    // first (a folder they empty goes with them), then the files, does.
    let removals = changes.filter { $0.blob == nil }
    if !removals.isEmpty && removals.count < changes.count {
      let emptied = try updatedTree(
        from: base.map { b throws(GitError) in try treeID(of: b) }, removals, modes: modes)
      return try updatedTree(from: emptied, changes.filter { $0.blob != nil }, modes: modes)
    }
    return try updatedTree(
      from: base.map { b throws(GitError) in try treeID(of: b) }, changes, modes: modes)
  }

  private func updatedTree(
    from baseTree: ObjectID?, _ changes: [(path: String, blob: ObjectID?)], modes: [String: UInt32]
  ) throws(GitError) -> ObjectID {
    // NB: libgit2 builds from no baseline at all for a first commit; no empty tree is written.
    var baseline: OpaquePointer?
    if let baseTree {
      var oid = baseTree.oid
      try Check.rc(git_tree_lookup(&baseline, raw, &oid), "read tree \(baseTree.short)")
    }
    defer { if let baseline { git_tree_free(baseline) } }
    let paths = changes.map { strdup($0.path)! }
    defer { paths.forEach { free($0) } }
    var updates = changes.enumerated().map { i, change in
      git_tree_update(
        action: change.blob == nil ? GIT_TREE_UPDATE_REMOVE : GIT_TREE_UPDATE_UPSERT,
        id: change.blob?.oid ?? git_oid(),
        filemode: modes[change.path].map { git_filemode_t(rawValue: $0) } ?? GIT_FILEMODE_BLOB,
        path: paths[i])
    }
    var out = git_oid()
    try Check.rc(
      git_tree_create_updated(&out, raw, baseline, updates.count, &updates), "build tree")
    return ObjectID(out)
  }

  /// Writes a commit object (no branch moves; see `moveBranch`).
  public func commit(
    tree: ObjectID, parents: [ObjectID], author: Signature, committer: Signature, message: String
  ) throws(GitError) -> ObjectID {
    var treeOID = tree.oid
    var treeObject: OpaquePointer?
    try Check.rc(git_tree_lookup(&treeObject, raw, &treeOID), "read tree")
    defer { git_tree_free(treeObject) }
    var parentObjects: [OpaquePointer?] = []
    defer { parentObjects.forEach { git_commit_free($0) } }
    for parent in parents {
      var oid = parent.oid
      var object: OpaquePointer?
      try Check.rc(git_commit_lookup(&object, raw, &oid), "read commit \(parent.short)")
      parentObjects.append(object)
    }
    let authorSig = try Self.signature(author)
    defer { git_signature_free(authorSig) }
    let committerSig = try Self.signature(committer)
    defer { git_signature_free(committerSig) }
    var out = git_oid()
    let raw = try raw
    let rc = parentObjects.withUnsafeMutableBufferPointer { buffer in
      git_commit_create(
        &out, raw, nil, authorSig, committerSig, nil, message, treeObject, buffer.count,
        buffer.baseAddress)
    }
    try Check.rc(rc, "write commit")
    return ObjectID(out)
  }

  static func signature(_ s: Signature) throws(GitError) -> UnsafeMutablePointer<git_signature> {
    var out: UnsafeMutablePointer<git_signature>?
    try Check.rc(
      git_signature_new(
        &out, s.name, s.email, git_time_t(s.date.timeIntervalSince1970.rounded(.down)),
        Int32(s.offsetMinutes)), "make signature for \(s.name)")
    return out!
  }

  /// The author from git's configuration (user.name, user.email), now; nil when either is unset.
  public func defaultSignature() -> Signature? {
    var out: UnsafeMutablePointer<git_signature>?
    guard let raw = try? raw, git_signature_default(&out, raw) == 0, let sig = out else {
      return nil
    }
    defer { git_signature_free(sig) }
    return Signature(
      name: String(cString: sig.pointee.name), email: String(cString: sig.pointee.email),
      date: Date(timeIntervalSince1970: TimeInterval(sig.pointee.when.time)),
      offsetMinutes: Int(sig.pointee.when.offset))
  }

  /// The author and committer of a new commit, as git chooses them: `GIT_AUTHOR_NAME` /
  /// `GIT_AUTHOR_EMAIL` and `GIT_COMMITTER_NAME` / `GIT_COMMITTER_EMAIL` (how CI bots set
  /// who they are), else `user.name` / `user.email` (`EMAIL` for a missing email, as git);
  /// now, in the local zone, unless `GIT_AUTHOR_DATE` / `GIT_COMMITTER_DATE` say when (as git
  /// reads them: see `GitDate`). Nil when a name or an email is missing; throws on a date git
  /// would refuse.
  public func identities(
    environment: [String: String] = ProcessInfo.processInfo.environment, now: Date = Date()
  ) throws(GitError) -> (author: Signature, committer: Signature)? {
    // NB: a repository libgit2 refuses says so here, not as a missing identity.
    _ = try raw
    func value(_ variable: String, _ key: String) -> String? {
      if let set = environment[variable], !set.isEmpty { return set }
      if let configured = config(key), !configured.isEmpty { return configured }
      if key == "user.email", let email = environment["EMAIL"], !email.isEmpty { return email }
      return nil
    }
    // NB: libc's zone (TZ, else /etc/localtime), as git's own commits.
    var clock = time_t(now.timeIntervalSince1970.rounded(.down))
    var fields = tm()
    localtime_r(&clock, &fields)
    let offset = fields.tm_gmtoff / 60
    let when = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
    guard let authorName = value("GIT_AUTHOR_NAME", "user.name"),
      let authorEmail = value("GIT_AUTHOR_EMAIL", "user.email"),
      let committerName = value("GIT_COMMITTER_NAME", "user.name"),
      let committerEmail = value("GIT_COMMITTER_EMAIL", "user.email")
    else { return nil }
    var author = Signature(name: authorName, email: authorEmail, date: when, offsetMinutes: offset)
    var committer = Signature(
      name: committerName, email: committerEmail, date: when, offsetMinutes: offset)
    for (variable, isAuthor) in [("GIT_AUTHOR_DATE", true), ("GIT_COMMITTER_DATE", false)] {
      guard let text = environment[variable], !text.isEmpty else { continue }
      guard let (date, minutes) = GitDate.parse(text) else {
        throw GitError(
          code: -1, operation: "read \(variable)",
          message:
            "invalid date format: '\(text)' (git takes '2026-11-27T09:30:00+01:00', 'Fri, 27 Nov 2026 09:30:00 +0100' or '@1764232200 +0100'); fix or unset \(variable)"
        )
      }
      if isAuthor {
        (author.date, author.offsetMinutes) = (date, minutes)
      } else {
        (committer.date, committer.offsetMinutes) = (date, minutes)
      }
    }
    return (author, committer)
  }

  // MARK: History

  /// What a commit says about itself.
  public struct CommitInfo: Sendable {
    /// The commit.
    public var id: ObjectID
    /// Its parents, first parent first.
    public var parents: [ObjectID]
    /// The full message.
    public var message: String
    /// The author.
    public var author: Signature
  }

  /// Reads a commit.
  public func commitInfo(_ id: ObjectID) throws(GitError) -> CommitInfo {
    var oid = id.oid
    var commit: OpaquePointer?
    try Check.rc(git_commit_lookup(&commit, raw, &oid), "read commit \(id.short)")
    defer { git_commit_free(commit) }
    var parents: [ObjectID] = []
    for i in 0..<git_commit_parentcount(commit) {
      if let p = ObjectID(git_commit_parent_id(commit, i)) { parents.append(p) }
    }
    let a = git_commit_author(commit)!.pointee
    return CommitInfo(
      id: id, parents: parents, message: String(cString: git_commit_message(commit)),
      author: Signature(
        name: String(cString: a.name), email: String(cString: a.email),
        date: Date(timeIntervalSince1970: TimeInterval(a.when.time)),
        offsetMinutes: Int(a.when.offset)))
  }
}
