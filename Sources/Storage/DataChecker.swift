import Foundation
import Models

/// Validates record files one by one and against each other: ids used twice, meetings of scrums
/// that do not exist, records filed under the wrong folder.
public enum DataChecker {
  /// Checks `files` (data-relative path and bytes). Only findings about paths in `only` are kept
  /// when it is given; the other files still serve as references.
  public static func check(
    files: [(path: String, bytes: [UInt8])], problems: [Diagnostic] = [], only: Set<String>? = nil
  ) -> CheckReport {
    var decoded: [DecodedFile] = []
    var diagnostics: [Diagnostic] = problems
    for (path, bytes) in files.sorted(by: { $0.path < $1.path }) {
      if let kind = RecordLayout.kind(ofPath: path) {
        decoded.append(RecordCodec.decode(bytes, path: path, kind: kind))
      } else if path.hasSuffix(".yml") {
        diagnostics.append(
          Diagnostic(
            .warning, file: path,
            message: "dinger reads only '.yaml' files; rename this one to end in '.yaml'"))
      }
    }
    let index = CrossIndex(decoded)
    for i in decoded.indices {
      decoded[i].diagnostics += crossFile(decoded[i], index)
    }
    for file in decoded { diagnostics += file.diagnostics }
    if let only { diagnostics = diagnostics.filter { only.contains($0.file) } }
    diagnostics.sort { $0.file < $1.file }
    let count = only.map { o in decoded.filter { o.contains($0.path) }.count } ?? decoded.count
    return CheckReport(files: count, diagnostics: stableByFile(diagnostics))
  }

  /// Keeps each file's findings in line order after the sort by file.
  private static func stableByFile(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
    Dictionary(grouping: diagnostics, by: \.file).sorted { $0.key < $1.key }.flatMap { _, list in
      list.sorted { ($0.line ?? 0, $0.column ?? 0) < ($1.line ?? 0, $1.column ?? 0) }
    }
  }

  /// What the cross-file checks look up, built once: the first file (in path order) that
  /// holds each id, and each parent kind's files by id text. (They were scans of every file for
  /// every file: 25 s over 10,000 records.)
  struct CrossIndex {
    var firstPathByID: [UUID: String] = [:]
    var owners: [RecordKind: [String: Int]] = [:]
    let files: [DecodedFile]

    init(_ files: [DecodedFile]) {
      self.files = files
      for (i, file) in files.enumerated() {
        if let id = file.record?.id, firstPathByID[id] == nil { firstPathByID[id] = file.path }
        guard file.kind == .scrum || file.kind == .library else { continue }
        // NB: a parent file with errors still names its id: by its node, or by its raw line
        // when it does not even parse (a duplicate key), so one broken scrum does not also fail
        // every meeting of it.
        let keys = [
          file.record?.id?.uuidString.lowercased(), file.root?["id"]?.scalarText?.lowercased(),
          ActivityIndex.field("id", in: file.source.bytes),
        ]
        for key in keys.compactMap({ $0 }) where owners[file.kind, default: [:]][key] == nil {
          owners[file.kind, default: [:]][key] = i
        }
      }
    }
  }

  private static func crossFile(_ file: DecodedFile, _ index: CrossIndex) -> [Diagnostic] {
    guard let record = file.record else { return [] }
    var found: [Diagnostic] = []
    if let id = record.id, let first = index.firstPathByID[id], first < file.path {
      found.append(
        file.diagnostic(
          .error, at: [.key("id")],
          "id \(id.uuidString.lowercased()) is also used by \(first); each record needs its own id (delete this 'id' line and dinger adds a new one)"
        ))
    }
    switch record {
    case .meeting(let meeting):
      found += parent(
        of: file, id: meeting.scrum, key: "scrum", kind: .scrum, folder: "history", index)
    case .quiz(let quiz):
      found += parent(
        of: file, id: quiz.library, key: "library", kind: .library, folder: "quizzes", index)
    default:
      break
    }
    return found
  }

  /// A meeting's scrum (or a quiz's library) must exist, and the file should be filed under its
  /// slug.
  private static func parent(
    of file: DecodedFile, id: UUID, key: String, kind: RecordKind, folder: String,
    _ index: CrossIndex
  ) -> [Diagnostic] {
    let idText = id.uuidString.lowercased()
    guard let i = index.owners[kind]?[idText] else {
      return [
        file.diagnostic(
          .error, at: [.key(key)],
          "no \(kind.noun) has id \(idText); check the id against the \(kind.noun) files")
      ]
    }
    let owner = index.files[i]
    let slug = RecordLayout.slug(ofPath: owner.path)
    guard RecordLayout.slug(ofPath: file.path) != slug else { return [] }
    let name = URL(fileURLWithPath: file.path).lastPathComponent
    return [
      file.diagnostic(
        .warning, at: [.key(key)],
        "this belongs to \(owner.path) but is filed under \(folder)/\(RecordLayout.slug(ofPath: file.path))/; move it to \(folder)/\(slug)/\(name)"
      )
    ]
  }
}
