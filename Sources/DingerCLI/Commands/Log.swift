import ArgumentParser
import Components
import Foundation
import Providers
import Storage
import YAML

/// `dinger log [S | RECORD]`: who changed what, read from the commits.
struct Log: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "The team's activity, read from the commits: date, author, what changed.",
    discussion: """
      Follows records by id, so a scrum's log holds its own changes and its meetings. Plain git \\
      commits show too, with what changed worked out from the files. An index under \\
      .git/dinger/ (never committed) keeps this fast; it is rebuilt when missing or stale.

      Examples:
        dinger log
        dinger log design -n 10
        dinger log 3f2c --json
        dinger log --since 2026-11-01 --until 2026-11-30
        dinger log -3 --author ada
      """)

  @OptionGroup var global: GlobalOptions
  @OptionGroup var output: OutputOptions

  @Argument(help: "A scrum (slug, title, id prefix) or any record's id prefix.")
  var target: String?

  @Option(name: .short, help: "At most this many entries.")
  var n: Int?

  @Option(help: "Only changes on or after this date (2026-11-01).")
  var since: String?

  @Option(help: "Only changes on or before this date (the whole day counts).")
  var until: String?

  @Option(help: "Only changes by this author (part of the name or email, any case).")
  var author: String?

  func validate() throws {
    if let n, n < 1 { throw ValidationError("-n must be 1 or more") }
    try validateDates([("--since", since), ("--until", until)])
  }

  func run() throws {
    try reporting {
      let repository = try global.repository()
      let log = LogProvider.live(repository: repository)
      var scrum: StoredScrum?
      var record: String?
      if let target {
        do {
          scrum = try ScrumProvider.live(repository: repository).find(target)
        } catch let error as StorageError {
          guard target.count >= 4, target.allSatisfy({ $0.isHexDigit || $0 == "-" }) else {
            throw error
          }
          record = target
        }
      }
      let filtered = until != nil || author != nil
      var entries = try log.log(
        scrum: scrum, record: record, limit: filtered ? nil : n,
        since: since.flatMap(userDate))
      if let until = until.flatMap(userDate) {
        // --until names a day: the whole day counts.
        let end = self.until!.count == 10 ? until.addingTimeInterval(86_399) : until
        entries = entries.filter { Double($0.time) <= end.timeIntervalSince1970 }
      }
      if let author = author?.lowercased() {
        entries = entries.filter { $0.author.lowercased().contains(author) }
      }
      if let n, filtered { entries = Array(entries.prefix(n)) }
      if output.json {
        Terminal.output(try JSONView.render(entries))
      } else {
        Terminal.output(LogView(entries: entries, timeZone: .current).render())
      }
    }
  }
}
