internal import CGit2
import Glibc

extension Repository {
  /// From how many new blobs a write packs them (one pack file) instead of writing each loose.
  public static let packedBlobThreshold = 256

  /// Writes `blobs` and returns their ids, in order. Up to `packedBlobThreshold` new ones are
  /// written loose, as `git add` does; more go into one pack, indexed by libgit2's indexer, so
  /// that an import of 10,000 meetings creates two files in `.git/objects` instead of 10,000
  /// (with a temporary file, a link and an unlink each: most of the import's time). A kill
  /// while the pack is written leaves at most a temporary file that `git gc` removes; nothing
  /// refers to the objects until the commit that follows.
  public func writeBlobs(_ blobs: [[UInt8]]) throws(GitError) -> [ObjectID] {
    guard blobs.count > Self.packedBlobThreshold else {
      return try blobs.map { (b) throws(GitError) in try writeBlob(b) }
    }
    let raw = try raw
    var odb: OpaquePointer?
    try Check.rc(git_repository_odb(&odb, raw), "open the object database")
    defer { git_odb_free(odb) }
    var ids: [ObjectID] = []
    ids.reserveCapacity(blobs.count)
    var seen = Set<ObjectID>()
    var new: [Int] = []
    for (i, b) in blobs.enumerated() {
      var oid = git_oid()
      let rc = b.withUnsafeBytes { git_odb_hash(&oid, $0.baseAddress, $0.count, GIT_OBJECT_BLOB) }
      try Check.rc(rc, "hash a blob")
      let id = ObjectID(oid)
      ids.append(id)
      if seen.insert(id).inserted && git_odb_exists(odb, &oid) == 0 { new.append(i) }
    }
    guard new.count > Self.packedBlobThreshold else {
      for i in new { _ = try writeBlob(blobs[i]) }
      return ids
    }
    var writer: UnsafeMutablePointer<git_odb_writepack>?
    try Check.rc(git_odb_write_pack(&writer, odb, nil, nil), "write a pack of new files")
    defer { writer?.pointee.free(writer) }
    var stats = git_indexer_progress()
    var hash = SHA1()
    var pending: [UInt8] = []
    pending.reserveCapacity(1 << 19)
    func flush() throws(GitError) {
      guard !pending.isEmpty else { return }
      let rc = pending.withUnsafeBytes {
        writer!.pointee.append(writer, $0.baseAddress, $0.count, &stats)
      }
      pending.removeAll(keepingCapacity: true)
      try Check.rc(rc, "write a pack of new files")
    }
    func emit(_ bytes: [UInt8]) throws(GitError) {
      bytes.withUnsafeBytes { hash.update($0) }
      pending += bytes
      if pending.count >= 1 << 19 { try flush() }
    }
    let count = UInt32(new.count)
    try emit(
      Array("PACK".utf8) + [0, 0, 0, 2]
        + [
          UInt8(count >> 24), UInt8(count >> 16 & 0xff), UInt8(count >> 8 & 0xff),
          UInt8(count & 0xff),
        ])
    for i in new {
      try emit(PackWriter.entryHeader(type: 3, size: blobs[i].count))
      try emit(try PackWriter.deflate(blobs[i]))
    }
    pending += hash.finish()
    try flush()
    try Check.rc(writer!.pointee.commit(writer, &stats), "index the pack of new files")
    return ids
  }
}

extension Repository {
  /// The id git gives `bytes` as a blob (`git hash-object`), nothing written.
  public func hashBlob(_ bytes: [UInt8]) -> ObjectID? {
    var oid = git_oid()
    let rc = bytes.withUnsafeBytes { git_odb_hash(&oid, $0.baseAddress, $0.count, GIT_OBJECT_BLOB) }
    return rc == 0 ? ObjectID(oid) : nil
  }
}
