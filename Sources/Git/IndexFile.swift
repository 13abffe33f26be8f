import Base
import FoundationEssentials
import Glibc

/// Updates a few entries of git's index file (`.git/index`, versions 2 and 3) directly.
///
/// libgit2 loads and writes every entry (about 55 ms for 40,000 files); a dinger change touches
/// one or two. This splices the touched entries in place: entries stay sorted by path, the
/// cache-tree and offset-table extensions are dropped (git rebuilds them when it needs them),
/// other optional extensions are kept, and the trailing SHA-1 is recomputed. The new file
/// replaces the old through `index.lock`, as git does. Anything unusual (version 4, a split or
/// sparse index, an unknown required extension, a conflicted path) returns `false` so the caller
/// falls back to libgit2.
enum IndexFile {
  /// What to put in the index for a path: the blob and the working file's stat data.
  struct Update {
    var path: String
    /// The blob id, or nil to remove the entry.
    var blob: ObjectID?
    /// The working-tree file's path, for its stat data.
    var file: String?
  }

  /// How `apply` went.
  enum Outcome { case written, unsupported, failed }

  /// An index file as read.
  enum Loaded {
    /// One this type can edit: its bytes and where its entries and kept extensions are.
    case editable(bytes: [UInt8], entries: [Entry], extensions: [Range<Int>])
    /// No index file, or one libgit2 must edit (version 4, split, sparse, conflicted).
    case unsupported
    /// A file that is not a valid index: what is wrong.
    case damaged(String)
    /// An index that exists but could not be read (permissions, I/O): git's words for it.
    case unreadable(String)
  }

  /// Reads and checks `.git/index`: every count and length is bounded by the file's size before
  /// anything is allocated for it.
  static func load(gitDirectory: URL) -> Loaded {
    let path = gitDirectory.appendingPathComponent("index").path
    switch readExisting(path) {
    case .missing: return .unsupported
    case .failed(let why): return .unreadable(why)
    case .read(let bytes): return parse(bytes)
    }
  }

  /// Writes the index with the updates applied into `fd` (the held `index.lock`); `.unsupported`
  /// when this index needs libgit2 instead, with nothing written.
  static func apply(_ updates: [Update], to loaded: Loaded, into fd: Int32) -> Outcome {
    guard case .editable(let bytes, var entries, let extensions) = loaded else {
      return .unsupported
    }
    // NB: one merge of two sorted lists (an insert each was quadratic in a big catch-up); of
    // two updates of one path, the later wins.
    let keyed = updates.enumerated().map { (key: Array($0.element.path.utf8), at: $0.offset) }
      .sorted { pathLess($0.key[...], $1.key[...]) || ($0.key == $1.key && $0.at < $1.at) }
    var merged: [Entry] = []
    merged.reserveCapacity(entries.count + keyed.count)
    var next = 0
    for (n, (key, at)) in keyed.enumerated() where n + 1 == keyed.count || keyed[n + 1].key != key {
      while next < entries.count && pathLess(entries[next].path(in: bytes), key[...]) {
        merged.append(entries[next])
        next += 1
      }
      if next < entries.count && entries[next].path(in: bytes).elementsEqual(key) {
        if entries[next].stage(in: bytes) != 0 { return .unsupported }
        next += 1
      }
      guard let blob = updates[at].blob else { continue }
      guard let file = updates[at].file, let entry = makeEntry(path: key, blob: blob, file: file)
      else { return .unsupported }
      merged.append(.fresh(entry))
    }
    merged += entries[next...]
    entries = merged
    // The new file as pieces: spans of the old file (runs of untouched entries are contiguous
    // there) and new bytes. They are hashed and written in place, never copied into one buffer.
    enum Piece {
      case old(Range<Int>)
      case new([UInt8])
    }
    var pieces: [Piece] = [.old(0..<8), .new(be32(UInt32(entries.count)))]
    var run: Range<Int>? = nil
    for entry in entries {
      switch entry {
      case .original(let range, _):
        if let r = run, r.upperBound == range.lowerBound {
          run = r.lowerBound..<range.upperBound
        } else {
          if let r = run { pieces.append(.old(r)) }
          run = range
        }
      case .fresh(let b):
        if let r = run { pieces.append(.old(r)) }
        run = nil
        // NB: new entries side by side are one piece, one write (a write each was 20,000
        // system calls in a catch-up).
        if case .new(var last)? = pieces.last {
          pieces.removeLast()
          last += b
          pieces.append(.new(last))
        } else {
          pieces.append(.new(b))
        }
      }
    }
    if let r = run { pieces.append(.old(r)) }
    for ext in extensions { pieces.append(.old(ext)) }
    var sha = SHA1()
    bytes.withUnsafeBytes { all in
      for piece in pieces {
        switch piece {
        case .old(let r): sha.update(UnsafeRawBufferPointer(rebasing: all[r]))
        case .new(let b): b.withUnsafeBytes { sha.update($0) }
        }
      }
    }
    pieces.append(.new(sha.finish()))
    var ok = true
    bytes.withUnsafeBytes { all in
      for piece in pieces where ok {
        switch piece {
        case .old(let r): ok = writeAll(fd, UnsafeRawBufferPointer(rebasing: all[r]))
        case .new(let b): ok = b.withUnsafeBytes { writeAll(fd, $0) }
        }
      }
    }
    return ok ? .written : .failed
  }

  enum Entry {
    /// An entry kept as it was: its bytes, and where its path is.
    case original(Range<Int>, path: Range<Int>)
    case fresh([UInt8])

    func path(in bytes: [UInt8]) -> ArraySlice<UInt8> {
      switch self {
      case .original(_, let path): return bytes[path]
      case .fresh(let b):
        let length = Int(b[60] & 0x0F) << 8 | Int(b[61])
        return b[62..<(62 + length)]
      }
    }

    func stage(in bytes: [UInt8]) -> Int {
      switch self {
      case .original(let range, _): return Int(bytes[range.lowerBound + 60] >> 4) & 3
      case .fresh: return 0
      }
    }
  }

  static func parse(_ b: [UInt8]) -> Loaded {
    guard b.count >= 32, b[0..<4].elementsEqual("DIRC".utf8) else {
      return .damaged("it does not start with an index header")
    }
    let version = be32(b, 4)
    let count = Int(be32(b, 8))
    // NB: the count is the file's word; an entry takes at least 62 bytes, so a larger count is
    // damage, and nothing is allocated for it.
    guard count <= (b.count - 32) / 62 else {
      return .damaged("it claims \(count) entries, more than its \(b.count) bytes can hold")
    }
    guard version == 2 || version == 3 else {
      return version == 4 ? .unsupported : .damaged("it has unknown version \(version)")
    }
    // NB: the trailing checksum, as git checks it on read (all zeros: written with
    // index.skipHash, which git accepts too). A flipped bit must not be sealed again.
    let trailer = b[(b.count - 20)...]
    if !trailer.allSatisfy({ $0 == 0 }) {
      var sha = SHA1()
      b.withUnsafeBytes { sha.update(UnsafeRawBufferPointer(rebasing: $0[0..<(b.count - 20)])) }
      guard sha.finish().elementsEqual(trailer) else {
        return .damaged("its checksum does not match its contents (index file corrupt)")
      }
    }
    var entries: [Entry] = []
    entries.reserveCapacity(count + 2)
    var at = 12
    let end = b.count - 20
    for n in 0..<count {
      guard at + 62 <= end else { return .damaged("entry \(n + 1) runs past the end") }
      let flags = Int(b[at + 60]) << 8 | Int(b[at + 61])
      let extended = flags & 0x4000 != 0
      guard version == 3 || !extended else {
        return .damaged("entry \(n + 1) has version-3 flags in a version-2 index")
      }
      let pathStart = at + 62 + (extended ? 2 : 0)
      var pathEnd = pathStart + (flags & 0x0FFF)
      if flags & 0x0FFF == 0x0FFF {
        pathEnd = pathStart
        while pathEnd < end && b[pathEnd] != 0 { pathEnd += 1 }
      }
      let length = pathEnd - at
      let next = at + (length + 8) / 8 * 8
      guard next <= end else { return .damaged("entry \(n + 1) runs past the end") }
      entries.append(.original(at..<next, path: pathStart..<pathEnd))
      at = next
    }
    var extensions: [Range<Int>] = []
    while at + 8 <= end {
      let signature = b[at..<(at + 4)]
      let size = Int(be32(b, at + 4))
      guard at + 8 + size <= end else { return .damaged("an extension runs past the end") }
      let name = String(decoding: signature, as: UTF8.self)
      if let first = signature.first, first >= UInt8(ascii: "a"), first <= UInt8(ascii: "z") {
        return .unsupported  // a required extension (split index "link", sparse "sdir")
      }
      if !["TREE", "EOIE", "IEOT", "UNTR", "FSMN"].contains(name) {
        extensions.append(at..<(at + 8 + size))
      }
      at += 8 + size
    }
    return .editable(bytes: b, entries: entries, extensions: extensions)
  }

  static func writeAll(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) -> Bool {
    FileDescriptor.writeAll(fd, buffer)
  }

  /// A file read whole, missing, or unreadable.
  enum FileRead {
    case read([UInt8])
    case missing
    /// Why it could not be read, in git's words ("index file open failed: Permission denied").
    case failed(String)
  }

  /// Reads `path` whole. Only a file that does not exist is `missing`: every other failure
  /// (permissions, a folder in its place, an I/O error) is an error, never "empty".
  static func readExisting(_ path: String) -> FileRead {
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
    guard fd >= 0 else {
      if errno == ENOENT { return .missing }
      return .failed("index file open failed: \(String(cString: strerror(errno)))")
    }
    close(fd)
    var st = stat()
    guard lstat(path, &st) == 0, st.st_mode & S_IFMT == S_IFREG else {
      return .failed("index file is not a regular file")
    }
    guard let bytes = readFile(path) else {
      return .failed("unable to read index file: \(String(cString: strerror(errno)))")
    }
    return .read(bytes)
  }

  /// A whole file as bytes, read straight into the array.
  static func readFile(_ path: String) -> [UInt8]? {
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var st = stat()
    guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { return nil }
    let size = Int(st.st_size)
    var failed = false
    let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
      var done = 0
      while done < size {
        let n = read(fd, buffer.baseAddress! + done, size - done)
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else { break }
        done += n
      }
      failed = done != size
      count = done
    }
    return failed ? nil : bytes
  }

  /// git's mode for a working file's stat: a symbolic link, an executable, or a plain file.
  static func gitMode(_ st: stat) -> UInt32 {
    if st.st_mode & S_IFMT == S_IFLNK { return 0o120000 }
    return st.st_mode & 0o111 != 0 ? 0o100755 : 0o100644
  }

  static func makeEntry(path: [UInt8], blob: ObjectID, file: String) -> [UInt8]? {
    var st = stat()
    guard lstat(file, &st) == 0 else { return nil }
    return entry(path: path, blob: blob, stat: st, mode: gitMode(st))
  }

  /// git's order: bytes compared as unsigned, a prefix first.
  static func pathLess(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>) -> Bool {
    a.lexicographicallyPrecedes(b)
  }

  static func be32(_ v: UInt32) -> [UInt8] {
    [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
  }

  static func be32(_ b: [UInt8], _ at: Int) -> UInt32 {
    UInt32(b[at]) << 24 | UInt32(b[at + 1]) << 16 | UInt32(b[at + 2]) << 8 | UInt32(b[at + 3])
  }
}

extension Repository {
  /// The blob `.git/index` stages at each of `paths` (stage 0), read without a lock; a path
  /// the index lacks is absent from the answer. Nil when the index is one `IndexFile` does not
  /// read (missing, version 4, split, damaged).
  public func stagedBlobs(paths: Set<String>) -> [String: ObjectID]? {
    IndexFile.stagedBlobs(gitDirectory: gitDirectory, paths: paths)
  }
}

extension IndexFile {
  static func stagedBlobs(gitDirectory: URL, paths: Set<String>) -> [String: ObjectID]? {
    guard case .editable(let bytes, let entries, _) = load(gitDirectory: gitDirectory) else {
      return nil
    }
    var out: [String: ObjectID] = [:]
    for entry in entries {
      guard case .original(let range, let pathRange) = entry, entry.stage(in: bytes) == 0 else {
        continue
      }
      let path = String(decoding: bytes[pathRange], as: UTF8.self)
      guard paths.contains(path) else { continue }
      out[path] = ObjectID(bytes: Array(bytes[(range.lowerBound + 40)..<(range.lowerBound + 60)]))
    }
    return out
  }
}
