import Base
internal import CGit2
import FoundationEssentials
import Glibc

/// A named remote of a repository.
public struct RemoteInfo: Sendable, Equatable {
  /// Its name (`origin`).
  public var name: String
  /// Where it is.
  public var url: String

  /// A remote.
  public init(name: String, url: String) { (self.name, self.url) = (name, url) }
}

/// How far a transfer got, for progress lines.
public struct TransferProgress: Sendable, Equatable {
  /// What the transfer is doing, in git's words.
  public enum Stage: String, Sendable, Equatable {
    case receiving = "Receiving objects", resolving = "Resolving deltas"
    case counting = "Counting objects", compressing = "Compressing objects"
    case writing = "Writing objects"
    /// An http push's request going out (bytes of bytes).
    case sending = "Sending pack"
    /// The server preparing its answer, silent so far (seconds waited, in `received`/`done`).
    case waiting = "Waiting for the server"
  }

  /// Objects received so far, and how many there will be.
  public var received: Int
  public var total: Int
  /// Bytes received (or sent).
  public var bytes: Int
  /// The stage; objects are `received` of `total` in it (done of to do).
  public var stage: Stage = .receiving

  /// A progress report.
  public init(received: Int, total: Int, bytes: Int, stage: Stage = .receiving) {
    (self.received, self.total, self.bytes, self.stage) = (received, total, bytes, stage)
  }
}

/// What a push did to the remote branch.
public enum PushOutcome: Sendable, Equatable {
  /// The remote's refusal `reason` of a branch: `.rejected` when the branch moved meanwhile
  /// (merge again and retry); an error when the server said no for another reason (a hook, a
  /// protected branch, a full disk), which retrying cannot fix.
  static func refusal(_ reason: String, remote: String) throws(GitError) -> PushOutcome {
    // NB: what the remote's hooks said comes after the reason, a `remote: ` line each.
    var said = ""
    var reason = reason
    if let split = reason.firstRange(ofText: "\nremote: ") {
      said = String(reason[split.lowerBound...])
      reason = String(reason[..<split.lowerBound])
    }
    let lower = reason.lowercased() + said.lowercased()
    let moved = [
      "fetch first", "non-fast-forward", "not fast-forward", "failed to lock", "stale info",
      "failed to update ref", "cannot lock ref",
    ]
    if moved.contains(where: { lower.containsText($0) }) { return .rejected(reason + said) }
    throw GitError(
      code: -1, operation: "push to \(remote)",
      message:
        "the remote refused the push (\(reason)); your commits are safe here, and the next 'dinger sync' tries again\(said)"
    )
  }

  case pushed
  /// The remote refused the update (it moved since we fetched, or a hook said no).
  case rejected(String)
}

extension Repository {
  // MARK: Remotes

  /// The configured remotes, by name.
  public func remotes() throws(GitError) -> [RemoteInfo] {
    var names = git_strarray()
    try Check.rc(git_remote_list(&names, raw), "list remotes")
    defer { git_strarray_dispose(&names) }
    var out: [RemoteInfo] = []
    for i in 0..<names.count {
      let name = String(cString: names.strings[i]!)
      var remote: OpaquePointer?
      guard git_remote_lookup(&remote, try raw, name) == 0 else { continue }
      defer { git_remote_free(remote) }
      out.append(
        RemoteInfo(name: name, url: git_remote_url(remote).map { String(cString: $0) } ?? ""))
    }
    return out
  }

  /// Adds a remote with git's default fetch refspec.
  public func addRemote(_ name: String, url: String) throws(GitError) {
    try RemoteURL.check(url)
    var remote: OpaquePointer?
    try Check.rc(git_remote_create(&remote, raw, name, url), "add remote \(name)")
    git_remote_free(remote)
  }

  /// Removes a remote and its remote-tracking branches.
  public func removeRemote(_ name: String) throws(GitError) {
    try Check.rc(git_remote_delete(raw, name), "remove remote \(name)")
  }

  /// Sets a value in the repository's own config (`.git/config`).
  public func setConfig(_ key: String, _ value: String) throws(GitError) {
    var config: OpaquePointer?
    try Check.rc(git_repository_config(&config, raw), "open config")
    defer { git_config_free(config) }
    try Check.rc(git_config_set_string(config, key, value), "set \(key)")
  }

  /// A value of the repository's effective config, or nil.
  public func config(_ key: String) -> String? {
    var config: OpaquePointer?
    guard let raw = try? raw, git_repository_config_snapshot(&config, raw) == 0 else { return nil }
    defer { git_config_free(config) }
    var out: UnsafePointer<CChar>?
    guard git_config_get_string(&out, config, key) == 0, let out else { return nil }
    return String(cString: out)
  }

  /// A value of the user's and the system's config (no repository), or nil.
  public static func globalConfig(_ key: String) -> String? { userConfig(key) }

  /// A value of the user's and the system's config (no repository), or nil.
  static func userConfig(_ key: String) -> String? {
    _ = Check.initialized
    var live: OpaquePointer?
    guard git_config_open_default(&live) == 0 else { return nil }
    defer { git_config_free(live) }
    // NB: libgit2 reads strings only from a snapshot (from the live object it answers nothing,
    // which lost a global http.sslVerify=false at clone time).
    var config: OpaquePointer?
    guard git_config_snapshot(&config, live) == 0 else { return nil }
    defer { git_config_free(config) }
    var out: UnsafePointer<CChar>?
    guard git_config_get_string(&out, config, key) == 0, let out else { return nil }
    return String(cString: out)
  }

  /// Every value of a multi-valued key (`http.extraHeader`), in the order git reads them
  /// (system, global, then the repository's config), of a libgit2 repository handle's effective
  /// config (nil: the user's and the system's).
  static func configValues(_ key: String, of repository: OpaquePointer?) -> [String] {
    _ = Check.initialized
    var source: OpaquePointer?
    if let repository {
      guard git_repository_config_snapshot(&source, repository) == 0 else { return [] }
    } else {
      var live: OpaquePointer?
      guard git_config_open_default(&live) == 0 else { return [] }
      defer { git_config_free(live) }
      guard git_config_snapshot(&source, live) == 0 else { return [] }
    }
    defer { git_config_free(source) }
    var iterator: OpaquePointer?
    guard git_config_multivar_iterator_new(&iterator, source, key, nil) == 0 else { return [] }
    defer { git_config_iterator_free(iterator) }
    var values: [String] = []
    var entry: UnsafeMutablePointer<git_config_entry>?
    while git_config_next(&entry, iterator) == 0, let entry {
      values.append(entry.pointee.value.map { String(cString: $0) } ?? "")
    }
    return values
  }

  /// A value of the effective config of a libgit2 repository handle (nil: the user's).
  static func config(_ key: String, of repository: OpaquePointer?) -> String? {
    guard let repository else { return userConfig(key) }
    var config: OpaquePointer?
    guard git_repository_config_snapshot(&config, repository) == 0 else { return nil }
    defer { git_config_free(config) }
    var out: UnsafePointer<CChar>?
    guard git_config_get_string(&out, config, key) == 0, let out else { return nil }
    return String(cString: out)
  }

  /// The commit a reference points at, or nil when it does not exist.
  public func resolve(_ reference: String) throws(GitError) -> ObjectID? {
    var oid = git_oid()
    let rc = git_reference_name_to_id(&oid, try raw, reference)
    if rc == GIT_ENOTFOUND.rawValue { return nil }
    try Check.rc(rc, "read \(reference)")
    return ObjectID(oid)
  }

  // MARK: Transfers

  /// Fetches `branch` of `remote` into `refs/remotes/<remote>/<branch>`; returns what that
  /// now points at (nil when the remote has no such branch yet, as a new empty repository).
  public func fetch(
    _ remote: String, branch: String, session: TransferSession
  ) throws(GitError) -> ObjectID? {
    var handle: OpaquePointer?
    try Check.rc(git_remote_lookup(&handle, raw, remote), "find remote \(remote)")
    defer { git_remote_free(handle) }
    let fetchURL = git_remote_url(handle).map { String(cString: $0) } ?? ""
    try RemoteURL.check(fetchURL)
    var options = git_fetch_options()
    git_fetch_options_init(&options, UInt32(GIT_FETCH_OPTIONS_VERSION))
    session.configure(for: self, url: fetchURL)
    session.install(&options.callbacks)
    options.proxy_opts.type = GIT_PROXY_AUTO  // http.proxy and the proxy variables, as git
    options.download_tags = GIT_REMOTE_DOWNLOAD_TAGS_NONE
    // A branch the remote no longer has (or a remote replaced by an empty one) drops its
    // tracking ref: a stale one made the sync say "up to date" and push nothing.
    options.prune = GIT_FETCH_PRUNE
    let tracking = "refs/remotes/\(remote)/\(branch)"
    let spec = strdup("+refs/heads/\(branch):\(tracking)")
    defer { free(spec) }
    var specs = [UnsafeMutablePointer<CChar>?](arrayLiteral: spec)
    let rc = specs.withUnsafeMutableBufferPointer { buffer -> Int32 in
      var array = git_strarray(strings: buffer.baseAddress, count: 1)
      return withExtendedLifetime(session) {
        // NB: libgit2 locks the tracking ref as it moves it: claimed as dinger's meanwhile.
        (try? claimingRefLocks([tracking]) { () throws(GitError) in
          git_remote_fetch(handle, &array, &options, "dinger sync: fetch")
        }) ?? -1
      }
    }
    session.settle(
      url: git_remote_url(handle).map { String(cString: $0) } ?? "", worked: rc >= 0, code: rc)
    try session.check(rc, "fetch from \(remote)")
    // NB: the listing stays readable after the fetch disconnected: the remote's branches, for
    // a warning when the one we sync is not among them.
    var heads: UnsafeMutablePointer<UnsafePointer<git_remote_head>?>?
    var count = 0
    if git_remote_ls(&heads, &count, handle) == 0, let heads {
      session.remoteBranches = (0..<count).compactMap { i -> String? in
        guard let head = heads[i], let name = head.pointee.name.map({ String(cString: $0) }),
          name.hasPrefix("refs/heads/")
        else { return nil }
        return String(name.dropFirst("refs/heads/".count))
      }
    }
    return try resolve(tracking)
  }

  /// Where pushes to `remote` go, as git decides it: `remote.<name>.pushurl`, else the URL
  /// rewritten by `url.<base>.pushInsteadOf`, else the URL (a team may fetch over https and
  /// push over ssh).
  public func pushURL(of remote: String) throws(GitError) -> String {
    var handle: OpaquePointer?
    try Check.rc(git_remote_lookup(&handle, raw, remote), "find remote \(remote)")
    defer { git_remote_free(handle) }
    if let push = git_remote_pushurl(handle) { return String(cString: push) }
    let url = git_remote_url(handle).map { String(cString: $0) } ?? ""
    // NB: git's rule: the longest `pushInsteadOf` value that starts the URL wins.
    var best: (base: String, prefix: String)?
    var config: OpaquePointer?
    guard let raw = try? raw, git_repository_config_snapshot(&config, raw) == 0 else { return url }
    defer { git_config_free(config) }
    var iterator: OpaquePointer?
    guard git_config_iterator_glob_new(&iterator, config, "^url\\..*\\.pushinsteadof$") == 0 else {
      return url
    }
    defer { git_config_iterator_free(iterator) }
    var entry: UnsafeMutablePointer<git_config_entry>?
    while git_config_next(&entry, iterator) == 0, let e = entry {
      let name = String(cString: e.pointee.name)
      let value = String(cString: e.pointee.value)
      guard url.hasPrefix(value), value.count > (best?.prefix.count ?? -1) else { continue }
      let base = String(name.dropFirst(4).dropLast(".pushinsteadof".count))
      best = (base, value)
    }
    guard let best else { return url }
    return best.base + url.dropFirst(best.prefix.count)
  }

  /// Pushes the local `branch` to the same branch of `remote` (never forced).
  public func push(_ remote: String, branch: String, session: TransferSession) throws(GitError)
    -> PushOutcome
  {
    var handle: OpaquePointer?
    try Check.rc(git_remote_lookup(&handle, raw, remote), "find remote \(remote)")
    defer { git_remote_free(handle) }
    let url = try pushURL(of: remote)
    try RemoteURL.check(url)
    if Self.pushesItself(url) {
      return try pushOverNetwork(url: url, remote: remote, branch: branch, session: session)
    }
    var options = git_push_options()
    git_push_options_init(&options, UInt32(GIT_PUSH_OPTIONS_VERSION))
    options.pb_parallelism = 0  // delta search on every core
    session.configure(for: self, url: url)
    session.install(&options.callbacks)
    options.proxy_opts.type = GIT_PROXY_AUTO
    let spec = strdup("refs/heads/\(branch):refs/heads/\(branch)")
    defer { free(spec) }
    var specs = [UnsafeMutablePointer<CChar>?](arrayLiteral: spec)
    let rc = specs.withUnsafeMutableBufferPointer { buffer -> Int32 in
      var array = git_strarray(strings: buffer.baseAddress, count: 1)
      return withExtendedLifetime(session) { git_remote_push(handle, &array, &options) }
    }
    // NB: libgit2 1.5 gives a code only for a push it refuses itself; a server's refusal over
    // git:// comes as text (ssh and http(s) pushes read the server's report instead).
    if rc == GIT_ENONFASTFORWARD.rawValue {
      return .rejected("refs/heads/\(branch): not a fast-forward (fetch first)")
    }
    if rc < 0, let message = git_error_last()?.pointee.message.map({ String(cString: $0) }),
      message.containsText("non-fast-forward")
        || message.containsText("cannot push because a reference")
        || message.containsText("failed to update ref") || message.containsText("not fast-forward")
        || message.containsText("fetch first")
    {
      return .rejected(message)
    }
    session.settle(
      url: git_remote_url(handle).map { String(cString: $0) } ?? "", worked: rc >= 0, code: rc)
    try session.check(rc, "push to \(remote)")
    if let refused = session.refused { return try PushOutcome.refusal(refused, remote: remote) }
    // Keep the remote-tracking branch in step, as git push does.
    if let head = try resolve("refs/heads/\(branch)") {
      var ref: OpaquePointer?
      var oid = head.oid
      let handle = try raw
      let tracking = "refs/remotes/\(remote)/\(branch)"
      try claimingRefLocks([tracking]) { () throws(GitError) in
        _ = git_reference_create(&ref, handle, tracking, &oid, 1, "dinger sync: push")
      }
      git_reference_free(ref)
    }
    return .pushed
  }

  /// Removes the temporary packs (`pack_git2_*`) a killed fetch left in `objects/pack`: git
  /// reports them as garbage. Only ones untouched for ten minutes (a fetch running now writes
  /// its own).
  public func removeStaleTemporaryPacks() {
    let folder = gitDirectory.appendingPathComponent("objects/pack")
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else {
      return
    }
    let now = Date().timeIntervalSince1970
    for name in names where name.hasPrefix("pack_git2_") {
      let path = folder.appendingPathComponent(name).path
      var st = stat()
      if lstat(path, &st) == 0, st.st_mode & S_IFMT == S_IFREG,
        now - Double(st.st_mtim.tv_sec) > 600
      {
        unlink(path)
      }
    }
  }

  /// Clones `url` into `path` with its default branch checked out.
  public static func clone(_ url: String, to path: URL, session: TransferSession) throws(GitError)
    -> Repository
  {
    _ = Check.initialized
    try RemoteURL.check(url)
    var options = git_clone_options()
    git_clone_options_init(&options, UInt32(GIT_CLONE_OPTIONS_VERSION))
    session.configure(for: nil, url: url)
    session.install(&options.fetch_opts.callbacks)
    options.fetch_opts.proxy_opts.type = GIT_PROXY_AUTO
    // A file:// URL is a folder on this machine too: its objects are linked or copied as for
    // a plain path. libgit2's local transport re-packed every object, recomputing each delta
    // (16x git clone at 130,000 commits, killed after 20 min with a 3.6 GB temporary pack).
    if url.lowercased().hasPrefix("file://") { options.local = GIT_CLONE_LOCAL }
    // NB: the working tree and index are written by checkOutFresh (Checkout.swift).
    options.checkout_opts.checkout_strategy = GIT_CHECKOUT_NONE.rawValue
    var out: OpaquePointer?
    let rc = withExtendedLifetime(session) { git_clone(&out, url, path.path, &options) }
    session.settle(url: url, worked: rc >= 0, code: rc)
    try session.check(rc, "clone \(url)")
    let repository = Repository(out!)
    if let head = try repository.head().commit {
      try repository.checkOut(head)
    } else {
      try repository.checkOutSomeRemoteBranch()
    }
    return repository
  }

  /// After cloning a remote whose HEAD names a branch it does not have (a bare repository made
  /// with another default branch), checks out main, else master, else its first branch.
  func checkOutSomeRemoteBranch() throws(GitError) {
    var names: [String] = []
    var iterator: OpaquePointer?
    try Check.rc(git_branch_iterator_new(&iterator, raw, GIT_BRANCH_REMOTE), "list branches")
    defer { git_branch_iterator_free(iterator) }
    var ref: OpaquePointer?
    var type = GIT_BRANCH_REMOTE
    while git_branch_next(&ref, &type, iterator) == 0 {
      names.append(String(cString: git_reference_name(ref)))
      git_reference_free(ref)
    }
    let prefix = "refs/remotes/origin/"
    let branches = names.filter { $0.hasPrefix(prefix) && !$0.hasSuffix("/HEAD") }
      .map { String($0.dropFirst(prefix.count)) }
    guard let branch = ["main", "master"].first(where: branches.contains) ?? branches.first,
      let commit = try resolve(prefix + branch)
    else { return }
    try moveBranch("refs/heads/\(branch)", to: commit, from: nil, reflog: "clone")
    try setConfig("branch.\(branch).remote", "origin")
    try setConfig("branch.\(branch).merge", "refs/heads/\(branch)")
    try Check.rc(git_repository_set_head(raw, "refs/heads/\(branch)"), "set HEAD")
    try checkOut(commit)
  }

  /// A fresh clone's checkout: dinger's own (Checkout.swift), else libgit2's where the tree
  /// needs filters.
  func checkOut(_ commit: ObjectID) throws(GitError) {
    do {
      try checkTreesToCheckOut(commit)
    } catch let problem as IncomingTreeProblem {
      throw GitError(code: GIT_ERROR.rawValue, operation: "check out", message: problem.description)
    } catch let error as GitError {
      throw error
    } catch {
      throw GitError.system("check out \(commit.short)")
    }
    if try checkOutFresh(commit) { return }
    var options = git_checkout_options()
    git_checkout_options_init(&options, UInt32(GIT_CHECKOUT_OPTIONS_VERSION))
    options.checkout_strategy = GIT_CHECKOUT_FORCE.rawValue
    try Check.rc(git_checkout_head(raw, &options), "check out \(commit.short)")
  }
}

/// Remote addresses are untrusted text (a shared config, a teammate's message): checked before
/// anything is sent anywhere.
public enum RemoteURL {
  /// Refuses an address that holds, raw or percent-decoded, a newline, carriage return or NUL:
  /// `https://evil.example/x%0ahost=github.com` would otherwise make a credential helper answer
  /// for another host (git's CVE-2020-5260). Also refuses one whose host or path starts with
  /// `-`, which ssh would take for an option (git's CVE-2017-1000117).
  public static func check(_ url: String) throws(GitError) {
    let decoded = url.percentDecoded ?? url
    for text in [url, decoded]
    where text.unicodeScalars.contains(where: { $0 == "\n" || $0 == "\r" || $0 == "\0" }) {
      throw refused(url, "holds a line break or NUL once decoded")
    }
    if let parts = URLComponents(string: url), let host = parts.host, host.hasPrefix("-") {
      throw refused(url, "names a host that starts with '-'")
    }
    // NB: `<transport>::<address>` makes git run the remote helper `git-remote-<transport>`
    // (`ext::` runs any command): dinger has no remote helpers, and such an address was
    // tried as ssh to a host named after the transport.
    if let helper = url.firstRange(ofText: "::").map({ url[..<$0.lowerBound] }), !helper.isEmpty,
      helper.unicodeScalars.allSatisfy({
        ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
          || "+.-_".unicodeScalars.contains($0)
      })
    {
      throw GitError(
        code: GIT_EINVALIDSPEC.rawValue, operation: "use remote address",
        message:
          "\(redacted(url).debugDescription) asks for git's remote helper 'git-remote-\(helper)' (the '\(helper)::' form); dinger runs no remote helpers: give the address itself, a path, file://, git://, ssh://, https:// or user@host:path"
      )
    }
    if !url.containsText("://"), let colon = url.firstIndex(of: ":"),
      url.hasPrefix("-")
        || url[url.index(after: colon)...].hasPrefix("-")
    {
      throw refused(url, "starts a host or path with '-'")
    }
  }

  private static func refused(_ url: String, _ why: String) -> GitError {
    GitError(
      code: GIT_EINVALIDSPEC.rawValue, operation: "use remote address",
      message:
        "\(redacted(url).debugDescription) \(why), which could make git's tools (credential helpers, ssh) act for another host; dinger refuses it. Check the address, and fix it with 'dinger remote rm NAME' and 'dinger remote add NAME URL'"
    )
  }

  /// The address with any password replaced by `***`.
  public static func redacted(_ url: String) -> String {
    guard var parts = URLComponents(string: url), parts.password != nil else { return url }
    // NB: as git prints such a URL: without the user and the password.
    parts.user = nil
    parts.password = nil
    return parts.string ?? url
  }
}
