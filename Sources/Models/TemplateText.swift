import Base
import FoundationEssentials
import Glibc

/// A record written from a commented template, without the template's instructions: the
/// comment lines and end-of-line hints it had are removed where they are still exactly as the
/// template wrote them (the schema line stays); comments the person wrote are kept.
public enum TemplateText {
  public static func withoutInstructions(_ written: String, template: String) -> String {
    var commentLines = Set<String>()
    var hints = Set<String>()
    for line in template.split(separator: "\n", omittingEmptySubsequences: false) {
      let trimmed = line.trimmingSpaces()
      if trimmed.hasPrefix("# yaml-language-server:") { continue }
      if trimmed.hasPrefix("#") {
        commentLines.insert(trimmed)
      } else if let hash = line.firstRange(ofText: " #") {
        hints.insert(String(line[hash.upperBound...]).trimmingSpaces())
      }
    }
    var out: [String] = []
    for line in written.split(separator: "\n", omittingEmptySubsequences: false) {
      let trimmed = line.trimmingSpaces()
      if trimmed.hasPrefix("#") && commentLines.contains(trimmed) { continue }
      var kept = String(line)
      if let hash = kept.lastRange(ofText: " #"),
        hints.contains(String(kept[hash.upperBound...]).trimmingSpaces())
      {
        kept = String(kept[..<hash.lowerBound])
        while kept.hasSuffix(" ") { kept.removeLast() }
      }
      out.append(kept)
    }
    return out.joined(separator: "\n")
  }
}
