import Base
import FoundationEssentials
import Git
import Glibc

extension DataRepository {
  /// The git repository underneath, for syncing with remotes.
  public var gitRepository: Repository { git }
}
