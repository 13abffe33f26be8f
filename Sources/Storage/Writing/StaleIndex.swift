import Base
import FoundationEssentials
import Git
import Glibc

// The window plain git leaves open (docs/storage.md, "A racing git commit's stale index"):
// `git commit` reads the index *without* the lock, then takes `index.lock` and writes what it
// read (refreshed) before its compare-and-swap of HEAD, and it writes it even when that swap
// then fails. A dinger write that completed in between is undone in the index, though it is in
// HEAD and on disk; the next `git commit` records its files as deleted.

extension DataRepository {
  /// After a committed write: when git commands that commit (`commit`, `merge`, `pull`...)
  /// were running in this working tree as the write gave `index.lock` up (`racing`, found while
  /// it was held), waits for them to end (at most 2 s), then puts back, under
  /// `index.lock`, this write's entries that a stale index written meanwhile dropped or
  /// reverted: a path whose HEAD blob and working file are still this write's, but whose staged
  /// blob is not (nothing a person staged looks like that). Says what it put back on stderr.
  /// Costs one scan of `/proc` (about 1 ms) when no git runs.
  func restoreWhatAStaleIndexDropped(_ files: [Plan.File], racing: [pid_t]) {
    guard !racing.isEmpty else { return }
    StopPoint.reached("stale-index-check")
    RacingGit.waitForExit(racing, seconds: 2)
    let regular = files.filter { $0.blob == nil || $0.mode == regularFileMode }
    guard !regular.isEmpty,
      let staged = git.stagedBlobs(paths: Set(regular.map(\.path))),
      regular.contains(where: { staged[$0.path] != $0.blob })
    else { return }
    guard let lock = try? takeIndexLock() else { return }
    defer { lock.release() }
    // NB: judged again under the lock, against HEAD and the disk as they are now.
    guard let head = try? git.head().commit,
      let now = git.stagedBlobs(paths: Set(regular.map(\.path)))
    else { return }
    var changed: [(path: String, blob: ObjectID)] = []
    var removed: [String] = []
    for file in regular where now[file.path] != file.blob {
      let committed = try? git.blobID(at: file.path, in: head)
      let onDisk = RegularFile.read(root.path + "/" + file.path, limit: 256 << 20)
      if let blob = file.blob {
        guard committed == blob, let onDisk, git.hashBlob(onDisk) == blob else { continue }
        changed.append((file.path, blob))
      } else if committed == nil, onDisk == nil, now[file.path] != nil {
        removed.append(file.path)
      }
    }
    guard !changed.isEmpty || !removed.isEmpty else { return }
    do {
      try lock.write(changed: changed, removed: removed, workdir: root)
      try lock.commit()
    } catch {
      return
    }
    let paths = (changed.map(\.path) + removed).sorted()
    let note = Array(
      "note: a git command running beside dinger wrote back an index that lacked this change; put back \(paths.count == 1 ? "its entry" : "\(paths.count) entries") (\(paths.prefix(3).joined(separator: ", "))\(paths.count > 3 ? ", ..." : "")) so that git's next commit keeps it\n"
        .utf8)
    note.withUnsafeBytes { _ = FileDescriptor.writeAll(2, $0) }
  }
}

/// git processes that may write `.git/index` from a stale read, found in `/proc`.
enum RacingGit {
  /// The git subcommands that commit from an index they read before taking its lock.
  static let committing: Set<String> = [
    "commit", "merge", "pull", "stash", "cherry-pick", "revert", "rebase", "am",
  ]

  /// The pids of this user's git processes running one of `committing` with their working
  /// directory in `root` (git moves to the top of the working tree itself).
  static func processes(in root: String) -> [pid_t] {
    guard let dir = opendir("/proc") else { return [] }
    defer { closedir(dir) }
    var out: [pid_t] = []
    let me = getpid()
    while let entry = readdir(dir) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      guard let pid = pid_t(name), pid != me else { continue }
      // NB: comm first (one small read); most processes end the scan there.
      guard let comm = procFile("/proc/\(pid)/comm", limit: 64),
        String(decoding: comm, as: UTF8.self).trimmed == "git",
        let args = procFile("/proc/\(pid)/cmdline", limit: 4096)
      else { continue }
      let words = args.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
      guard words.dropFirst().contains(where: { committing.contains($0) }) else { continue }
      var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
      let n = readlink("/proc/\(pid)/cwd", &buffer, Int(PATH_MAX))
      guard n > 0 else { continue }
      let cwd = String(decoding: buffer.prefix(n).map { UInt8(bitPattern: $0) }, as: UTF8.self)
      if cwd == root || cwd.hasPrefix(root.hasSuffix("/") ? root : root + "/") { out.append(pid) }
    }
    return out
  }

  /// True while `pid` runs: a zombie (ended, not yet waited for by its parent) does not.
  static func isRunning(_ pid: pid_t) -> Bool {
    guard let stat = procFile("/proc/\(pid)/stat", limit: 512),
      let close = stat.lastIndex(of: UInt8(ascii: ")")), close + 2 < stat.count
    else { return false }
    let state = stat[close + 2]
    return state != UInt8(ascii: "Z") && state != UInt8(ascii: "X")
  }

  /// Up to `limit` bytes of a `/proc` file (whose size `stat` gives as 0), read to its end.
  static func procFile(_ path: String, limit: Int) -> [UInt8]? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var out = [UInt8](repeating: 0, count: limit)
    var count = 0
    while count < limit {
      let n = out.withUnsafeMutableBytes { read(fd, $0.baseAddress! + count, limit - count) }
      if n <= 0 { break }
      count += n
    }
    return Array(out.prefix(count))
  }

  /// Waits until none of `pids` runs any more, or `seconds` pass.
  static func waitForExit(_ pids: [pid_t], seconds: Double) {
    let deadline = Date().addingTimeInterval(seconds)
    var left = pids
    while !left.isEmpty && Date() < deadline {
      left = left.filter(isRunning)
      if !left.isEmpty { usleep(2_000) }
    }
  }
}
