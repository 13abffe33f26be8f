import Components
import Foundation
import Models
import TestSupport
import Testing

/// The remaining views: what each must say, colour on and off, and narrow widths.
@Suite struct MoreViewTests {
  let esc = "\u{1B}["
  let scrumID = UUID(uuidString: "0f6d1a52-4c0e-4b8e-9a57-2d1f3c8b7e01")!

  func meeting(duration: Int = 612) -> Meeting {
    Meeting(
      id: UUID(uuidString: "3f2c0a1b-6d4e-4a7f-9b3c-5e8d2f1a0c04"), scrum: scrumID,
      date: Date(timeIntervalSince1970: 1_795_000_000), length: 10, duration: duration,
      attendees: ["Ada", "Grace"], speakers: [SpeakerTime(name: "Ada", seconds: 300)],
      transcript: "shipped\n")
  }

  @Test func historyListAndDetail() {
    let list = HistoryView(rows: [(meeting(), "Design", "3f2c0a1b")]).render()
    #expect(
      list.contains("2026-11-18 11:06") && list.contains("Design") && list.contains("3f2c0a1b"),
      "\(list)")
    let berlin = HistoryView(
      rows: [(meeting(), "Design", "3f2c0a1b")], timeZone: FoundationZone("Europe/Berlin")
    ).render()
    #expect(berlin.contains("2026-11-18 12:06 "), "the local time, labelled: \(berlin)")
    #expect(!list.contains("GMT") && !list.contains("UTC"), "UTC goes unlabelled in lists")
    let detail = MeetingDetailView(
      meeting: meeting(), title: "Design", path: "history/design/x.yaml"
    ).render()
    #expect(detail.hasPrefix("Design, 2026-11-18 11:06 UTC\n"), "\(detail)")
    #expect(detail.contains("Ada") && detail.contains("shipped"), "\(detail)")
  }

  @Test func scrumDetailColourOnAndOff() {
    let scrum = Scrum(
      id: scrumID, title: "Design", theme: .yellow, length: 10, attendees: [Attendee(name: "Ada")])
    let plain = ScrumDetailView(scrum: scrum, path: "scrums/design.yaml", meetings: 3, color: false)
      .render()
    let colored = ScrumDetailView(
      scrum: scrum, path: "scrums/design.yaml", meetings: 3, color: true
    ).render()
    #expect(!plain.contains(esc) && colored.contains(esc))
    #expect(
      plain.contains("Design") && plain.contains("yellow") && plain.contains("Ada")
        && plain.contains("3"), "\(plain)")
  }

  @Test func libraryAndWordViews() {
    let word = Word(
      text: "hola", phonetic: "ˈola",
      meanings: [Meaning(partOfSpeech: "interjection", definition: "hello", example: "¡Hola!")])
    let library = Library(name: "Spanish basics", language: "es", words: [word])
    let list = LibraryListView(rows: [("spanish-basics", library, 0)]).render()
    #expect(
      list.contains("Spanish basics") && list.contains("es") && list.contains("spanish-basics"),
      "\(list)")
    let plain = WordView(word: word, color: false).render()
    #expect(
      plain.contains("hola") && plain.contains("hello") && plain.contains("interjection")
        && !plain.contains(esc))
    #expect(WordView(word: word, color: true).render().contains(esc))
    let words = WordListView(rows: [("Spanish basics", word)], showLibrary: true).render()
    #expect(
      words.contains("hola") && words.contains("Spanish basics") && words.contains("hello"),
      "\(words)")
  }

  /// A word's other meanings are counted after its first definition: "(+1)" to "(+11)".
  @Test func wordListCountsTheOtherMeanings() {
    func word(_ text: String, meanings: Int) -> Word {
      Word(text: text, meanings: (0..<meanings).map { Meaning(definition: "d\($0)") })
    }
    let list = WordListView(
      groups: [("L", [word("a", meanings: 1), word("b", meanings: 2), word("c", meanings: 12)])],
      showLibrary: false
    ).render()
    #expect(list == "a  d0\nb  d0 (+1)\nc  d0 (+11)\n", "\(list)")
  }

  /// A long listing goes out in pieces of at most 64 KB, a line longer than that in one piece
  /// of its own, and the pieces make the whole text.
  @Test func wordListGoesOutInPieces() {
    var words = (0..<12000).map { Word(text: "w\($0)", meanings: [Meaning(definition: "d\($0)")]) }
    words.insert(
      Word(text: "long", meanings: [Meaning(definition: String(repeating: "x", count: 100_000))]),
      at: 2500)
    let view = WordListView(groups: [("L", words)], showLibrary: false)
    var pieces: [[UInt8]] = []
    view.render { pieces.append(Array($0)) }
    #expect(pieces.count >= 4)
    #expect(pieces.filter { $0.count > 1 << 16 }.count == 1)
    let text = String(decoding: pieces.joined(), as: UTF8.self)
    var expected = ""
    for word in words {
      let pad = String(repeating: " ", count: 6 - word.text.count)
      expected += "\(word.text)\(pad)  \(word.meanings[0].definition)\n"
    }
    #expect(text == expected)
    #expect(view.render() == expected)
  }

  @Test func quizScreenAtANarrowWidth() {
    let state = QuizState(
      questions: [
        QuizQuestion(word: "hola", choices: ["hello", "cat", "dog", "house"], answer: 0)
      ],
      seconds: 20)
    let text = QuizScreen(state: state, title: "Spanish basics", width: 24, color: false).render()
    #expect(text.contains("hola"), "\(text)")
    #expect(text.contains("1") && text.contains("hello"), "\(text)")
    let colored = QuizScreen(state: state, title: "Spanish basics", width: 24, color: true).render()
    #expect(colored != text)
  }

  @Test func checkSummaryAndSARIF() {
    #expect(
      CheckSummaryView(files: 6, errors: 3, warnings: 1).render()
        == "checked 6 files: 3 errors, 1 warning\n")
    #expect(CheckSummaryView(files: 1, errors: 0, warnings: 0).render().hasPrefix("checked 1 file"))
    let d = Diagnostic(
      .warning, file: "scrums/a.yaml", line: 7, column: 1, path: "lenght",
      message: "unknown key 'lenght' is kept but not used")
    let sarif = SARIFView([d], version: "1.0").render()
    let log = try? JSONSerialization.jsonObject(with: Data(sarif.utf8)) as? [String: Any]
    #expect(log?["version"] as? String == "2.1.0")
    #expect(
      sarif.contains("\"ruleId\" : \"unknown-key\"")
        || sarif.contains("\"ruleId\": \"unknown-key\""), "\(sarif)")
    #expect(sarif.contains("\"level\" : \"warning\"") || sarif.contains("\"level\": \"warning\""))
  }
}
