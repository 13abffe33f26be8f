import Foundation
import TestSupport
import Testing

/// `dinger library`, `word` and `quiz --stats` end to end: commits, files, output, exit codes.
@Suite struct LibraryCommandTests {
  func spanish() throws -> Sandbox {
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
    return box
  }

  @Test func oneCommitPerChangeWithSubjectsThatSayWhat() throws {
    let box = try spanish()
    var r = try box.dinger(
      "word", "add", "Hola", "--library", "Spanish basics", "--definition", "hi", "--pos",
      "interjection")
    #expect(r.stdout == "Spanish basics: hola: add a meaning\n")
    r = try box.dinger(
      "word", "edit", "gato", "--library", "spanish-basics", "--phonetic", "/ˈɡato/")
    #expect(r.stdout == "Spanish basics: edit gato\n")
    r = try box.dinger("word", "rm", "perro", "--library", "spanish-basics")
    #expect(r.stdout == "Spanish basics: remove perro\n")
    #expect(
      try box.git("log", "--format=%s") == """
        Spanish basics: remove perro
        Spanish basics: edit gato
        Spanish basics: hola: add a meaning
        Spanish basics: add perro
        Spanish basics: add gato
        Spanish basics: add hola
        Add library Spanish basics
        Set up dinger data repository

        """)
    #expect(
      try box.git("log", "-1", "--format=%(trailers:key=Dinger-Action,valueonly)")
        == "word.remove\n\n")
    #expect(
      try box.read("libraries/spanish-basics.yaml").hasSuffix(
        """
        words:
          - text: hola
            meanings:
              - definition: hello
              - partOfSpeech: interjection
                definition: hi
          - text: gato
            phonetic: /ˈɡato/
            meanings:
              - definition: cat

        """))
    #expect(try box.gitAgrees().status == "")
    r = try box.dinger("word", "list", "--json")
    let json =
      (try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])?["words"]
      as? [[String: Any]]
    #expect(json?.map { $0["text"] as? String } == ["hola", "gato"])
    r = try box.dinger("word", "list", "--search", "HEL")
    #expect(r.stdout == "hola  Spanish basics  hello (+1)\n")
    r = try box.dinger("library", "list")
    #expect(r.stdout == "Spanish basics  es     2 words     spanish-basics\n")
    r = try box.dinger("quiz", "--stats")
    #expect(r.stdout == "no quizzes yet; take one with 'dinger quiz --library NAME'\n")
    #expect(try box.dinger("undo").status == 0)
    #expect(try box.read("libraries/spanish-basics.yaml").contains("text: perro"))
  }

  @Test func badInput() throws {
    let box = try spanish()
    let head = try box.head()
    var r = try box.dinger("word", "add", "hund", "--library", "spanisch")
    #expect(r.status == 1)
    #expect(
      r.stderr
        == "error: no library 'spanisch'; did you mean 'spanish-basics' or 'Spanish basics'?\n")
    r = try box.dinger("word", "add", "  ", "--library", "spanish-basics")
    #expect(r.status == 1)
    #expect(r.stderr.contains("a word needs some text"))
    r = try box.dinger(
      "word", "add", "hund", "--library", "spanish-basics", "--language", "de", "--definition",
      "dog")
    #expect(r.status == 1)
    #expect(r.stderr.contains("the word is in 'de' but Spanish basics is in 'es'"))
    r = try box.dinger("word", "add", "x", "--library", "spanish-basics", "--pos", "noun")
    #expect(r.status == 64)
    r = try box.dinger("library", "new", "X", "--language", "Spanish")
    #expect(r.status == 1)
    #expect(r.stderr.contains("must be a language code like 'es' or 'en-GB'"))
    r = try box.dinger("word", "show", "hol")
    #expect(r.status == 1)
    #expect(r.stderr.contains("did you mean 'hola'?"))
    r = try box.dinger("quiz", "--library", "spanish-basics")
    #expect(r.status == 1)
    #expect(r.stderr.contains("needs one; 'dinger quiz --stats' shows past scores"))
    #expect(try box.head() == head)
  }

  @Test func editingMeaningsAndShowingAndRemovingALibrary() throws {
    let box = try spanish()
    func edit(_ args: String...) throws -> (Int32, String) {
      let r = try box.dinger(["word", "edit"] + args + ["--library", "spanish-basics"])
      return (r.status, r.status == 0 ? r.stdout : r.stderr)
    }
    #expect(
      try edit("hola", "--meaning", "2", "--definition", "hi", "--pos", "interjection").0 == 0)
    #expect(try edit("hola", "--meaning", "1", "--example", "¡Hola!").0 == 0)
    #expect(
      try edit("gato", "--text", "gata", "--phonetic", "/ˈɡata/").1
        == "Spanish basics: rename gato to gata\n")
    #expect(try edit("gata", "--phonetic", "").0 == 0)
    let head = try box.head()
    var (status, message) = try edit("hola", "--meaning", "4", "--definition", "x")
    #expect(status == 1)
    #expect(message == "error: 'hola' has 2 meanings; --meaning must be 1 to 3\n")
    (status, message) = try edit("hola", "--meaning", "3", "--pos", "noun")
    #expect(message == "error: a new meaning needs --definition\n")
    (status, message) = try edit("hola", "--remove-meaning", "5")
    #expect(message == "error: 'hola' has 2 meanings; there is no meaning 5\n")
    (status, message) = try edit("nada", "--phonetic", "x")
    #expect(status == 1)
    #expect(message.hasPrefix("error: no word 'nada' in Spanish basics"))
    #expect(try box.head() == head)
    #expect(try edit("hola", "--remove-meaning", "1").0 == 0)
    let show = try box.dinger("library", "show", "spanish-basics")
    #expect(
      show.stdout == """
        Spanish basics  es  3 words  libraries/spanish-basics.yaml

        hola
          1. (interjection) hi
        gata
          1. cat
        perro
          1. dog

        """)
    let json = try box.dinger("library", "show", "spanish-basics", "--json")
    #expect(json.stdout.contains("\"wordCount\" : 3"))
    let rm = try box.dinger("library", "rm", "Spanish basics")
    #expect(rm.stdout == "Remove library Spanish basics\n")
    #expect(
      !FileManager.default.fileExists(
        atPath: box.data.appendingPathComponent("libraries/spanish-basics.yaml").path))
    #expect(try box.dinger("library", "list").stdout.hasPrefix("no libraries yet"))
    #expect(try box.gitAgrees().status == "")
  }

  @Test func aBrokenWordIsReportedAndTheOthersStillLoad() throws {
    let box = try spanish()
    var text = try box.read("libraries/spanish-basics.yaml")
    text = text.replacingOccurrences(of: "  - text: gato\n", with: "  - text: [gato]\n")
    try box.write("libraries/spanish-basics.yaml", text)
    try box.git("commit", "-qam", "A hand edit gone wrong")
    var r = try box.dinger("word", "list", "--library", "spanish-basics")
    #expect(r.status == 0)
    #expect(r.stdout == "hola   hello\nperro  dog\n")
    #expect(r.stderr.hasPrefix("warning: libraries/spanish-basics.yaml:9:11: "))
    #expect(r.stderr.contains("(this word is left out)"))
    r = try box.dinger("word", "add", "sol", "--library", "spanish-basics", "--definition", "sun")
    #expect(r.status == 1)
    #expect(r.stderr.hasPrefix("error: libraries/spanish-basics.yaml:9: "))
    #expect(try box.read("libraries/spanish-basics.yaml") == text)
    r = try box.dinger("library", "list")
    #expect(r.stdout.contains("(1 broken word; run 'dinger check')"))
    #expect(try box.dinger("check").status == 1)
  }
}

/// A library's name is one line: `library new` refuses a line break (it split `library list`)
/// and changes nothing.
@Suite struct LibraryNameTests {
  @Test func aNameWithALineBreakIsRefused() throws {
    let box = try Sandbox()
    #expect(try box.dinger("init").status == 0)
    let head = try box.git("rev-parse", "HEAD")
    let r = try box.dinger("library", "new", "Spanish\nbasics")
    #expect(r.status == 64 && r.stderr.contains("control character U+000A"), "\(r.stderr)")
    #expect(try box.git("rev-parse", "HEAD") == head)
  }
}
