import Models

/// Where each kind of record lives in a data repository (format version 1).
public enum RecordLayout {
  /// The config file, relative to the data root.
  public static let configPath = ".dinger/config.yaml"

  /// The kind of record a data-relative path holds, or nil for a file that is not a record.
  public static func kind(ofPath path: String) -> RecordKind? {
    // NB: bytes compared, not Characters (String's hasSuffix and == weigh canonical
    // equivalence, a tenth of a warm check over 130,000 paths).
    guard path.utf8.count > 5, path.utf8.reversed().starts(with: "lmay.".utf8) else {
      return nil
    }
    if path.utf8.elementsEqual(configPath.utf8) { return .config }
    // NB: read in place, one pass over the bytes: `check` asks this of every file in the
    // working tree, and splitting each path into Strings was a quarter of a warm check.
    let (top, slashes) = topFolderAndDepth(path)
    func named(_ folder: StaticString) -> Bool {
      top.utf8.elementsEqual(
        UnsafeBufferPointer(start: folder.utf8Start, count: folder.utf8CodeUnitCount))
    }
    switch slashes {
    case 1 where named("scrums"): return .scrum
    case 1 where named("libraries"): return .library
    case 2 where named("history"): return .meeting
    case 2 where named("quizzes"): return .quiz
    case 2 where named("standups"): return .standup
    default: return nil
    }
  }

  /// The path's first component and how many `/` it holds, without copying it.
  private static func topFolderAndDepth(_ path: String) -> (Substring, Int) {
    let utf8 = path.utf8
    guard let first = utf8.firstIndex(of: UInt8(ascii: "/")) else { return (path[...], 0) }
    var slashes = 0
    for byte in utf8[first...] where byte == UInt8(ascii: "/") { slashes += 1 }
    return (path[..<first], slashes)
  }

  /// The folder a nested record is filed under (`history/<this>/…`), without copying it; for
  /// a meeting, quiz result or entry, its `slug(ofPath:)`.
  static func folder(ofPath path: String) -> Substring { secondComponent(path) }

  /// The path's second component (`scrums/<this>.yaml`, `history/<this>/…`), without copying it.
  private static func secondComponent(_ path: String) -> Substring {
    let utf8 = path.utf8
    guard let first = utf8.firstIndex(of: UInt8(ascii: "/")) else { return "" }
    let start = utf8.index(after: first)
    let end = utf8[start...].firstIndex(of: UInt8(ascii: "/")) ?? utf8.endIndex
    return path[start..<end]
  }

  /// The slug of a scrum's path (`scrums/<slug>.yaml`) when it is a plain file name (letters,
  /// digits, `-`, `_`, `.`, not starting with `.`), else nil.
  public static func slug(ofScrumPath path: String) -> String? {
    guard kind(ofPath: path) == .scrum else { return nil }
    let slug = slug(ofPath: path)
    guard !slug.isEmpty, !slug.hasPrefix("."),
      slug.utf8.allSatisfy({
        (0x30...0x39).contains($0) || (0x61...0x7a).contains($0)
          || (0x41...0x5a).contains($0) || $0 == 0x2d || $0 == 0x5f || $0 == 0x2e
      })
    else { return nil }
    return slug
  }

  /// The largest file of each kind dinger reads as a record (docs/trust.md): a scrum with
  /// 20,000 skipped days is 300 KB; a meeting holds an hour's transcript in well under 1 MB; a
  /// library of 50,000 words is 10 MB.
  public static let maxBytes: [RecordKind: Int] = [
    .scrum: 1 << 20, .meeting: 8 << 20, .library: 64 << 20, .quiz: 1 << 20, .config: 1 << 20,
    .standup: 256 << 10,
  ]

  /// The folders that hold records, for messages.
  public static let folders =
    "scrums/, history/<scrum>/, libraries/, quizzes/<library>/, standups/<scrum>/"

  /// The slug a path is filed under: the file name for scrums and libraries, the folder for
  /// meetings and quizzes.
  public static func slug(ofPath path: String) -> String {
    guard let kind = kind(ofPath: path) else { return "" }
    switch kind {
    case .scrum, .library: return String(secondComponent(path).dropLast(".yaml".count))
    case .meeting, .quiz, .standup: return String(secondComponent(path))
    case .config: return ""
    }
  }

  /// Paths written in flow style when short: a meeting's attendee snapshot and speaker times.
  public static func flowPaths(for kind: RecordKind) -> Set<String> {
    kind == .meeting ? ["attendees", "speakers[]"] : []
  }
}
