/// A transfer's progress, as git shows it: a stage and how far it is.
public struct SyncProgress: Sendable, Equatable {
  /// What the transfer is doing, in git's words.
  public enum Stage: String, Sendable, Equatable {
    case receiving = "Receiving objects", resolving = "Resolving deltas"
    case counting = "Counting objects", compressing = "Compressing objects"
    case writing = "Writing objects"
    /// An http push's request going out (bytes of bytes).
    case sending = "Sending pack"
    /// The server preparing its answer, silent so far (seconds waited, in `received`/`done`).
    case waiting = "Waiting for the server"
  }

  public var stage: Stage
  /// Done and to do in this stage (objects, or bytes while sending).
  public var done: Int
  public var total: Int
  /// Bytes received (or sent) so far.
  public var bytes: Int

  public init(stage: Stage, done: Int, total: Int, bytes: Int) {
    (self.stage, self.done, self.total, self.bytes) = (stage, done, total, bytes)
  }
}

/// What a sync did, for the report: its steps, the conflicts it recorded, the warnings.
public struct SyncSummary: Sendable, Equatable {
  public enum Step: Sendable, Equatable {
    case upToDate
    case fastForwarded(files: Int)
    case merged(taken: Int, merged: Int)
    case pushed
  }

  /// One value a merge could not place, as the report lists it.
  public struct Conflict: Sendable, Equatable {
    public var shortID: String
    public var file: String
    public var field: String
    public var kept: String
    public var other: String
    public var otherAuthor: String

    public init(
      shortID: String, file: String, field: String, kept: String, other: String, otherAuthor: String
    ) {
      (self.shortID, self.file, self.field, self.kept, self.other, self.otherAuthor) = (
        shortID, file, field, kept, other, otherAuthor
      )
    }
  }

  public var remote: String
  public var branch: String
  public var steps: [Step]
  public var conflicts: [Conflict]
  public var rounds: Int
  public var dryRun: Bool
  public var warnings: [String]
  /// What the remote's hooks said while pushing, a line each.
  public var remoteMessages: [String] = []
  /// What a merge did that a person should know, a line each.
  public var mergeNotes: [String] = []

  public init(
    remote: String, branch: String, steps: [Step], conflicts: [Conflict], rounds: Int,
    dryRun: Bool, warnings: [String]
  ) {
    (self.remote, self.branch, self.steps, self.conflicts) = (remote, branch, steps, conflicts)
    (self.rounds, self.dryRun, self.warnings) = (rounds, dryRun, warnings)
  }
}

/// A recorded conflict as the `conflicts` and `resolve` commands show it.
public struct ConflictInfo: Sendable, Equatable {
  public var id: String
  public var shortID: String
  public var file: String
  public var record: String?
  /// The field as people read it (`attendees[Bob].name`).
  public var field: String
  /// One side deleted what the other changed.
  public var deleted: Bool
  /// `edit`, `delete`, or `rename` (both sides moved the file, to different paths).
  public var kind = "edit"
  /// The values for reading (`(deleted)`, `(empty)`, shortened), and as YAML (nil when absent).
  public var kept: String, other: String
  public var keptYAML: String?, otherYAML: String?
  public var keptBy: String, keptCommit: String
  public var otherBy: String, otherCommit: String

  public init(
    id: String, shortID: String, file: String, record: String?, field: String, deleted: Bool,
    kept: String, other: String, keptYAML: String?, otherYAML: String?, keptBy: String,
    keptCommit: String, otherBy: String, otherCommit: String
  ) {
    (self.id, self.shortID, self.file, self.record, self.field, self.deleted) = (
      id, shortID, file, record, field, deleted
    )
    (self.kept, self.other, self.keptYAML, self.otherYAML) = (kept, other, keptYAML, otherYAML)
    (self.keptBy, self.keptCommit, self.otherBy, self.otherCommit) = (
      keptBy, keptCommit, otherBy, otherCommit
    )
  }
}

/// How a conflict is settled.
public enum ConflictChoice: Sendable, Equatable {
  /// Keep the value now in the data.
  case kept
  /// Take the other value (or apply the other side's deletion).
  case other
  /// Set this value (YAML: `15`, `Grace`, `[a, b]`).
  case value(String)
}
