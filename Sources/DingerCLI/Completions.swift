import ArgumentParser
import Base
import FoundationEssentials
import Glibc
import Providers

/// Shell completion of names from the data repository: scrums, libraries, words, meetings.
/// The shell runs `dinger ---completion ...` as the user types, so this reads folder listings
/// (and, for words, scans library files for `text:` lines) without opening git or parsing YAML:
/// it must answer at once, and never create or change anything.
enum Completions {
  static let scrums = CompletionKind.custom { words, _, prefix in slugs("scrums", words, prefix) }
  static let libraries = CompletionKind.custom { words, _, prefix in
    slugs("libraries", words, prefix)
  }
  static let meetings = CompletionKind.custom { words, _, prefix in
    guard let root = root(words) else { return [] }
    let history = root.appendingPathComponent("history")
    let folders = (try? FileManager.default.contentsOfDirectory(atPath: history.path)) ?? []
    var out: [String] = []
    for folder in folders.sorted() {
      let files =
        (try? FileManager.default.contentsOfDirectory(
          atPath: history.appendingPathComponent(folder).path)) ?? []
      out += files.filter { $0.hasSuffix(".yaml") && $0.hasPrefix(prefix) }.sorted()
    }
    return out
  }
  /// Scrums and libraries (for `log`).
  static let records = CompletionKind.custom { words, _, prefix in
    slugs("scrums", words, prefix) + slugs("libraries", words, prefix)
  }
  static let words = CompletionKind.custom { words, _, prefix in
    guard let root = root(words) else { return [] }
    let folder = root.appendingPathComponent("libraries")
    var out = Set<String>()
    for file in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    where file.hasSuffix(".yaml") {
      guard let text = try? String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
      else { continue }
      for line in text.split(separator: "\n") {
        let trimmed = line.drop { $0 == " " || $0 == "-" }
        guard trimmed.hasPrefix("text:") else { continue }
        let word = trimmed.dropFirst(5).trimmingSpaces()
          .trimming { $0 == "\"" || $0 == "'" }
        if !word.isEmpty && word.hasPrefix(prefix) { out.insert(word) }
      }
    }
    return out.sorted()
  }

  /// The file names (without `.yaml`) in a folder of the data repository.
  static func slugs(_ folder: String, _ words: [String], _ prefix: String) -> [String] {
    guard let root = root(words) else { return [] }
    let names =
      (try? FileManager.default.contentsOfDirectory(
        atPath: root.appendingPathComponent(folder).path))
      ?? []
    return names.filter { $0.hasSuffix(".yaml") }.map { String($0.dropLast(5)) }
      .filter { $0.hasPrefix(prefix) }.sorted()
  }

  /// The data repository the command being typed would use: `--repo` on its line, else
  /// DINGER_REPO, else the enclosing one, else the per-user default (never created here).
  static func root(_ words: [String]) -> URL? {
    let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    if let i = words.firstIndex(of: "--repo"), i + 1 < words.count {
      return URL(fileURLWithPath: words[i + 1], relativeTo: cwd)
    }
    if let option = words.first(where: { $0.hasPrefix("--repo=") }) {
      return URL(fileURLWithPath: String(option.dropFirst(7)), relativeTo: cwd)
    }
    let env = ProcessInfo.processInfo.environment
    if let repo = env["DINGER_REPO"], !repo.isEmpty {
      return URL(fileURLWithPath: repo, relativeTo: cwd)
    }
    var probe = cwd.standardizedFileURL
    while true {
      if FileManager.default.fileExists(atPath: probe.appendingPathComponent(".dinger").path) {
        return probe
      }
      let parent = probe.deletingLastPathComponent()
      if parent.path == probe.path { break }
      probe = parent
    }
    guard let chosen = (try? Workspace.userSettings(environment: env))?.repository else {
      return nil
    }
    let user = URL(fileURLWithPath: chosen)
    return FileManager.default.fileExists(atPath: user.appendingPathComponent(".dinger").path)
      ? user : nil
  }
}
