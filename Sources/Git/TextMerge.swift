internal import CGit2

/// Git's own three-way line merge of one file (libgit2's `git_merge_file`, the xdiff merge
/// `git merge-file` runs), for a caller that checks the result: the record merge keeps both
/// sides' comments and layout when the lines merge cleanly into the value it worked out.
public enum TextMerge {
  /// Files above this size are not line-merged (xdiff's time grows with size times the number
  /// of differences; a record this big is a teammate's mistake, merged by value only).
  public static let limit = 1 << 20

  /// The merged text when the lines merge with no conflict; nil when they conflict, a side is
  /// over `limit`, or libgit2 fails.
  public static func clean(base: [UInt8], ours: [UInt8], theirs: [UInt8]) -> [UInt8]? {
    guard base.count <= limit, ours.count <= limit, theirs.count <= limit else { return nil }
    _ = Check.initialized
    return base.withUnsafeBytes { b in
      ours.withUnsafeBytes { o in
        theirs.withUnsafeBytes { t -> [UInt8]? in
          func input(_ bytes: UnsafeRawBufferPointer) -> git_merge_file_input {
            var file = git_merge_file_input()
            _ = git_merge_file_input_init(&file, UInt32(GIT_MERGE_FILE_INPUT_VERSION))
            file.ptr = bytes.baseAddress?.assumingMemoryBound(to: CChar.self)
            file.size = bytes.count
            return file
          }
          var (ancestor, mine, yours) = (input(b), input(o), input(t))
          var result = git_merge_file_result()
          guard git_merge_file(&result, &ancestor, &mine, &yours, nil) == 0 else { return nil }
          defer { git_merge_file_result_free(&result) }
          guard result.automergeable != 0 else { return nil }
          guard let pointer = result.ptr else { return [] }
          return Array(UnsafeRawBufferPointer(start: pointer, count: result.len))
        }
      }
    }
  }
}
