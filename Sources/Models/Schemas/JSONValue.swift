/// A JSON value with its object keys in the order written (schemas read best in that order),
/// rendered as indented text.
public indirect enum JSONValue: Sendable, Equatable {
  case object([Member])
  case array([JSONValue])
  case string(String)
  case integer(Int)
  case number(Double)
  case bool(Bool)
  case null

  /// One key and value of an object.
  public struct Member: Sendable, Equatable {
    public var key: String
    public var value: JSONValue
    public init(_ key: String, _ value: JSONValue) { (self.key, self.value) = (key, value) }
  }

  /// The value of `key` in an object.
  public subscript(key: String) -> JSONValue? {
    guard case .object(let members) = self else { return nil }
    return members.first { $0.key == key }?.value
  }

  /// The object with one more member at its end.
  public func adding(_ key: String, _ value: JSONValue) -> JSONValue {
    guard case .object(let members) = self else { return self }
    return .object(members + [Member(key, value)])
  }

  /// Two-space indented JSON, ending in a newline.
  public var text: String { rendered(indent: "") + "\n" }

  func rendered(indent: String) -> String {
    let inner = indent + "  "
    switch self {
    case .object(let members):
      if members.isEmpty { return "{}" }
      return "{\n"
        + members.map { "\(inner)\(Self.quote($0.key)): \($0.value.rendered(indent: inner))" }
        .joined(separator: ",\n") + "\n\(indent)}"
    case .array(let items):
      if items.isEmpty { return "[]" }
      if items.allSatisfy({ if case .string = $0 { true } else { false } }) {
        return "[" + items.map { $0.rendered(indent: inner) }.joined(separator: ", ") + "]"
      }
      return "[\n" + items.map { inner + $0.rendered(indent: inner) }.joined(separator: ",\n")
        + "\n\(indent)]"
    case .string(let s): return Self.quote(s)
    case .integer(let n): return String(n)
    case .number(let d): return d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : String(d)
    case .bool(let b): return b ? "true" : "false"
    case .null: return "null"
    }
  }

  /// A JSON string literal.
  public static func quote(_ s: String) -> String {
    var out = "\""
    for scalar in s.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      default:
        if scalar.value < 0x20 || scalar.value == 0x7f {
          out +=
            "\\u" + String(repeatElement("0", count: 4 - String(scalar.value, radix: 16).count))
            + String(scalar.value, radix: 16)
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out + "\""
  }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
  ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral
{
  public init(stringLiteral value: String) { self = .string(value) }
  public init(integerLiteral value: Int) { self = .integer(value) }
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
}
