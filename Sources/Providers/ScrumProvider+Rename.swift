import Foundation
import Models
import Storage

extension ScrumProvider {
  /// A slug a file may be named by: lowercase letters, digits and dashes, 1 to 100 of them.
  static func validSlug(_ slug: String) -> Bool {
    (1...100).contains(slug.count) && slug.first != "-"
      && slug.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
  }

  /// Renames a scrum's file to `slug` and moves its meetings into `history/<slug>/`, as one
  /// commit ("Rename scrum Design: design -> design-review, and its 3 meetings"). The records
  /// keep their ids (one without an id gets one, so that the log can follow it); `log`, `history`
  /// and `scrum show` follow a scrum across renames by that id.
  public func rename(_ stored: StoredScrum, to slug: String) throws -> ScrumCommit {
    guard Self.validSlug(slug) else {
      throw StorageError(
        "'\(slug)' can't name a scrum file: use lowercase letters, digits and dashes (e.g. design-review)")
    }
    let oldSlug = RecordLayout.slug(ofPath: stored.path)
    guard slug != oldSlug else {
      throw StorageError("scrum '\(stored.scrum.title)' is already named '\(slug)'")
    }
    let newPath = "scrums/\(slug).yaml"
    var result = ScrumCommit(stored: stored, subject: "", commit: nil)
    result.commit = try dependencies.commit { snapshot in
      var (scrum, source) = try Self.committed(stored, in: snapshot)
      if try snapshot.read(newPath) != nil || snapshot.names("scrums").contains("\(slug).yaml") {
        throw StorageError("\(newPath) exists already; choose another name, or rename that scrum first")
      }
      if try !snapshot.names("history/\(slug)").isEmpty {
        throw StorageError(
          "history/\(slug)/ holds meetings already; choose another name, or move them first")
      }
      var bytes = source.bytes
      if scrum.id == nil {
        scrum.id = UUID()
        bytes = Array(try RecordCodec.encode(.scrum(scrum), updating: source).text.utf8)
      }
      let meetings = try meetingPaths(of: StoredScrum(path: stored.path, scrum: scrum))
      var subject = "Rename scrum \(scrum.title): \(oldSlug) -> \(slug)"
      if !meetings.isEmpty {
        subject += ", and its \(meetings.count) meeting\(meetings.count == 1 ? "" : "s")"
      }
      var change = Change(
        subject: subject,
        trailers: [("Dinger-Action", "scrum.rename"), ("Dinger-Record", scrum.id!.lowercased)])
      change.writes[newPath] = bytes
      change.remove(stored.path)
      for path in meetings {
        guard let meeting = try snapshot.read(path) else { continue }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        change.writes["history/\(slug)/\(name)"] = meeting
        change.remove(path)
      }
      result = ScrumCommit(stored: StoredScrum(path: newPath, scrum: scrum), subject: subject)
      return change
    }
    return result
  }
}
