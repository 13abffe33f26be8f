import Foundation
import Models
import Providers
import Storage
import Testing

/// LibraryProvider's rules, on both backends (the in-memory store and a real repository).
@Suite struct LibraryProviderTests {
  static let spanish = """
    # Our Spanish words
    id: 5b7c3f1e-0d2a-4c4b-9f1e-2a3b4c5d6e7f
    name: Spanish basics
    language: es
    words:
      - text: hola   # the first one we learnt
        meanings:
          - partOfSpeech: interjection
            definition: hello
      - text: gato
        meanings:
          - definition: cat

    """
  static let files: [String: String] = [
    "libraries/spanish-basics.yaml": Self.spanish,
    "libraries/german.yaml":
      "name: German\nlanguage: de\nwords:\n  - text: Hund\n    meanings:\n      - definition: dog\n",
    "libraries/broken.yaml": """
    name: Broken
    language: es
    words:
      - text: perro
        meanings:
          - definition: dog
      - text: [not, text]
      - text: casa
        meanings:
          - definition: ""
      - text: sol
        meanings:
          - definition: sun

    """,
    "libraries/unreadable.yaml": "name: [\n",
  ]

  /// The provider over the files on `backend`, and what the test reads back.
  func world(_ backend: Backend) throws -> (LibraryProvider, World) {
    let (scrums, world) = try backend.world(Self.files)
    return (LibraryProvider(scrums.dependencies), world)
  }

  @Test(arguments: Backend.allCases) func aBrokenWordLeavesTheOthersReadableAndNamesItsLine(
    _ backend: Backend
  ) throws {
    let (provider, store) = try world(backend)
    let (libraries, problems) = try provider.list()
    #expect(libraries.map(\.slug) == ["broken", "german", "spanish-basics"])
    #expect(problems.map(\.file) == ["libraries/unreadable.yaml"])
    let broken = try provider.find("broken")
    #expect(broken.library.words.map(\.text) == ["perro", "sol"])
    #expect(broken.broken.map(\.line) == [7, 10])
    // Writing would drop the broken words: refused, naming the first one's line.
    let before = store.text("libraries/broken.yaml")
    #expect(throws: StorageError.self) {
      try provider.addWord(Word(text: "agua", meanings: [Meaning(definition: "water")]), to: broken)
    }
    do {
      _ = try provider.removeWord("sol", from: broken)
    } catch let error as StorageError {
      #expect(error.message.hasPrefix("libraries/broken.yaml:7: "))
      #expect(error.message.contains("so that no word is lost"))
    }
    #expect(store.text("libraries/broken.yaml") == before)
    #expect(store.changes.isEmpty)
  }

  @Test(arguments: Backend.allCases) func findSuggests(_ backend: Backend) throws {
    let (provider, world) = try world(backend)
    defer { withExtendedLifetime(world) {} }
    #expect(
      throws: StorageError(
        "no library 'spanish'; did you mean 'spanish-basics' or 'Spanish basics'?",
        kind: .notFound("spanish"))
    ) {
      try provider.find("spanish")
    }
    do {
      _ = try provider.find("unreadable")
      Issue.record("a broken library was found")
    } catch let error as StorageError {
      #expect(error.kind == .unreadable("libraries/unreadable.yaml"))
      #expect(error.message.hasPrefix("library 'unreadable' is in libraries/unreadable.yaml, "))
    } catch { Issue.record("\(error)") }
  }

  @Test(arguments: Backend.allCases) func aWordIsOnePerLibraryWhateverItsCaseOrComposition(
    _ backend: Backend
  ) throws {
    let (provider, store) = try world(backend)
    let stored = try provider.find("spanish basics")
    // "HOLA" with another definition extends the word; the same definition again changes nothing.
    var result = try provider.addWord(
      Word(text: "HOLA", meanings: [Meaning(definition: "hi")]), to: stored)
    #expect(result.subject == "Spanish basics: hola: add a meaning")
    var text = store.text("libraries/spanish-basics.yaml")!
    #expect(text.contains("  - text: hola   # the first one we learnt\n"))
    #expect(text.contains("      - definition: hi\n"))
    result = try provider.addWord(
      Word(text: "hola", meanings: [Meaning(definition: " Hello ")]),
      to: try provider.find("spanish-basics"))
    #expect(result.commit == nil)
    // "café" written precomposed and decomposed is one word.
    _ = try provider.addWord(
      Word(text: "caf\u{E9}", meanings: [Meaning(definition: "coffee")]),
      to: try provider.find("spanish-basics"))
    result = try provider.addWord(
      Word(text: "cafe\u{301}", phonetic: "/kaˈfe/"), to: try provider.find("spanish-basics"))
    #expect(result.subject == "Spanish basics: café: phonetic /kaˈfe/")
    let library = try provider.find("spanish-basics").library
    #expect(library.words.map(\.text) == ["hola", "gato", "caf\u{E9}"])
    // Every change kept the comments and is one change.
    text = store.text("libraries/spanish-basics.yaml")!
    #expect(text.hasPrefix("# Our Spanish words\n"))
    #expect(store.changes.count == 3)
  }

  @Test(arguments: Backend.allCases) func editRenameAndRemove(_ backend: Backend) throws {
    let (provider, world) = try world(backend)
    defer { withExtendedLifetime(world) {} }
    let stored = try provider.find("spanish-basics")
    #expect(throws: StorageError("Spanish basics already has a word 'hola'")) {
      try provider.updateWord("GATO", in: stored) { $0.text = "hola" }
    }
    #expect(
      try provider.updateWord("gato", in: stored) { $0.text = "gata" }.subject
        == "Spanish basics: rename gato to gata")
    #expect(
      throws: StorageError(
        "no word 'gato' in Spanish basics; did you mean 'gata'?", kind: .notFound("gato"))
    ) {
      try provider.word("gato", in: try provider.find("spanish-basics"))
    }
    #expect(
      try provider.removeWord("HOLA", from: try provider.find("spanish-basics")).subject
        == "Spanish basics: remove hola")
    #expect(try provider.find("spanish-basics").library.words.map(\.text) == ["gata"])
    #expect(throws: StorageError("a word needs some text; give it as the first argument")) {
      try provider.addWord(Word(text: "  "), to: try provider.find("spanish-basics"))
    }
  }

  @Test(arguments: Backend.allCases) func wordsFilterByLanguageAndSearch(_ backend: Backend) throws
  {
    let (provider, world) = try world(backend)
    defer { withExtendedLifetime(world) {} }
    #expect(
      try provider.words(language: "es").map(\.word.text) == ["perro", "sol", "hola", "gato"])
    #expect(try provider.words(language: "de").map(\.word.text) == ["Hund"])
    #expect(try provider.words(search: "DO").map(\.word.text) == ["perro", "Hund"])
    #expect(LibraryProvider.sameLanguage("es-MX", "es"))
    #expect(!LibraryProvider.sameLanguage("es", "es-MX"))
    #expect(!LibraryProvider.sameLanguage("est", "es"))
  }

  @Test(arguments: Backend.allCases) func newLibrariesAndQuizResults(_ backend: Backend) throws {
    let (provider, store) = try world(backend)
    #expect(throws: StorageError.self) { try provider.create(name: "X", language: "Spanish") }
    #expect(throws: StorageError.self) {
      try provider.create(name: "spanish BASICS", language: "es")
    }
    let made = try provider.create(name: "Jargon", language: "en")
    #expect(made.stored.path == "libraries/jargon.yaml")
    #expect(store.text("libraries/jargon.yaml")!.hasSuffix("name: Jargon\nlanguage: en\n"))
    let stored = try provider.find("spanish-basics")
    let result = QuizResult(
      library: UUID(), date: Date(timeIntervalSince1970: 1_795_000_000.7), seconds: 20,
      questions: [
        QuizAnswer(word: "hola", correct: true), QuizAnswer(word: "gato", correct: false),
      ])
    let (path, subject) = try provider.record(result, on: stored)
    #expect(subject == "Quiz on Spanish basics: 1/2")
    #expect(path.hasPrefix("quizzes/spanish-basics/2026-11-18-"))
    let quizzes = try provider.quizzes(of: stored)
    #expect(quizzes.map(\.result.score) == [1])
    #expect(quizzes.first?.result.library == stored.library.id)
    #expect(throws: StorageError.self) { try provider.remove(stored, withQuizzes: false) }
    #expect(
      try provider.remove(stored, withQuizzes: true).subject
        == "Remove library Spanish basics and its 1 quiz result")
    #expect(store.text(path) == nil)
  }
}
