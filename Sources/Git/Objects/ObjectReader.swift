import Base
internal import CGit2
import FoundationEssentials
import Glibc

/// Reads objects straight from a repository's packs, keeping what it resolves from deltas.
///
/// libgit2 1.5 keeps only the first base of a delta chain: every read of a tree stored 25
/// deltas deep inflates and applies 25 deltas again. A folder of a thousand meetings changes in
/// every commit and git's packs chain its versions up to 50 deep, so walking the history spent
/// most of its time re-applying the same deltas. This reader keeps every object it resolves
/// (bases and intermediate results, up to `cacheLimit` bytes, oldest dropped first), so walking
/// neighbouring versions costs about one delta each, as git's own delta base cache does.
///
/// Packs with an index other than version 2, loose objects, alternates and anything the reader
/// cannot make sense of are read through libgit2 instead: the result is the same, only slower.
/// Not thread-safe: one reader per thread.
public final class ObjectReader {
  /// An object's type and bytes (without git's `type size\0` header).
  public struct Object: Sendable {
    public enum Kind: Sendable { case commit, tree, blob, tag }
    public var kind: Kind
    public var bytes: [UInt8]
  }

  private let repository: Repository
  private let packs: [Pack]
  private let inflater = Inflater()
  private var odb: OpaquePointer?
  private var lastPack = 0
  /// Where deltas are inflated before they are applied, grown as needed.
  private var scratch: [UInt8] = []
  /// Resolved objects by (pack, offset), and the order they came in.
  private var cache: [Int: Object] = [:]
  private var order: [Int] = []
  private var oldest = 0
  private var cached = 0
  /// Bytes of resolved objects kept at most.
  let cacheLimit: Int
  /// Objects and deltas larger than this are read through libgit2.
  static let largestObject = 64 << 20
  /// Reads answered by libgit2 (for tests and traces).
  public private(set) var fallbacks = 0

  /// A reader of `repository`'s objects; the packs present now are the ones it reads itself.
  /// The cache holds 32 MB unless `cacheLimit` (or DINGER_PACK_CACHE_MB, for measuring) says
  /// otherwise. Cold `log S` on 50 scrums x 2,600 meetings (130,000 commits): 8 MB 21.5 s /
  /// 606 MB peak, 32 MB 9.0 s / 675 MB, 64 MB 9.0 s / 761 MB (the 50 history folders' trees are
  /// deltas against one base that a small first-in-first-out cache drops); on the 40,000-commit
  /// benchmark 8 and 32 MB are within noise (1.65-1.85 s).
  public init(_ repository: Repository, cacheLimit: Int? = nil) {
    let cacheLimit =
      cacheLimit
      ?? (ProcessInfo.processInfo.environment["DINGER_PACK_CACHE_MB"].flatMap { Int($0) } ?? 32)
      << 20
    self.repository = repository
    self.cacheLimit = cacheLimit
    packs = Pack.indexPaths(in: repository.gitDirectory).compactMap { Pack(indexPath: $0) }
  }

  deinit { if let odb { git_odb_free(odb) } }

  /// The object `id`.
  public func read(_ id: ObjectID) throws(GitError) -> Object {
    let found = id.bytes.withUnsafeBytes { bytes -> Object? in
      // NB: the pack that held the last object first: every fetch adds a pack, and objects
      // read together mostly came together.
      if let offset = packs[safe: lastPack]?.offset(of: bytes) {
        return resolve(offset, in: lastPack)
      }
      for (n, pack) in packs.enumerated() where n != lastPack {
        if let offset = pack.offset(of: bytes) {
          lastPack = n
          return resolve(offset, in: n)
        }
      }
      return nil
    }
    if let found { return found }
    return try readThroughLibgit2(id)
  }

  /// The bytes of the file (blob) `id`; throws when `id` is some other kind of object (a
  /// teammate's tree may name a folder or a commit where it says a file is).
  public func blob(_ id: ObjectID) throws(GitError) -> [UInt8] {
    let object = try read(id)
    guard object.kind == .blob else { throw GitError.damaged("\(id.short) is not a file's bytes") }
    return object.bytes
  }

  /// The object at `offset` of pack `n`, applying deltas down from the nearest base known.
  private func resolve(_ offset: Int, in n: Int) -> Object? {
    let pack = packs[n]
    var chain: [Pack.Entry] = []
    var chainOffsets: [Int] = []
    var position = offset
    var base: Object
    while true {
      if let hit = cache[key(n, position)] {
        base = hit
        break
      }
      // NB: huge objects (and sizes a damaged header makes up) are left to libgit2.
      guard chain.count < 10_000, let entry = pack.entry(at: position),
        entry.size <= Self.largestObject
      else { return nil }
      guard let baseOffset = entry.baseOffset else {
        guard let kind = Self.kind(entry.type),
          let bytes = inflater.inflate(stream(pack, entry), size: entry.size)
        else { return nil }
        base = Object(kind: kind, bytes: bytes)
        if !chain.isEmpty { remember(base, at: key(n, position)) }
        break
      }
      chain.append(entry)
      chainOffsets.append(position)
      position = baseOffset
    }
    while let entry = chain.popLast(), let at = chainOffsets.popLast() {
      if scratch.count < entry.size { scratch = [UInt8](repeating: 0, count: entry.size) }
      let result = scratch.withUnsafeMutableBytes { buffer -> [UInt8]? in
        let delta = UnsafeMutableRawBufferPointer(rebasing: buffer[..<entry.size])
        guard inflater.inflate(stream(pack, entry), into: delta) else { return nil }
        return Delta.apply(UnsafeRawBufferPointer(delta), to: base.bytes)
      }
      guard let result else { return nil }
      base = Object(kind: base.kind, bytes: result)
      remember(base, at: key(n, at))
    }
    return base
  }

  private func stream(_ pack: Pack, _ entry: Pack.Entry) -> UnsafeRawBufferPointer {
    UnsafeRawBufferPointer(
      rebasing: pack.pack.bytes[entry.dataStart..<(pack.pack.bytes.count - 20)])
  }

  private func key(_ pack: Int, _ offset: Int) -> Int { pack << 48 | offset }

  private func remember(_ object: Object, at key: Int) {
    let size = object.bytes.count
    guard size <= cacheLimit / 4, cache.updateValue(object, forKey: key) == nil else { return }
    order.append(key)
    cached += size
    while cached > cacheLimit, oldest < order.count {
      if let gone = cache.removeValue(forKey: order[oldest]) { cached -= gone.bytes.count }
      oldest += 1
    }
    if oldest > 4096 && oldest * 2 > order.count {
      order.removeFirst(oldest)
      oldest = 0
    }
  }

  private static func kind(_ type: Pack.EntryType) -> Object.Kind? {
    switch type {
    case .commit: .commit
    case .tree: .tree
    case .blob: .blob
    case .tag: .tag
    case .offsetDelta, .referenceDelta: nil
    }
  }

  private func readThroughLibgit2(_ id: ObjectID) throws(GitError) -> Object {
    fallbacks += 1
    if odb == nil {
      try Check.rc(git_repository_odb(&odb, repository.raw), "open the object database")
    }
    var oid = id.oid
    var object: OpaquePointer?
    try Check.rc(git_odb_read(&object, odb, &oid), "read object \(id.short)")
    defer { git_odb_object_free(object) }
    let kind: Object.Kind
    switch git_odb_object_type(object) {
    case GIT_OBJECT_COMMIT: kind = .commit
    case GIT_OBJECT_TREE: kind = .tree
    case GIT_OBJECT_BLOB: kind = .blob
    default: kind = .tag
    }
    let size = git_odb_object_size(object)
    let data = git_odb_object_data(object)
    let bytes = data.map { Array(UnsafeRawBufferPointer(start: $0, count: size)) } ?? []
    return Object(kind: kind, bytes: bytes)
  }
}

extension Array {
  subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
