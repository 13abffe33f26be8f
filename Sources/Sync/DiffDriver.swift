import Base
import FoundationEssentials
import Glibc
import Models
import Processes
import Storage

/// git's external diff for record files (`diff.dinger.command`, set by `setup-git`; the
/// `.gitattributes` line `*.yaml diff=dinger`): a line that says what changed in the record's
/// own terms ("length 10 -> 15 min; add attendee Bob") above the usual unified diff, so a
/// reviewer in `git diff` or `git log -p --ext-diff` reads both. Where dinger is not set up,
/// git knows no `dinger` diff driver and shows its plain diff.
public enum DiffDriver {
  /// What git shows for `path` changing from the file `old` to `new` (`/dev/null` for none).
  public static func render(path: String, old: String, new: String) -> String {
    let before =
      old == "/dev/null" ? nil : FileManager.default.contents(atPath: old).map { [UInt8]($0) }
    let after =
      new == "/dev/null" ? nil : FileManager.default.contents(atPath: new).map { [UInt8]($0) }
    var out = "diff --git a/\(path) b/\(path)\n"
    if before == nil { out += "new file\n" } else if after == nil { out += "deleted file\n" }
    if let summary = ActivityIndex.describe(path: path, old: before, new: after) {
      out += "# dinger: \(summary)\n"
    }
    out += unified(old: old, new: new, path: path, created: before == nil, deleted: after == nil)
    return out
  }

  /// `diff -u` of the two files, labelled as git labels them.
  static func unified(old: String, new: String, path: String, created: Bool, deleted: Bool)
    -> String
  {
    let result: ChildProcess.Result
    do {
      result = try ChildProcess.run(
        .init(
          [
            "diff", "-u", "--label", created ? "/dev/null" : "a/\(path)", "--label",
            deleted ? "/dev/null" : "b/\(path)", old, new,
          ], errors: .null), timeout: 60)
    } catch {
      return "(could not run diff: \(error))\n"
    }
    return result.outputText
  }
}
