import Foundation
import TestSupport
import Testing

@testable import Git

/// Many new blobs go into one pack that git itself reads and checks; few stay loose, as
/// `git add` writes them; the ids are git's (`hash-object`) either way.
@Suite struct BlobBatchTests {
  func repository() throws -> Sandbox {
    let box = try Sandbox()
    try FileManager.default.createDirectory(at: box.data, withIntermediateDirectories: true)
    try box.git("init", "-q", "-b", "main")
    return box
  }

  func objectFiles(_ box: Sandbox) throws -> (loose: Int, packs: Int) {
    let objects = box.data.appendingPathComponent(".git/objects")
    let names = try FileManager.default.contentsOfDirectory(atPath: objects.path)
    let loose = try names.filter { $0.count == 2 }.reduce(0) {
      $0 + (try FileManager.default.contentsOfDirectory(atPath: objects.path + "/" + $1).count)
    }
    let packs = try FileManager.default.contentsOfDirectory(atPath: objects.path + "/pack")
      .filter { $0.hasSuffix(".pack") }.count
    return (loose, packs)
  }

  @Test func manyBlobsAreOnePackGitReads() throws {
    let box = try repository()
    let repo = try Repository.open(box.data)
    // One blob is in the repository already, one is given twice, one is empty.
    try box.write("here.txt", "already here\n")
    let here = try box.git("hash-object", "-w", "here.txt").trimmingCharacters(
      in: .whitespacesAndNewlines)
    var blobs = (0..<600).map {
      Array("meeting \($0)\n\(String(repeating: "x", count: $0))\n".utf8)
    }
    blobs += [Array("already here\n".utf8), blobs[7], []]
    let ids = try repo.writeBlobs(blobs)
    #expect(ids.count == blobs.count)
    #expect(ids[600].description == here && ids[601] == ids[7])
    let (loose, packs) = try objectFiles(box)
    #expect(loose == 1 && packs == 1, "loose \(loose), packs \(packs)")
    // git's own hash, and its own reading of each object.
    for i in [0, 7, 599, 602] {
      let file = box.home.url.appendingPathComponent("b\(i)")
      try Data(blobs[i]).write(to: file)
      #expect(try box.git("hash-object", file.path).hasPrefix(ids[i].description))
      #expect(Array(try box.git("cat-file", "blob", ids[i].description).utf8) == blobs[i])
    }
    let fsck = try ProcessRunner.run(
      "/usr/bin/git", ["fsck", "--strict"], in: box.data, environment: box.environment)
    #expect(fsck.status == 0, "\(fsck.stderr)")
    // Writing the same blobs again adds nothing.
    _ = try repo.writeBlobs(blobs)
    #expect(try objectFiles(box).packs == 1)
  }

  @Test func fewBlobsStayLoose() throws {
    let box = try repository()
    let blobs = (0..<10).map { Array("b\($0)\n".utf8) }
    let ids = try Repository.open(box.data).writeBlobs(blobs)
    #expect(try objectFiles(box) == (10, 0))
    #expect(try box.git("cat-file", "blob", ids[3].description) == "b3\n")
  }
}
