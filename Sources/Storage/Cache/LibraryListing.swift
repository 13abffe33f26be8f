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
    var hits: [String: LibraryListing] = [:]
    let read = WorkTree(root: root).read(paths) { path, stamp in
      guard let listing = cache?.libraryListing(path, stamp: stamp) else { return false }
      hits[path] = listing
      return true
    }
    cacheHits = hits.count
    var out: [LibraryListing] = []
    for (path, result) in zip(paths, read) {
      switch result {
      case .success(.known): if let listing = hits[path] { out.append(listing) }
      case .success(.read(let bytes, let stamp)):
        // NB: a file in dinger's own form is read without libyaml, and cached as the full
        // decode would cache it.
        if let (listing, entry) = CanonicalLibrary.read(bytes, path: path) {
          cache?.remember(path, stamp: stamp, entry: entry, now: now)
          out.append(listing)
          continue
        }
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
      case .success(.missing): continue
      case .failure: return nil
      }
    }
    Trace.mark("listed \(paths.count) libraries, \(hits.count) of them from the record cache")
    return out
  }
}
