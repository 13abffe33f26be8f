/// Reads a server's reference advertisement as it streams by (pkt-lines up to the first
/// flush) and notes a `shallow <id>` line: the server's repository is shallow (made with
/// `--depth`). libgit2 1.5 cannot fetch from such a repository (it fails with "error parsing
/// REF pkt-line"), and a clone of it would lack the history dinger's merge, undo and log need.
struct ShallowSniffer {
  private var header: [UInt8] = []
  private var remaining = 0
  private var start: [UInt8] = []
  private var afterServiceLine = false
  /// True once the advertisement ended (or could not be read as pkt-lines).
  private(set) var done = false
  /// True when the server said its repository is shallow.
  private(set) var isShallow = false

  /// Looks at the next bytes of the stream.
  mutating func see(_ bytes: UnsafeRawBufferPointer) {
    var i = 0
    while i < bytes.count && !done {
      if remaining == 0 {
        header.append(bytes[i])
        i += 1
        guard header.count == 4 else { continue }
        let length = Int(String(decoding: header, as: UTF8.self), radix: 16)
        header = []
        // NB: a flush ends the advertisement (over http, the flush after the "# service="
        // line does not); anything else unreadable ends the look.
        guard let length, length > 4 else {
          if length == nil || (length == 0 && !afterServiceLine) { done = true }
          afterServiceLine = false
          continue
        }
        afterServiceLine = false
        remaining = length - 4
        start = []
        continue
      }
      let take = min(remaining, bytes.count - i)
      if start.count < 8 { start += bytes[i..<i + min(take, 8 - start.count)] }
      remaining -= take
      i += take
      if remaining == 0 && start.starts(with: "# servic".utf8) { afterServiceLine = true }
      if start.count == 8 && start.elementsEqual("shallow ".utf8) {
        isShallow = true
        done = true
      }
    }
  }

  /// What to say when a server's repository is shallow.
  static func refusal(_ url: String) -> String {
    "the repository at \(url) is shallow (made with --depth, as CI caches and some mirrors are): it lacks the older history that dinger's merge, undo and log need, and libgit2 1.5 cannot fetch from it. Make it whole where it lives (git fetch --unshallow), or use the original repository"
  }
}
