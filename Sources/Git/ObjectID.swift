internal import CGit2

/// A git object id (SHA-1).
public struct ObjectID: Hashable, Sendable, CustomStringConvertible {
  /// The 20 bytes.
  public let bytes: [UInt8]

  init(_ oid: git_oid) {
    var oid = oid
    bytes = withUnsafeBytes(of: &oid.id) { Array($0) }
  }

  /// The id made of these 20 bytes.
  public init(bytes: [UInt8]) {
    precondition(bytes.count == 20, "an object id has 20 bytes")
    self.bytes = bytes
  }

  init?(_ pointer: UnsafePointer<git_oid>?) {
    guard let pointer else { return nil }
    self.init(pointer.pointee)
  }

  /// Parses 40 hex digits.
  public init?(hex: String) {
    var oid = git_oid()
    guard hex.utf8.count == 40, git_oid_fromstr(&oid, hex) == 0 else { return nil }
    self.init(oid)
  }

  var oid: git_oid {
    var oid = git_oid()
    withUnsafeMutableBytes(of: &oid.id) { $0.copyBytes(from: bytes) }
    return oid
  }

  /// 40 hex digits.
  public var hex: String {
    let digits = Array("0123456789abcdef".utf8)
    var out = [UInt8]()
    out.reserveCapacity(40)
    for b in bytes {
      out.append(digits[Int(b >> 4)])
      out.append(digits[Int(b & 15)])
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// The first 7 hex digits, as git shows them.
  public var short: String { String(hex.prefix(7)) }

  public var description: String { hex }
}
