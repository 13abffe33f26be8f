import Foundation
import TestSupport
import Testing

@testable import Git

/// The pack reader against git itself: every object of a repository, stored loose, in packs
/// with long delta chains (offset and reference deltas), and in several packs at once.
@Suite struct ObjectReaderTests {
  enum Storage: String, CaseIterable, Sendable {
    case loose, offsetDeltas, referenceDeltas, twoPacksAndLoose
  }

  /// A history where a long file, a folder and a binary file change a little in every commit,
  /// so that git's packs chain their versions as deltas.
  func history(commits: Int = 60) throws -> Sandbox {
    let box = try Sandbox()
    try FileManager.default.createDirectory(at: box.data, withIntermediateDirectories: true)
    try box.git("init", "-q", "-b", "main")
    try addCommits(box, 0..<commits)
    return box
  }

  func addCommits(_ box: Sandbox, _ range: Range<Int>) throws {
    for i in range {
      let lines = (0..<(300 + i)).map { $0 == i ? "line \($0) changed in \(i)" : "line \($0)" }
      try box.write("big/list.txt", lines.joined(separator: "\n") + "\n")
      try box.write("history/t\(i % 5)/m\(i).yaml", "id: \(i)\nduration: \(i * 7)\n")
      var bytes = (0..<2000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 / 7) }
      bytes[i % bytes.count] = UInt8(i & 255)
      try Data(bytes).write(to: box.data.appendingPathComponent("bin.dat"))
      try Data().write(to: box.data.appendingPathComponent("empty"))
      try box.git("add", "-A")
      try box.git("commit", "-q", "-m", "commit \(i)")
    }
  }

  /// Every object as `git cat-file --batch` gives it: id, type and bytes.
  func everyObject(_ box: Sandbox) throws -> [(
    id: ObjectID, kind: ObjectReader.Object.Kind, bytes: [UInt8]
  )] {
    let file = box.home.url.appendingPathComponent("objects.batch")
    let r = try ProcessRunner.run(
      "/bin/sh", ["-c", "git cat-file --batch-all-objects --batch > '\(file.path)'"], in: box.data,
      environment: box.environment)
    #expect(r.status == 0, "\(r.stderr)")
    let data = [UInt8](try Data(contentsOf: file))
    var out: [(ObjectID, ObjectReader.Object.Kind, [UInt8])] = []
    var i = 0
    while i < data.count {
      let newline = data[i...].firstIndex(of: 10)!
      let header = String(decoding: data[i..<newline], as: UTF8.self).split(separator: " ")
      let size = Int(header[2])!
      let kinds: [Substring: ObjectReader.Object.Kind] = [
        "commit": .commit, "tree": .tree, "blob": .blob, "tag": .tag,
      ]
      out.append(
        (
          ObjectID(hex: String(header[0]))!, kinds[header[1]]!,
          Array(data[(newline + 1)..<(newline + 1 + size)])
        ))
      i = newline + 1 + size + 1
    }
    return out
  }

  func store(_ box: Sandbox, as storage: Storage) throws {
    let repack = ["repack", "-a", "-d", "-f", "-q", "--depth=50", "--window=50"]
    switch storage {
    case .loose: break
    case .offsetDeltas: try box.git(repack)
    case .referenceDeltas: try box.git(["-c", "repack.useDeltaBaseOffset=false"] + repack)
    case .twoPacksAndLoose:
      try box.git(repack)
      try addCommits(box, 60..<70)
      try box.git("repack", "-d", "-q")  // a second pack of the new objects only
      try addCommits(box, 70..<75)
    }
  }

  /// How many entries of each type the packs hold for these objects.
  func entryTypes(_ box: Sandbox, _ ids: [ObjectID]) -> [Pack.EntryType: Int] {
    let packs = Pack.indexPaths(in: box.data.appendingPathComponent(".git")).compactMap {
      Pack(indexPath: $0)
    }
    var counts: [Pack.EntryType: Int] = [:]
    for id in ids {
      for pack in packs {
        guard let offset = id.bytes.withUnsafeBytes({ pack.offset(of: $0) }) else { continue }
        if let type = pack.entry(at: offset)?.type { counts[type, default: 0] += 1 }
      }
    }
    return counts
  }

  @Test(arguments: Storage.allCases)
  func readsEveryObjectAsGitDoes(_ storage: Storage) throws {
    let box = try history()
    try store(box, as: storage)
    let objects = try everyObject(box)
    #expect(objects.count > 400)
    let reader = ObjectReader(try Repository.open(box.data))
    for object in objects {
      let read = try reader.read(object.id)
      #expect(read.kind == object.kind && read.bytes == object.bytes, "\(object.id)")
    }
    // A file's bytes are only a blob's: any other object read as one is refused.
    let files = ObjectReader(try Repository.open(box.data))
    for object in objects {
      let blob = Result { () throws(GitError) in try files.blob(object.id) }
      if object.kind == .blob {
        #expect((try? blob.get()) == object.bytes, "\(object.id)")
      } else {
        #expect((try? blob.get()) == nil, "\(object.id) is a \(object.kind), read as a file")
      }
    }
    let types = entryTypes(box, objects.map(\.id))
    switch storage {
    case .loose:
      #expect(types.isEmpty)
      #expect(reader.fallbacks == objects.count)
    case .offsetDeltas:
      #expect(types[.offsetDelta, default: 0] > 150 && types[.referenceDelta] == nil)
      #expect(reader.fallbacks == 0)
    case .referenceDeltas:
      #expect(types[.referenceDelta, default: 0] > 150 && types[.offsetDelta] == nil)
      #expect(reader.fallbacks == 0)
    case .twoPacksAndLoose:
      #expect(Pack.indexPaths(in: box.data.appendingPathComponent(".git")).count == 2)
      #expect(reader.fallbacks > 0 && reader.fallbacks < objects.count / 5)
    }
  }

  /// A cache far smaller than one chain still reads every object right, in any order.
  @Test func aSmallCacheReadsTheSame() throws {
    let box = try history(commits: 40)
    try store(box, as: .offsetDeltas)
    let objects = try everyObject(box)
    let reader = ObjectReader(try Repository.open(box.data), cacheLimit: 4096)
    for object in objects.shuffled() + objects.reversed() {
      #expect(try reader.read(object.id).bytes == object.bytes, "\(object.id)")
    }
  }

  /// A damaged object in a pack is an error naming it, not a crash or wrong bytes; the rest of
  /// the pack still reads.
  @Test func aDamagedObjectIsAnError() throws {
    let box = try history(commits: 20)
    try store(box, as: .offsetDeltas)
    let objects = try everyObject(box)
    let git = box.data.appendingPathComponent(".git")
    let packPath = Pack.indexPaths(in: git)[0]
    let pack = try #require(Pack(indexPath: packPath))
    // The largest object stored whole: the base of the big file's chain.
    let (victim, entry) = try #require(
      objects.compactMap { o -> (ObjectID, Pack.Entry)? in
        guard let offset = o.id.bytes.withUnsafeBytes({ pack.offset(of: $0) }),
          let entry = pack.entry(at: offset), entry.type == .blob
        else { return nil }
        return (o.id, entry)
      }.max { $0.1.size < $1.1.size })
    #expect(entry.size > 2000)
    let file = String(packPath.dropLast(4)) + ".pack"
    chmod(file, 0o644)
    let handle = try FileHandle(forUpdating: URL(fileURLWithPath: file))
    try handle.seek(toOffset: UInt64(entry.dataStart + 20))
    let byte = try #require(try handle.read(upToCount: 1)?.first)
    try handle.seek(toOffset: UInt64(entry.dataStart + 20))
    try handle.write(contentsOf: [byte ^ 0x5a])
    try handle.close()

    let reader = ObjectReader(try Repository.open(box.data))
    #expect(throws: GitError.self) { try reader.read(victim) }
    let commit = try #require(objects.first { $0.kind == .commit })
    #expect(try reader.read(commit.id).bytes == commit.bytes)
  }

  /// A pack whose trailing checksum is not the one its index names (replaced or cut under it)
  /// is not read, as git refuses it.
  @Test func aPackThatIsNotTheOneItsIndexNamesIsNotRead() throws {
    let box = try history(commits: 5)
    try store(box, as: .offsetDeltas)
    let git = box.data.appendingPathComponent(".git")
    let packPath = Pack.indexPaths(in: git)[0]
    #expect(Pack(indexPath: packPath) != nil)
    let file = String(packPath.dropLast(4)) + ".pack"
    chmod(file, 0o644)
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
    bytes[bytes.count - 1] ^= 0xff
    try Data(bytes).write(to: URL(fileURLWithPath: file))
    #expect(Pack(indexPath: packPath) == nil)
  }
}
