import Base
import FoundationEssentials
import Glibc
import Synchronization

/// One pack of a repository (`objects/pack/pack-*.pack`) and its index (`.idx`, version 2),
/// both mapped into memory. Finds where an object is and reads the entry headers there; the
/// bytes are inflated and deltas applied by `ObjectReader`.
///
/// Formats: gitformat-pack(5). Every read checks its bounds: a damaged pack makes `nil`, never
/// a crash, and the reader then asks libgit2, which reports the damage properly.
final class Pack: @unchecked Sendable {
  /// The types an entry header names (pack type numbers).
  enum EntryType: UInt8 {
    case commit = 1, tree = 2, blob = 3, tag = 4, offsetDelta = 6, referenceDelta = 7
  }

  /// An entry's header: what it is, its size once inflated, where its zlib stream starts, and
  /// for a delta where its base is.
  struct Entry {
    var type: EntryType
    var size: Int
    var dataStart: Int
    /// The base's offset (offset deltas, and reference deltas whose base is in this pack).
    var baseOffset: Int?
  }

  let pack: MappedFile
  private let index: MappedFile
  /// Objects in the pack.
  let count: Int
  private let namesStart = 8 + 256 * 4
  private var offsetsStart: Int { namesStart + count * 24 }
  private var largeOffsetsStart: Int { offsetsStart + count * 4 }

  /// Opens the pack beside the index at `indexPath`; nil for anything but a version 2 index
  /// of a matching version 2 or 3 pack.
  init?(indexPath: String) {
    guard indexPath.hasSuffix(".idx"), let index = MappedFile(path: indexPath),
      let pack = MappedFile(path: String(indexPath.dropLast(4)) + ".pack")
    else { return nil }
    // NB: version 2 index: "\377tOc", 2, a 256-entry fan-out, names, CRCs, offsets, 64-bit
    // offsets, then two 20-byte checksums.
    guard index.bytes.count >= 8 + 256 * 4 + 40, index.uint32(at: 0) == 0xff74_4f63,
      index.uint32(at: 4) == 2
    else { return nil }
    let count = Int(index.uint32(at: 8 + 255 * 4))
    guard index.bytes.count >= 8 + 256 * 4 + count * 28 + 40 else { return nil }
    guard pack.bytes.count >= 12 + 20, pack.uint32(at: 0) == 0x5041_434b,
      [2, 3].contains(pack.uint32(at: 4)), Int(pack.uint32(at: 8)) == count
    else { return nil }
    // NB: the pack's trailing checksum must be the one its index was made for (the index's
    // first trailing checksum), as git checks when it opens a pack: a pack replaced or cut
    // under its index is not read.
    guard
      memcmp(
        pack.bytes.baseAddress! + pack.bytes.count - 20,
        index.bytes.baseAddress! + index.bytes.count - 40, 20) == 0
    else { return nil }
    (self.index, self.pack, self.count) = (index, pack, count)
  }

  /// Where the object with these 20 bytes starts in the pack, or nil when it is not here.
  func offset(of id: UnsafeRawBufferPointer) -> Int? {
    let first = Int(id[0])
    var low = first == 0 ? 0 : Int(index.uint32(at: 8 + (first - 1) * 4))
    var high = Int(index.uint32(at: 8 + first * 4))
    guard high <= count, low <= high else { return nil }
    let names = index.bytes.baseAddress! + namesStart
    while low < high {
      let mid = (low + high) / 2
      let c = memcmp(names + mid * 20, id.baseAddress!, 20)
      if c == 0 { return offset(at: mid) }
      if c < 0 { low = mid + 1 } else { high = mid }
    }
    return nil
  }

  /// The offset of the `n`th object in the index (for the fuzz harness).
  func offsetForFuzzing(_ n: Int) -> Int? { n < count ? offset(at: n) : nil }

  private func offset(at n: Int) -> Int? {
    let small = index.uint32(at: offsetsStart + n * 4)
    if small & 0x8000_0000 == 0 { return Int(small) }
    let position = largeOffsetsStart + Int(small & 0x7fff_ffff) * 8
    guard position + 8 <= index.bytes.count - 40 else { return nil }
    let large = index.bytes.loadUnaligned(fromByteOffset: position, as: UInt64.self).bigEndian
    return large < UInt64(pack.bytes.count) ? Int(large) : nil
  }

  /// The header of the entry at `offset`.
  func entry(at offset: Int) -> Entry? {
    let bytes = pack.bytes
    let end = bytes.count - 20  // the trailing checksum
    guard offset >= 12, offset < end else { return nil }
    var i = offset
    var c = bytes[i]
    i += 1
    guard let type = EntryType(rawValue: (c >> 4) & 7) else { return nil }
    var size = Int(c & 15)
    var shift = 4
    while c & 0x80 != 0 {
      guard i < end, shift < 57 else { return nil }
      c = bytes[i]
      i += 1
      size |= Int(c & 0x7f) << shift
      shift += 7
    }
    var entry = Entry(type: type, size: size, dataStart: i, baseOffset: nil)
    switch type {
    case .offsetDelta:
      guard i < end else { return nil }
      c = bytes[i]
      i += 1
      var distance = Int(c & 127)
      while c & 128 != 0 {
        guard i < end, distance < 1 << 48 else { return nil }
        c = bytes[i]
        i += 1
        distance = ((distance + 1) << 7) | Int(c & 127)
      }
      guard distance > 0, distance <= offset else { return nil }
      entry.baseOffset = offset - distance
      entry.dataStart = i
    case .referenceDelta:
      guard i + 20 <= end else { return nil }
      entry.baseOffset = self.offset(of: UnsafeRawBufferPointer(rebasing: bytes[i..<i + 20]))
      guard entry.baseOffset != nil else { return nil }  // a thin pack's base: libgit2's job
      entry.dataStart = i + 20
    default: break
    }
    return entry
  }

  /// Every entry's offset in pack order, each with its position in the index (built on first
  /// use, once, under a lock: a pack is read from several threads, and a `lazy var` built there
  /// was a data race).
  private let layoutStore = Mutex<[(offset: Int, position: Int)]?>(nil)
  private var layout: [(offset: Int, position: Int)] {
    layoutStore.withLock { stored in
      if let stored { return stored }
      var built: [(offset: Int, position: Int)] = []
      built.reserveCapacity(count)
      for n in 0..<count { if let o = offset(at: n) { built.append((o, n)) } }
      built.sort { $0.offset < $1.offset }
      stored = built
      return built
    }
  }

  private func layoutIndex(of offset: Int) -> Int? {
    let layout = self.layout
    var low = 0
    var high = layout.count
    while low < high {
      let mid = (low + high) / 2
      if layout[mid].offset == offset { return mid }
      if layout[mid].offset < offset { low = mid + 1 } else { high = mid }
    }
    return nil
  }

  /// Where the entry at `offset` ends (the next entry, or the trailing checksum).
  func end(of offset: Int) -> Int? {
    guard let i = layoutIndex(of: offset) else { return nil }
    let layout = self.layout
    return i + 1 < layout.count ? layout[i + 1].offset : pack.bytes.count - 20
  }

  /// The 20 bytes naming the object whose entry starts at `offset`.
  func name(at offset: Int) -> [UInt8]? {
    guard let i = layoutIndex(of: offset) else { return nil }
    let start = namesStart + layout[i].position * 20
    return Array(index.bytes[start..<start + 20])
  }

  /// The `.idx` files in a repository's `objects/pack` folder.
  static func indexPaths(in gitDirectory: URL) -> [String] {
    let folder = gitDirectory.appendingPathComponent("objects/pack")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.filter { $0.hasSuffix(".idx") }.sorted().map {
      folder.appendingPathComponent($0).path
    }
  }
}
