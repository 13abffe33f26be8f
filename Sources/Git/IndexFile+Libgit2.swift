import Base
internal import CGit2
import FoundationEssentials
import Glibc

extension IndexFile {
  /// The index with the updates applied, built by libgit2 for the indexes `apply` leaves alone
  /// (version 4, split or sparse, conflicted paths, none yet). libgit2 edits a copy in
  /// `.git/dinger/`, because the real `index.lock` is already held by the caller.
  static func throughLibgit2(_ updates: [Update], gitDirectory: URL) throws(GitError) -> [UInt8] {
    _ = Check.initialized
    let folder = gitDirectory.appendingPathComponent("dinger")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let copy = folder.appendingPathComponent("index-\(getpid()).tmp").path
    unlink(copy)
    defer { unlink(copy) }
    let existing = readExisting(gitDirectory.appendingPathComponent("index").path)
    if case .failed(let why) = existing {
      throw GitError(code: -1, operation: "read the index", message: why)
    }
    if case .read(let bytes) = existing {
      let fd = open(copy, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
      guard fd >= 0 else { throw GitError.system("copy the index to \(copy)") }
      let ok = bytes.withUnsafeBytes { writeAll(fd, $0) }
      close(fd)
      guard ok else { throw GitError.system("copy the index to \(copy)") }
    }
    var index: OpaquePointer?
    try Check.rc(git_index_open(&index, copy), "read index")
    defer { git_index_free(index) }
    for update in updates {
      _ = git_index_conflict_remove(index, update.path)
      guard let blob = update.blob else {
        let rc = git_index_remove(index, update.path, 0)
        if rc != GIT_ENOTFOUND.rawValue { try Check.rc(rc, "unstage \(update.path)") }
        continue
      }
      var st = stat()
      guard let file = update.file, lstat(file, &st) == 0 else {
        throw GitError.system("stat \(update.path)")
      }
      var entry = git_index_entry()
      entry.ctime = git_index_time(
        seconds: Int32(truncatingIfNeeded: st.st_ctim.tv_sec),
        nanoseconds: UInt32(truncatingIfNeeded: st.st_ctim.tv_nsec))
      entry.mtime = git_index_time(
        seconds: Int32(truncatingIfNeeded: st.st_mtim.tv_sec),
        nanoseconds: UInt32(truncatingIfNeeded: st.st_mtim.tv_nsec))
      entry.dev = UInt32(truncatingIfNeeded: st.st_dev)
      entry.ino = UInt32(truncatingIfNeeded: st.st_ino)
      entry.mode = gitMode(st)
      entry.uid = UInt32(truncatingIfNeeded: st.st_uid)
      entry.gid = UInt32(truncatingIfNeeded: st.st_gid)
      entry.file_size = UInt32(truncatingIfNeeded: st.st_size)
      entry.id = blob.oid
      let rc = update.path.withCString { path -> Int32 in
        entry.path = path
        return git_index_add(index, &entry)
      }
      try Check.rc(rc, "stage \(update.path)")
    }
    try Check.rc(git_index_write(index), "write index")
    guard let bytes = readFile(copy) else { throw GitError.system("read \(copy)") }
    return bytes
  }
}
