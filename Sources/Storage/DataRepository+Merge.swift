import Foundation
import Git

extension DataRepository {
  /// The git repository underneath, for syncing with remotes.
  public var gitRepository: Repository { git }
}
