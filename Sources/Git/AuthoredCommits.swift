internal import CGit2
import FoundationEssentials

extension Repository {
  /// A commit someone authored, with the local branch it was found on.
  public struct AuthoredCommit: Sendable, Equatable {
    public var id: ObjectID
    public var branch: String
    public var subject: String
    public var date: Date
  }

  /// The commits on local branches authored by `email` (or, when a commit has another email,
  /// by `name`) after `since`, newest first, each with the first branch it is on (what
  /// git-standup shows). At most `limit` commits are looked at per branch.
  public func authoredCommits(
    email: String?, name: String?, since: Date, limit: Int = 500
  ) throws(GitError) -> [AuthoredCommit] {
    var branches: [(name: String, id: ObjectID)] = []
    var iterator: OpaquePointer?
    try Check.rc(git_branch_iterator_new(&iterator, raw, GIT_BRANCH_LOCAL), "list branches")
    defer { git_branch_iterator_free(iterator) }
    var ref: OpaquePointer?
    var type = GIT_BRANCH_LOCAL
    while git_branch_next(&ref, &type, iterator) == 0 {
      defer { git_reference_free(ref) }
      let full = String(cString: git_reference_name(ref))
      if let target = git_reference_target(ref) {
        branches.append((String(full.dropFirst("refs/heads/".count)), ObjectID(target.pointee)))
      }
    }
    // NB: the current branch first, then by name: a commit on several is shown on the first.
    let current = (try? head().branch).map { String($0.dropFirst("refs/heads/".count)) }
    branches.sort { a, b in
      (a.name == current) != (b.name == current) ? a.name == current : a.name < b.name
    }
    let email = email?.lowercased()
    // NB: a commit is shown on the branch whose tip is nearest to it (a branch made from
    // another holds the other's commits too, further down).
    var nearest: [ObjectID: (branch: String, distance: Int)] = [:]
    for branch in branches {
      for (distance, id) in try commits(from: [branch.id], hiding: [], limit: limit).enumerated() {
        if let known = nearest[id], known.distance <= distance { continue }
        nearest[id] = (branch.name, distance)
      }
    }
    var found: [AuthoredCommit] = []
    for (id, place) in nearest.sorted(by: { $0.key.hex < $1.key.hex }) {
      let info = try commitInfo(id)
      guard info.author.date > since else { continue }
      let mine =
        (email != nil && info.author.email.lowercased() == email)
        || (name != nil && info.author.name == name)
      guard mine else { continue }
      let subject = info.message.split(separator: "\n").first.map(String.init) ?? ""
      found.append(
        AuthoredCommit(id: id, branch: place.branch, subject: subject, date: info.author.date))
    }
    return found.sorted { $0.date > $1.date }
  }
}
