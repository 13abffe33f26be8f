import FoundationEssentials
import Glibc

/// dinger's own folders under `.git/` (`.git/dinger/` and those in it): real folders or not yet
/// made, never followed through a link. A link placed at `.git/dinger` (or in it) would send
/// dinger's locks, journal, caches and indexes outside the repository.
enum OwnFolder {
  /// The first of `folder` and its parents up to `.git/dinger` (its nearest parent of that
  /// name) that exists and is not a real folder, or nil when every one that exists is a folder.
  static func notAFolder(_ folder: URL) -> String? {
    var own = folder.standardizedFileURL
    while own.lastPathComponent != "dinger", own.pathComponents.count > 1 {
      own = own.deletingLastPathComponent()
    }
    let top = own.deletingLastPathComponent().path
    var url = folder.standardizedFileURL
    var found: String?
    while url.path.hasPrefix(top + "/") {
      var st = stat()
      if lstat(url.path, &st) == 0, st.st_mode & S_IFMT != S_IFDIR { found = url.path }
      url = url.deletingLastPathComponent()
    }
    return found
  }

  /// Throws a refusal naming the link (or file) on the way to `folder`.
  static func check(_ folder: URL) throws {
    guard let bad = notAFolder(folder) else { return }
    var st = stat()
    let isLink = lstat(bad, &st) == 0 && st.st_mode & S_IFMT == S_IFLNK
    throw StorageError(
      "\(bad) is \(isLink ? "a link" : "not a folder"); dinger keeps its locks and journal there and never follows a link or writes through a file in git's folder: remove it (rm '\(bad)') and run this again"
    )
  }
}

extension DataRepository {
  /// Whether `folder` (in `.git/dinger/`) is reached through a link or a file: nothing of
  /// dinger's may be written there.
  public func ownFolderIsLinked(_ folder: URL) -> Bool { OwnFolder.notAFolder(folder) != nil }
}
