import ArgumentParser
import Base
import Components
import FoundationEssentials
import Glibc
import Models
import Providers

/// One log entry in JSON: the date as ISO 8601, like every date dinger prints.
struct LogEntryJSON: Encodable {
  var commit: String
  var date: Date
  var author: String
  var subject: String
  var path: String
  var record: String?
  var scrum: String?
  var change: String
  var summary: String

  init(_ e: ActivityEntry) {
    (commit, date, author, subject, path) = (
      e.commit, Date(timeIntervalSince1970: TimeInterval(e.time)), e.author, e.subject, e.path
    )
    (record, scrum, change, summary) = (e.record, e.scrum, e.change, e.summary)
  }
}

/// `dinger log [S | RECORD]`: who changed what, read from the commits.
struct Log: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "log",
    abstract: "The team's activity, read from the commits: date, author, what changed.",
    discussion: """
      Follows records by id, so a scrum's log holds its own changes and its meetings. Plain git \
      commits show too, with what changed worked out from the files. An index under \
      .git/dinger/ (never committed) keeps this fast; it is rebuilt when missing or stale.

      On a terminal the log goes through $DINGER_PAGER, else $PAGER, else 'less' (LESS=FRX, \
      as git does); PAGER=cat turns that off. Piped, it is never paged.

      Examples:
        dinger log
        dinger log design -n 10
        dinger log 3f2c --json
        dinger log --since 2026-11-01 --until 2026-11-30
        dinger log -3 --author ada
      """)

  @OptionGroup var global: GlobalOptions
  @OptionGroup var output: OutputOptions

  @Argument(
    help:
      "A scrum or library (slug, title, id prefix), a word, a meeting's file name, or any record's id prefix.",
    completion: Completions.records)
  var target: String?

  @Option(name: .short, help: "At most this many entries.")
  var n: Int?

  @Option(help: "Only changes on or after this date (2026-11-01).")
  var since: String?

  @Option(help: "Only changes on or before this date (the whole day counts).")
  var until: String?

  @Option(help: "Only changes by this author (part of the name or email, any case).")
  var author: String?

  /// The id prefix in a meeting's file name (`2026-11-20-3e1d5d63.yaml`, with or without its
  /// folder), else nil.
  static func meetingID(_ name: String) -> String? {
    let file = name.split(separator: "/").last.map(String.init) ?? name
    guard file.hasSuffix(".yaml"), file.count == "2026-11-20-3e1d5d63.yaml".count else {
      return nil
    }
    let id = file.dropFirst(11).dropLast(5)
    return id.allSatisfy(\.isHexDigit) ? String(id).lowercased() : nil
  }

  /// Titles of the scrums and names of the libraries that exist now, by path; a meeting is
  /// called after its scrum.
  static func titles(_ scrums: ScrumProvider, _ libraries: LibraryProvider) -> [String: String] {
    var named: [(path: String, title: String)] = []
    for stored in (try? scrums.list().scrums) ?? [] {
      named.append((stored.path, stored.scrum.title))
      let slug = String(stored.path.dropFirst("scrums/".count).dropLast(".yaml".count))
      named.append(("history/\(slug)/", stored.scrum.title + " meeting"))
    }
    for stored in (try? libraries.list().libraries) ?? [] {
      named.append((stored.path, stored.library.name))
      let slug = String(stored.path.dropFirst("libraries/".count).dropLast(".yaml".count))
      named.append(("quizzes/\(slug)/", stored.library.name + " quiz"))
    }
    // NB: a name two records share says nothing: those keep their paths.
    let counts = Dictionary(named.map { ($0.title.lowercased(), 1) }, uniquingKeysWith: +)
    var out: [String: String] = [:]
    for (path, title) in named where counts[title.lowercased()] == 1 { out[path] = title }
    return out
  }

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
      var library: StoredLibrary?
      var word: String?
      if let target {
        // Any name the other commands take: a scrum, a library, a word, a meeting's file name,
        // or a record's id prefix.
        let scrums = ScrumProvider.live(repository: repository)
        let libraries = LibraryProvider.live(repository: repository)
        if let found = try? scrums.find(target) {
          scrum = found
        } else if let found = try? libraries.find(target) {
          library = found
        } else if let meeting = Self.meetingID(target) {
          record = meeting
        } else if target.count >= 4, target.allSatisfy({ $0.isHexDigit || $0 == "-" }) {
          record = target
        } else if let holder = try libraries.list().libraries.filter({ stored in
          stored.library.words.contains { $0.naturalKey == Word(text: target).naturalKey }
        }).first {
          library = holder
          word = target.lowercased()
        } else {
          throw CLIError(
            "no scrum, library, word or record '\(target)'; 'dinger scrum list' and 'dinger library list' show the names"
          )
        }
      }
      let filtered = until != nil || author != nil || word != nil
      var entries = try log.log(
        scrum: scrum, library: library, record: record, limit: filtered ? nil : n,
        since: since.flatMap(userDate))
      if let word {
        // A word's changes: its library's commits that name it.
        entries = entries.filter { $0.subject.lowercased().containsText(word) }
      }
      if let end = until.flatMap(userDateEnd) {
        // --until names a day: the whole day counts.
        entries = entries.filter { Double($0.time) <= end.timeIntervalSince1970 }
      }
      if let author = author?.lowercased() {
        // NB: as git's --author: the name or the email.
        entries = entries.filter {
          $0.author.lowercased().containsText(author) || $0.email.lowercased().containsText(author)
        }
      }
      if let n, filtered { entries = Array(entries.prefix(n)) }
      if output.json {
        Terminal.output(try JSONView.render("entries", entries.map(LogEntryJSON.init)))
      } else {
        Pager.show(
          LogView(
            entries: entries, timeZone: userZone,
            titles: Self.titles(
              ScrumProvider.live(repository: repository),
              LibraryProvider.live(repository: repository))
          ).render())
      }
    }
  }
}
