import Base
internal import CGit2
import FoundationEssentials
import Glibc

extension Repository {
  /// Throws git's "dubious ownership" refusal when the repository at `worktree` (nil for a bare
  /// one) and `gitDirectory` belongs to another user and no `safe.directory` names it, as git
  /// 2.39 decides (`ensure_valid_ownership`): every one of the working tree and the git folder
  /// must be the user's (root run through sudo: the sudo user's), else the user's and the
  /// system's config (never the repository's own) must list its path in `safe.directory`,
  /// where `*` trusts every path and an empty value forgets those before it.
  static func checkOwnership(
    worktree: URL?, gitDirectory: URL,
    environment: [String: String] = ProcessInfo.processInfo
      .environment
  ) throws(GitError) {
    let places = [worktree, gitDirectory].compactMap { $0 }
    guard !places.allSatisfy({ owned($0.path, environment: environment) }) else { return }
    let shown = (worktree ?? gitDirectory).path
    if safe(shown, values: configValues("safe.directory", of: nil), environment: environment) {
      return
    }
    throw GitError(
      code: GIT_EOWNER.rawValue, operation: "open repository at \(shown)",
      message: Self.dubious(shown))
  }

  /// The ownership check for the repository at `url`: a working tree with `.git` (a folder, or
  /// a file naming one), or a bare repository's folder.
  static func checkOwnership(at url: URL) throws(GitError) {
    if url.lastPathComponent == ".git" {
      // A working tree's git folder, opened by itself: the working tree is what safe.directory
      // names.
      return try checkOwnership(worktree: url.deletingLastPathComponent(), gitDirectory: url)
    }
    let dotGit = url.appendingPathComponent(".git")
    var st = stat()
    guard lstat(dotGit.path, &st) == 0 else {
      return try checkOwnership(worktree: nil, gitDirectory: url)
    }
    var gitDirectory = dotGit
    if st.st_mode & S_IFMT == S_IFREG,
      let text = try? String(contentsOf: dotGit, encoding: .utf8), text.count < 4096,
      text.hasPrefix("gitdir: ")
    {
      let path = text.dropFirst(8).trimmed()
      gitDirectory =
        path.hasPrefix("/")
        ? URL(fileURLWithPath: path) : url.appendingPathComponent(path).standardizedFileURL
    }
    try checkOwnership(worktree: url, gitDirectory: gitDirectory)
  }

  /// git's words and fix for a repository another user owns.
  public static func dubious(_ path: String) -> String {
    "detected dubious ownership in repository at '\(path)': it belongs to another user, and git (and dinger) do not use a repository someone else controls; to add an exception for this directory, call: git config --global --add safe.directory '\(path)' (or '*' to trust every directory)"
  }

  /// Whether `path` (a file or folder that exists) is the user's; a missing one is nobody's
  /// concern here (the open itself says what is missing).
  static func owned(_ path: String, environment: [String: String]) -> Bool {
    var st = stat()
    guard lstat(path, &st) == 0 else { return true }
    var me = geteuid()
    // NB: as git: root running through sudo acts for the user who ran sudo.
    if me == 0, let sudo = environment["SUDO_UID"].flatMap({ UInt32($0) }) { me = sudo }
    return st.st_uid == me
  }

  /// Whether `safe.directory`'s `values` (in the order git reads them) trust `path`.
  static func safe(_ path: String, values: [String], environment: [String: String]) -> Bool {
    let target = normalized(path)
    var allowed = false
    for value in values {
      if value.isEmpty {
        allowed = false
      } else if value == "*" {
        allowed = true
      } else {
        var candidate = value
        if candidate.hasPrefix("~/"), let home = environment["HOME"] {
          candidate = home + candidate.dropFirst()
        }
        if normalized(candidate) == target { allowed = true }
      }
    }
    return allowed
  }

  /// A path without `.`, `..`, doubled or trailing slashes, links resolved where it exists.
  static func normalized(_ path: String) -> String {
    if let real = realpath(path, nil) {
      defer { free(real) }
      return String(cString: real)
    }
    return URL(fileURLWithPath: path).standardizedFileURL.path
  }
}

extension GitError {
  /// Whether this is the refusal of a repository another user owns (`Repository.dubious`).
  public var isDubiousOwnership: Bool { code == GIT_EOWNER.rawValue }
}
