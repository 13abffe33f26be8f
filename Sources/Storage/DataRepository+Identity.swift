import FoundationEssentials
import Git

extension DataRepository {
  /// git's `user.name` and `user.email` as a commit would take them (the environment first).
  public func gitIdentity() -> (name: String?, email: String?) {
    guard let (author, _) = try? git.identities() else { return (nil, nil) }
    return (author.name, author.email)
  }

  /// A setting of this clone only (`.git/config`, never committed): `dinger.<key>`.
  public func cloneSetting(_ key: String) -> String? {
    git.config("dinger.\(key)").flatMap { $0.isEmpty ? nil : $0 }
  }

  /// Keeps a setting of this clone only (`.git/config`).
  public func setCloneSetting(_ key: String, _ value: String) throws {
    do {
      try git.setConfig("dinger.\(key)", value)
    } catch {
      throw StorageError("could not remember dinger.\(key) in .git/config: \(error.message)")
    }
  }
}
