internal import CGit2

/// A libgit2 failure, with libgit2's own message.
public struct GitError: Error, Sendable, CustomStringConvertible {
  /// libgit2's return code (`GIT_ENOTFOUND`, `GIT_EMODIFIED`, ...).
  public let code: Int32
  /// What we were doing.
  public let operation: String
  /// libgit2's message.
  public let message: String
  /// libgit2 refuses the repository itself (an unknown format, a damaged config): no command
  /// that needs git can go on, and the command ends with git's status for that, 128.
  public var refusesRepository = false

  /// The reference moved since it was read (compare-and-swap failed).
  public var isModified: Bool { code == GIT_EMODIFIED.rawValue }
  /// A lock file is held by another process.
  public var isLocked: Bool { code == GIT_ELOCKED.rawValue }
  /// The object, reference or path does not exist.
  public var isNotFound: Bool { code == GIT_ENOTFOUND.rawValue }

  public var description: String { "\(operation): \(message)" }

  /// An object that does not read as what it should be.
  static func damaged(_ what: String) -> GitError {
    GitError(code: GIT_ERROR.rawValue, operation: "read the repository", message: what)
  }
}

/// Turns libgit2 return codes into `GitError`s.
enum Check {
  /// Initializes libgit2 once per process.
  static let initialized: Void = {
    _ = git_libgit2_init()
    _ = dinger_git_verify_object_hashes(0)
    // NB: every open checks ownership first (Repository.checkOwnership), as git reads it.
    _ = dinger_git_validate_owner(0)
    _ = SSHTransport.registered
    _ = HTTPTransport.registered
  }()

  /// Throws when `rc` is negative, with the message libgit2 left for this thread.
  @discardableResult
  static func rc(_ rc: Int32, _ operation: @autoclosure () -> String) throws(GitError) -> Int32 {
    guard rc < 0 else { return rc }
    let message = git_error_last().flatMap { $0.pointee.message.map { String(cString: $0) } }
    throw GitError(code: rc, operation: operation(), message: message ?? "error \(rc)")
  }
}
