import Base
import FoundationEssentials
import Git
import Glibc
import Models
import Storage

/// The buffer `dinger standup` opens in the editor: the scrum's questions with their answers
/// prefilled where dinger can (yesterday from your last entry's today), your open blockers to
/// keep or resolve, and the commits you authored since your last entry as comments.
public enum StandupTemplate {
  /// A commit shown as a hint.
  public struct Commit: Sendable, Equatable {
    public var repository: String
    public var branch: String
    public var subject: String
    public init(repository: String, branch: String, subject: String) {
      (self.repository, self.branch, self.subject) = (repository, branch, subject)
    }
  }

  /// The buffer for `writer`'s entry of `date` (their existing one for that day, when there is
  /// one, is what it shows).
  public static func text(
    scrum: Scrum, writer: String, date: String, entries: [StandupEntry], commits: [Commit]
  ) throws -> String {
    let mine = entries.filter { $0.by.trimmed.lowercased() == writer.trimmed.lowercased() }
    let existing = mine.first { $0.date == date }
    let last = mine.last { $0.date < date }
    let questions = (scrum.standup ?? StandupSettings()).asked
    var out = "# \(writer)'s stand-up for \(scrum.title), \(date).\n"
    out += "# Answer under each question; lines starting with # are left out. Save and quit to\n"
    out += "# commit; leave every answer empty to write nothing.\n"
    for q in questions {
      var hint = ""
      if q.kind == "mood" { hint = " (1 low to 5 great, then a word if you like)" }
      if q.kind == "choice" { hint = " (one of: \(q.options.joined(separator: ", ")))" }
      out += "#   \(q.key): \(q.ask)\(hint)\n"
    }
    if !commits.isEmpty {
      out += "#\n# Your commits since your last entry:\n"
      for c in commits.prefix(40) {
        out += "#   [\(OneLineText.excerpt(c.branch))] \(OneLineText.excerpt(c.subject))\n"
      }
    }
    var answers: [StandupEntry.Answer] = []
    for q in questions {
      var text = existing?.answer(q.key) ?? ""
      if existing == nil, q.key == "yesterday", let today = last?.answer("today") { text = today }
      answers.append(.init(key: q.key, text: text))
    }
    var entry = StandupEntry(scrum: scrum.id ?? UUID.nil, date: date, by: writer, answers: answers)
    // NB: your open blockers, to carry over (keep the line) or resolve (move its id under
    // resolved:).
    let open = Blockers.follow(entries).filter {
      $0.isOpen && $0.owner.trimmed.lowercased() == writer.trimmed.lowercased()
    }
    entry.blockers = existing?.blockers ?? open.map { BlockerMention(id: $0.id, text: $0.text) }
    entry.resolved = existing?.resolved ?? []
    // NB: the answers and lists through the encoder (quoting a teammate's text right), the
    // scrum, date and author lines left out (the command sets them).
    var body = try RecordCodec.encode(.standup(entry))
    body = body.split(separator: "\n", omittingEmptySubsequences: false).filter {
      !$0.hasPrefix("scrum:") && !$0.hasPrefix("date:") && !$0.hasPrefix("by:")
    }.joined(separator: "\n")
    // NB: an empty answer as an empty value to type after, not as ''.
    body = body.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      questions.contains { line == "\($0.key): ''" } ? line.dropLast(2) : line
    }.joined(separator: "\n")
    for q in questions where !body.contains("\n\(q.key):") && !body.hasPrefix("\(q.key):") {
      body = "\(q.key): \n" + body
    }
    if !body.contains("blockers:") {
      body += "blockers:\n  # - what blocks you (one line each)\n"
    }
    if !open.isEmpty || !(existing?.resolved.isEmpty ?? true) {
      if !body.contains("resolved:") { body += "resolved:\n" }
      body += "  # to resolve a blocker, put its id here: - b1f0c2a9d\n"
    }
    return out + body
  }
}

/// Commits someone authored in their code repositories (git-standup's list), for the
/// stand-up editor.
public enum CodeActivity {
  /// The commits `name`/`email` authored after `since` on the local branches of the
  /// repository at `folder`.
  public static func commits(in folder: URL, name: String?, email: String?, since: Date) throws
    -> [Repository.AuthoredCommit]
  {
    let repository: Repository
    do {
      repository = try Repository.open(folder)
    } catch {
      throw StorageError(
        "--from-code \(folder.path) is not a git repository (\(error.message)); name the folder of one"
      )
    }
    do {
      return try repository.authoredCommits(email: email, name: name, since: since)
    } catch {
      throw StorageError("could not read the commits of \(folder.path): \(error.message)")
    }
  }
}

extension Workspace {
  /// git's `user.name` and `user.email`.
  public func gitIdentity() -> (name: String?, email: String?) { repository.gitIdentity() }
  /// A setting of this clone only (`dinger.<key>` in `.git/config`).
  public func cloneSetting(_ key: String) -> String? { repository.cloneSetting(key) }
  /// Keeps a setting of this clone only.
  public func setCloneSetting(_ key: String, _ value: String) throws {
    try repository.setCloneSetting(key, value)
  }
}

extension Workspace {
  /// Runs `body` holding dinger's lock `name` (in `.git/dinger/`): one dinger at a time.
  public func exclusively<T>(_ name: String, _ body: () throws -> T) throws -> T {
    try repository.exclusively(name, body)
  }

  /// `.git/dinger/`, made when missing, or nil when it is a link (nothing of dinger's is
  /// written through one) or cannot be made.
  public var dingerFolderIfUsable: URL? {
    let folder = repository.dingerFolder
    guard !repository.ownFolderIsLinked(folder) else { return nil }
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    var st = stat()
    return lstat(folder.path, &st) == 0 && st.st_mode & S_IFMT == S_IFDIR ? folder : nil
  }
}
