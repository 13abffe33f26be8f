import Foundation
import TestSupport
import Testing

/// `dinger quiz` in a real pseudo-terminal: answers every question, then checks the committed
/// result against what the screen said.
@Suite(.serialized) struct QuizTerminalTests {
  @Test func answersEveryQuestionAndCommitsTheResult() throws {
    let box = try Sandbox()
    #expect(try box.dinger("init").status == 0)
    #expect(try box.dinger("library", "new", "Spanish basics", "--language", "es").status == 0)
    let words = [("hola", "hello"), ("gato", "cat"), ("perro", "dog"), ("casa", "house")]
    for (word, definition) in words {
      #expect(
        try box.dinger(
          "word", "add", word, "--library", "spanish-basics", "--definition", definition
        )
        .status == 0)
    }
    let (tmux, exit) = try Tmux.start(box, "quiz", "--questions", "3", "--seconds", "30")
    var right = 0
    for n in 1...3 {
      #expect(tmux.wait(for: "Question \(n) of 3"), "\(tmux.screen())")
      let screen = tmux.screen()
      // Answer right on the first two questions and wrong on the third, by reading the screen.
      let asked = words.first { screen.contains("What does \($0.0) mean?") }
      let lines = screen.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
      let choice = lines.first { line in
        guard let asked, line.count > 3, line.first?.isNumber == true else { return false }
        let isRight = line.hasSuffix("  \(asked.1)")
        return n < 3 ? isRight : !isRight
      }
      #expect(choice != nil, "\(screen)")
      tmux.keys(String(choice?.prefix(1) ?? "1"))
      if n < 3 { right += 1 }
    }
    #expect(Tmux.exitStatus(exit) == "0", "\(tmux.screen())")
    #expect(tmux.wait(for: "Quiz on Spanish basics: 2/3"), "\(tmux.screen())")
    #expect(tmux.screen().contains("Score: 2/3"))
    #expect(try box.git("log", "-1", "--format=%s") == "Quiz on Spanish basics: 2/3\n")
    let files = try box.git("ls-files", "quizzes").split(separator: "\n")
    #expect(files.count == 1)
    let text = try box.read(String(files.first ?? ""))
    #expect(text.contains("seconds: 30\nquestions:\n"))
    #expect(text.components(separatedBy: "correct: true").count - 1 == right)
    #expect(text.components(separatedBy: "correct: false").count - 1 == 1)
    #expect(try box.gitAgrees().status == "")
    let stats = try box.dinger("quiz", "--stats")
    #expect(stats.stdout.contains("Spanish basics: 1 quiz, 2/3 right overall\n"))
  }

  /// q with answers given asks first; any other key goes on, a second q leaves unsaved; arrow
  /// keys do nothing.
  @Test func leavingWithAnswersAsksFirst() throws {
    let box = try Sandbox()
    #expect(try box.dinger("init").status == 0)
    #expect(try box.dinger("library", "new", "Spanish basics", "--language", "es").status == 0)
    for (word, definition) in [("hola", "hello"), ("gato", "cat"), ("perro", "dog")] {
      #expect(
        try box.dinger(
          "word", "add", word, "--library", "spanish-basics", "--definition", definition
        )
        .status == 0)
    }
    let head = try box.head()
    let (tmux, exit) = try Tmux.start(box, "quiz", "--questions", "3", "--seconds", "60")
    #expect(tmux.wait(for: "Question 1 of 3"), "\(tmux.screen())")
    tmux.keys("Left", "Up")
    tmux.keys("1")
    #expect(tmux.wait(for: "Question 2 of 3"), "\(tmux.screen())")
    tmux.keys("q")
    #expect(tmux.wait(for: "leave the quiz?"), "\(tmux.screen())")
    tmux.keys("x")
    tmux.keys("q")
    #expect(tmux.wait(for: "leave the quiz?"), "\(tmux.screen())")
    tmux.keys("q")
    #expect(Tmux.exitStatus(exit) == "0", "\(tmux.screen())")
    #expect(tmux.wait(for: "quiz ended early; nothing recorded"), "\(tmux.screen())")
    #expect(try box.head() == head)
  }

  @Test func aLibraryWithOneDefinedWordGetsAMessageNotAQuiz() throws {
    let box = try Sandbox()
    #expect(try box.dinger("init").status == 0)
    #expect(try box.dinger("library", "new", "Tiny", "--language", "en").status == 0)
    #expect(
      try box.dinger("word", "add", "one", "--library", "tiny", "--definition", "1").status == 0)
    #expect(try box.dinger("word", "add", "two", "--library", "tiny").status == 0)
    let head = try box.head()
    let (tmux, exit) = try Tmux.start(box, "quiz")
    #expect(Tmux.exitStatus(exit) == "1", "\(tmux.screen())")
    #expect(
      tmux.wait(for: "Tiny has 1 word with a definition; a quiz needs at least two"),
      "\(tmux.screen())")
    #expect(try box.head() == head)
  }
}
