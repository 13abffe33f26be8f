import Foundation
import Testing

@testable import Base

/// `AtomicFile`: the whole new file or the old one, a link at the target replaced (never
/// written through), nothing left behind on failure.
@Suite struct AtomicFileTests {
  func folder() throws -> String {
    let path = NSTemporaryDirectory() + "dinger-atomic-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  @Test func writesWholeAndReplaces() throws {
    let dir = try folder()
    let path = dir + "/f.txt"
    try AtomicFile.write(Array("old\n".utf8), to: path, durability: .durable)
    try AtomicFile.write(
      [Array("new ".utf8)[...], Array("pieces\n".utf8)[...]], to: path, durability: .cache)
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "new pieces\n")
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["f.txt"])
  }

  @Test func aLinkAtTheTargetIsReplacedNotFollowed() throws {
    let dir = try folder()
    let victim = dir + "/victim.txt"
    try "keep me\n".write(toFile: victim, atomically: false, encoding: .utf8)
    try FileManager.default.createSymbolicLink(atPath: dir + "/f.txt", withDestinationPath: victim)
    try AtomicFile.write(Array("mine\n".utf8), to: dir + "/f.txt", durability: .cache)
    #expect(try String(contentsOfFile: victim, encoding: .utf8) == "keep me\n")
    let attributes = try FileManager.default.attributesOfItem(atPath: dir + "/f.txt")
    #expect(attributes[.type] as? FileAttributeType == .typeRegular)
  }

  @Test func aFailureLeavesTheOldFileAndNoTemporary() throws {
    let dir = try folder()
    let path = dir + "/f.txt"
    try AtomicFile.write(Array("old\n".utf8), to: path, durability: .durable)
    // The target is a folder now: the rename fails, and nothing else changes.
    let blocked = dir + "/sub"
    try FileManager.default.createDirectory(
      atPath: blocked + "/x", withIntermediateDirectories: true)
    #expect(throws: AtomicFile.Failure.self) {
      try AtomicFile.write(Array("new\n".utf8), to: blocked, durability: .durable)
    }
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "old\n")
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["f.txt", "sub"])
    // A folder that is not there: a clear error naming the file.
    do {
      try AtomicFile.write([1], to: dir + "/missing/f.txt", durability: .cache)
      Issue.record("wrote into a missing folder")
    } catch {
      #expect(error.description.hasPrefix("could not write \(dir)/missing/f.txt:"))
    }
  }
}
