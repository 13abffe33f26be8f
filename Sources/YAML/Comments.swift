/// Whether YAML text has comments, told from the parser's exact node ranges: a `#` at the start
/// of a line or after a blank that lies outside every scalar (key or value, plain, quoted or
/// block). A scan by hand read the apostrophe in `title: Ada's team # note` as an opening quote
/// and missed the comment.
public enum YAMLComments {
  public static func exist(in bytes: [UInt8]) -> Bool {
    guard let root = try? YAMLParser.parse(SourceText(bytes)) else {
      // Not YAML dinger can read: any `#` after a blank counts (the caller only warns).
      return bytes.indices.contains { i in
        bytes[i] == UInt8(ascii: "#") && (i == 0 || isBlank(bytes[i - 1]))
      }
    }
    var scalars: [Range<Int>] = []
    func collect(_ node: Node) {
      if node.isScalar {
        let r = node.range
        if r.end.offset > r.start.offset { scalars.append(r.start.offset..<r.end.offset) }
      } else if let pairs = node.pairs {
        for pair in pairs {
          collect(pair.key)
          collect(pair.value)
        }
      } else if let items = node.items {
        items.forEach(collect)
      }
    }
    collect(root)
    scalars.sort { $0.lowerBound < $1.lowerBound }
    var next = 0
    for i in bytes.indices where bytes[i] == UInt8(ascii: "#") {
      guard i == 0 || isBlank(bytes[i - 1]) else { continue }
      while next < scalars.count && scalars[next].upperBound <= i { next += 1 }
      // NB: scalars do not overlap, so only the first one not yet passed can hold `i`.
      if next < scalars.count && scalars[next].contains(i) { continue }
      return true
    }
    return false
  }

  static func isBlank(_ b: UInt8) -> Bool {
    b == UInt8(ascii: " ") || b == UInt8(ascii: "\t") || b == UInt8(ascii: "\n")
      || b == UInt8(ascii: "\r")
  }
}
