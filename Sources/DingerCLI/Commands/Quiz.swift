import ArgumentParser
import Base
import Components
import FoundationEssentials
import Glibc
import Models
import Providers
import Synchronization

/// `dinger quiz`: the vocabulary quiz in the terminal.
struct Quiz: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "quiz",
    abstract: "Quiz yourself on a library: a word, four meanings, a countdown.",
    discussion: """
      Keys 1-4 answer; running out of time counts as wrong; q ends without saving. The result is \
      committed as a quiz file ("Quiz on Spanish basics: 8/10"). Words missed in earlier quizzes \
      come up more often: each word's weight is 1 + times missed (at most 5).

      Examples:
        dinger quiz --library spanish-basics
        dinger quiz --library spanish-basics --questions 5 --seconds 10
        dinger quiz --stats
      """)

  @OptionGroup var global: GlobalOptions
  @Option(
    help: "The library (may be left out when there is only one).", completion: Completions.libraries
  ) var library: String?
  @Option(help: "Questions (default: quiz.questions in .dinger/config.yaml, else 10).")
  var questions: Int?
  @Option(
    parsing: .unconditional,
    help: "Seconds per question, 1 to 600 (default: quiz.seconds, else 20).")
  var seconds: Int?
  @Flag(help: "Show scores over time per library instead of a quiz.") var stats = false
  @Flag(help: "With --stats: print JSON.") var json = false

  func validate() throws {
    if let questions, !(1...100).contains(questions) {
      throw ValidationError("--questions must be from 1 to 100")
    }
    if let seconds, !(1...600).contains(seconds) {
      throw ValidationError("--seconds must be from 1 to 600")
    }
    if json && !stats { throw ValidationError("--json goes with --stats") }
  }

  func run() async throws {
    try await reportingAsync {
      let repository = try global.repository()
      let provider = LibraryProvider.live(repository: repository)
      if stats {
        try showStats(provider)
        return
      }
      guard isatty(0) == 1 && isatty(1) == 1 else {
        throw CLIError(
          "dinger quiz asks questions in the terminal and needs one; 'dinger quiz --stats' shows past scores"
        )
      }
      let stored = try chooseLibrary(provider)
      let config = try repoConfig(repository)
      let count = questions ?? config.quiz?.questions ?? 10
      let seconds = seconds ?? config.quiz?.seconds ?? 20
      let defined = QuizPlanner.askable(stored.library.words)
      let pool = try provider.words(language: stored.library.language).map(\.word)
      var rng = SystemRandomNumberGenerator()
      let plan = QuizPlanner.plan(
        words: defined, pool: pool, history: try provider.quizzes(of: stored).map(\.result),
        count: count, using: &rng)
      guard defined.count >= 2, !plan.isEmpty else {
        throw CLIError(
          "\(stored.library.name) has \(Style.plural(defined.count, "word")) with a definition; a quiz needs at least two with different definitions (add some with 'dinger word add WORD --library \(stored.slug) --definition ...')"
        )
      }
      try await play(QuizState(questions: plan, seconds: seconds), stored, provider)
    }
  }

  private func chooseLibrary(_ provider: LibraryProvider) throws -> StoredLibrary {
    if let library { return try provider.find(library) }
    let all = try provider.list().libraries
    guard all.count == 1 else {
      throw CLIError(
        all.isEmpty
          ? "there are no libraries yet; add one with 'dinger library new NAME --language CODE'"
          : "which library? pass --library, one of: \(all.map(\.slug).joined(separator: ", "))")
    }
    return all[0]
  }

  private func play(_ state: QuizState, _ stored: StoredLibrary, _ provider: LibraryProvider)
    async throws
  {
    let terminal = RawTerminal()
    defer { terminal.restore() }
    let outcome = try await QuizRunner(library: stored, libraries: provider).run(
      state, frontend: TerminalQuizFrontend(terminal: terminal, title: stored.library.name),
      clock: ContinuousClock(), started: Date())
    switch outcome {
    case .leftEarly:
      Terminal.output("quiz ended early; nothing recorded\n")
    case .recorded(let final, let path, let subject):
      Terminal.output(QuizReport.result(final, color: Terminal.colorOnStdout))
      Terminal.output("\(subject) (\(path))\n")
    }
  }

  private func showStats(_ provider: LibraryProvider) throws {
    let libraries = try library.map { [try provider.find($0)] } ?? provider.list().libraries
    let rows = try libraries.map { ($0, try provider.quizzes(of: $0).map(\.result)) }
    if json {
      struct Row: Encodable {
        var library: String
        var libraryName: String
        var quizzes: [Entry]
      }
      struct Entry: Encodable {
        var date: Date
        var score: Int
        var questions: Int
      }
      Terminal.output(
        try JSONView.render(
          "libraries",
          rows.map { stored, results in
            Row(
              library: stored.slug, libraryName: stored.library.name,
              quizzes: results.map {
                Entry(date: $0.date, score: $0.score, questions: $0.questions.count)
              })
          }))
    } else {
      Terminal.output(QuizReport.stats(rows.map { ($0.0.library.name, $0.1) }))
    }
  }
}

/// The terminal as the quiz's frontend: keys (QuizKeys) in, the quiz screen out, the bell.
struct TerminalQuizFrontend: QuizFrontend {
  let terminal: RawTerminal
  let title: String

  func inputs(stop: @escaping @Sendable () -> Bool) -> AsyncStream<Key> {
    terminal.keys(stop: stop)
  }

  func control(_ key: Key, answered: Int, asking: Bool) -> QuizControl? {
    // NB: arrow keys and other sequences do nothing (they ended the quiz); leaving a quiz
    // with answers asks first (QuizKeys).
    switch QuizKeys.action(key, answered: answered, asking: asking) {
    case .answer(let choice): return .answer(choice)
    case .askToQuit: return .askToQuit
    case .quit: return .quit
    case .stay: return .stay
    case nil: return nil
    }
  }

  func show(_ state: QuizState, feedback: QuizFeedback) {
    let line: String? =
      switch feedback {
      case .none: nil
      case .right(let word): "right: \(word)"
      case .wrong(let word, let meaning, let timedOut):
        "\(timedOut ? "time's up" : "wrong"): \(word) means \"\(meaning)\""
      case .askingToLeave: QuizKeys.leaveQuestion
      }
    Terminal.control(
      QuizScreen(
        state: state, title: title, width: terminal.size.width, color: Terminal.colorOnStdout,
        feedback: line
      ).render())
  }

  func bell() { terminal.bell() }

  func close() { terminal.restore() }
}
