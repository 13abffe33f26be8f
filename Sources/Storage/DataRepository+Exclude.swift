import Base
import FoundationEssentials
import Glibc

extension DataRepository {
  /// Keeps a file dinger wrote into the working tree for the user (a report) out of git: its
  /// path goes into `.git/info/exclude`, which is this clone's own and never committed, so a
  /// teammate's `git add -A` does not commit it. Returns the pattern added, nil when the path is
  /// outside the working tree or already listed.
  public func keepOutOfGit(_ path: String) throws -> String? {
    let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
    let top = root.standardizedFileURL.path
    guard absolute.hasPrefix(top + "/") else { return nil }
    let relative = String(absolute.dropFirst(top.count + 1))
    guard !relative.hasPrefix(".git/"), !relative.isEmpty else { return nil }
    let pattern =
      "/"
      + relative.replacingText("\\", with: "\\\\").replacingText("*", with: "\\*")
      .replacingText("?", with: "\\?").replacingText("[", with: "\\[")
    let info = gitRepository.gitDirectory.appendingPathComponent("info")
    let exclude = info.appendingPathComponent("exclude").path
    var existing = ""
    if let data = FileManager.default.contents(atPath: exclude) {
      existing = String(decoding: data, as: UTF8.self)
    }
    guard !existing.split(separator: "\n").contains(where: { $0 == pattern }) else { return nil }
    mkdir(info.path, 0o755)
    // NB: appended, never through a link (git's own files are not followed when writing).
    let fd = Glibc.open(exclude, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
    guard fd >= 0 else {
      throw StorageError(
        "could not add \(pattern) to \(exclude): \(String(cString: strerror(errno)))")
    }
    defer { Glibc.close(fd) }
    let line = (existing.isEmpty || existing.hasSuffix("\n") ? "" : "\n") + pattern + "\n"
    let written = Array(line.utf8).withUnsafeBytes { FileDescriptor.writeAll(fd, $0) }
    guard written else {
      throw StorageError(
        "could not add \(pattern) to \(exclude): \(String(cString: strerror(errno)))")
    }
    return pattern
  }
}
