import Foundation

/// A temporary HOME with a git identity, a data folder inside it, and helpers to run `dinger`
/// and `git` there as a user would. libgit2 reads `$HOME/.gitconfig`, so the sandbox's HOME keeps
/// every test away from the machine's own git configuration.
public final class Sandbox: @unchecked Sendable {
  /// The temporary folder (HOME).
  public let home: TemporaryDirectory
  /// The data repository's folder (`$HOME/data`), not created until `init`.
  public let data: URL

  /// A sandbox; `identity: false` leaves git without user.name/user.email.
  public init(identity: Bool = true) throws {
    home = try TemporaryDirectory("dinger-home")
    data = home.url.appendingPathComponent("data")
    if identity {
      try home.write(
        ".gitconfig",
        "[user]\n\tname = Ada Lovelace\n\temail = ada@example.com\n[init]\n\tdefaultBranch = main\n"
      )
    }
  }

  /// Variables added to every command's environment (a transport's settings).
  public var extraEnvironment: [String: String] = [:]

  /// The environment dinger and git run with.
  public var environment: [String: String] {
    let base = [
      "HOME": home.url.path, "XDG_CONFIG_HOME": home.url.appendingPathComponent(".config").path,
      "XDG_DATA_HOME": home.url.appendingPathComponent(".local/share").path,
      "GIT_CONFIG_NOSYSTEM": "1", "EDITOR": "false", "VISUAL": "",
    ]
    return base.merging(extraEnvironment) { $1 }
  }

  /// Runs dinger in the data folder (or `in`).
  @discardableResult
  public func dinger(_ args: String..., in dir: URL? = nil, env: [String: String] = [:]) throws
    -> ProcessResult
  {
    try dinger(args, in: dir, env: env)
  }

  /// Runs dinger with an argument array.
  @discardableResult
  public func dinger(_ args: [String], in dir: URL? = nil, env: [String: String] = [:]) throws
    -> ProcessResult
  {
    try FileManager.default.createDirectory(at: dir ?? data, withIntermediateDirectories: true)
    return try ProcessRunner.run(
      dingerBinary, args, in: dir ?? data, environment: environment.merging(env) { $1 })
  }

  /// Runs git in the data folder; returns stdout.
  @discardableResult
  public func git(_ args: String..., in dir: URL? = nil) throws -> String {
    try git(args, in: dir)
  }

  /// Runs git with an argument array; returns stdout.
  @discardableResult
  public func git(_ args: [String], in dir: URL? = nil) throws -> String {
    let result = try ProcessRunner.run(
      ProcessRunner.which("git") ?? "/usr/bin/git", args, in: dir ?? data, environment: environment)
    guard result.status == 0 else {
      throw NSError(
        domain: "git", code: Int(result.status),
        userInfo: [
          NSLocalizedDescriptionKey: "git \(args.joined(separator: " ")): \(result.stderr)"
        ])
    }
    return result.stdout
  }

  /// A file in the data folder.
  public func read(_ path: String) throws -> String {
    try String(contentsOf: data.appendingPathComponent(path), encoding: .utf8)
  }

  /// The value of a record text's top-level `id:` line.
  public static func id(in text: String) -> Substring {
    text.split(separator: "\n").first { $0.hasPrefix("id: ") }?.dropFirst(4) ?? ""
  }

  /// Writes a file in the data folder.
  public func write(_ path: String, _ text: String) throws {
    let url = data.appendingPathComponent(path)
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try text.write(to: url, atomically: true, encoding: .utf8)
  }

  /// HEAD's commit id.
  public func head() throws -> String {
    try git("rev-parse", "HEAD").trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// What plain git must agree with after every dinger write: a clean status, a clean fsck.
  public func gitAgrees() throws -> (status: String, fsck: String) {
    (try git("status", "--porcelain"), try git("fsck", "--full"))
  }
}
