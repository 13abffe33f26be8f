import Base
internal import CGit2
import FoundationEssentials
import Glibc

// A fresh clone's working tree and index, written by dinger: libgit2's checkout resolved every
// path with realpath() (16 readlink calls per file: 2.1x `git clone` at 10,000 files on tmpfs,
// growing with the repository). Here each folder is opened once and each file is created
// under it (`openat`, O_EXCL|O_NOFOLLOW: nothing a clone writes goes through a link), and the
// index is written in one pass. Trees that need what only libgit2 does (line-ending or other
// filters from .gitattributes or core.autocrlf) still go through libgit2.

/// One path of the tree being checked out.
private struct CheckoutItem {
  var path: [UInt8]
  var nameStart: Int
  var depth: Int
  var kind: Kind
  var id: ObjectID

  enum Kind { case folder, file, executable, link, submodule }

  var name: [UInt8] { Array(path[nameStart...]) }
  /// The name for C calls, NUL-terminated (bytes as they are: a name need not be UTF-8).
  var cName: [CChar] { path[nameStart...].map { CChar(bitPattern: $0) } + [0] }
}

extension Repository {
  /// Writes `commit`'s tree into the (empty) working directory and the index for it. False
  /// when the tree needs libgit2's filters; nothing is written then.
  /// Whether attributes text names anything that changes bytes on checkout.
  static func needsFilters(_ bytes: [UInt8]) -> Bool {
    let text = String(decoding: bytes, as: UTF8.self).lowercased()
    return ["text", "eol", "filter", "ident", "working-tree-encoding"].contains {
      text.containsText($0)
    }
  }

  /// Whether the user's attributes file (`configured`, else git's default under
  /// `$XDG_CONFIG_HOME` or `~/.config`) names a filter or an end-of-line rule.
  static func userAttributesNeedFilters(
    _ configured: String?, environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> Bool {
    let home = environment["HOME"] ?? ""
    var path: String
    if let configured, !configured.isEmpty {
      path = configured
      if path == "~" || path.hasPrefix("~/") { path = home + path.dropFirst() }
    } else if let xdg = environment["XDG_CONFIG_HOME"], !xdg.isEmpty {
      path = xdg + "/git/attributes"
    } else {
      path = home + "/.config/git/attributes"
    }
    // NB: bounded: an attributes file is a few lines; a huge one is read by libgit2 instead.
    let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var st = stat()
    guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { return false }
    guard st.st_size <= 1 << 20 else { return true }
    var bytes = [UInt8](repeating: 0, count: Int(st.st_size))
    let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
    return n < 0 || needsFilters(Array(bytes.prefix(max(n, 0))))
  }

  func checkOutFresh(_ commit: ObjectID) throws(GitError) -> Bool {
    guard let workdir else { return true }
    if let crlf = config("core.autocrlf")?.lowercased(), ["true", "input"].contains(crlf) {
      return false
    }
    // NB: the user's own attributes (`core.attributesFile`, else git's default
    // `$XDG_CONFIG_HOME/git/attributes`) apply to a clone too, as in git: with a filter or an
    // end-of-line rule there, libgit2 checks out (dinger's own checkout writes bytes as stored).
    if Self.userAttributesNeedFilters(config("core.attributesFile")) { return false }
    let reader = ObjectReader(self)
    let items = try checkoutItems(try treeID(of: commit), reader: reader)
    for item in items where item.name == Array(".gitattributes".utf8) && item.kind == .file {
      if Self.needsFilters(try reader.read(item.id).bytes) { return false }
    }
    var entries: [(path: [UInt8], entry: [UInt8])] = []
    entries.reserveCapacity(items.count)
    let root = Glibc.open(workdir.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard root >= 0 else { throw GitError.system("open \(workdir.path)") }
    var folders: [Int32] = [root]
    defer { for fd in folders { close(fd) } }
    for item in items {
      while folders.count > item.depth + 1 { close(folders.removeLast()) }
      let parent = folders[item.depth]
      let where_ = String(decoding: item.path, as: UTF8.self)
      var st = stat()
      switch item.kind {
      case .folder, .submodule:
        guard mkdirat(parent, item.cName, 0o777) == 0 || errno == EEXIST else {
          throw GitError.system("create \(where_)")
        }
        let fd = openat(parent, item.cName, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { throw GitError.system("open \(where_)") }
        if item.kind == .folder {
          folders.append(fd)
          continue
        }
        close(fd)
        st = stat()
      case .file, .executable:
        let bytes = try reader.read(item.id).bytes
        let fd = openat(
          parent, item.cName, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
          item.kind == .executable ? 0o777 : 0o666)
        guard fd >= 0 else { throw GitError.system("create \(where_)") }
        let written = bytes.withUnsafeBytes { IndexFile.writeAll(fd, $0) }
        let statted = fstat(fd, &st) == 0
        close(fd)
        guard written, statted else { throw GitError.system("write \(where_)") }
      case .link:
        let target = try reader.read(item.id).bytes
        guard !target.isEmpty, !target.contains(0) else {
          throw GitError.damaged("the link \(where_) has no target")
        }
        guard symlinkat(target.map { CChar(bitPattern: $0) } + [0], parent, item.cName) == 0,
          fstatat(parent, item.cName, &st, AT_SYMLINK_NOFOLLOW) == 0
        else { throw GitError.system("create the link \(where_)") }
      }
      let mode: UInt32 =
        switch item.kind {
        case .executable: 0o100755
        case .link: 0o120000
        case .submodule: 0o160000
        default: 0o100644
        }
      guard let entry = IndexFile.entry(path: item.path, blob: item.id, stat: st, mode: mode)
      else { throw GitError.damaged("the path \(where_) is too long for the index") }
      entries.append((item.path, entry))
    }
    try IndexFile.writeFresh(entries, gitDirectory: gitDirectory)
    return true
  }

  /// Every path of `tree`, folders before what they hold, each name checked as git's
  /// `verify_path` would: no `.`, `..`, `.git` (any case), `/` or NUL.
  private func checkoutItems(_ tree: ObjectID, reader: ObjectReader) throws(GitError)
    -> [CheckoutItem]
  {
    var items: [CheckoutItem] = []
    func walk(_ id: ObjectID, prefix: [UInt8], depth: Int) throws(GitError) {
      guard depth < 256 else { throw GitError.damaged("folders nested too deep") }
      let object = try reader.read(id)
      guard object.kind == .tree else { throw GitError.damaged("\(id.short) is not a tree") }
      let bytes = object.bytes
      var children: [(ObjectID, [UInt8])] = []
      try bytes.withUnsafeBufferPointer { (tree) throws(GitError) in
        var at = 0
        while at < tree.count {
          let entry = try RawTreeEntry(tree, at: at)
          let name = Array(tree[entry.nameStart..<entry.nameEnd])
          let child = entry.id(in: tree)
          let lower = name.map { (65...90).contains($0) ? $0 + 32 : $0 }
          guard name != [46], name != [46, 46], lower != Array(".git".utf8), !name.contains(47)
          else {
            throw GitError.damaged(
              "the tree holds a path git refuses to check out: \(String(decoding: prefix + name, as: UTF8.self))"
            )
          }
          let path = prefix + name
          let kind: CheckoutItem.Kind =
            switch entry.kind {
            case .tree: .folder
            case .submodule: .submodule
            case .blob: entry.isLink ? .link : entry.isExecutable ? .executable : .file
            }
          items.append(
            CheckoutItem(path: path, nameStart: prefix.count, depth: depth, kind: kind, id: child))
          if kind == .folder { children.append((child, path + [47])) }
          at = entry.end
          // NB: a folder's contents follow it at once, so each folder is opened once.
          if kind == .folder {
            let (sub, subPrefix) = children.removeLast()
            try walk(sub, prefix: subPrefix, depth: depth + 1)
          }
        }
      }
    }
    try walk(tree, prefix: [], depth: 0)
    return items
  }
}

extension IndexFile {
  /// An index entry for `path` with the stat data `st` (zeros for a submodule) and `mode`.
  static func entry(path: [UInt8], blob: ObjectID, stat st: stat, mode: UInt32) -> [UInt8]? {
    guard path.count < 0x0FFF else { return nil }
    var e: [UInt8] = []
    e.reserveCapacity(62 + path.count + 8)
    e += be32(UInt32(truncatingIfNeeded: st.st_ctim.tv_sec))
    e += be32(UInt32(truncatingIfNeeded: st.st_ctim.tv_nsec))
    e += be32(UInt32(truncatingIfNeeded: st.st_mtim.tv_sec))
    e += be32(UInt32(truncatingIfNeeded: st.st_mtim.tv_nsec))
    e += be32(UInt32(truncatingIfNeeded: st.st_dev))
    e += be32(UInt32(truncatingIfNeeded: st.st_ino))
    e += be32(mode)
    e += be32(UInt32(truncatingIfNeeded: st.st_uid))
    e += be32(UInt32(truncatingIfNeeded: st.st_gid))
    e += be32(UInt32(truncatingIfNeeded: st.st_size))
    e += blob.bytes
    e += [UInt8(path.count >> 8), UInt8(path.count & 0xFF)]
    e += path
    let padded = (62 + path.count + 8) / 8 * 8
    e += [UInt8](repeating: 0, count: padded - e.count)
    return e
  }

  /// Writes a new index (version 2) of `entries` in git's path order, through `index.lock`.
  static func writeFresh(_ entries: [(path: [UInt8], entry: [UInt8])], gitDirectory: URL)
    throws(GitError)
  {
    let sorted = entries.sorted { pathLess($0.path[...], $1.path[...]) }
    var bytes = Array("DIRC".utf8) + be32(2) + be32(UInt32(sorted.count))
    bytes.reserveCapacity(sorted.reduce(32) { $0 + $1.entry.count })
    for e in sorted { bytes += e.entry }
    bytes += bytes.withUnsafeBytes { SHA1.digest($0) }
    let path = gitDirectory.appendingPathComponent("index").path
    let lock = path + ".lock"
    let fd = Glibc.open(lock, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw GitError.system("create \(lock)") }
    let written = bytes.withUnsafeBytes { writeAll(fd, $0) }
    close(fd)
    guard written, rename(lock, path) == 0 else {
      unlink(lock)
      throw GitError.system("write \(path)")
    }
  }
}
