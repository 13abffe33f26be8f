import Base
import FoundationEssentials
import Glibc

// The ref locks a dinger process may leave behind. libgit2 takes `<ref>.lock` for each ref it
// moves; a dinger killed meanwhile leaves it, and git (and every later sync) then finds the ref
// locked for good. Before it moves a remote-tracking ref, dinger writes a claim naming its pid
// and the refs (`.git/dinger/ref-claims/<pid>`), and removes the claim after. A later sync that
// finds such a lock with a claim whose process is gone (or is no dinger) knows the lock is
// dinger's own and removes it; a lock with no claim is another program's, and is only named.
extension Repository {
  var claimsFolder: URL { gitDirectory.appendingPathComponent("dinger/ref-claims") }

  /// Runs `body` with a claim on the locks of `refs` recorded for this process.
  func claimingRefLocks<T>(_ refs: [String], _ body: () throws(GitError) -> T) throws(GitError)
    -> T
  {
    let folder = claimsFolder
    let claim = folder.appendingPathComponent(String(getpid()))
    // NB: never through a link (dinger's own folders are real folders or made here).
    var st = stat()
    let linked =
      lstat(gitDirectory.appendingPathComponent("dinger").path, &st) == 0
      && st.st_mode & S_IFMT == S_IFLNK
    if !linked {
      try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      try? AtomicFile.write(
        Array(refs.joined(separator: "\n").utf8), to: claim.path, durability: .cache)
    }
    defer { if !linked { unlink(claim.path) } }
    return try body()
  }

  /// Removes the locks of `refs` that a dinger process which is gone left (its claim says so);
  /// what was removed, in words.
  public func clearDingersStaleRefLocks() -> [String] {
    let folder = claimsFolder
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else {
      return []
    }
    var removed: [String] = []
    for name in names {
      // NB: a claim being written when its dinger was killed: `.<pid>.<pid>.<random>.tmp`.
      if name.hasPrefix("."), name.hasSuffix(".tmp"),
        let pid = name.split(separator: ".").first.flatMap({ Int32($0) }),
        !Self.isRunningDinger(pid)
      {
        unlink(folder.appendingPathComponent(name).path)
        continue
      }
      guard let pid = Int32(name), pid > 0 else { continue }
      let claim = folder.appendingPathComponent(name)
      guard !Self.isRunningDinger(pid) else { continue }
      var claimed = stat()
      guard lstat(claim.path, &claimed) == 0, claimed.st_mode & S_IFMT == S_IFREG,
        claimed.st_size < 64 * 1024,
        let text = try? String(contentsOf: claim, encoding: .utf8)
      else {
        unlink(claim.path)
        continue
      }
      for ref in text.split(separator: "\n") where ref.hasPrefix("refs/") && !ref.contains("..") {
        let lock = gitDirectory.appendingPathComponent(String(ref) + ".lock")
        var st = stat()
        // NB: only a regular file made after the claim: a lock another program took earlier,
        // or one taken since by a live process, is not dinger's to remove.
        guard lstat(lock.path, &st) == 0, st.st_mode & S_IFMT == S_IFREG,
          st.st_mtim.tv_sec >= claimed.st_mtim.tv_sec - 1
        else { continue }
        if unlink(lock.path) == 0 {
          removed.append(
            "removed \(ref).lock, which a dinger that was stopped midway (pid \(pid)) left behind")
        }
      }
      unlink(claim.path)
    }
    return removed
  }

  /// Whether `pid` is a running dinger (a pid reused by another program is not).
  static func isRunningDinger(_ pid: Int32) -> Bool {
    guard kill(pid, 0) == 0 || errno == EPERM else { return false }
    guard let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")
    else { return true }
    return URL(fileURLWithPath: exe).lastPathComponent.hasPrefix("dinger")
  }
}
