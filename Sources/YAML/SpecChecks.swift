/// Checks for YAML that the spec forbids and libyaml lets through (yaml-test-suite cases SU5Z,
/// X4QW and QB6E): a `#` glued to a quoted scalar or a block scalar's header is not a comment,
/// and the lines of a multi-line quoted scalar in block context must be indented more than the
/// key or dash that holds it. A file that breaks them is an error naming the real problem, not
/// a value read differently from other parsers.
enum SpecChecks {
  static func check(_ root: Node, _ source: SourceText) throws(YAMLError) {
    let b = source.bytes
    // NB: most record files have no quotes or block scalars: nothing to walk then.
    guard b.contains(where: { $0 == 0x22 || $0 == 0x27 || $0 == 0x7C || $0 == 0x3E }) else {
      return
    }
    try walk(root, holderIndent: -1, inFlow: false, b, source)
  }

  private static func walk(
    _ node: Node, holderIndent: Int, inFlow: Bool, _ b: [UInt8], _ source: SourceText
  ) throws(YAMLError) {
    switch node.value {
    case .scalar(_, let style):
      try checkScalar(node, style, holderIndent: holderIndent, inFlow: inFlow, b, source)
    case .sequence(let items, let style):
      let indent = node.range.start.column - 1
      for item in items {
        try walk(item, holderIndent: indent, inFlow: inFlow || style == .flow, b, source)
      }
    case .mapping(let pairs, let style):
      for pair in pairs {
        let indent = pair.key.range.start.column - 1
        let flow = inFlow || style == .flow
        try walk(pair.key, holderIndent: holderIndent, inFlow: flow, b, source)
        try walk(pair.value, holderIndent: indent, inFlow: flow, b, source)
      }
    }
  }

  private static func checkScalar(
    _ node: Node, _ style: ScalarStyle, holderIndent: Int, inFlow: Bool, _ b: [UInt8],
    _ source: SourceText
  ) throws(YAMLError) {
    let range = node.range
    switch style {
    case .singleQuoted, .doubleQuoted:
      let end = range.end.offset
      if end < b.count && b[end] == UInt8(ascii: "#") {
        throw YAMLError(
          .syntax, "a comment needs a space before '#'; add one after the closing quote",
          at: source.location(ofByte: end))
      }
      guard !inFlow, range.start.line < range.end.line else { return }
      // Each continuation line: its indentation must pass the holder's (blank lines aside).
      var i = range.start.offset
      while i < end {
        if b[i] == UInt8(ascii: "\n") {
          var j = i + 1
          while j < end && b[j] == UInt8(ascii: " ") { j += 1 }
          let blank = j >= end || b[j] == UInt8(ascii: "\n") || b[j] == UInt8(ascii: "\r")
          if !blank && j - (i + 1) <= holderIndent {
            throw YAMLError(
              .syntax,
              "this line continues a quoted text and must be indented more than its key (column \(holderIndent + 1)); indent it, or keep the text on one line",
              at: source.location(ofByte: j))
          }
          i = j
        } else {
          i += 1
        }
      }
    case .literal, .folded:
      var i = range.start.offset + 1
      while i < b.count,
        b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-")
          || (b[i] >= UInt8(ascii: "1") && b[i] <= UInt8(ascii: "9"))
      {
        i += 1
      }
      if i < b.count && b[i] == UInt8(ascii: "#") {
        throw YAMLError(
          .syntax, "a comment needs a space before '#'; add one after the '|' or '>'",
          at: source.location(ofByte: i))
      }
    case .plain:
      return
    }
  }
}
