import Base
import FoundationEssentials
import Glibc
import Models
import YAML

/// One record file read and judged: the record when it decoded, and every finding about it.
public struct DecodedFile: Sendable {
  /// Data-relative path.
  public var path: String
  /// What the path says it holds.
  public var kind: RecordKind
  /// The record, when the file decoded without errors.
  public var record: AnyRecord?
  /// Every error and warning in the file, in source order.
  public var diagnostics: [Diagnostic]
  /// The parsed document, for locating later (cross-file) findings.
  public var root: Node?
  /// The file's text.
  public var source: SourceText
  /// For a library whose errors all sit inside some of its words: the library without those
  /// words, so that the others can still be read. Never written back (that would drop them).
  public var salvaged: Library?

  /// A diagnostic pointing at the node a path leads to (the whole file when it leads nowhere).
  public func diagnostic(_ severity: Severity, at path: [PathComponent], _ message: String)
    -> Diagnostic
  {
    guard let node = root?.lookup(path) else {
      return Diagnostic(severity, file: self.path, path: path.dotted, message: message)
    }
    return RecordCodec.diagnostic(
      severity, file: self.path, at: node.range.start, path: path.dotted, message: message,
      source: source)
  }
}

/// Turns record files into records and diagnostics, and records into canonical YAML.
public enum RecordCodec {
  /// Reads one record file: parses, decodes, validates, and reports everything it finds.
  public static func decode(_ bytes: [UInt8], path: String, kind: RecordKind) -> DecodedFile {
    var file = DecodedFile(
      path: path, kind: kind, record: nil, diagnostics: [], root: nil, source: SourceText([]))
    guard let root = parse(bytes, into: &file) else { return file }
    file.root = root
    let source = file.source
    var decoder = YAMLDecoder()
    let unknownKeys = UnknownKeyCollector()
    decoder.userInfo[.unknownKeys] = unknownKeys
    var partialLibrary: Library?
    do {
      file.record = try decodeRecord(kind, decoder, root)
    } catch let errors as RecordDecodingErrors {
      partialLibrary = errors.partial as? Library
      reportPartly(errors, root: root, into: &file)
    } catch {
      file.diagnostics.append(diagnostic(locate(error, root), file: path, source: source))
    }
    for unknown in unknownKeys.keys {
      let node = root.lookup(unknown.path)?.pairs?.first { $0.key.scalarText == unknown.key }?.key
      var message = "unknown key '\(unknown.key)' is kept but not used"
      if let suggestion = unknown.suggestion { message += " (did you mean '\(suggestion)'?)" }
      let at = node?.range.start ?? root.range.start
      file.diagnostics.append(
        Self.diagnostic(
          .warning, file: path, at: at, path: (unknown.path + [.key(unknown.key)]).dotted,
          message: message, source: source))
    }
    if let record = file.record {
      for issue in record.validate() {
        file.diagnostics.append(file.diagnostic(issue.severity, at: issue.path, issue.message))
      }
    }
    file.diagnostics.sort { ($0.line ?? 0, $0.column ?? 0) < ($1.line ?? 0, $1.column ?? 0) }
    if file.diagnostics.contains(where: { $0.severity == .error }) {
      if case .library(let library)? = file.record { partialLibrary = library }
      file.record = nil
      file.salvaged = partialLibrary.flatMap { salvage($0, file.diagnostics) }
    }
    return file
  }

  /// The file's YAML tree, or nil with the reason said in `file`: past its kind's bound (said,
  /// not parsed: every command stays linear in what a teammate can write, and none parses a
  /// 60 MB title to list the others), merge conflict markers (said as what they are, not as
  /// the parser error they cause), empty, or not YAML.
  private static func parse(_ bytes: [UInt8], into file: inout DecodedFile) -> Node? {
    let (path, kind) = (file.path, file.kind)
    if let most = RecordLayout.maxBytes[kind], bytes.count > most {
      file.diagnostics.append(
        Diagnostic(
          .error, file: path,
          message:
            "this \(kind.noun) file is \(bytes.count) bytes; a \(kind.noun) file is at most \(most) bytes (docs/trust.md lists the bounds), so dinger leaves it out: shorten what grew (a pasted text, a generated list)"
        ))
      return nil
    }
    let source = SourceText(bytes)
    file.source = source
    if let markers = conflictMarkers(bytes) {
      file.diagnostics.append(
        Diagnostic(
          .error, file: path, line: markers.first, column: 1,
          message:
            "this file has merge conflict markers (<<<<<<< on line \(markers.first), >>>>>>> on line \(markers.last)): keep the lines you want and delete the marker lines, or take one side with 'git checkout --ours -- \(path)' (or --theirs); then 'git add' it",
          sourceLine: source.excerpt(containing: markers.offset).text))
      return nil
    }
    do {
      guard let parsed = try YAMLParser.parse(source) else {
        file.diagnostics.append(
          Diagnostic(
            .error, file: path, line: 1, column: 1,
            message: "the file is empty; a \(kind.noun) file needs at least \(requiredKeys(kind))",
            sourceLine: source.excerpt(containing: 0).text))
        return nil
      }
      return parsed
    } catch {
      file.diagnostics.append(diagnostic(error, file: path, source: source))
      return nil
    }
  }

  /// A record that decoded only partly: each field's error where it is, then the rules of
  /// the fields that did decode (a rule about a field that already failed would only repeat
  /// the error).
  private static func reportPartly(
    _ errors: RecordDecodingErrors, root: Node, into file: inout DecodedFile
  ) {
    var failedPaths: [String] = []
    for error in errors.errors {
      let located = locate(error, root)
      failedPaths.append((located as? YAMLError)?.path ?? "")
      file.diagnostics.append(diagnostic(located, file: file.path, source: file.source))
    }
    guard let partial = errors.partial.flatMap({ AnyRecord(partial: $0) }) else { return }
    for var issue in partial.validate() {
      issue.path = Self.unshift(issue.path, failed: failedPaths)
      let at = issue.path.dotted
      if failedPaths.contains(where: { overlaps($0, at) }) { continue }
      file.diagnostics.append(file.diagnostic(issue.severity, at: issue.path, issue.message))
    }
  }

  /// A path into a partly decoded record, as a path into the file: items that failed to decode
  /// are missing from the record's top-level lists, so later items' indexes move back up.
  static func unshift(_ path: [PathComponent], failed: [String]) -> [PathComponent] {
    guard path.count >= 2, case .key(let key) = path[0], case .index(var i) = path[1] else {
      return path
    }
    let prefix = key + "["
    let gone = Set(
      failed.compactMap { p -> Int? in
        guard p.hasPrefix(prefix), let close = p.firstIndex(of: "]") else { return nil }
        return Int(p[p.index(p.startIndex, offsetBy: prefix.count)..<close])
      })
    var n = 0
    while n <= i {
      if gone.contains(n) { i += 1 }
      n += 1
    }
    var out = path
    out[1] = .index(i)
    return out
  }

  /// The library without its broken words, when every error is inside a word.
  static func salvage(_ library: Library, _ diagnostics: [Diagnostic]) -> Library? {
    let errors = diagnostics.filter { $0.severity == .error }
    guard errors.allSatisfy({ $0.path.hasPrefix("words[") }) else { return nil }
    var out = library
    var seen = Set<String>()
    out.words = library.words.filter { word in
      Library(name: "x", language: "en", words: [word]).validate().isEmpty
        && seen.insert(word.naturalKey).inserted
    }
    return out
  }

  /// Writes a record as canonical YAML, in the style its kind uses.
  public static func encode(_ record: AnyRecord) throws -> String {
    switch record {
    case .scrum(let r): return try encode(r, kind: .scrum)
    case .meeting(let r): return try encode(r, kind: .meeting)
    case .library(let r): return try encode(r, kind: .library)
    case .quiz(let r): return try encode(r, kind: .quiz)
    case .config(let r): return try encode(r, kind: .config)
    case .standup(let r): return try encode(r, kind: .standup)
    }
  }

  /// The text of a new record file at `path`: the canonical YAML, after a first line that
  /// points YAML editors at the record's JSON Schema (`RecordSchema.modeline`).
  public static func newFile(_ record: AnyRecord, at path: String) throws -> String {
    let kind: RecordSchema.Kind =
      switch record {
      case .scrum: .scrum
      case .meeting: .meeting
      case .library: .library
      case .quiz: .quiz
      case .config: .config
      case .standup: .standup
      }
    return RecordSchema.modeline(kind, forFileAt: path) + (try encode(record))
  }

  /// Writes a new version of a record over its existing file text, changing only what changed
  /// (comments, order, quoting and blank lines stay); `fellBack` when the layout could not be
  /// kept and the text is canonical.
  public static func encode(_ record: AnyRecord, updating original: SourceText) throws
    -> InPlaceEditor.Result
  {
    func edit<T: Codable & Equatable>(_ value: T, _ kind: RecordKind) throws -> InPlaceEditor.Result
    {
      try InPlaceEditor.update(original, to: value, flowPaths: RecordLayout.flowPaths(for: kind))
    }
    switch record {
    case .scrum(let r): return try edit(r, .scrum)
    case .meeting(let r): return try edit(r, .meeting)
    case .library(let r): return try edit(r, .library)
    case .quiz(let r): return try edit(r, .quiz)
    case .config(let r): return try edit(r, .config)
    case .standup(let r): return try edit(r, .standup)
    }
  }

  /// Writes a value as canonical YAML with the flow style of its kind.
  public static func encode<T: Encodable>(_ value: T, kind: RecordKind) throws -> String {
    try YAMLEncoder(flowPaths: RecordLayout.flowPaths(for: kind)).encode(value)
  }

  static func decodeRecord(_ kind: RecordKind, _ decoder: YAMLDecoder, _ root: Node) throws
    -> AnyRecord
  {
    switch kind {
    case .scrum: return .scrum(try decoder.decode(Scrum.self, from: root))
    case .meeting: return .meeting(try decoder.decode(Meeting.self, from: root))
    case .library: return .library(try decoder.decode(Library.self, from: root))
    case .quiz: return .quiz(try decoder.decode(QuizResult.self, from: root))
    case .config: return .config(try decoder.decode(RepoConfig.self, from: root))
    case .standup: return .standup(try decoder.decode(StandupEntry.self, from: root))
    }
  }

  /// True when one key path lies within the other (`attendees` and `attendees[1]`).
  static func overlaps(_ a: String, _ b: String) -> Bool {
    func within(_ x: String, _ y: String) -> Bool {
      x == y || y.isEmpty || x.hasPrefix(y + ".") || x.hasPrefix(y + "[")
    }
    return within(a, b) || within(b, a)
  }

  static func requiredKeys(_ kind: RecordKind) -> String {
    switch kind {
    case .scrum: return "'title', 'length' and 'attendees'"
    case .meeting: return "'scrum', 'date', 'length' and 'duration'"
    case .library: return "'name' and 'language'"
    case .quiz: return "'library', 'date' and 'questions'"
    case .config: return "'format: 1'"
    case .standup: return "'scrum', 'date' and 'by'"
    }
  }

  /// The lines of git's conflict markers (`<<<<<<< ` and `>>>>>>> ` starting lines), when the
  /// file has both, and the byte offset of the first.
  static func conflictMarkers(_ bytes: [UInt8]) -> (first: Int, last: Int, offset: Int)? {
    let open = Array("<<<<<<<".utf8)
    let close = Array(">>>>>>>".utf8)
    var line = 1
    var start = 0
    var first: (line: Int, offset: Int)?
    var last: Int?
    while start < bytes.count {
      let end = bytes[start...].firstIndex(of: 10) ?? bytes.count
      let text = bytes[start..<end]
      func marks(_ marker: [UInt8]) -> Bool {
        text.starts(with: marker) && (text.count == 7 || text[start + 7] == 32)
      }
      if first == nil && marks(open) { first = (line, start) }
      if first != nil && marks(close) { last = line }
      line += 1
      start = end + 1
    }
    guard let first, let last else { return nil }
    return (first.line, last, first.offset)
  }

  static func locate(_ error: any Error, _ root: Node) -> any Error {
    if let decoding = error as? DecodingError { return YAMLDecoder.locate(decoding, in: root) }
    return error
  }

  static func diagnostic(_ error: any Error, file: String, source: SourceText) -> Diagnostic {
    guard let e = error as? YAMLError else {
      return Diagnostic(.error, file: file, message: "\(error)")
    }
    return diagnostic(
      .error, file: file, at: e.location, path: e.path, message: e.message, source: source)
  }

  /// A diagnostic at a location, with the source line for the caret display.
  public static func diagnostic(
    _ severity: Severity, file: String, at location: Location, path: String, message: String,
    source: SourceText
  ) -> Diagnostic {
    let shown = source.excerpt(containing: location.offset)
    var d = Diagnostic(
      severity, file: file, line: location.line, column: location.column, path: path,
      message: message, sourceLine: shown.text)
    d.sourceColumn = shown.column
    return d
  }
}

extension Node {
  /// The node a record path leads to.
  public func lookup(_ path: [PathComponent]) -> Node? {
    // NB: one step at a time, never making a collection's other children (a finding about
    // each of 20,000 skip days made all 20,000 nodes once per finding).
    var node = self
    for component in path {
      switch component {
      case .key(let k):
        guard let next = node.value(forKey: k) else { return nil }
        node = next
      case .index(let i):
        guard let next = node.item(i) else { return nil }
        node = next
      }
    }
    return node
  }
}
