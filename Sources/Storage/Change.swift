import Base
import FoundationEssentials
import Git
import Glibc

/// One change to the data repository: files written and removed, recorded as exactly one commit.
public struct Change: Sendable, Equatable {
  /// Data-relative path to new bytes.
  public var writes: [String: [UInt8]] = [:]
  /// Data-relative paths to remove.
  public var removals: Set<String> = []
  /// The commit's subject line: reads like a changelog ("Add scrum Design Review").
  public var subject: String
  /// Optional body paragraphs.
  public var body: String?
  /// `Dinger-Action: scrum.add` and friends, in order.
  public var trailers: [(key: String, value: String)] = []
  /// Written paths whose bytes are already stored as these blobs (files a merge takes from the
  /// other side), so they are not hashed and stored again.
  public var knownBlobs: [String: ObjectID] = [:]
  /// git's mode of written files that are not plain files (0o100755 an executable, 0o120000 a
  /// symbolic link, whose bytes are its target).
  public var modes: [String: UInt32] = [:]
  /// For a merge: the commit merged in (the second parent), and the commit the branch must
  /// still be at. A merge is never rebuilt on a branch that moved; `commit` throws instead.
  public var merging: (commit: ObjectID, onto: ObjectID)?
  /// For a merge: every path at which the result may differ from the commit merged in (each
  /// written or removed path there is as this change says; any other is as ours has it), sorted.
  /// With it the merge's tree is built from theirs at these few paths instead of from ours at
  /// every written one; nil: from ours.
  public var differsFromMerged: [String]?
  /// The commit's author when it is not git's `user.name` (an entry `dinger collect` writes from
  /// a teammate's chat reply is theirs); the committer stays git's.
  public var author: (name: String, email: String)?

  /// Creates a change.
  public init(subject: String, body: String? = nil, trailers: [(key: String, value: String)] = []) {
    self.subject = subject
    self.body = body
    self.trailers = trailers
  }

  /// Sets a file's new text.
  public mutating func write(_ path: String, _ text: String) { writes[path] = Array(text.utf8) }

  /// Removes a file.
  public mutating func remove(_ path: String) { removals.insert(path) }

  /// The commit message: subject, body, trailers, git's layout.
  public var message: String {
    var text = subject + "\n"
    if let body, !body.isEmpty {
      text += "\n" + body + (body.unicodeScalars.last == "\n" ? "" : "\n")
    }
    if !trailers.isEmpty {
      text += "\n" + trailers.map { "\($0.key): \($0.value)" }.joined(separator: "\n") + "\n"
    }
    return text
  }

  /// Every path touched, sorted.
  public var paths: [String] { (Array(writes.keys) + removals).sorted() }

  public static func == (lhs: Change, rhs: Change) -> Bool {
    lhs.writes == rhs.writes && lhs.removals == rhs.removals && lhs.message == rhs.message
  }
}

/// Reads the `Key: value` trailers of a commit message's last paragraph.
public enum TrailerParser {
  /// The trailers in order; empty when the last paragraph is not all trailers.
  public static func trailers(of message: String) -> [(key: String, value: String)] {
    let paragraphs = message.trimmed()
      .parts(separatedBy: "\n\n")
    guard paragraphs.count > 1, let last = paragraphs.last else { return [] }
    var out: [(String, String)] = []
    for line in last.split(separator: "\n") {
      guard let colon = line.firstIndex(of: ":"), !line[..<colon].contains(" ") else { return [] }
      out.append(
        (
          String(line[..<colon]),
          line[line.index(after: colon)...].trimmingSpaces()
        ))
    }
    return out
  }

  /// The first value of a trailer.
  public static func value(_ key: String, in message: String) -> String? {
    trailers(of: message).first { $0.key == key }?.value
  }
}
