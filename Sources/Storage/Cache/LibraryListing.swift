import Base
import FoundationEssentials
import Glibc
import Models

/// A library as `word list` shows it: what names it, and its words as packed rows.
public struct LibraryListing: Sendable {
  public var path: String
  public var id: UUID?
  public var name: String
  public var language: String
  public var rows: WordRows

  /// The file name without `.yaml`.
  public var slug: String { RecordLayout.slug(ofPath: path) }
}

extension DataRepository {
  /// Every library as listing rows, taken from the record cache without making `Word`s when
  /// the file has not changed; nil when some library file has findings (a broken word, a
  /// link, an unreadable file): the full read then says what they are.
  public func libraryListings() -> [LibraryListing]? {
    let (paths, problems) = directory.recordPathsAndProblems(of: .library)
    guard problems.isEmpty else { return nil }
    let cache = RecordCache.of(gitDirectory: git.gitDirectory)
    defer { cache?.save() }
    let now = clock()
    let tree = WorkTree(root: root)
    var out: [LibraryListing] = []
    var hits = 0
    for path in paths {
      // From the record cache, else the full decode (cached for next time).
      let listed: LibraryListing??
      do {
        listed = try tree.withOpenFile(path) { _, stamp -> LibraryListing? in
          guard let listing = cache?.libraryListing(path, stamp: stamp) else { return nil }
          hits += 1
          return listing
        }
      } catch { return nil }
      switch listed {
      case nil: continue  // no file (any more)
      case let listing??: out.append(listing)
      case .some(nil):
        // The full decode, which says what is wrong if anything is.
        guard
          case .success(.read(let bytes, let stamp)) = tree.read([path], unless: { _, _ in false })[
            0]
        else { return nil }
        let file = RecordCodec.decode(bytes, path: path, kind: .library)
        guard case .library(let library)? = file.record, file.diagnostics.isEmpty else {
          return nil
        }
        cache?.remember(
          path, stamp: stamp, record: .library(library),
          places: DataChecker.SlimFile.places(of: file), now: now)
        out.append(
          LibraryListing(
            path: path, id: library.id, name: library.name, language: library.language,
            rows: WordRows(library.words)))
      }
    }
    cacheHits = hits
    Trace.mark("listed \(paths.count) libraries, \(hits) of them from the record cache")
    return out
  }
}
