internal import CYAML

/// Parses YAML text into `Node`s with exact source ranges, on libyaml's event parser.
///
/// One record file holds one document. Duplicate keys, unknown aliases, and inputs past the
/// `YAMLLimits` are errors; aliases are resolved into copies of their anchored nodes (copies share
/// storage, and the expansion budget bounds the work anyone can make us do).
public enum YAMLParser {
  /// Parses a single-document file; returns nil for a file with no document (empty or comments).
  public static func parse(_ source: SourceText, limits: YAMLLimits = .default) throws(YAMLError)
    -> Node?
  {
    if source.bytes.count > limits.maxBytes {
      throw YAMLError(
        .limit,
        "file is \(source.bytes.count) bytes, more than the limit of \(limits.maxBytes) bytes",
        at: .start)
    }
    let result: Result<Node?, YAMLError> = source.bytes.withUnsafeBufferPointer { whole in
      // NB: libyaml skips a byte order mark only when it detects the encoding itself; we fix
      // the encoding to UTF-8, so the mark is stepped over here and added back to offsets.
      let bom = whole.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
      let buffer = UnsafeBufferPointer(rebasing: whole[bom...])
      var builder = TreeBuilder(buffer: buffer, base: bom, source: source, limits: limits)
      do { return .success(try builder.run()) } catch let error as YAMLError {
        return .failure(error)
      } catch {
        return .failure(YAMLError(.syntax, "\(error)", at: .start))
      }
    }
    let root = try result.get()
    if let root { try SpecChecks.check(root, source) }
    return root
  }

  /// Parses text given as a string.
  public static func parse(_ text: String, limits: YAMLLimits = .default) throws(YAMLError) -> Node?
  {
    try parse(SourceText(text), limits: limits)
  }

  /// Runs libyaml's event parser over the bytes and counts the events, building nothing: the floor
  /// that `make bench` compares decoding against.
  public static func countEvents(_ bytes: [UInt8]) -> Int {
    bytes.withUnsafeBufferPointer { buffer in
      let parser = LibYAMLParser(buffer)
      var n = 0
      var event = yaml_event_t()
      while yaml_parser_parse(parser.raw, &event) == 1 {
        let done = event.type == YAML_STREAM_END_EVENT
        yaml_event_delete(&event)
        n += 1
        if done { break }
      }
      return n
    }
  }
}

/// Owns one `yaml_parser_t` and frees it.
final class LibYAMLParser {
  let raw: UnsafeMutablePointer<yaml_parser_t>

  init(_ buffer: UnsafeBufferPointer<UInt8>) {
    raw = .allocate(capacity: 1)
    yaml_parser_initialize(raw)
    // NB: libyaml only reads the buffer; an empty buffer still needs a valid pointer.
    yaml_parser_set_input_string(
      raw, buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!, buffer.count)
    yaml_parser_set_encoding(raw, YAML_UTF8_ENCODING)
  }

  deinit {
    yaml_parser_delete(raw)
    raw.deallocate()
  }
}

/// Builds the node tree from events with an explicit stack.
// NB: a struct, not a class: class properties pay a dynamic exclusivity check on every access,
// which was a tenth of the parse time.
private struct TreeBuilder {
  private let parser: LibYAMLParser
  private var marks: MarkConverter
  private let source: SourceText
  private let limits: YAMLLimits
  private let base: Int
  private var nodes = NodeStore.Builder()

  private struct Frame {
    var isMapping: Bool
    var flow: Bool
    var start: Location
    var tag: String?
    var anchor: String?
    var childCount = 0
    var weight = 1
    var keyIndex: [String: Location]? = nil
  }
  private var stack: [Frame] = []
  private var anchors: [String: (index: Int32, weight: Int)] = [:]
  private var aliasExpansion = 0
  private var root: Int32?
  private var documents = 0

  init(buffer: UnsafeBufferPointer<UInt8>, base: Int, source: SourceText, limits: YAMLLimits) {
    parser = LibYAMLParser(buffer)
    marks = MarkConverter(buffer)
    self.base = base
    self.source = source
    self.limits = limits
  }

  mutating func run() throws(YAMLError) -> Node? {
    var event = yaml_event_t()
    while true {
      guard yaml_parser_parse(parser.raw, &event) == 1 else { throw parserError() }
      defer { yaml_event_delete(&event) }
      switch event.type {
      case YAML_STREAM_END_EVENT:
        return root.map { nodes.finish().node($0) }
      case YAML_DOCUMENT_START_EVENT:
        documents += 1
        if documents > 1 {
          throw YAMLError(
            .syntax, "a record file holds one document; remove the second '---' and what follows",
            at: location(event.start_mark))
        }
      case YAML_SCALAR_EVENT:
        try scalar(event)
      case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
        try open(event)
      case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
        let frame = stack.removeLast()
        let r = SourceRange(start: frame.start, end: location(event.end_mark))
        let index = nodes.collection(
          mapping: frame.isMapping, flow: frame.flow, childCount: frame.childCount, range: r,
          tag: frame.tag)
        complete(index, weight: frame.weight, anchor: frame.anchor)
      case YAML_ALIAS_EVENT:
        try alias(event)
      default:
        break
      }
    }
  }

  /// A scalar: its style, a duplicate key refused, then the node.
  private mutating func scalar(_ event: yaml_event_t) throws(YAMLError) {
    let s = event.data.scalar
    let bytes = UnsafeBufferPointer(start: s.value, count: s.length)
    let style: ScalarStyle
    switch s.style {
    case YAML_SINGLE_QUOTED_SCALAR_STYLE: style = .singleQuoted
    case YAML_DOUBLE_QUOTED_SCALAR_STYLE: style = .doubleQuoted
    case YAML_LITERAL_SCALAR_STYLE: style = .literal
    case YAML_FOLDED_SCALAR_STYLE: style = .folded
    default: style = .plain
    }
    let r = range(event)
    if let top = stack.indices.last, stack[top].isMapping, stack[top].childCount % 2 == 0 {
      try checkDuplicate(key: bytes, at: r.start, in: top)
    }
    let index = nodes.scalar(bytes, style: style, range: r, tag: tagString(s.tag))
    complete(index, weight: 1, anchor: s.anchor.map { String(cString: $0) })
  }

  /// A sequence or mapping begins (within the depth limit).
  private mutating func open(_ event: yaml_event_t) throws(YAMLError) {
    let isMapping = event.type == YAML_MAPPING_START_EVENT
    if stack.count >= limits.maxDepth {
      throw YAMLError(
        .limit, "nesting is deeper than \(limits.maxDepth) levels",
        at: location(event.start_mark))
    }
    let flow =
      isMapping
      ? event.data.mapping_start.style == YAML_FLOW_MAPPING_STYLE
      : event.data.sequence_start.style == YAML_FLOW_SEQUENCE_STYLE
    let tag = isMapping ? event.data.mapping_start.tag : event.data.sequence_start.tag
    let anchor = isMapping ? event.data.mapping_start.anchor : event.data.sequence_start.anchor
    stack.append(
      Frame(
        isMapping: isMapping, flow: flow, start: location(event.start_mark),
        tag: tagString(tag), anchor: anchor.map { String(cString: $0) }))
  }

  /// An alias: its anchor's subtree shared, within the expansion budget (an alias bomb is
  /// refused), and as a key checked against the mapping's others.
  private mutating func alias(_ event: yaml_event_t) throws(YAMLError) {
    let name = String(cString: event.data.alias.anchor)
    guard let anchored = anchors[name] else {
      throw YAMLError(
        .syntax, "unknown alias '*\(name)'; define it first with '&\(name)'",
        at: location(event.start_mark))
    }
    aliasExpansion += anchored.weight
    if aliasExpansion > limits.maxAliasExpansion {
      throw YAMLError(
        .limit,
        "aliases expand to more than \(limits.maxAliasExpansion) nodes; is this an alias bomb?",
        at: location(event.start_mark))
    }
    if let top = stack.indices.last, stack[top].isMapping, stack[top].childCount % 2 == 0,
      nodes.records[Int(anchored.index)].kind == .scalar
    {
      let key = Array(nodes.bytes(of: anchored.index))
      try key.withUnsafeBufferPointer { k throws(YAMLError) in
        try checkDuplicate(key: k, at: location(event.start_mark), in: top)
      }
    }
    // NB: an alias shares its anchor's subtree; the budget above bounds what a reader of the
    // expanded tree can be made to do.
    complete(anchored.index, weight: anchored.weight, anchor: nil)
  }

  private mutating func complete(_ index: Int32, weight: Int, anchor: String?) {
    if let anchor { anchors[anchor] = (index, weight) }
    guard !stack.isEmpty else {
      root = index
      return
    }
    let top = stack.count - 1
    stack[top].weight += weight
    stack[top].childCount += 1
    nodes.pending.append(index)
  }

  private mutating func checkDuplicate(
    key bytes: UnsafeBufferPointer<UInt8>, at: Location, in top: Int
  ) throws(YAMLError) {
    let pairs = stack[top].childCount / 2
    let keys = nodes.pending[(nodes.pending.count - stack[top].childCount)...]
    if pairs < 8 {
      var i = keys.startIndex
      while i < keys.endIndex {
        let r = nodes.records[Int(keys[i])]
        if r.kind == .scalar && nodes.bytes(of: keys[i]).elementsEqual(bytes) {
          throw duplicate(String(decoding: bytes, as: UTF8.self), at, r.range.start)
        }
        i += 2
      }
      return
    }
    let text = String(decoding: bytes, as: UTF8.self)
    if stack[top].keyIndex == nil {
      var index: [String: Location] = [:]
      var i = keys.startIndex
      while i < keys.endIndex {
        let r = nodes.records[Int(keys[i])]
        if r.kind == .scalar {
          index[String(decoding: nodes.bytes(of: keys[i]), as: UTF8.self)] = r.range.start
        }
        i += 2
      }
      stack[top].keyIndex = index
    }
    if let first = stack[top].keyIndex?[text] { throw duplicate(text, at, first) }
    stack[top].keyIndex?[text] = at
  }

  private func duplicate(_ key: String, _ at: Location, _ first: Location) -> YAMLError {
    YAMLError(
      .duplicateKey, "duplicate key '\(key)'; it is already set on line \(first.line)", at: at)
  }

  private func tagString(_ tag: UnsafeMutablePointer<yaml_char_t>?) -> String? {
    tag.map { String(cString: $0) }
  }

  private mutating func location(_ mark: yaml_mark_t) -> Location {
    Location(
      line: Int(mark.line) + 1, column: Int(mark.column) + 1,
      offset: base + marks.offset(ofCharacter: Int(mark.index)))
  }

  private mutating func range(_ event: yaml_event_t) -> SourceRange {
    SourceRange(start: location(event.start_mark), end: location(event.end_mark))
  }

  /// Turns libyaml's error state into a located error with a message a person can act on.
  private mutating func parserError() -> YAMLError {
    let p = parser.raw.pointee
    let problem = p.problem.map { String(cString: $0) } ?? "invalid YAML"
    if p.error == YAML_READER_ERROR {
      let at = source.location(ofByte: base + Int(p.problem_offset))
      if problem.containsText("UTF-8") || problem.containsText("octet") {
        return YAMLError(
          .syntax, "the file is not valid UTF-8 (\(problem)); save it as UTF-8", at: at)
      }
      if problem.containsText("control characters") {
        return YAMLError(
          .syntax, "the file contains a control character (byte \(p.problem_value)); remove it",
          at: at)
      }
      return YAMLError(.syntax, problem, at: at)
    }
    if p.error == YAML_MEMORY_ERROR {
      return YAMLError(.limit, "out of memory while parsing", at: .start)
    }
    let at = location(p.problem_mark)
    let context = p.context.map { String(cString: $0) }
    let byte = at.offset < source.bytes.count ? source.bytes[at.offset] : 0
    if problem == "found character that cannot start any token" && byte == UInt8(ascii: "\t") {
      return YAMLError(.syntax, "tabs can't indent YAML; use spaces", at: at)
    }
    if problem == "found a tab character that violates indentation"
      || problem.containsText("tab character")
    {
      return YAMLError(.syntax, "tabs can't indent YAML; use spaces", at: at)
    }
    let startLine = Int(p.context_mark.line) + 1
    switch (problem, context) {
    case ("found unexpected end of stream", "while scanning a quoted scalar"?):
      return YAMLError(
        .syntax, "the quote opened here is never closed; add the closing quote",
        at: location(p.context_mark))
    case ("did not find expected ',' or ']'", _):
      return YAMLError(
        .syntax,
        "the list opened with '[' on line \(startLine) is not closed; add ']' or a ',' between items",
        at: at)
    case ("did not find expected ',' or '}'", _) where next(after: at.offset) == UInt8(ascii: ":"):
      return YAMLError(
        .syntax,
        "inside { }, put a key and its ':' on the same line (dinger's YAML reader, libyaml, reads no ':' that starts a line there)",
        at: at)
    case ("did not find expected ',' or '}'", _):
      return YAMLError(
        .syntax,
        "the mapping opened with '{' on line \(startLine) is not closed; add '}' or a ',' between entries",
        at: at)
    case ("mapping values are not allowed in this context", _):
      return YAMLError(
        .syntax,
        "unexpected ': '; quote a value that contains ': ', or check the indentation of this line",
        at: at)
    default:
      break
    }
    var message = problem
    if let context { message = "\(problem) \(context)" }
    if context != nil && p.context_mark.line != p.problem_mark.line {
      message += " (started on line \(startLine))"
    }
    return YAMLError(.syntax, message, at: at)
  }

  /// The first byte at or after `offset` that is not a space or line break.
  func next(after offset: Int) -> UInt8? {
    var i = offset
    while i < source.bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(source.bytes[i]) { i += 1 }
    return i < source.bytes.count ? source.bytes[i] : nil
  }
}
