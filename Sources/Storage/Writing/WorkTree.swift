import Base
import FoundationEssentials
import Glibc

/// The working tree, read and written without ever following a symbolic link or leaving the
/// root. A data repository is shared: a teammate's commit decides which names are files,
/// folders or links, so every folder on a path is opened with `O_NOFOLLOW` from the root, and
/// files are replaced through fresh temporary files created with `O_EXCL` under unpredictable
/// names.
public struct WorkTree: Sendable {
  /// The largest file dinger reads from the work tree (the YAML parser's own limit).
  public static let largestFile = 64 << 20

  /// The working tree's root (the user's choice; it may itself be reached through a link).
  public let root: URL

  /// The working tree at `root`.
  public init(root: URL) { self.root = root }

  /// Why a path can't be used.
  public enum Refusal: Error, Equatable, Sendable, CustomStringConvertible {
    /// A name on the path is a symbolic link.
    case link(String)
    /// A name on the path that should be a folder is a file, or the file is a folder.
    case notAFolder(String)
    case isAFolder(String)
    /// The path has an empty, `.`, `..` or `.git` part, or is absolute.
    case badName(String)
    /// A system call failed.
    case system(String, Int32)
    /// The file exists but could not be read (permissions, I/O).
    case unreadable(String, Int32)
    /// Not a regular file (a FIFO, a device, a socket): never opened for reading.
    case notAFile(String)
    /// Larger than any record file may be.
    case tooLarge(String, Int)

    public var description: String { message }

    /// What went wrong and what to do.
    public var message: String {
      switch self {
      case .link(let path):
        return
          "\(path) is a symbolic link, and dinger never reads or writes through one (a link in a shared repository can point anywhere); replace it with a plain file or folder (git rm \(path) && git commit), then run this again"
      case .notAFolder(let path):
        return "\(path) is a file where dinger expects a folder; move it away, then run this again"
      case .isAFolder(let path):
        return "\(path) is a folder where dinger expects a file; move it away, then run this again"
      case .badName(let path):
        return "'\(path)' is not a path inside the data repository"
      case .system(let path, let code):
        return "could not write \(path): \(String(cString: strerror(code)))"
      case .unreadable(let path, let code):
        return "could not read \(path): \(String(cString: strerror(code))); nothing was changed"
      case .notAFile(let path):
        return
          "\(path) is not a regular file (a pipe, device or socket), and dinger reads only files; remove it (git checkout -- \(path) restores the committed one)"
      case .tooLarge(let path, let size):
        return
          "\(path) is \(size / 1_048_576) MiB, more than a record file may be (\(WorkTree.largestFile / 1_048_576) MiB); is it the right file?"
      }
    }
  }

  /// The parts of a data-relative path, checked.
  static func parts(_ path: String) throws(Refusal) -> [String] {
    let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    for part in parts where !isPlainName(part) { throw .badName(path) }
    return parts
  }

  /// A name a path may hold: not empty, `.`, `..` or `.git` (any case), no NUL.
  static func isPlainName(_ part: String) -> Bool {
    !(part.isEmpty || part == "." || part == ".." || part.utf8.contains(0)
      || (part.utf8.count == 4 && part.lowercased() == ".git"))
  }

  /// The folders leading to `path`'s file, opened one by one without following links; the
  /// last descriptor is the file's folder. Missing folders are made when `create`, else nil.
  fileprivate func folders(_ parts: [String], path: String, create: Bool) throws(Refusal)
    -> [Int32]?
  {
    let top = open(root.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard top >= 0 else { throw .system(path, errno) }
    var fds = [top]
    for (i, name) in parts.dropLast().enumerated() {
      let at = fds[fds.count - 1]
      var fd = openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
      if fd < 0 && errno == ENOENT {
        guard create else {
          fds.forEach { close($0) }
          return nil
        }
        if mkdirat(at, name, 0o755) != 0 && errno != EEXIST {
          let code = errno
          fds.forEach { close($0) }
          throw .system(path, code)
        }
        fd = openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
      }
      if fd < 0 {
        let refusal = Self.kind(
          at: at, name: name, path: parts[0...i].joined(separator: "/"), code: errno)
        fds.forEach { close($0) }
        throw refusal
      }
      fds.append(fd)
    }
    return fds
  }

  /// Why `name` could not be opened as a folder.
  private static func kind(at dir: Int32, name: String, path: String, code: Int32) -> Refusal {
    var st = stat()
    guard fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) == 0 else { return .system(path, code) }
    switch st.st_mode & S_IFMT {
    case S_IFLNK: return .link(path)
    case S_IFDIR: return .system(path, code)
    default: return .notAFolder(path)
    }
  }

  /// The bytes of a file, nil when it (or a folder on its way) does not exist. A link or a
  /// folder where the file should be is refused, never followed.
  public func read(_ path: String) throws(Refusal) -> [UInt8]? {
    let parts = try Self.parts(path)
    guard let fds = try folders(parts, path: path, create: false) else { return nil }
    defer { fds.forEach { close($0) } }
    return try readFile(in: fds[fds.count - 1], name: parts[parts.count - 1], path: path)?.bytes
  }

  /// What a stamped read found: no file, the file's bytes and stamp, or only the stamp of a
  /// file the caller already knows in that version (not read).
  public enum StampedRead: Sendable {
    case missing
    case read([UInt8], FileStamp)
    case known(FileStamp)
  }

  /// Reads many files, each folder on the way opened once for all the files in it (a scrum's
  /// 2,600 meetings were 4 opens each), each as `read` reads one; but first asks `known` about
  /// each regular file's stamp (taken without following links) and skips the ones it knows.
  public func read(_ paths: [String], unless known: (String, FileStamp) -> Bool)
    -> [Result<StampedRead, Refusal>]
  {
    var results: [Result<StampedRead, Refusal>] = []
    results.reserveCapacity(paths.count)
    read(paths, unless: known) { _, result in
      results.append(result)
      return true
    }
    return results
  }

  /// `read` of many files handing each result to `handle` as it comes, in `paths`' order, so
  /// that one file's bytes are held at a time; `handle` returning false stops the reads.
  public func read(
    _ paths: [String], unless known: (String, FileStamp) -> Bool,
    each handle: (String, Result<StampedRead, Refusal>) -> Bool
  ) {
    each(
      paths,
      { dir, name, path throws(Refusal) in
        var st = stat()
        if fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) == 0 {
          if st.st_mode & S_IFMT == S_IFREG {
            let stamp = FileStamp(st)
            if known(path, stamp) { return .known(stamp) }
          }
        } else if errno == ENOENT {
          // NB: not opened as well (a catch-up's checks asked twice of 20,000 absent files).
          return .missing
        }
        guard let (bytes, stamp) = try readFile(in: dir, name: name, path: path) else {
          return .missing
        }
        return .read(bytes, stamp)
      }
    ) { path, result in handle(path, result.map { $0 ?? .missing }) }
  }

  /// Runs `body` on each path's folder (opened once per run of paths in the same folder) and
  /// name, handing each outcome to `visit` as it comes.
  private func each<T>(
    _ paths: [String], _ body: (Int32, String, String) throws(Refusal) -> T?,
    visit: (String, Result<T?, Refusal>) -> Bool
  ) {
    var folder: Substring?
    var fds: [Int32]?
    defer { fds?.forEach { close($0) } }
    for path in paths {
      let outcome: Result<T?, Refusal>
      do throws(Refusal) {
        // NB: a path in the folder of the one before is split no further than its last
        // slash, and only its name is checked (its folder's parts were, when it was opened):
        // splitting each of 130,000 paths into Strings was an eighth of a warm `check`.
        let slash = path.lastIndex(ofASCII: UInt8(ascii: "/"))
        let parent = slash.map { path[..<$0] } ?? ""
        let name = slash.map { String(path[path.utf8.index(after: $0)...]) } ?? path
        if parent != folder {
          fds?.forEach { close($0) }
          fds = nil
          folder = nil
          let parts = try Self.parts(path)
          fds = try folders(parts, path: path, create: false)
          folder = parent
        } else if !Self.isPlainName(name) {
          throw .badName(path)
        }
        if let fds {
          outcome = .success(try body(fds[fds.count - 1], name, path))
        } else {
          outcome = .success(nil)
        }
      } catch {
        folder = nil
        outcome = .failure(error)
      }
      if !visit(path, outcome) { return }
    }
  }

  /// Opens a file as `read` reads one: no link followed, a folder, FIFO or device refused,
  /// the size bounded. Returns the descriptor (the caller closes it) and its stat; nil when
  /// there is no file.
  private func openFile(in dir: Int32, name: String, path: String) throws(Refusal)
    -> (fd: Int32, stat: stat)?
  {
    // NB: O_NONBLOCK: opening a FIFO for reading would wait for a writer forever; it is
    // refused below, before any read.
    let fd = openat(dir, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
    if fd < 0 {
      if errno == ENOENT { return nil }
      let code = errno
      var st = stat()
      if fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) == 0, st.st_mode & S_IFMT == S_IFLNK {
        throw .link(path)
      }
      throw .unreadable(path, code)
    }
    var st = stat()
    do throws(Refusal) {
      guard fstat(fd, &st) == 0 else { throw .unreadable(path, errno) }
      switch st.st_mode & S_IFMT {
      case S_IFREG: break
      case S_IFDIR: throw .isAFolder(path)
      default: throw .notAFile(path)
      }
      // NB: bounded by fstat before anything is allocated (a sparse 1 GB file is not read).
      guard st.st_size <= WorkTree.largestFile else { throw .tooLarge(path, Int(st.st_size)) }
    } catch {
      close(fd)
      throw error
    }
    return (fd, st)
  }

  /// Opens `path` as `read` would and gives `body` the descriptor (at the file's start) and
  /// the file's stamp, for a reader that takes the file a piece at a time; nil when there is
  /// no file.
  public func withOpenFile<T>(_ path: String, _ body: (Int32, FileStamp) -> T) throws(Refusal)
    -> T?
  {
    let parts = try Self.parts(path)
    guard let fds = try folders(parts, path: path, create: false) else { return nil }
    defer { fds.forEach { close($0) } }
    guard
      let (fd, st) = try openFile(in: fds[fds.count - 1], name: parts[parts.count - 1], path: path)
    else { return nil }
    defer { close(fd) }
    return body(fd, FileStamp(st))
  }

  private func readFile(in dir: Int32, name: String, path: String) throws(Refusal)
    -> (bytes: [UInt8], stamp: FileStamp)?
  {
    guard let (fd, st) = try openFile(in: dir, name: name, path: path) else { return nil }
    defer { close(fd) }
    let size = Int(st.st_size)
    // NB: not zeroed first: read() writes each byte once (a 10 MB library was 1 ms of memset).
    var failure: Int32 = 0
    let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
      while count < size {
        let n = Glibc.read(fd, buffer.baseAddress! + count, size - count)
        if n < 0 && errno == EINTR { continue }
        if n < 0 { failure = errno }
        if n <= 0 { break }
        count += n
      }
    }
    if failure != 0 { throw .unreadable(path, failure) }
    return (bytes, FileStamp(st))
  }

  /// Checks that `path` could be written: no link or file on its way, no link or folder in
  /// its place. Nothing is created.
  public func checkWritable(_ path: String) throws(Refusal) {
    let parts = try Self.parts(path)
    guard let fds = try folders(parts, path: path, create: false) else { return }
    defer { fds.forEach { close($0) } }
    var st = stat()
    guard fstatat(fds[fds.count - 1], parts[parts.count - 1], &st, AT_SYMLINK_NOFOLLOW) == 0
    else { return }
    switch st.st_mode & S_IFMT {
    case S_IFREG: return
    case S_IFLNK: throw .link(path)
    case S_IFDIR: throw .isAFolder(path)
    default: throw .system(path, EINVAL)
    }
  }

  /// Replaces a file through a fresh temporary file beside it, then a rename, so a reader never
  /// sees half of it and a link in its place is replaced, not followed; creates one where there
  /// was none in place (`O_EXCL`, as git checks a new file out: a reader may see its start).
  public func write(_ path: String, _ bytes: [UInt8], mode: UInt32 = 0o100644) throws(Refusal) {
    let writer = Writer(self)
    defer { writer.close() }
    try writer.write(path, bytes, mode: mode)
  }

  /// Writes many files as `write` writes one, each folder on the way opened once for a run of
  /// files in it (a catch-up of 20,000 meetings was three folder opens and closes per file),
  /// and the temporary names drawn from one random stem with a count. Close it when done.
  public final class Writer {
    private let tree: WorkTree
    /// The folder `fds` leads to (data-relative, "" for the root), its names checked.
    private var folder: String?
    private var fds: [Int32] = []
    private let stem = String(UInt64.random(in: 0...UInt64.max), radix: 36)
    private var count = 0

    public init(_ tree: WorkTree) { self.tree = tree }

    deinit { close() }

    /// Gives back the folders it holds open.
    public func close() {
      fds.forEach { Glibc.close($0) }
      fds = []
      folder = nil
    }

    /// Writes one file (see `WorkTree.write`).
    public func write(_ path: String, _ bytes: [UInt8], mode: UInt32 = 0o100644) throws(Refusal) {
      // NB: a file in the folder of the one before needs only its own name checked (a split
      // of every path was a tenth of writing a 20,000-file catch-up).
      let slash = path.utf8.lastIndex(of: UInt8(ascii: "/"))
      let parent = slash.map { String(path[..<$0]) } ?? ""
      let name = slash.map { String(path[path.utf8.index(after: $0)...]) } ?? path
      if parent != folder || fds.isEmpty {
        let parts = try WorkTree.parts(path)
        close()
        guard let opened = try tree.folders(parts, path: path, create: true) else { return }
        (fds, folder) = (opened, parent)
      } else if !WorkTree.isPlainName(name) {
        throw .badName(path)
      }
      do throws(Refusal) {
        try tree.write(
          in: fds[fds.count - 1], name: name, path: path, bytes: bytes,
          mode: mode, temporary: nextTemporary)
      } catch {
        // NB: what failed may be a folder on the way (removed meanwhile): opened again next.
        close()
        throw error
      }
    }

    /// A temporary name beside the file: unpredictable by its stem, unique by its count.
    private func nextTemporary(_ name: String) -> String {
      count += 1
      return ".\(name.prefix(64)).\(stem)\(String(count, radix: 36)).dinger-tmp"
    }
  }

  /// Writes the file `name` in the open folder `dir` through a temporary file named by
  /// `temporary` (tried again under a new name if taken).
  private func write(
    in dir: Int32, name: String, path: String, bytes: [UInt8], mode: UInt32,
    temporary: (String) -> String
  ) throws(Refusal) {
    var temp = ""
    if mode == 0o120000 {
      // NB: a teammate's symbolic link is made as one, as git checks it out: making a link
      // follows nothing, and dinger never reads through one.
      guard !bytes.contains(0) else { throw .badName(path) }
      var made: Int32 = -1
      for _ in 0..<8 {
        temp = temporary(name)
        made = String(decoding: bytes, as: UTF8.self).withCString { symlinkat($0, dir, temp) }
        if made == 0 || errno != EEXIST { break }
      }
      guard made == 0 else { throw .system(path, errno) }
      if renameat(dir, temp, dir, name) == 0 { return }
      let failure = errno
      unlinkat(dir, temp, 0)
      throw .system(path, failure)
    }
    // NB: an executable as git makes one: 0777 less the umask (0666 for a plain file).
    let permissions: mode_t = mode == 0o100755 ? 0o777 : 0o666
    let flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC
    // NB: a file where there was none is made in place, as git does (the rename was a third of
    // writing a catch-up's 20,000 new files): nothing of anyone's is in the way to keep whole,
    // and a kill midway leaves a start of the new bytes, which `Recovery` knows for ours. Any
    // name in the way (a file, a link, a folder) is replaced through a temporary file instead.
    let fresh = openat(dir, name, flags, permissions)
    if fresh >= 0 {
      let failure = Self.writeAll(fresh, bytes)
      close(fresh)
      guard failure != 0 else { return }
      unlinkat(dir, name, 0)
      throw .system(path, failure)
    }
    guard errno == EEXIST else { throw .system(path, errno) }
    var fd: Int32 = -1
    for _ in 0..<8 {
      temp = temporary(name)
      fd = openat(dir, temp, flags, permissions)
      if fd >= 0 || errno != EEXIST { break }
    }
    guard fd >= 0 else { throw .system(path, errno) }
    var failure = Self.writeAll(fd, bytes)
    close(fd)
    if failure == 0 {
      // NB: a folder in the file's place is refused by the rename itself (EISDIR), not looked
      // at before (an lstat of each of a catch-up's 20,000 files).
      if renameat(dir, temp, dir, name) == 0 { return }
      failure = errno
    }
    unlinkat(dir, temp, 0)
    if failure == EISDIR { throw .isAFolder(path) }
    throw .system(path, failure)
  }

  /// Writes all of `bytes` to `fd`: 0, or the error that stopped it. A test may stop the
  /// process halfway (`DINGER_TEST_STOP_AT=file-half`).
  private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Int32 {
    var done = 0
    let half = StopPoint.wants("file-half") && bytes.count > 1 ? bytes.count / 2 : nil
    while done < bytes.count {
      let size = done == 0 ? half ?? bytes.count : bytes.count - done
      let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + done, size) }
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else { return errno }
      done += n
      if half != nil { StopPoint.reached("file-half") }
    }
    return 0
  }

  /// The temporary files a killed `write` of `path` may have left beside it (their names, in
  /// its folder).
  func temporaries(of path: String) -> [String] {
    guard let parts = try? Self.parts(path),
      let fds = try? folders(parts, path: path, create: false)
    else { return [] }
    defer { fds.forEach { close($0) } }
    guard let dir = fdopendir(dup(fds[fds.count - 1])) else { return [] }
    defer { closedir(dir) }
    let prefix = "." + parts[parts.count - 1].prefix(64) + "."
    var out: [String] = []
    while let entry = readdir(dir) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) {
        String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name.hasPrefix(prefix) && name.hasSuffix(".dinger-tmp") {
        out.append((parts.dropLast() + [name]).joined(separator: "/"))
      }
    }
    return out
  }

  /// Removes a file (a link in its place is removed, not followed), then the folders it
  /// leaves empty (git keeps no empty folders either). A file already gone is fine.
  public func remove(_ path: String) throws(Refusal) {
    let parts = try Self.parts(path)
    guard let fds = try folders(parts, path: path, create: false) else { return }
    defer { fds.forEach { close($0) } }
    if unlinkat(fds[fds.count - 1], parts[parts.count - 1], 0) != 0 && errno != ENOENT {
      throw errno == EISDIR ? .isAFolder(path) : .system(path, errno)
    }
    for depth in stride(from: parts.count - 2, through: 0, by: -1) {
      if unlinkat(fds[depth], parts[depth], AT_REMOVEDIR) != 0 { break }
    }
  }
}
