import Base
import FoundationEssentials
import Models
import Storage

extension ScrumProvider {
  /// Renames an attendee across the scrum's history, as one commit: in the scrum, in every
  /// meeting (its attendees and speakers), and in every written stand-up entry (its `by`, and
  /// its file, which moves to the new name's). A blocker an entry opened keeps the id it had
  /// (written out where it was derived from the old name), so every resolution still finds it.
  /// Sync merges the moved entries by their content like any other move.
  public func renameAttendee(_ stored: StoredScrum, from old: String, to new: String) throws
    -> ScrumCommit
  {
    let newName = new.trimmed
    guard !newName.isEmpty, newName.unicodeScalars.count <= Attendee.maxName else {
      throw StorageError(
        "a name is 1 to \(Attendee.maxName) characters; '\(OneLineText.excerpt(new))' is not")
    }
    if let problem = OneLineText.problem(newName, field: "name") { throw StorageError(problem) }
    var result = stored
    var subject = ""
    let commit = try dependencies.commit { snapshot in
      var (scrum, source) = try Self.committed(stored, in: snapshot)
      let key = old.trimmed.lowercased()
      guard let index = scrum.attendees.firstIndex(where: { $0.naturalKey == key }) else {
        throw StorageError(
          "'\(OneLineText.excerpt(old))' is not an attendee of \(scrum.title); 'dinger scrum show \(stored.slug)' lists them"
        )
      }
      let oldName = scrum.attendees[index].name
      let newKey = newName.lowercased()
      if let other = scrum.attendees.firstIndex(where: { $0.keys.contains(newKey) }), other != index
      {
        throw StorageError(
          "'\(newName)' is already \(scrum.attendees[other].name == newName ? "an attendee" : "another name of \(scrum.attendees[other].name)") of \(scrum.title); one person per name"
        )
      }
      guard oldName != newName else {
        throw StorageError("\(oldName) is already called '\(newName)'")
      }
      scrum.attendees[index].name = newName
      let id = scrum.id ?? UUID()
      scrum.id = id
      var change = Change(
        subject: "",
        trailers: [
          ("Dinger-Action", "scrum.attendee.rename"), ("Dinger-Record", id.lowercased),
        ])
      change.write(stored.path, try RecordCodec.encode(.scrum(scrum), updating: source).text)
      let same = { (name: String) in name.trimmed.lowercased() == key }
      var (meetings, entries) = (0, 0)
      for path in try dependentPaths(of: StoredScrum(path: stored.path, scrum: scrum)) {
        guard let bytes = try snapshot.read(path) else { continue }
        let kind: RecordKind = path.hasPrefix("standups/") ? .standup : .meeting
        let file = RecordCodec.decode(bytes, path: path, kind: kind)
        switch file.record {
        case .meeting(var m)?:
          guard m.attendees.contains(where: same) || m.speakers.contains(where: { same($0.name) })
          else { continue }
          m.attendees = m.attendees.map { same($0) ? newName : $0 }
          for i in m.speakers.indices where same(m.speakers[i].name) {
            m.speakers[i].name = newName
          }
          change.write(path, try RecordCodec.encode(.meeting(m), updating: file.source).text)
          meetings += 1
        case .standup(var e)? where same(e.by):
          // NB: a blocker's id derives from its writer's name: pinned before the name changes.
          for i in e.blockers.indices where e.blockers[i].id == nil {
            e.blockers[i].id = BlockerID.derived(
              scrum: e.scrum, date: e.date, by: e.by, text: e.blockers[i].text)
          }
          e.by = newName
          let moved = StandupFiles.path(scrumSlug: stored.slug, date: e.date, by: newName)
          if moved != path {
            if try snapshot.read(moved) != nil {
              throw StorageError(
                "\(moved) exists already: \(newName) has an entry for \(e.date) besides \(oldName)'s (\(path)); merge the two by hand first"
              )
            }
            change.remove(path)
          }
          change.write(moved, try RecordCodec.encode(.standup(e), updating: file.source).text)
          entries += 1
        default:
          continue
        }
      }
      var parts: [String] = []
      if meetings > 0 { parts.append("\(meetings) meeting\(meetings == 1 ? "" : "s")") }
      if entries > 0 { parts.append("\(entries) stand-up entr\(entries == 1 ? "y" : "ies")") }
      subject =
        "Rename \(oldName) to \(newName) in \(scrum.title)"
        + (parts.isEmpty ? "" : " and " + parts.joined(separator: " and "))
      change.subject = subject
      result = StoredScrum(path: stored.path, scrum: scrum)
      return change
    }
    return ScrumCommit(stored: result, subject: subject, commit: commit)
  }
}
