import Foundation

/// Runs commands as an ordinary (non-root) user, so that file permissions mean what they mean
/// for the people who use dinger: root reads a `chmod 000` file anyway. Under root the tests
/// make a system user `dinger-test` once (useradd) and hand the sandbox to it; as any other
/// user they run as themselves.
public enum OrdinaryUser {
  public static let name = "dinger-test"

  /// Whether the tests run as root (and so must switch user).
  public static var isRoot: Bool { getuid() == 0 }

  /// Makes the user when missing and gives it the sandbox; throws when that is impossible.
  public static func prepare(_ box: Sandbox) throws {
    guard isRoot else { return }
    if try ProcessRunner.run("/usr/bin/id", ["-u", name]).status != 0 {
      let made = try ProcessRunner.run(
        "/usr/sbin/useradd", ["--system", "--no-create-home", "--shell", "/usr/sbin/nologin", name])
      // NB: 9: made meanwhile by a test running beside this one.
      guard made.status == 0 || made.status == 9 else {
        throw SpawnError("useradd \(name): \(made.stderr)")
      }
    }
    let owned = try ProcessRunner.run("/bin/chown", ["-R", "\(name):\(name)", box.home.path()])
    guard owned.status == 0 else { throw SpawnError("chown: \(owned.stderr)") }
  }

  /// Runs `executable ARGS` as the ordinary user, in `directory`, with `environment`.
  public static func run(
    _ executable: String, _ arguments: [String], in directory: URL,
    environment: [String: String]
  ) throws -> ProcessResult {
    guard isRoot else {
      return try ProcessRunner.run(executable, arguments, in: directory, environment: environment)
    }
    return try ProcessRunner.run(
      "/usr/bin/setpriv",
      ["--reuid", name, "--regid", name, "--clear-groups", "--", executable] + arguments,
      in: directory, environment: environment)
  }
}

extension Sandbox {
  /// Runs dinger in the data folder as an ordinary user (see `OrdinaryUser`).
  @discardableResult
  public func dingerAsUser(_ args: String..., env: [String: String] = [:]) throws -> ProcessResult {
    try OrdinaryUser.run(dingerBinary, args, in: data, environment: environment.merging(env) { $1 })
  }

  /// Runs git in the data folder as an ordinary user.
  @discardableResult
  public func gitAsUser(_ args: String...) throws -> ProcessResult {
    try OrdinaryUser.run(
      ProcessRunner.which("git") ?? "/usr/bin/git", args, in: data, environment: environment)
  }
}
