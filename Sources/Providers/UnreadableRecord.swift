import Models
import Storage
import YAML

/// A record file that does not read, as far as a name can still point at it: its slug, and the
/// title (or name) and id its text holds where the YAML itself parsed.
///
/// A name must never fall through to another record because the one it means is broken: a
/// teammate's bad indentation in `scrums/platform.yaml` must not send `scrum edit platform` to
/// the scrum titled "Platform" in `scrums/platform-ops.yaml`.
struct UnreadableRecord: Sendable {
  /// Data-relative path.
  var path: String
  /// The first error, located (`scrums/platform.yaml:3:5: ...`).
  var reason: String
  /// The file name without `.yaml`.
  var slug: String
  /// The `title:` (or `name:`) text, when the document parsed.
  var title: String?
  /// The `id:` text, lowercased, when the document parsed.
  var id: String?

  /// The files of `files` that have errors and gave no record; `titleKey` is `title` or `name`.
  static func all(in files: [DecodedFile], titleKey: String) -> [UnreadableRecord] {
    files.compactMap { file in
      guard file.record == nil,
        let error = file.diagnostics.first(where: { $0.severity == .error })
      else { return nil }
      var place = error.file
      if let line = error.line { place += ":\(line)" + (error.column.map { ":\($0)" } ?? "") }
      return UnreadableRecord(
        path: file.path, reason: "\(place): \(error.message)",
        slug: RecordLayout.slug(ofPath: file.path),
        title: file.root?[titleKey]?.scalarText?.trimmingSpaces()
          ?? ActivityIndex.unquotedField(titleKey, in: file.source.bytes),
        id: file.root?["id"]?.scalarText?.lowercased()
          ?? ActivityIndex.unquotedField("id", in: file.source.bytes))
    }
  }

  /// Throws when `query` names one of `unreadable` at the first level of the name rules that
  /// any record answers (slug, then title in any case, then an id prefix): `readable` says
  /// whether a readable record answers at each level. A readable slug beats a broken title.
  static func refuse(
    _ query: String, kind: String, among unreadable: [UnreadableRecord],
    readableSlug: Bool, readableTitle: Bool, looksLikeID: Bool
  ) throws {
    guard !unreadable.isEmpty, !readableSlug else { return }
    let q = query.lowercased()
    // NB: a broken file's slug in any case beats a readable title: `Platform` may well mean
    // scrums/platform.yaml, and guessing wrong would edit the wrong scrum.
    var hit = unreadable.first { $0.slug.lowercased() == q }
    // NB: a title a readable record and a broken one both hold names neither (seed 8100 of the
    // simulation: `scrum edit Mobile` edited the readable one, while its teammate meant the one
    // whose file they had broken).
    if hit == nil && readableTitle,
      let twin = unreadable.first(where: { $0.title?.lowercased() == q })
    {
      throw StorageError(
        "more than one \(kind) is titled '\(query)', and \(twin.path) can't be read: \(twin.reason); name the one you mean by its file name (\(twin.slug) is the broken one), or fix that file first",
        kind: .ambiguous(query))
    }
    if hit == nil && !readableTitle {
      hit = unreadable.first { $0.title?.lowercased() == q }
      if hit == nil && looksLikeID { hit = unreadable.first { $0.id?.hasPrefix(q) == true } }
    }
    guard let hit else { return }
    throw StorageError(
      "\(kind) '\(query)' is in \(hit.path), which can't be read: \(hit.reason); fix the file (dinger check \(hit.path) shows every problem), then try again",
      kind: .unreadable(hit.path))
  }
}
