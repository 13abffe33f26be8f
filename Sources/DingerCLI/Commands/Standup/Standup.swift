import ArgumentParser
import Base
import Components
import FoundationEssentials
import Glibc
import Models
import Providers

/// `dinger standup ...`: the written stand-up (docs/standups.md).
struct StandupCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "standup",
    abstract: "Write today's stand-up entry, or show a day's entries.",
    discussion: """
      Each attendee writes their own file per day (standups/<scrum>/<date>-<name>.yaml), so \
      teammates never conflict. On a terminal, 'dinger standup S' opens your entry in your \
      editor, prefilled: yesterday from your last entry's today, your open blockers, and with \
      --from-code the commits you authored since your last entry. You are the attendee whose \
      email is git's user.email, or whose name is user.name, or the one --as names (remembered \
      in this clone). The day is your local day.

      Examples:
        dinger standup platform
        dinger standup platform --today "Release" --blocker "The signing key"
        dinger standup platform --resolve b1f0c2a9d
        dinger standup platform --from-code ~/src/api --from-code ~/src/web
        dinger standup show platform --date yesterday
        dinger blockers platform
      """,
    subcommands: [Write.self, Show.self],
    defaultSubcommand: Write.self)
}

/// Options naming who writes and which day, shared by `standup` and `blocker resolve`.
struct WriterOptions: ParsableArguments {
  @Option(
    name: .customLong("as"),
    help: "The attendee you are (remembered in this clone for next time).")
  var name: String?

  @Option(help: "The day (default: today, your local day): 2026-11-27, yesterday.")
  var date: String?

  /// The day as `YYYY-MM-DD` in the user's zone; a day in the future is refused.
  func day() throws -> String {
    let now = currentDate()
    let today = localDay(now)
    guard let date else { return today.description }
    let day = try typedDay(date, option: "--date")
    if day > today {
      throw CLIError(
        "--date \(day) is in the future (today is \(today) here); an entry is written on its day or after"
      )
    }
    return day.description
  }

  /// The attendee of `scrum` writing: git's identity (an attendee's `email:`, else their
  /// name), else `--as` or the name it remembered. `--as` naming someone other than the
  /// attendee git says you are is refused: an entry is its author's.
  func writer(of scrum: Scrum, repository: Workspace) throws -> String {
    let (gitName, gitEmail) = repository.gitIdentity()
    let known = try? StandupProvider.writer(
      of: scrum, given: nil, gitName: gitName, gitEmail: gitEmail)
    if let known {
      if let name, scrum.attendee(named: name)?.name != known.name {
        throw CLIError(
          "you are \(known.name) in \(scrum.title) (git's user.name and user.email say so); an entry is its author's, so '\(OneLineText.excerpt(name))' writes their own"
        )
      }
      return known.name
    }
    let remembered = repository.cloneSetting("standup-name")
    var chosen = name ?? remembered.flatMap { scrum.attendee(named: $0) != nil ? $0 : nil }
    // NB: on a terminal, asked once (and remembered in this clone).
    if chosen == nil, Editor.isInteractive { chosen = Self.ask(scrum) }
    let attendee = try StandupProvider.writer(
      of: scrum, given: chosen, gitName: gitName, gitEmail: gitEmail)
    if chosen != nil, remembered != attendee.name {
      try? repository.setCloneSetting("standup-name", attendee.name)
    }
    return attendee.name
  }
}

extension WriterOptions {
  /// Asks on the terminal which attendee the user is: a number from the list or a name; nil
  /// when nothing is answered.
  static func ask(_ scrum: Scrum) -> String? {
    var prompt = "Which attendee of \(scrum.title) are you? (this clone remembers it)\n"
    for (i, a) in scrum.attendees.prefix(40).enumerated() { prompt += "  \(i + 1)  \(a.name)\n" }
    Terminal.error(prompt + "Number or name: ")
    guard let line = readLine()?.trimmed, !line.isEmpty else { return nil }
    if let n = Int(line), (1...min(40, scrum.attendees.count)).contains(n) {
      return scrum.attendees[n - 1].name
    }
    return line
  }
}

/// The day a person typed (`2026-11-27`, `yesterday`, `tomorrow`), in the user's zone.
func typedDay(_ text: String, option: String) throws -> CivilDate {
  guard let when = userDate(text) else {
    throw CLIError("\(option) '\(text)' is not a date; write 2026-11-27, yesterday or tomorrow")
  }
  return localDay(when)
}

/// The viewer's calendar day at `date`.
func localDay(_ date: Date) -> CivilDate { CivilDate(at: date, in: userZone) }

extension StandupCommand {
  /// `dinger standup [S]`: write (or add to) your entry of the day.
  struct Write: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "write", abstract: "Write your entry of the day (the default).")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var writerOptions: WriterOptions

    @Argument(help: "The scrum (default: the only one).", completion: Completions.scrums)
    var scrum: String?

    // NB: unconditional: an answer may start with a dash ("-2+3", "- fixed it").
    @Option(parsing: .unconditional, help: "What you did since your last entry.")
    var yesterday: String?
    @Option(parsing: .unconditional, help: "What you will do today.") var today: String?
    @Option(
      parsing: .unconditionalSingleValue,
      help: "An answer to one of the scrum's own questions: KEY=TEXT (repeatable).")
    var answer: [String] = []
    @Option(parsing: .unconditionalSingleValue, help: "Something that blocks you (repeatable).")
    var blocker: [String] = []
    @Option(help: "Resolve a blocker by its id (repeatable; 'dinger blockers' lists them).")
    var resolve: [String] = []
    @Option(help: "Read the entry from a YAML file ('-': standard input).") var file: String?
    @Option(
      name: .customLong("from-code"),
      help:
        "A code repository whose commits you authored since your last entry prefill the editor (repeatable)."
    )
    var fromCode: [String] = []

    var givesAnswers: Bool {
      yesterday != nil || today != nil || !answer.isEmpty || !blocker.isEmpty || !resolve.isEmpty
        || file != nil
    }

    func run() throws {
      try reporting {
        let repository = try global.repository()
        let scrums = ScrumProvider.live(repository: repository)
        let stored = try StandupCommand.scrum(scrum, in: scrums)
        let provider = StandupProvider(scrums: scrums)
        let date = try writerOptions.day()
        let writer = try writerOptions.writer(of: stored.scrum, repository: repository)
        if givesAnswers {
          let given = try parsedAnswers()
          let entry = try fileEntry()
          try provider.checkResolvable(
            resolve + (entry?.resolved.map(\.id) ?? []), in: stored, by: writer, on: date)
          let written = try provider.write(for: stored, by: writer, date: date) { e in
            if let entry {
              e.answers = entry.answers
              e.blockers = entry.blockers
              e.resolved = entry.resolved
            }
            for (key, text) in given {
              e.answers.removeAll { $0.key == key }
              e.answers.append(.init(key: key, text: text))
            }
            for text in blocker where !e.blockers.contains(where: { $0.text == text }) {
              e.blockers.append(BlockerMention(text: text))
            }
            for id in resolve where !e.resolved.contains(where: { $0.id == id }) {
              e.resolved.append(BlockerResolution(id: id.trimmed.lowercased()))
            }
          }
          Terminal.output("\(written.subject) (\(written.path))\n")
          return
        }
        // NB: as `scrum edit`: without a terminal, only an editor that was chosen runs.
        let chosen = Editor.command(
          environment: ProcessInfo.processInfo.environment, repository: repository,
          terminal: false)
        guard Editor.isInteractive || chosen != nil else {
          throw CLIError(
            "without a terminal, give the entry: --yesterday TEXT --today TEXT [--blocker TEXT], or --file FILE"
          )
        }
        try writeInEditor(
          stored, writer: writer, date: date, provider: provider, repository: repository)
      }
    }

    /// `--answer KEY=TEXT`, `--yesterday`, `--today`, in order.
    func parsedAnswers() throws -> [(String, String)] {
      var out: [(String, String)] = []
      if let yesterday { out.append(("yesterday", yesterday)) }
      if let today { out.append(("today", today)) }
      for a in answer {
        guard let eq = a.firstIndex(of: "="), eq != a.startIndex else {
          throw CLIError(
            "--answer takes KEY=TEXT (the question's key, then its answer), found '\(a)'")
        }
        out.append((String(a[..<eq]).trimmed, String(a[a.index(after: eq)...])))
      }
      return out
    }

    /// The entry `--file` holds (its scrum, date and author are the command's).
    func fileEntry() throws -> StandupEntry? {
      guard let file else { return nil }
      let bytes: [UInt8]
      if file == "-" {
        // NB: bounded as an entry file is (256 KiB), read to the end.
        var all: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while all.count <= 256 << 10 {
          let n = buffer.withUnsafeMutableBytes { Glibc.read(0, $0.baseAddress, $0.count) }
          if n < 0 && errno == EINTR { continue }
          guard n > 0 else { break }
          all += buffer[0..<n]
        }
        guard all.count <= 256 << 10 else {
          throw CLIError("the entry on standard input is over 256 KiB; nothing was written")
        }
        bytes = all
      } else {
        guard let data = FileManager.default.contents(atPath: file) else {
          throw CLIError("can't read '\(file)'")
        }
        bytes = Array(data)
      }
      switch StandupProvider.decodeAnswers(bytes, name: file) {
      case .success(let entry): return entry
      case .failure(let list):
        Terminal.error(DiagnosticsView(list.items).render())
        throw CLIError("\(file) has errors; nothing was written")
      }
    }

    private func writeInEditor(
      _ stored: StoredScrum, writer: String, date: String, provider: StandupProvider,
      repository: Workspace
    ) throws {
      let (entries, _) = try provider.entries(of: stored)
      let text = try StandupTemplate.text(
        scrum: stored.scrum, writer: writer, date: date, entries: entries.map(\.entry),
        commits: codeCommits(since: entries, writer: writer, repository: repository))
      let written = try Editor.editUntilValid(
        text, name: "standup", repository: repository,
        instead: "'dinger standup \(stored.slug) --yesterday TEXT --today TEXT'",
        emptyMessage: "the entry was left empty; nothing was written",
        errorsMessage: "the entry has errors; nothing was written"
      ) { buffer -> Result<StandupProvider.Written, DiagnosticList>? in
        let entry: StandupEntry
        switch StandupProvider.decodeAnswers(Array(buffer.utf8), name: "standup.yaml") {
        case .success(let e): entry = e
        case .failure(let list): return .failure(list)
        }
        try provider.checkResolvable(entry.resolved.map(\.id), in: stored, by: writer, on: date)
        guard entry.isWritten || !entry.resolved.isEmpty else { return nil }
        return .success(
          try provider.write(for: stored, by: writer, date: date) { e in
            e.answers = entry.answers
            e.blockers = entry.blockers
            e.resolved = entry.resolved
          })
      }
      guard let written else {
        Terminal.output("nothing written: every answer was empty\n")
        return
      }
      Terminal.output("\(written.subject) (\(written.path))\n")
    }

    /// The commits the writer authored in the `--from-code` repositories since their last entry.
    func codeCommits(since entries: [StoredEntry], writer: String, repository: Workspace) throws
      -> [StandupTemplate.Commit]
    {
      guard !fromCode.isEmpty else { return [] }
      let last = entries.last { $0.entry.by.lowercased() == writer.lowercased() }
      let since =
        last.flatMap { userDate($0.entry.date)?.addingTimeInterval(86_400) }
        ?? currentDate().addingTimeInterval(-7 * 86_400)
      let (name, email) = repository.gitIdentity()
      var out: [StandupTemplate.Commit] = []
      for folder in fromCode {
        let commits = try CodeActivity.commits(
          in: URL(fileURLWithPath: folder), name: name, email: email, since: since)
        out += commits.map {
          StandupTemplate.Commit(repository: folder, branch: $0.branch, subject: $0.subject)
        }
      }
      return out
    }
  }

  /// The scrum named, or the only one.
  static func scrum(_ name: String?, in scrums: ScrumProvider) throws -> StoredScrum {
    if let name { return try scrums.find(name) }
    let all = try scrums.list().scrums
    guard all.count == 1 else {
      throw CLIError(
        all.isEmpty
          ? "there are no scrums yet; add one with 'dinger scrum new'"
          : "name the scrum: \(all.map(\.slug).joined(separator: ", "))")
    }
    return all[0]
  }
}
