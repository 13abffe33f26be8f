import Base
import FoundationEssentials
import Glibc

/// One entry of a raw tree object: `<octal mode> <name>\0<20-byte id>`, positions in the tree.
struct RawTreeEntry {
  enum Kind { case tree, blob, submodule }
  var kind: Kind
  var nameStart: Int
  /// The NUL after the name; the id follows it.
  var nameEnd: Int
  /// Where the next entry starts.
  var end: Int { nameEnd + 21 }

  /// Reads the entry starting at `start`.
  init(_ tree: UnsafeBufferPointer<UInt8>, at start: Int) throws(GitError) {
    // NB: the space and the NUL found with memchr (a catch-up parses tens of millions of
    // entries; a byte loop was most of that).
    guard let base = tree.baseAddress, start < tree.count,
      let space = memchr(base + start, 0x20, tree.count - start)
    else { throw GitError.damaged("a tree entry is cut short") }
    let i = UnsafePointer<UInt8>(space.assumingMemoryBound(to: UInt8.self)) - base
    let modeLength = i - start
    nameStart = i + 1
    let nul =
      nameStart < tree.count ? memchr(base + nameStart, 0, tree.count - nameStart) : nil
    let end =
      nul.map { UnsafePointer<UInt8>($0.assumingMemoryBound(to: UInt8.self)) - base }
      ?? tree.count
    guard modeLength > 0, end > nameStart, end + 21 <= tree.count else {
      throw GitError.damaged("a tree entry is cut short")
    }
    nameEnd = end
    // NB: folders are "40000", submodules "160000", files "100644"/"100755", links "120000";
    // read as git reads them, an octal number judged by its type bits (a zero-padded
    // "040000", which git fsck only warns about, is a folder to git: it was written out as a
    // file holding the tree's bytes).
    var value: UInt32 = 0
    for k in start..<i {
      let digit = tree[k] &- 0x30
      guard digit < 8, value < 1 << 28 else {
        throw GitError.damaged("a tree entry's mode is not octal")
      }
      value = value << 3 | UInt32(digit)
    }
    mode = value
    switch value & 0o170000 {
    case 0o040000: kind = .tree
    case 0o160000: kind = .submodule
    default: kind = .blob
    }
  }

  /// The mode as git reads it (octal).
  var mode: UInt32

  /// git's mode for a blob entry: a link, an executable (any owner execute bit), else a file.
  var isLink: Bool { mode & 0o170000 == 0o120000 }
  var isExecutable: Bool { mode & 0o170000 != 0o120000 && mode & 0o100 != 0 }

  func name(in tree: UnsafeBufferPointer<UInt8>) -> String {
    String(decoding: UnsafeBufferPointer(rebasing: tree[nameStart..<nameEnd]), as: UTF8.self)
  }

  func id(in tree: UnsafeBufferPointer<UInt8>) -> ObjectID {
    ObjectID(bytes: Array(tree[(nameEnd + 1)..<(nameEnd + 21)]))
  }

  /// The start of the entry that holds byte `position` (or starts there), hopping from entry
  /// to entry from the beginning; `tree.count` when `position` is at or past the end.
  static func start(ofEntryAt position: Int, in tree: UnsafeBufferPointer<UInt8>) -> Int {
    guard let base = tree.baseAddress else { return 0 }
    var i = 0
    while i < tree.count {
      // NB: modes and names hold no NUL; the 20-byte id follows the name's.
      guard let nul = memchr(base + i, 0, tree.count - i) else { return i }
      let next = UnsafePointer<UInt8>(nul.assumingMemoryBound(to: UInt8.self)) - base + 21
      if next > position || next > tree.count { return i }
      i = next
    }
    return i
  }

  /// How many bytes `a` and `b` start with in common.
  static func commonPrefix(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int
  {
    let n = min(a.count, b.count)
    guard n > 0 else { return 0 }
    var i = 0
    while i + 256 <= n && memcmp(a.baseAddress! + i, b.baseAddress! + i, 256) == 0 { i += 256 }
    while i < n && a[i] == b[i] { i += 1 }
    return i
  }

  /// How many bytes `a` and `b` end with in common, not counting their first `start` bytes.
  static func commonSuffix(
    _ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>, from start: Int
  ) -> Int {
    let n = min(a.count, b.count) - start
    guard n > 0 else { return 0 }
    var k = 0
    while k + 256 <= n
      && memcmp(a.baseAddress! + a.count - k - 256, b.baseAddress! + b.count - k - 256, 256) == 0
    {
      k += 256
    }
    while k < n && a[a.count - k - 1] == b[b.count - k - 1] { k += 1 }
    return k
  }

  /// Git's tree order: names byte by byte, a folder's name as if it ended in '/'.
  static func order(
    _ x: RawTreeEntry, in a: UnsafeBufferPointer<UInt8>, _ y: RawTreeEntry,
    in b: UnsafeBufferPointer<UInt8>
  ) -> Int32 {
    let (lx, ly) = (x.nameEnd - x.nameStart, y.nameEnd - y.nameStart)
    let common = min(lx, ly)
    let c = memcmp(a.baseAddress! + x.nameStart, b.baseAddress! + y.nameStart, common)
    if c != 0 { return c }
    let cx: Int32 = lx > common ? Int32(a[x.nameStart + common]) : x.kind == .tree ? 47 : 0
    let cy: Int32 = ly > common ? Int32(b[y.nameStart + common]) : y.kind == .tree ? 47 : 0
    return cx - cy
  }
}
