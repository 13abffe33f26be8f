import Base
import FoundationEssentials
import Glibc

/// Parses the 8-4-4-4-12 hex form of a UUID in either case. Foundation's parser goes through
/// `sscanf`, which showed up in decode profiles; ids are in every record.
public enum FastUUID {
  public static func parse(_ text: String) -> UUID? {
    var text = text
    return text.withUTF8 { parse(bytes: $0) }
  }

  public static func parse(bytes text: UnsafeBufferPointer<UInt8>) -> UUID? {
    guard text.count == 36 else { return nil }
    var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    var utf8 = text.makeIterator()
    var count = 0
    var position = 0
    var high: UInt8? = nil
    let ok = withUnsafeMutableBytes(of: &bytes) { out -> Bool in
      while let c = utf8.next() {
        position += 1
        if position == 9 || position == 14 || position == 19 || position == 24 {
          guard c == UInt8(ascii: "-") else { return false }
          continue
        }
        let v: UInt8
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): v = c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): v = c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): v = c - UInt8(ascii: "A") + 10
        default: return false
        }
        if let h = high {
          guard count < 16 else { return false }
          out[count] = h << 4 | v
          count += 1
          high = nil
        } else {
          high = v
        }
      }
      return position == 36 && count == 16
    }
    return ok ? UUID(uuid: bytes) : nil
  }
}
