import Base
import FoundationEssentials
import Glibc

/// Writes a new version of a record into its existing file by editing the original text: only
/// what changed is touched, so comments, key order, quoting and blank lines survive.
///
/// Changed scalars are replaced within their source range (keeping their quoting style where the
/// new value allows); added mapping keys and list items are inserted with the indentation of
/// their siblings; removed ones are cut together with the comment lines just above them. Flow
/// collections that changed are rewritten on their line. When a change cannot be expressed safely
/// (a scalar becoming a list, an unparsable original), or when the edited text would not read
/// back as exactly the new value, the result is the canonical encoding and `fellBack` says so.
public enum InPlaceEditor {
  /// The new text, and whether it had to be re-emitted in canonical form.
  public struct Result: Sendable, Equatable {
    /// The new file text.
    public var text: String
    /// True when the original's layout could not be kept.
    public var fellBack: Bool
  }

  /// The original's first line when it is an editor's schema line, with its newline; else "".
  static func modeline(of original: SourceText) -> String {
    let head = original.bytes.prefix(1024)
    guard let end = head.firstIndex(of: 0x0A) else { return "" }
    let line = String(decoding: head[head.startIndex..<end], as: UTF8.self)
    return line.hasPrefix("# yaml-language-server:") ? line + "\n" : ""
  }

  /// Edits `original` so that it encodes `value`.
  public static func update<T: Codable & Equatable>(
    _ original: SourceText, to value: T, flowPaths: Set<String> = []
  ) throws -> Result {
    let encoder = YAMLEncoder(flowPaths: flowPaths)
    // NB: the canonical text is made only when it is the answer (emitting a 100,000-item list
    // twice was a third of an edit's time).
    // NB: the file's schema line (`# yaml-language-server: $schema=...`) stays on top of a
    // canonical rewrite: editors find the schema by it (the first attendee made `away` lost it).
    func canonical() throws -> Result {
      Result(text: Self.modeline(of: original) + (try encoder.encode(value)), fellBack: true)
    }
    guard let root = try? YAMLParser.parse(original), case .mapping = root.value else {
      return try canonical()
    }
    let valueEncoder = ValueEncoder(codingPath: [], userInfo: [:])
    try valueEncoder.encodeValue(value)
    var editor = Editor(source: original.bytes, flowPaths: flowPaths)
    guard editor.edit(root, to: valueEncoder.target.value, path: "") else {
      return try canonical()
    }
    let text = editor.apply()
    // NB: the safety net. The edited text must read back as exactly the new value, to the
    // encoder too; anything else (a bug here, a construct not foreseen) gives the canonical
    // text instead.
    guard let back = try? YAMLDecoder().decode(T.self, from: SourceText(text)), back == value
    else { return try canonical() }
    let backEncoder = ValueEncoder(codingPath: [], userInfo: [:])
    guard (try? backEncoder.encodeValue(back)) != nil,
      Encoded.same(backEncoder.target.value, valueEncoder.target.value)
    else { return try canonical() }
    return Result(text: text, fellBack: false)
  }
}

extension InPlaceEditor {
  /// How list items are matched between the old and new version (see `Editor.lcs`).
  static func matching(_ a: [String], _ b: [String]) -> [(Int, Int)] { Editor.lcs(a, b) }
}

/// Collects byte-range replacements against the original text.
private struct Editor {
  let source: [UInt8]
  let flowPaths: Set<String>
  let newline: String
  var edits: [(range: Range<Int>, text: String)] = []

  init(source: [UInt8], flowPaths: Set<String>) {
    self.source = source
    self.flowPaths = flowPaths
    newline =
      source.contains(UInt8(ascii: "\r"))
        && source.firstIndex(of: UInt8(ascii: "\n")).map {
          $0 > 0 && source[$0 - 1] == UInt8(ascii: "\r")
        } == true ? "\r\n" : "\n"
  }

  func apply() -> String {
    var bytes = source
    // From the end backwards; of two insertions at one place, the later one first, so that
    // they end up in the order they were made.
    let ordered = edits.enumerated().sorted {
      ($0.element.range.lowerBound, $0.offset) > ($1.element.range.lowerBound, $1.offset)
    }
    for (_, edit) in ordered {
      bytes.replaceSubrange(edit.range, with: Array(edit.text.utf8))
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  mutating func replace(_ range: Range<Int>, _ text: String) {
    edits.append((range, text.replacingText("\n", with: newline)))
  }

  // MARK: Structure

  /// Makes `node` encode `new`; false when it cannot be done in place.
  mutating func edit(_ node: Node, to new: Encoded, path: String) -> Bool {
    switch (node.value, new) {
    case (.scalar(let text, let style), .string(let s)):
      if text == s && node.tag == nil { return true }
      return replaceScalar(node, style: style, with: s)
    case (.scalar(let text, let style), .raw(let r)):
      if Self.sameRaw(text, style: style, r) { return true }
      guard style == .plain || style == .singleQuoted || style == .doubleQuoted else {
        return false
      }
      replace(node.range.bytes, r)
      return true
    case (.mapping(let pairs, .block), .mapping(let newPairs)):
      return editBlockMapping(node, pairs, newPairs, path: path)
    case (.sequence(let items, .block), .sequence(let newItems)):
      return editBlockSequence(node, items, newItems, path: path)
    case (.mapping(_, .flow), .mapping), (.sequence(_, .flow), .sequence):
      if Self.signature(node) == Self.signature(new) { return true }
      let emitter = Emitter(flowPaths: flowPaths)
      guard let inline = emitter.inline(new, path: path), !inline.containsText("\n") else {
        return false
      }
      replace(node.range.bytes, inline)
      return true
    default:
      return false
    }
  }

  mutating func editBlockMapping(
    _ node: Node, _ pairs: [Node.Pair], _ newPairs: [(String, Encoded.Box)], path: String
  ) -> Bool {
    let indent = (pairs.first?.key.range.start.column ?? 1) - 1
    let newKeys = newPairs.map(\.0)
    for pair in pairs {
      guard let key = pair.key.scalarText else { return false }
      if !newKeys.contains(key) { removeEntry(start: pair.key, end: pair.value) }
    }
    for (i, (key, box)) in newPairs.enumerated() {
      let childPath = path.isEmpty ? key : path + "." + key
      if let pair = pairs.first(where: { $0.key.scalarText == key }) {
        guard edit(pair.value, to: box.value, path: childPath) else { return false }
        continue
      }
      // A new key goes before the next key that exists already, else after the last one.
      var emitter = Emitter(flowPaths: flowPaths)
      emitter.mapping([(key, box)], indent: indent, path: path)
      let text = emitter.out
      if let next = newKeys[(i + 1)...].lazy.compactMap({ k in
        pairs.first { $0.key.scalarText == k }
      }).first {
        let at = lineStart(of: next.key.range.start.offset)
        replace(at..<at, text)
      } else if let last = pairs.last {
        let at = lineEnd(after: deepEnd(last.value))
        replace(at..<at, (at > 0 && source[at - 1] != UInt8(ascii: "\n") ? "\n" : "") + text)
      } else {
        return false
      }
    }
    return true
  }

  mutating func editBlockSequence(
    _ node: Node, _ items: [Node], _ newItems: [Encoded.Box], path: String
  ) -> Bool {
    let itemPath = path + "[]"
    if items.count == newItems.count {
      for (item, box) in zip(items, newItems) {
        guard edit(item, to: box.value, path: itemPath) else { return false }
      }
      return true
    }
    // Different lengths: keep the longest common run of equal items, cut the others, insert
    // the new ones beside their neighbours.
    let old = items.map(Self.signature)
    let new = newItems.map { Self.signature($0.value) }
    let pairs = Self.lcs(old, new)
    guard let first = items.first else { return false }
    let dashColumn = dash(before: first.range.start.offset)
    guard let dash = dashColumn else { return false }
    let kept = Set(pairs.map(\.0))
    for (i, item) in items.enumerated() where !kept.contains(i) {
      removeEntry(start: item, end: item, dashAt: dash.offset(in: item, source))
    }
    var previousOld: Int? = nil
    let keptNew = Dictionary(uniqueKeysWithValues: pairs.map { ($0.1, $0.0) })
    for (j, box) in newItems.enumerated() {
      if let i = keptNew[j] {
        previousOld = i
        continue
      }
      var emitter = Emitter(flowPaths: flowPaths)
      emitter.sequence([box], indent: dash.column, path: path)
      let text = emitter.out
      let at: Int
      if let p = previousOld {
        at = lineEnd(after: deepEnd(items[p]))
      } else {
        at = lineStart(of: dash.offset(in: items[0], source))
      }
      replace(at..<at, text)
    }
    return true
  }

  // MARK: Scalars

  mutating func replaceScalar(_ node: Node, style: ScalarStyle, with s: String) -> Bool {
    switch style {
    case .plain, .singleQuoted, .doubleQuoted:
      let text: String
      // NB: multi-line text stays on the value's line as an escaped double-quoted string; a
      // literal block would need lines of its own.
      if style == .doubleQuoted || s.containsText("\n") {
        text = Emitter.doubleQuoted(s)
      } else if style == .singleQuoted && Emitter.singleQuotedAllowed(s) {
        text = "'" + s.replacingText("'", with: "''") + "'"
      } else {
        text = Emitter.scalar(s, flow: isInFlow(node))
      }
      replace(node.range.bytes, text)
      return true
    case .literal, .folded:
      return false
    }
  }

  /// True when the scalar sits inside a flow collection (`[a, b]`).
  func isInFlow(_ node: Node) -> Bool {
    var i = node.range.start.offset - 1
    while i >= 0 && source[i] != UInt8(ascii: "\n") {
      if source[i] == UInt8(ascii: "[") || source[i] == UInt8(ascii: "{") { return true }
      i -= 1
    }
    return false
  }

  static func sameRaw(_ text: String, style: ScalarStyle, _ raw: String) -> Bool {
    if text == raw { return true }
    guard style == .plain else { return false }
    switch (CoreSchema.resolve(text), CoreSchema.resolve(raw)) {
    case (.int(let a), .int(let b)): return a == b
    case (.float(let a), .float(let b)): return a == b
    case (.bool(let a), .bool(let b)): return a == b
    case (.null, .null): return true
    default:
      if text.lowercased() == raw.lowercased(), UUID(uuidString: text) != nil { return true }
      if let a = ISODate.parse(text), let b = ISODate.parse(raw) { return a == b }
      return false
    }
  }

  // MARK: Lines

  func lineStart(of offset: Int) -> Int {
    var i = offset
    while i > 0 && source[i - 1] != UInt8(ascii: "\n") { i -= 1 }
    return i
  }

  /// Just past the newline that ends the line holding `offset` (or the end of the file).
  func lineEnd(after offset: Int) -> Int {
    var i = max(offset, 0)
    if i > 0 && i <= source.count && source[i - 1] == UInt8(ascii: "\n") { return i }
    while i < source.count && source[i] != UInt8(ascii: "\n") { i += 1 }
    return min(i + 1, source.count)
  }

  /// The end of the last scalar inside a node: block collections' own end marks run on to the
  /// next token, past comments and blank lines.
  func deepEnd(_ node: Node) -> Int {
    switch node.value {
    case .scalar: return node.range.end.offset
    case .sequence(let items, .block): return items.last.map(deepEnd) ?? node.range.end.offset
    case .mapping(let pairs, .block):
      return pairs.last.map { deepEnd($0.value) } ?? node.range.end.offset
    default: return node.range.end.offset
    }
  }

  struct Dash {
    var column: Int
    func offset(in item: Node, _ source: [UInt8]) -> Int {
      var i = item.range.start.offset
      while i > 0 && source[i] != UInt8(ascii: "-") { i -= 1 }
      return i
    }
  }

  /// The `- ` that starts the item beginning at `offset`: its indentation.
  func dash(before offset: Int) -> Dash? {
    var i = offset - 1
    while i >= 0 && source[i] == UInt8(ascii: " ") { i -= 1 }
    guard i >= 0, source[i] == UInt8(ascii: "-") else { return nil }
    return Dash(column: i - lineStart(of: i))
  }

  /// Cuts an entry's lines and the comment-only lines directly above it.
  mutating func removeEntry(start: Node, end: Node, dashAt: Int? = nil) {
    var from = lineStart(of: dashAt ?? start.range.start.offset)
    while from > 0 {
      let previous = lineStart(of: from - 1)
      let line = source[previous..<from]
      guard let first = line.first(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }),
        first == UInt8(ascii: "#")
      else { break }
      from = previous
    }
    replace(from..<lineEnd(after: deepEnd(end)), "")
  }

  // MARK: Comparing

  static func signature(_ node: Node) -> String {
    switch node.value {
    case .scalar(let t, _): return "s" + t
    case .sequence(let items, _): return "[" + items.map(signature).joined(separator: "\u{1}") + "]"
    case .mapping(let pairs, _):
      return "{"
        + pairs.map { (($0.key.scalarText ?? "") + "\u{2}" + signature($0.value)) }.joined(
          separator: "\u{1}") + "}"
    }
  }

  static func signature(_ value: Encoded) -> String {
    switch value {
    case .empty: return "snull"
    case .raw(let t), .string(let t): return "s" + t
    case .sequence(let items):
      return "[" + items.map { signature($0.value) }.joined(separator: "\u{1}") + "]"
    case .mapping(let pairs):
      return "{" + pairs.map { $0.0 + "\u{2}" + signature($0.1.value) }.joined(separator: "\u{1}")
        + "}"
    }
  }

  /// Index pairs of a common subsequence: the longest one when the lists differ only in a
  /// middle part of modest size (the usual edit: an item added, removed or changed), else a
  /// greedy one found in O(n log n). The equal ends are matched first, so adding one attendee
  /// to 100,000 costs one pass, not a 100,000 x 100,000 table.
  static func lcs(_ a: [String], _ b: [String]) -> [(Int, Int)] {
    var prefix = 0
    while prefix < a.count && prefix < b.count && a[prefix] == b[prefix] { prefix += 1 }
    var suffix = 0
    while suffix < a.count - prefix && suffix < b.count - prefix
      && a[a.count - 1 - suffix] == b[b.count - 1 - suffix]
    {
      suffix += 1
    }
    var out = (0..<prefix).map { ($0, $0) }
    let (aMid, bMid) = (prefix..<(a.count - suffix), prefix..<(b.count - suffix))
    if aMid.count * bMid.count <= 4_000_000 {
      out += table(Array(a[aMid]), Array(b[bMid])).map { ($0 + prefix, $1 + prefix) }
    } else {
      out += greedy(a, aMid, b, bMid)
    }
    out += (0..<suffix).map { (a.count - suffix + $0, b.count - suffix + $0) }
    return out
  }

  /// The longest common subsequence by dynamic programming (for small inputs).
  private static func table(_ a: [String], _ b: [String]) -> [(Int, Int)] {
    guard !a.isEmpty && !b.isEmpty else { return [] }
    let width = b.count + 1
    var table = [Int32](repeating: 0, count: (a.count + 1) * width)
    for i in stride(from: a.count - 1, through: 0, by: -1) {
      for j in stride(from: b.count - 1, through: 0, by: -1) {
        table[i * width + j] =
          a[i] == b[j]
          ? table[(i + 1) * width + j + 1] + 1
          : max(table[(i + 1) * width + j], table[i * width + j + 1])
      }
    }
    var out: [(Int, Int)] = []
    var (i, j) = (0, 0)
    while i < a.count && j < b.count {
      if a[i] == b[j] {
        out.append((i, j))
        i += 1
        j += 1
      } else if table[(i + 1) * width + j] >= table[i * width + j + 1] {
        i += 1
      } else {
        j += 1
      }
    }
    return out
  }

  /// A common subsequence found greedily: each item of `a` matched to the next equal item of
  /// `b` after the last match (positions looked up by binary search).
  private static func greedy(
    _ a: [String], _ aRange: Range<Int>, _ b: [String], _ bRange: Range<Int>
  )
    -> [(Int, Int)]
  {
    var positions: [String: [Int]] = [:]
    for j in bRange { positions[b[j], default: []].append(j) }
    var out: [(Int, Int)] = []
    var last = bRange.lowerBound - 1
    for i in aRange {
      guard let list = positions[a[i]] else { continue }
      var (low, high) = (0, list.count)
      while low < high {
        let mid = (low + high) / 2
        if list[mid] <= last { low = mid + 1 } else { high = mid }
      }
      if low < list.count {
        last = list[low]
        out.append((i, last))
      }
    }
    return out
  }
}
