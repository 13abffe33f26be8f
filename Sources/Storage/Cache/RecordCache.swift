import Base
import FoundationEssentials
import Glibc
import Models

/// Parsed records kept between commands, under `.git/dinger/records-v1/` (never committed), so
/// that a command reading a 50,000-word library or 2,600 meetings does not parse YAML again
/// when the files have not changed.
///
/// One cache file per data folder (`libraries`, `history/design`), holding for each file its
/// stamp (size, times, inode, as git's index keeps them) and the record in a binary form. A file
/// is taken from the cache only when its stamp is the one cached; an entry is only made for a
/// file whose times are settled (see `FileStamp.isSettled`), so an edit in the same second as a
/// read is never hidden. A cache file that is torn, damaged or from another version is ignored
/// and written again. Writes go to a new file renamed into place: two commands filling the cache
/// at once leave one or the other's file, each whole.
final class RecordCache {
  /// The cache's folder.
  let folder: URL
  private var buckets: [String: Bucket] = [:]

  init(folder: URL) { self.folder = folder }

  /// The cache of a data repository; nil when `DINGER_RECORD_CACHE=off`.
  static func of(gitDirectory: URL) -> RecordCache? {
    if ProcessInfo.processInfo.environment["DINGER_RECORD_CACHE"] == "off" { return nil }
    return RecordCache(folder: gitDirectory.appendingPathComponent("dinger/records-v1"))
  }

  /// One folder's entries.
  private final class Bucket {
    var data: [UInt8] = []
    /// File name -> (stamp, the record's bytes in `data`).
    var entries: [String: (stamp: FileStamp, payload: Range<Int>)] = [:]
    var added: [String: (stamp: FileStamp, payload: ArraySlice<UInt8>)] = [:]
    var dropped: Set<String> = []
    var changed = false
  }

  /// The cached record of `path` when it was cached with this stamp.
  func record(_ path: String, stamp: FileStamp) -> AnyRecord? { entry(path, stamp: stamp)?.0 }

  /// The cached record of `path` and its places, when it was cached with this stamp.
  func entry(_ path: String, stamp: FileStamp) -> (AnyRecord, CachedRecord.Places)? {
    payload(path, stamp: stamp) { r throws(CacheReader.Damaged) in
      try CachedRecord.decode(&r, path: path)
    }
  }

  /// One folder's entries as the cache holds them, for looking them up from other threads
  /// (`check` stats a big tree on every core). The cache itself is not touched from there: a
  /// stale entry found through a view is dropped by `drop` on the cache's own thread.
  struct FolderView: Sendable {
    let data: [UInt8]
    let entries: [String: (stamp: FileStamp, payload: Range<Int>)]

    /// What `check` needs of the file `name` (see `CachedRecord.slim`) when it was cached with
    /// this stamp; `stale` when it was cached with another.
    func slim(_ name: String, stamp: FileStamp, stale: inout Bool) -> (
      kind: UInt8, id: UUID?, parent: UUID?, places: CachedRecord.SlimPlaces
    )? {
      guard let entry = entries[name] else { return nil }
      guard entry.stamp == stamp else {
        stale = true
        return nil
      }
      return data.withUnsafeBytes { raw in
        var r = CacheReader(raw, from: entry.payload.lowerBound, to: entry.payload.upperBound)
        return try? CachedRecord.slim(&r)
      }
    }
  }

  /// The entries of the data folder `dir` (its cache file read now, if it was not yet).
  func view(ofFolder dir: String) -> FolderView {
    let bucket = bucket(dir)
    return FolderView(data: bucket.data, entries: bucket.entries)
  }

  /// Forgets the entry of `path`: the file has changed since it was cached.
  func drop(_ path: String) {
    let (bucket, name) = bucket(of: path)
    bucket.dropped.insert(name)
    bucket.changed = true
  }

  /// A cached library as listing rows (see `CachedRecord.libraryListing`).
  func libraryListing(_ path: String, stamp: FileStamp) -> LibraryListing? {
    payload(path, stamp: stamp) { r, data throws(CacheReader.Damaged) in
      try CachedRecord.libraryListing(&r, in: data, path: path)
    } ?? nil
  }

  private func payload<T>(
    _ path: String, stamp: FileStamp, _ read: (inout CacheReader) throws(CacheReader.Damaged) -> T
  ) -> T? {
    payload(path, stamp: stamp) { r, _ throws(CacheReader.Damaged) in try read(&r) }
  }

  /// Reads an entry's payload; `read` also gets the bucket's bytes (rows may point into them).
  private func payload<T>(
    _ path: String, stamp: FileStamp,
    _ read: (inout CacheReader, [UInt8]) throws(CacheReader.Damaged) -> T
  ) -> T? {
    let (bucket, name) = bucket(of: path)
    guard let entry = bucket.entries[name] else { return nil }
    guard entry.stamp == stamp else {
      bucket.dropped.insert(name)
      bucket.changed = true
      return nil
    }
    let data = bucket.data
    return data.withUnsafeBytes { raw -> T? in
      var r = CacheReader(raw, from: entry.payload.lowerBound, to: entry.payload.upperBound)
      return try? read(&r, data)
    }
  }

  /// Remembers a record read from `path`, when it is settled at `now` and of a kind kept.
  func remember(
    _ path: String, stamp: FileStamp, record: AnyRecord, places: CachedRecord.Places, now: Int64
  ) {
    guard stamp.isSettled(at: now), let payload = CachedRecord.encode(record, places: places)
    else { return }
    remember(path, stamp: stamp, entry: payload[...], now: now)
  }

  /// Keeps an entry already in the cache's form.
  func remember(_ path: String, stamp: FileStamp, entry payload: ArraySlice<UInt8>, now: Int64) {
    guard stamp.isSettled(at: now) else { return }
    let (bucket, name) = bucket(of: path)
    bucket.added[name] = (stamp, payload)
    bucket.changed = true
  }

  /// Writes every folder's cache that changed. Failures are ignored: the cache only saves time.
  func save() {
    for (dir, bucket) in buckets where bucket.changed {
      // NB: the file goes out as pieces: small parts gathered in one buffer, big entries from
      // their own (a 50,000-word library's 10 MB entry was copied, and its pages faulted in,
      // once more to be written).
      var pieces: [ArraySlice<UInt8>] = []
      var w = CacheWriter()
      func add(_ payload: ArraySlice<UInt8>) {
        guard payload.count >= 1 << 16 else { return w.bytes.append(contentsOf: payload) }
        pieces.append(w.bytes[...])
        pieces.append(payload)
        w = CacheWriter()
      }
      w.bytes.append(contentsOf: Self.magic)
      w.u8(CachedRecord.version)
      w.string(dir)
      var kept = bucket.entries.filter {
        !bucket.dropped.contains($0.key) && bucket.added[$0.key] == nil
      }
      w.varint(kept.count + bucket.added.count)
      for (name, entry) in kept.sorted(by: { $0.key < $1.key }) {
        w.string(name)
        entry.stamp.write(to: &w)
        w.varint(entry.payload.count)
        add(bucket.data[entry.payload])
      }
      kept = [:]
      for (name, entry) in bucket.added.sorted(by: { $0.key < $1.key }) {
        w.string(name)
        entry.stamp.write(to: &w)
        w.varint(entry.payload.count)
        add(entry.payload)
      }
      pieces.append(w.bytes[...])
      var sum = CacheChecksum()
      for piece in pieces { piece.withUnsafeBytes { sum.add($0) } }
      var tail = CacheWriter()
      tail.u64(sum.value)
      pieces.append(tail.bytes[...])
      write(pieces, to: Self.fileName(dir))
      bucket.changed = false
    }
  }

  // MARK: Files

  static let magic: [UInt8] = Array("DNGRRC1\n".utf8)
  /// A cache file bigger than this is not read (a 50,000-word library caches in about 6 MB).
  static let largest = 1 << 30

  /// The cache file of a data folder: a hash of its path (folder names are a teammate's).
  static func fileName(_ dir: String) -> String {
    var h = FNV1a()
    h.add(dir.utf8)
    return String(h.value, radix: 16) + ".bin"
  }

  /// The bucket of `path`'s folder and the file's name. Paths come folder by folder, so the
  /// last folder's bucket is kept and its name compared as bytes (a warm check asks this of
  /// every file; a String and a dictionary lookup for the folder each time added up).
  private func bucket(of path: String) -> (Bucket, String) {
    let slash = path.lastIndex(ofASCII: UInt8(ascii: "/"))
    let name = slash.map { String(path[path.utf8.index(after: $0)...]) } ?? path
    let dir = slash.map { path[..<$0] } ?? ""
    if let (lastDir, lastBucket) = last, lastDir.utf8.elementsEqual(dir.utf8) {
      return (lastBucket, name)
    }
    let found = bucket(String(dir))
    last = (String(dir), found)
    return (found, name)
  }

  private var last: (String, Bucket)?

  private func bucket(_ dir: String) -> Bucket {
    if let b = buckets[dir] { return b }
    let b = Bucket()
    buckets[dir] = b
    guard let data = read(Self.fileName(dir)) else { return b }
    // A cache file that does not read back whole is as good as none.
    if let entries = try? Self.entries(data, dir: dir) {
      b.data = data
      b.entries = entries
    } else {
      b.changed = true
    }
    return b
  }

  static func entries(_ data: [UInt8], dir: String) throws -> [String: (
    stamp: FileStamp, payload: Range<Int>
  )] {
    try data.withUnsafeBytes { raw throws(CacheReader.Damaged) in
      guard raw.count >= magic.count + 9,
        raw.prefix(magic.count).elementsEqual(magic)
      else { throw CacheReader.Damaged() }
      let body = UnsafeRawBufferPointer(rebasing: raw[0..<raw.count - 8])
      let sum = raw.loadUnaligned(fromByteOffset: raw.count - 8, as: UInt64.self)
      guard UInt64(littleEndian: sum) == cacheChecksum(body) else { throw CacheReader.Damaged() }
      var r = CacheReader(body, from: magic.count)
      guard try r.u8() == CachedRecord.version, try r.string() == dir else {
        throw CacheReader.Damaged()
      }
      let n = try r.count(each: 42)
      var out: [String: (stamp: FileStamp, payload: Range<Int>)] = [:]
      out.reserveCapacity(n)
      for _ in 0..<n {
        let name = try r.string()
        let stamp = try FileStamp.read(&r)
        out[name] = (stamp, try r.slice(try r.varint()))
      }
      guard r.atEnd else { throw CacheReader.Damaged() }
      return out
    }
  }

  /// True when `.git/dinger` and the cache's folder are folders, not links: a link placed there
  /// must not send the cache's reads and writes outside the repository. The cache is then
  /// simply not used.
  private var folderIsReal: Bool {
    [folder.deletingLastPathComponent(), folder].allSatisfy { url in
      var st = stat()
      return lstat(url.path, &st) == 0 && st.st_mode & S_IFMT == S_IFDIR
    }
  }

  /// A file of the cache's own beside the folders' (the scrum titles), read as they are.
  func file(named name: String) -> [UInt8]? { read(name) }

  /// Replaces a file of the cache's own, as the folders' are written.
  func writeFile(named name: String, _ bytes: [UInt8]) { write([bytes[...]], to: name) }

  private func read(_ name: String) -> [UInt8]? {
    guard folderIsReal else { return nil }
    let fd = open(
      folder.appendingPathComponent(name).path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var st = stat()
    guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG, st.st_size <= Self.largest else {
      return nil
    }
    // NB: dinger writes its cache files whole, so a file with holes (a sparse 1 GB file costs
    // its maker nothing and every reader a gigabyte of zeros) was not written by it: unused.
    guard Int64(st.st_blocks) * 512 + 65_536 >= Int64(st.st_size) else { return nil }
    let size = Int(st.st_size)
    var done = 0
    // NB: not zero-filled first (a 6 MB cache file spent a tenth of `word list` in memset).
    let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
      while done < size {
        let n = Glibc.read(fd, buffer.baseAddress! + done, size - done)
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { break }
        done += n
      }
      count = done
    }
    return done == size ? bytes : nil
  }

  private func write(_ pieces: [ArraySlice<UInt8>], to name: String) {
    let path = folder.appendingPathComponent(name).path
    // NB: not even a folder is made through a link.
    guard OwnFolder.notAFolder(folder) == nil else { return }
    mkdir(folder.deletingLastPathComponent().path, 0o755)
    mkdir(folder.path, 0o755)
    guard folderIsReal else { return }
    try? AtomicFile.write(pieces, to: path, durability: .cache)
  }
}
