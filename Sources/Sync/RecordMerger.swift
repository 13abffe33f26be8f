import Git
import Models
import Storage
import YAML

/// Three-way merge of one record file changed on both sides (see `NodeMerge` for the rules).
///
/// The merged value is written over ours' text (ours' comments and layout stay) and must decode
/// and validate as a record of its kind; when it would not, ours is kept whole and theirs goes
/// into a conflict, so an invalid file is never committed.
public enum RecordMerger {
  /// The merged file and what could not be merged automatically.
  public struct Result: Sendable {
    /// The file's new bytes.
    public var bytes: [UInt8]
    /// Values kept out of the data, to be written as conflict records.
    public var conflicts: [FieldConflict]
    /// The record's id, when the result has one.
    public var recordID: String?
  }

  /// Merges `ours` and `theirs` against their common ancestor (nil when both added the file).
  public static func merge(base: [UInt8]?, ours: [UInt8], theirs: [UInt8], path: String) -> Result {
    if ours == theirs { return Result(bytes: ours, conflicts: [], recordID: id(parse(ours))) }
    let (o, t) = (parse(ours), parse(theirs))
    // NB: git pairs files by likeness: a teammate's rename beside another new file can hand the
    // driver two records at one path. The path keeps the one that was not there before (the
    // other side put it there); the record that was is kept whole in the conflict, named by its
    // id, so resolving it goes where that record lives now (seed 9202: two files, one id).
    if let base, let was = anyID(base, parse(base)) {
      let (oursID, theirsID) = (anyID(ours, o), anyID(theirs, t))
      // The side whose record is another keeps the path; the side that still had `was` is
      // the other value.
      let keep: Side? =
        oursID == was && theirsID != nil && theirsID != was
        ? .theirs : theirsID == was && oursID != nil && oursID != was ? .ours : nil
      if let keep {
        let (kept, other) = keep == .ours ? (ours, theirs) : (theirs, ours)
        let (keptNode, otherNode) = keep == .ours ? (o, t) : (t, o)
        return Result(
          bytes: kept,
          conflicts: [
            FieldConflict(
              path: FieldPath(), kind: .edit, kept: keptNode ?? textNode(kept),
              other: otherNode ?? textNode(other), keptSide: keep)
          ], recordID: was)
      }
    }
    guard let o, let t else {
      // Not YAML on some side (or not a YAML file at all): keep ours whole, record theirs.
      return whole(
        ours: ours, theirs: theirs, kept: o ?? textNode(ours), other: t ?? textNode(theirs))
    }
    var merger = NodeMerge()
    let merged = merger.merge(base.flatMap(parse), o, t, at: FieldPath())
    let recordID = id(merged) ?? id(o)
    // NB: git's line merge, when it is clean and reads as the value merged here: comments and
    // layout either side changed stay (the value written over one side's text kept only that
    // side's, so a teammate's added comments were lost).
    if merger.conflicts.isEmpty, let base,
      let text = TextMerge.clean(base: base, ours: ours, theirs: theirs),
      let node = parse(text), NodeWriter.same(node, merged)
    {
      return Result(bytes: text, conflicts: [], recordID: recordID)
    }
    if merger.conflicts.isEmpty && NodeWriter.same(merged, t) {
      return Result(bytes: theirs, conflicts: [], recordID: recordID)
    }
    if NodeWriter.same(merged, o) {
      return Result(bytes: ours, conflicts: merger.conflicts, recordID: recordID)
    }
    let text = NodeWriter.text(merged)
    guard let kind = RecordLayout.kind(ofPath: path) else {
      return Result(bytes: Array(text.utf8), conflicts: merger.conflicts, recordID: recordID)
    }
    let decoded = RecordCodec.decode(Array(text.utf8), path: path, kind: kind)
    guard let record = decoded.record,
      let written = try? RecordCodec.encode(record, updating: SourceText(ours))
    else {
      return whole(ours: ours, theirs: theirs, kept: o, other: t)
    }
    return Result(bytes: Array(written.text.utf8), conflicts: merger.conflicts, recordID: recordID)
  }

  private static func whole(ours: [UInt8], theirs: [UInt8], kept: Node, other: Node) -> Result {
    Result(
      bytes: ours,
      conflicts: [
        FieldConflict(path: FieldPath(), kind: .edit, kept: kept, other: other, keptSide: .ours)
      ],
      recordID: id(kept) ?? anyID(ours, nil))
  }

  /// A record's id: its parsed `id:`, or the `id:` line of a file broken by hand.
  static func anyID(_ bytes: [UInt8], _ node: Node?) -> String? {
    id(node) ?? ActivityIndex.unquotedField("id", in: bytes)?.lowercased()
  }

  static func parse(_ bytes: [UInt8]) -> Node? {
    guard let node = try? YAMLParser.parse(SourceText(bytes)) else { return nil }
    return node
  }

  static func textNode(_ bytes: [UInt8]) -> Node {
    Node.scalar(String(decoding: bytes, as: UTF8.self), .literal)
  }

  static func id(_ node: Node?) -> String? {
    node?["id"]?.scalarText.flatMap { $0.isEmpty ? nil : $0.lowercased() }
  }
}
