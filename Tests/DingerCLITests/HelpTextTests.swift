import Foundation
import TestSupport
import Testing

/// Every command's `--help`, found by walking the SUBCOMMANDS lists: no stray backslashes (a
/// line continuation written twice), and no example broken over two lines.
@Suite struct HelpTextTests {
  func subcommands(of help: String) -> [String] {
    guard let start = help.range(of: "SUBCOMMANDS:\n") else { return [] }
    // NB: a name starts a line at two spaces; a description's continuation is indented more.
    return help[start.upperBound...].split(separator: "\n").prefix { $0.hasPrefix("  ") }
      .filter { !$0.hasPrefix("   ") }
      .compactMap { line in
        let name = line.trimmingCharacters(in: .whitespaces).split(separator: " ").first.map(
          String.init)
        guard let name, name != "help", name.allSatisfy({ $0.isLowercase || $0 == "-" }) else {
          return nil
        }
        return name
      }
  }

  @Test func everyHelpReadsCleanly() throws {
    var queue: [[String]] = [[]]
    var seen = 0
    while let command = queue.popLast() {
      let r = try ProcessRunner.run(dingerBinary, command + ["--help"])
      #expect(r.status == 0, "\(command)")
      seen += 1
      let help = r.stdout
      #expect(!help.contains("\\\n") && !help.contains(" \\ "), "\(command): a stray backslash")
      var inExample = false
      for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
        if line.hasPrefix("  dinger ") { inExample = true; continue }
        if inExample, let first = line.first, first != " ", !line.hasSuffix(":") {
          Issue.record("\(command.joined(separator: " ")): an example wraps onto '\(line)'")
        }
        if line.isEmpty || line.hasSuffix(":") { inExample = false }
      }
      // A sentence broken by a hard newline in the source (a missing line continuation): the
      // help fills lines up to 80 columns, so a prose line that stops without punctuation
      // although the next line's first word would have fitted is one sentence cut in two.
      let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
      for (a, b) in zip(lines, lines.dropFirst()) {
        guard let last = a.last, let first = b.first, a.first != " ", b.first != " " else {
          continue
        }
        let word = b.split(separator: " ").first ?? ""
        if !".:!?)".contains(last), first.isLowercase, a.count + 1 + word.count < 80 {
          Issue.record(
            "\(command.joined(separator: " ")): a sentence breaks after '\(a.suffix(30))'")
        }
      }
      if command.count < 3 { queue += subcommands(of: help).map { command + [$0] } }
    }
    #expect(seen > 30, "only \(seen) helps found")
  }
}
