import Foundation
import TestSupport
import Testing

/// Every `--json` output follows docs/json.md: one object at the top level, dates as ISO 8601
/// strings under keys named `date` (no Unix times), a record's `slug` beside its `title` or
/// `name`, and references to a scrum or library by slug (`scrum`/`library`) with the name
/// beside it (`scrumTitle`/`libraryName`) where there is one.
@Suite struct JSONConventionTests {
  @Test func everyJSONOutputFollowsTheConvention() throws {
    let box = try Sandbox()
    #expect(try box.dinger("init").status == 0)
    #expect(
      try box.dinger(
        "scrum", "new", "Design", "--attendee", "Ada", "--at", "09:30", "--zone", "UTC"
      )
      .status == 0)
    #expect(try box.dinger("meet", "design", "--record", "--duration", "9m").status == 0)
    #expect(try box.dinger("library", "new", "Spanish basics", "--language", "es").status == 0)
    #expect(
      try box.dinger("word", "add", "agua", "--library", "spanish-basics", "--definition", "water")
        .status == 0)
    #expect(
      try box.dinger("word", "add", "sol", "--library", "spanish-basics", "--definition", "sun")
        .status == 0)
    try box.git("init", "-q", "--bare", box.home.path("remote.git"), in: box.home.url)
    #expect(try box.dinger("remote", "add", "origin", box.home.path("remote.git")).status == 0)
    let meeting = try box.git("ls-files", "history").trimmingCharacters(in: .whitespacesAndNewlines)
    let commands: [[String]] = [
      ["scrum", "list"], ["scrum", "show", "design"], ["history", "design"],
      ["history", "show", meeting], ["log"], ["log", "design"], ["library", "list"],
      ["library", "show", "spanish-basics"], ["word", "list", "--library", "spanish-basics"],
      ["word", "random", "--count", "1", "--language", "es"], ["quiz", "--stats"], ["check"],
      ["conflicts"], ["remote", "list"], ["agenda"], ["next"], ["stats"],
    ]
    for command in commands {
      let r = try box.dinger(command + ["--json"])
      #expect(r.status == 0, "\(command): \(r.stderr)")
      let value = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8))
      #expect(
        value is [String: Any], "\(command): the top level is not an object: \(r.stdout.prefix(80))"
      )
      var problems: [String] = []
      Self.walk(value, path: command.joined(separator: " "), problems: &problems)
      #expect(problems.isEmpty, "\(problems)")
    }
  }

  nonisolated(unsafe) static let iso = try! Regex(
    #"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$"#)
  nonisolated(unsafe) static let slug = try! Regex(#"^[a-z0-9][a-z0-9._-]*$"#)

  static func walk(_ value: Any, path: String, problems: inout [String]) {
    if let object = value as? [String: Any] {
      for (key, child) in object {
        let here = "\(path).\(key)"
        if key == "time" || key.hasSuffix("Time") && child is NSNumber {
          problems.append("\(here): a time as a number (use an ISO 8601 'date')")
        }
        if key == "date" || key.hasSuffix("Date") {
          if let text = child as? String {
            if text.wholeMatch(of: iso) == nil {
              problems.append("\(here): '\(text)' is not ISO 8601")
            }
          } else {
            problems.append("\(here): not a string")
          }
        }
        if ["slug", "library", "scrum"].contains(key), let text = child as? String,
          text.wholeMatch(of: slug) == nil && !(key == "scrum" && text.count == 36)
        {
          problems.append("\(here): '\(text)' is not a slug")
        }
        if key == "library", child is String, object["libraryName"] == nil {
          problems.append("\(here): a library reference without 'libraryName'")
        }
        walk(child, path: here, problems: &problems)
      }
      if object["slug"] != nil && object["title"] == nil && object["name"] == nil {
        problems.append("\(path): a 'slug' without its 'title' or 'name'")
      }
    } else if let array = value as? [Any] {
      for (i, child) in array.enumerated() {
        walk(child, path: "\(path)[\(i)]", problems: &problems)
      }
    }
  }
}
