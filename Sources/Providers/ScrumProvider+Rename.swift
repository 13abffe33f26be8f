import Base
import FoundationEssentials
import Glibc
import Models
import Storage

extension ScrumProvider {
  /// A slug a file may be named by: lowercase letters (of any script, in NFC), digits and
  /// dashes (`Slug.isValid`).
  static func validSlug(_ slug: String) -> Bool { Slug.isValid(slug) }

  /// Renames a scrum's file to `slug` and moves its meetings into `history/<slug>/`, as one
  /// commit ("Rename scrum Design: design -> design-review, and its 3 meetings"). The records
  /// keep their ids (one without an id gets one, so that the log can follow it); `log`, `history`
  /// and `scrum show` follow a scrum across renames by that id.
  public func rename(_ stored: StoredScrum, to slug: String) throws -> ScrumCommit {
    var renamed = stored
    let subject = try dependencies.rename(
      stored.path, to: slug, kind: .scrum, title: stored.scrum.title, dependentsFolder: "history",
      dependentNoun: "meeting"
    ) { snapshot in
      var (scrum, source) = try Self.committed(stored, in: snapshot)
      var bytes = source.bytes
      if scrum.id == nil {
        scrum.id = UUID()
        bytes = Array(try RecordCodec.encode(.scrum(scrum), updating: source).text.utf8)
      }
      renamed = StoredScrum(path: "scrums/\(slug).yaml", scrum: scrum)
      return (
        bytes, scrum.id!, try dependentPaths(of: StoredScrum(path: stored.path, scrum: scrum))
      )
    }
    return ScrumCommit(stored: renamed, subject: subject)
  }
}

extension LibraryProvider {
  /// Renames a library's file to `slug` and moves its quiz results into `quizzes/<slug>/`, as
  /// one commit, as `ScrumProvider.rename` does for scrums.
  public func rename(_ stored: StoredLibrary, to slug: String) throws -> Committed {
    var renamed = stored
    let subject = try dependencies.rename(
      stored.path, to: slug, kind: .library, title: stored.library.name,
      dependentsFolder: "quizzes", dependentNoun: "quiz result"
    ) { snapshot in
      var (library, source) = try Self.committed(stored, in: snapshot)
      var bytes = source.bytes
      if library.id == nil {
        library.id = UUID()
        bytes = Array(try RecordCodec.encode(.library(library), updating: source).text.utf8)
      }
      renamed = StoredLibrary(path: "libraries/\(slug).yaml", library: library)
      return (
        bytes, library.id!, try quizPaths(of: StoredLibrary(path: stored.path, library: library))
      )
    }
    return Committed(stored: renamed, subject: subject)
  }
}

extension ScrumProvider.Dependencies {
  /// Renames a record's file within its folder and moves the files that depend on it into
  /// `<dependentsFolder>/<slug>/`, as one commit. `current` gives, under the writer lock, the
  /// record's bytes as they will be written, its id, and its dependents' paths.
  func rename(
    _ path: String, to slug: String, kind: RecordKind, title: String, dependentsFolder: String,
    dependentNoun: String,
    current: (Snapshot) throws -> (bytes: [UInt8], id: UUID, dependents: [String])
  ) throws -> String {
    let noun = kind == .scrum ? "scrum" : "library"
    guard ScrumProvider.validSlug(slug) else {
      throw StorageError(
        "'\(slug)' can't name a \(noun) file: use lowercase letters, digits and dashes (e.g. design-review, 周会)"
      )
    }
    let oldSlug = RecordLayout.slug(ofPath: path)
    guard slug != oldSlug else {
      throw StorageError("\(noun) '\(title)' is already named '\(slug)'")
    }
    let folder = String(path.split(separator: "/").first ?? "")
    let newPath = "\(folder)/\(slug).yaml"
    var subject = ""
    _ = try commit { snapshot in
      if try snapshot.read(newPath) != nil || snapshot.names(folder).contains("\(slug).yaml") {
        throw StorageError(
          "\(newPath) exists already; choose another name, or rename that \(noun) first")
      }
      let (bytes, id, dependents) = try current(snapshot)
      // NB: each dependent moves to the same folder under its own top folder (a scrum's
      // meetings to history/<slug>/, its stand-up entries to standups/<slug>/).
      let tops = Set(
        [dependentsFolder]
          + dependents.compactMap { $0.split(separator: "/").first.map(String.init) })
      for top in tops.sorted() where try !snapshot.names("\(top)/\(slug)").isEmpty {
        throw StorageError(
          "\(top)/\(slug)/ holds files already; choose another name, or move them first")
      }
      subject = "Rename \(noun) \(title): \(oldSlug) -> \(slug)"
      let counts = Dictionary(grouping: dependents) { $0.hasPrefix("standups/") }
      var parts: [String] = []
      if let n = counts[false]?.count {
        parts.append("\(n) \(dependentNoun)\(n == 1 ? "" : "s")")
      }
      if let n = counts[true]?.count { parts.append("\(n) stand-up entr\(n == 1 ? "y" : "ies")") }
      if !parts.isEmpty { subject += ", and its " + parts.joined(separator: " and ") }
      var change = Change(
        subject: subject,
        trailers: [("Dinger-Action", "\(noun).rename"), ("Dinger-Record", id.lowercased)])
      change.writes[newPath] = bytes
      change.remove(path)
      for dependent in dependents {
        guard let moved = try snapshot.read(dependent) else { continue }
        let name = dependent.split(separator: "/").last.map(String.init) ?? dependent
        let top = dependent.split(separator: "/").first.map(String.init) ?? dependentsFolder
        change.writes["\(top)/\(slug)/\(name)"] = moved
        change.remove(dependent)
      }
      return change
    }
    return subject
  }
}
